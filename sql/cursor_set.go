package sql

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// cursor is an open DECLAREd cursor: a running SELECT and the part of its
// current batch not fetched yet. A WITH HOLD cursor keeps its plan running
// after COMMIT instead of materialising its rows, so it costs one batch of
// memory however large its result; its scans keep the table snapshots they
// opened.
type cursor struct {
	name   string
	cols   []Column
	res    Result
	ctx    context.Context // the caller's identity, cancelled on close
	cancel context.CancelFunc

	batch  arrow.RecordBatch // rows of the current batch not fetched yet
	done   bool              // res has returned its last batch
	failed bool              // producing rows failed; the cursor cannot run

	hold     bool
	noScroll bool
	// seq numbers cursors in declaration order, for ROLLBACK TO.
	seq uint64
	// inTx: declared in the open transaction block, so ending the block
	// decides its fate.
	inTx bool
}

func (c *cursor) close() {
	if c.batch != nil {
		c.batch.Release()
		c.batch = nil
	}
	c.res.Close()
	c.cancel()
}

// cursorSet is a session's open cursors by name.
type cursorSet struct {
	byName map[string]*cursor
	seq    uint64
}

func (cs *cursorSet) get(name string) *cursor { return cs.byName[name] }

func (cs *cursorSet) add(c *cursor, inTx bool) {
	if cs.byName == nil {
		cs.byName = make(map[string]*cursor)
	}
	cs.seq++
	c.seq, c.inTx = cs.seq, inTx
	cs.byName[c.name] = c
}

// close closes the named cursor and reports whether it existed.
func (cs *cursorSet) close(name string) bool {
	c, ok := cs.byName[name]
	if ok {
		c.close()
		delete(cs.byName, name)
	}
	return ok
}

func (cs *cursorSet) closeAll() {
	for name := range cs.byName {
		cs.close(name)
	}
}

// endTransaction closes the cursors the ending block declared, except the
// WITH HOLD ones of a block that commits; those live on until CLOSE.
func (cs *cursorSet) endTransaction(commit bool) {
	for name, c := range cs.byName {
		if !c.inTx {
			continue
		}
		if commit && c.hold && !c.failed {
			c.inTx = false
			continue
		}
		cs.close(name)
	}
}

// dropAfter closes the cursors declared after cursor number seq (ROLLBACK
// TO a savepoint). Older cursors keep their position, as in PostgreSQL.
func (cs *cursorSet) dropAfter(seq uint64) {
	for name, c := range cs.byName {
		if c.seq > seq {
			cs.close(name)
		}
	}
}
