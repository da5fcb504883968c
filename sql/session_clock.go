package sql

import "time"

// sessionClock is the session's view of time for now(), current_timestamp
// and statement_timestamp(): PostgreSQL fixes now() for a whole
// transaction, so every statement of a block sees the same value.
type sessionClock struct {
	statement   time.Time
	transaction time.Time
}

// startStatement records a statement's start; inBlock says whether a
// transaction block is open, whose start then stays.
func (c *sessionClock) startStatement(inBlock bool) {
	c.statement = time.Now().Truncate(time.Microsecond)
	if !inBlock || c.transaction.IsZero() {
		c.transaction = c.statement
	}
}

// endTransaction forgets the block's start when it commits or rolls back.
func (c *sessionClock) endTransaction() { c.transaction = time.Time{} }

func (i sessionInfo) TransactionStart() time.Time {
	if i.s.clock.transaction.IsZero() {
		return time.Now().Truncate(time.Microsecond)
	}
	return i.s.clock.transaction
}

func (i sessionInfo) StatementStart() time.Time {
	if i.s.clock.statement.IsZero() {
		return time.Now().Truncate(time.Microsecond)
	}
	return i.s.clock.statement
}
