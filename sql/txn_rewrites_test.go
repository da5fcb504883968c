package sql

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// DELETE, UPDATE and MERGE in a transaction block stage their rewrites:
// the block reads them, other sessions do not until COMMIT, and COMMIT
// makes the block's changes to a table one snapshot.
func TestTxnRewritesVisibleAtCommit(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{{query: "INSERT INTO w.t VALUES (1, 'a'), (2, 'b'), (3, 'c')", tag: "INSERT 0 3"}})
	before := loadTxnTable(t, e.a, "t").SnapshotCount()
	runSteps(t, e.a, []step{
		{query: "BEGIN", tag: "BEGIN", status: 'T'},
		{query: "UPDATE w.t SET note = 'B' WHERE id = 2", tag: "UPDATE 1"},
		{query: "DELETE FROM w.t WHERE id = 1", tag: "DELETE 1"},
		{query: "INSERT INTO w.t VALUES (4, 'd')", tag: "INSERT 0 1"},
		// One change over a committed file and a staged one.
		{query: "UPDATE w.t SET note = note || '!' WHERE id >= 3 RETURNING id, note", tag: "UPDATE 2", rows: "3|c!;4|d!"},
		{query: `MERGE INTO w.t USING (VALUES (2, 'm'), (9, 'n')) AS v(id, note) ON t.id = v.id
			WHEN MATCHED THEN UPDATE SET note = v.note WHEN NOT MATCHED THEN INSERT VALUES (v.id, v.note)`, tag: "MERGE 2"},
		{query: "SELECT id, note FROM w.t ORDER BY id", tag: "SELECT 4", rows: "2|m;3|c!;4|d!;9|n"},
		{query: "SELECT count(*) FROM w.t WHERE note LIKE '%!'", tag: "SELECT 1", rows: "2"},
	})
	runSteps(t, e.b, []step{{query: "SELECT id, note FROM w.t ORDER BY id", tag: "SELECT 3", rows: "1|a;2|b;3|c"}})
	runSteps(t, e.a, []step{{query: "COMMIT", tag: "COMMIT", status: 'I'}})
	runSteps(t, e.b, []step{{query: "SELECT id, note FROM w.t ORDER BY id", tag: "SELECT 4", rows: "2|m;3|c!;4|d!;9|n"}})
	if n := loadTxnTable(t, e.a, "t").SnapshotCount(); n != before+1 {
		t.Errorf("%d snapshots after the block, want %d", n, before+1)
	}
}

func TestTxnRewritesRollback(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{{query: "INSERT INTO w.t VALUES (1, 'a'), (2, 'b'), (3, 'c')", tag: "INSERT 0 3"}})
	committed := e.parquetFiles(t)
	runSteps(t, e.a, []step{
		{query: "BEGIN; DELETE FROM w.t WHERE id = 2; UPDATE w.t SET note = 'x'", tag: "UPDATE 2"},
		{query: "SELECT id, note FROM w.t ORDER BY id", tag: "SELECT 2", rows: "1|x;3|x"},
		{query: "ROLLBACK", tag: "ROLLBACK", status: 'I'},
		{query: "SELECT id, note FROM w.t ORDER BY id", tag: "SELECT 3", rows: "1|a;2|b;3|c"},
	})
	if n := e.parquetFiles(t); n != committed {
		t.Fatalf("%d data files after ROLLBACK, want the %d committed ones", n, committed)
	}
	// ROLLBACK TO undoes the changes made since the savepoint only, and
	// an error fails the block until ROLLBACK.
	runSteps(t, e.a, []step{
		{query: "BEGIN; DELETE FROM w.t WHERE id = 2; SAVEPOINT s; DELETE FROM w.t WHERE id = 3; UPDATE w.t SET note = 'y'", tag: "UPDATE 1"},
		{query: "ROLLBACK TO s", tag: "ROLLBACK"},
		{query: "SELECT id, note FROM w.t ORDER BY id", tag: "SELECT 2", rows: "1|a;3|c"},
		{query: "UPDATE w.t SET id = NULL", code: pgerror.NotNullViolation, status: 'E'},
		{query: "DELETE FROM w.t", code: pgerror.InFailedSQLTransaction, status: 'E'},
		{query: "ROLLBACK TO s", tag: "ROLLBACK", status: 'T'},
		{query: "COMMIT", tag: "COMMIT", status: 'I'},
		{query: "SELECT id, note FROM w.t ORDER BY id", tag: "SELECT 2", rows: "1|a;3|c"},
	})
}

// Another session's commits during the block: appends leave the block's
// changes valid (each statement reads the newest committed rows, as in
// READ COMMITTED); a concurrent change of the same rows fails the block
// with 40001, as PostgreSQL does for a concurrent update in a
// REPEATABLE READ transaction, and nothing of the block is committed.
func TestTxnRewritesRaceOtherSessions(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{
		{query: "INSERT INTO w.t VALUES (1, 'a'), (2, 'b')", tag: "INSERT 0 2"},
		{query: "BEGIN; UPDATE w.t SET note = 'z' WHERE id = 2", tag: "UPDATE 1"},
	})
	runSteps(t, e.b, []step{{query: "INSERT INTO w.t VALUES (3, 'c')", tag: "INSERT 0 1"}})
	runSteps(t, e.a, []step{
		{query: "SELECT id, note FROM w.t ORDER BY id", tag: "SELECT 3", rows: "1|a;2|z;3|c"},
		{query: "COMMIT", tag: "COMMIT", status: 'I'},
	})
	runSteps(t, e.b, []step{{query: "SELECT id, note FROM w.t ORDER BY id", tag: "SELECT 3", rows: "1|a;2|z;3|c"}})

	runSteps(t, e.a, []step{{query: "BEGIN; DELETE FROM w.t WHERE id = 1; INSERT INTO w.u VALUES (7)", tag: "INSERT 0 1"}})
	runSteps(t, e.b, []step{{query: "UPDATE w.t SET note = 'other' WHERE id = 1", tag: "UPDATE 1"}})
	runSteps(t, e.a, []step{
		{query: "SELECT count(*) FROM w.t", code: pgerror.SerializationFailure, status: 'E'},
		{query: "ROLLBACK", tag: "ROLLBACK", status: 'I'},
	})
	runSteps(t, e.a, []step{{query: "BEGIN; DELETE FROM w.t WHERE id = 1; INSERT INTO w.u VALUES (8)", tag: "INSERT 0 1"}})
	runSteps(t, e.b, []step{{query: "UPDATE w.t SET note = 'again' WHERE id = 1", tag: "UPDATE 1"}})
	runSteps(t, e.a, []step{
		{query: "COMMIT", code: pgerror.SerializationFailure, status: 'I'},
		{query: "SELECT (SELECT note FROM w.t WHERE id = 1), (SELECT count(*) FROM w.u)", tag: "SELECT 1", rows: "again|0"},
	})
}
