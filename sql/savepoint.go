package sql

import (
	"maps"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// txBlock is what an open transaction block must undo or finish: the
// session's settings and cursors, and the block's staged writes
// (txn_writes.go). ROLLBACK restores the settings of BEGIN and discards the
// writes, COMMIT commits the writes, keeps the settings set with plain SET
// and drops those set with SET LOCAL, and a savepoint remembers all of it
// so ROLLBACK TO can return to it.
type txBlock struct {
	// before are the settings at BEGIN, restored by ROLLBACK.
	before map[string]string
	// kept are the settings COMMIT leaves: plain SET writes here as well
	// as to the current values, SET LOCAL does not.
	kept       map[string]string
	savepoints []savepoint
	// queried: a query has run in the block, so its isolation level can no
	// longer change.
	queried bool
	// writes are the block's staged INSERT and COPY FROM data.
	writes txnWrites
}

// savepoint is the state ROLLBACK TO returns to.
type savepoint struct {
	name    string
	current map[string]string
	kept    map[string]string
	// cursorSeq is the last cursor number declared before the savepoint;
	// cursors declared after it die with ROLLBACK TO.
	cursorSeq uint64
	// writes is how many staged writes the block had; later ones are
	// discarded by ROLLBACK TO.
	writes int
}

// beginBlock opens a transaction block.
func (s *Session) beginBlock() {
	s.syncTransactionSettings()
	s.tx = &txBlock{before: maps.Clone(s.settings.values), kept: maps.Clone(s.settings.values)}
	s.txStatus = 'T'
}

// endBlock closes the block: commit keeps the settings of plain SETs and
// the WITH HOLD cursors; a rollback restores the settings of BEGIN,
// closes every cursor the block declared and discards its staged writes.
// The caller has committed the writes before ending the block with commit.
func (s *Session) endBlock(commit bool) {
	if s.tx != nil {
		if commit {
			s.settings.values = s.tx.kept
		} else {
			s.settings.values = s.tx.before
		}
		s.tx.writes.truncate(0)
	}
	s.cursors.endTransaction(commit)
	s.tx = nil
	s.txStatus = 'I'
	s.clock.endTransaction()
	s.syncTransactionSettings()
}

// markQueried records that the block has run a query.
func (s *Session) markQueried() {
	if s.tx != nil {
		s.tx.queried = true
	}
}

func (s *Session) defineSavepoint(name string) {
	s.tx.savepoints = append(s.tx.savepoints, savepoint{
		name:      name,
		current:   maps.Clone(s.settings.values),
		kept:      maps.Clone(s.tx.kept),
		cursorSeq: s.cursors.seq,
		writes:    len(s.tx.writes.staged),
	})
}

// findSavepoint returns the index of the newest savepoint called name.
func (s *Session) findSavepoint(name string) (int, error) {
	for i := len(s.tx.savepoints) - 1; i >= 0; i-- {
		if s.tx.savepoints[i].name == name {
			return i, nil
		}
	}
	return 0, pgerror.New(pgerror.InvalidSavepointSpecification, "savepoint \"%s\" does not exist", name)
}

// releaseSavepoint forgets the savepoint and every newer one, keeping
// what was done since.
func (s *Session) releaseSavepoint(name string) error {
	i, err := s.findSavepoint(name)
	if err != nil {
		return err
	}
	s.tx.savepoints = s.tx.savepoints[:i]
	return nil
}

// rollbackToSavepoint undoes what happened since the savepoint, which
// stays defined, and leaves a failed block usable again.
func (s *Session) rollbackToSavepoint(name string) error {
	i, err := s.findSavepoint(name)
	if err != nil {
		return err
	}
	sp := s.tx.savepoints[i]
	s.tx.savepoints = s.tx.savepoints[:i+1]
	s.settings.values = maps.Clone(sp.current)
	s.tx.kept = maps.Clone(sp.kept)
	s.cursors.dropAfter(sp.cursorSeq)
	s.tx.writes.truncate(sp.writes)
	s.txStatus = 'T'
	return nil
}

// applySetting changes settings through change and records it for the
// block: a plain change survives COMMIT, a local one ends with the block
// and, outside a block, has no effect at all (PostgreSQL warns). keys are
// the settings change may touch, nil for all of them (RESET ALL).
func (s *Session) applySetting(local bool, keys []string, change func() error) error {
	saved := maps.Clone(s.settings.values)
	if err := change(); err != nil {
		s.settings.values = saved
		return err
	}
	switch {
	case local && s.tx == nil:
		s.settings.values = saved
	case !local && s.tx != nil:
		if keys == nil {
			s.tx.kept = maps.Clone(s.settings.values)
		}
		for _, k := range keys {
			s.tx.kept[k] = s.settings.values[k]
		}
	}
	if s.tx == nil {
		s.syncTransactionSettings()
	}
	return nil
}
