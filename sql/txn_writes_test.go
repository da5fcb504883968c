package sql

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// txnEnv is two sessions on one engine over an empty catalog in dir, with
// tables w.t and w.u (id int, note text).
type txnEnv struct {
	dir  string
	a, b *Session
}

func newTxnEnv(t *testing.T) *txnEnv {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", dir, storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	e := NewEngine(EngineConfig{AdminRoles: []string{"sqe_admin"}}, []storage.Catalog{cat}, governance.Passthrough{})
	open := func(user string) *Session {
		s, err := e.NewSession(ctx, auth.Identity{User: user}, "sales_wh", nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	env := &txnEnv{dir: dir, a: open("alice"), b: open("bob")}
	runSteps(t, env.a, []step{
		{query: "CREATE SCHEMA w; CREATE TABLE w.t (id int NOT NULL, note text); CREATE TABLE w.u (id int)", tag: "CREATE TABLE"},
	})
	return env
}

// parquetFiles counts the data files under the warehouse, committed or
// not.
func (e *txnEnv) parquetFiles(t *testing.T) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(e.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".parquet") {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTxnWritesVisibleAtCommit(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{
		{query: "BEGIN", tag: "BEGIN", status: 'T'},
		{query: "INSERT INTO w.t VALUES (1, 'a'), (2, 'b')", tag: "INSERT 0 2"},
		// Read-your-writes, also through a filter and an INSERT ... SELECT
		// of the table into itself.
		{query: "SELECT id, note FROM w.t ORDER BY id", tag: "SELECT 2", rows: "1|a;2|b"},
		{query: "INSERT INTO w.t SELECT id + 10, note FROM w.t", tag: "INSERT 0 2"},
		{query: "SELECT count(*), sum(id) FROM w.t WHERE id > 1", tag: "SELECT 1", rows: "3|25"},
	})
	runSteps(t, e.b, []step{{query: "SELECT count(*) FROM w.t", tag: "SELECT 1", rows: "0"}})
	runSteps(t, e.a, []step{{query: "COMMIT", tag: "COMMIT", status: 'I'}})
	runSteps(t, e.b, []step{{query: "SELECT id FROM w.t ORDER BY id", tag: "SELECT 4", rows: "1;2;11;12"}})
	runSteps(t, e.a, []step{{query: "SELECT count(*) FROM w.t", tag: "SELECT 1", rows: "4"}})
	// The block is one snapshot.
	runSteps(t, e.b, []step{{query: "SELECT count(*) FROM w.t", tag: "SELECT 1", rows: "4"}})
	tbl := loadTxnTable(t, e.a, "t")
	if tbl.RowCountEstimate() != 4 {
		t.Fatalf("RowCountEstimate = %d, want 4", tbl.RowCountEstimate())
	}
}

func TestTxnRollbackDiscardsFiles(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{{query: "INSERT INTO w.t VALUES (1, 'kept')", tag: "INSERT 0 1"}})
	committed := e.parquetFiles(t)
	runSteps(t, e.a, []step{
		{query: "BEGIN; INSERT INTO w.t VALUES (2, 'x'); INSERT INTO w.t VALUES (3, 'y')", tag: "INSERT 0 1"},
		{query: "SELECT count(*) FROM w.t", tag: "SELECT 1", rows: "3"},
		{query: "ROLLBACK", tag: "ROLLBACK", status: 'I'},
		{query: "SELECT id, note FROM w.t", tag: "SELECT 1", rows: "1|kept"},
	})
	if n := e.parquetFiles(t); n != committed {
		t.Fatalf("%d data files after ROLLBACK, want the %d committed ones", n, committed)
	}
}

func TestTxnErrorThenCommitRollsBack(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{
		{query: "BEGIN", tag: "BEGIN"},
		{query: "INSERT INTO w.t VALUES (1, 'a')", tag: "INSERT 0 1"},
		// A failing write commits nothing of its own and fails the block.
		{query: "INSERT INTO w.t VALUES (2, 'b'), (NULL, 'c')", code: pgerror.NotNullViolation, status: 'E'},
		{query: "INSERT INTO w.t VALUES (3, 'c')", code: pgerror.InFailedSQLTransaction, status: 'E'},
		{query: "SELECT 1", code: pgerror.InFailedSQLTransaction, status: 'E'},
		{query: "COMMIT", tag: "ROLLBACK", status: 'I'},
		{query: "SELECT count(*) FROM w.t", tag: "SELECT 1", rows: "0"},
	})
	if n := e.parquetFiles(t); n != 0 {
		t.Fatalf("%d data files left by a rolled back block", n)
	}
}

func TestTxnSeveralTablesCommitTogether(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{
		{query: "BEGIN; INSERT INTO w.t VALUES (1, 'a'); INSERT INTO w.u VALUES (10), (11)", tag: "INSERT 0 2"},
		{query: "INSERT INTO w.t SELECT id, 'from u' FROM w.u", tag: "INSERT 0 2"},
		{query: "SELECT (SELECT count(*) FROM w.t), (SELECT count(*) FROM w.u)", tag: "SELECT 1", rows: "3|2"},
	})
	runSteps(t, e.b, []step{{query: "SELECT (SELECT count(*) FROM w.t), (SELECT count(*) FROM w.u)", tag: "SELECT 1", rows: "0|0"}})
	runSteps(t, e.a, []step{{query: "COMMIT", tag: "COMMIT", status: 'I'}})
	runSteps(t, e.b, []step{{query: "SELECT (SELECT count(*) FROM w.t), (SELECT sum(id) FROM w.u)", tag: "SELECT 1", rows: "3|21"}})
	// One snapshot per table.
	for _, name := range []string{"t", "u"} {
		if n := loadTxnTable(t, e.a, name).SnapshotCount(); n != 1 {
			t.Errorf("w.%s has %d snapshots after one block, want 1", name, n)
		}
	}
	// A block whose writes were all rolled back to a savepoint commits
	// only what is left.
	runSteps(t, e.a, []step{
		{query: "BEGIN; INSERT INTO w.t VALUES (5, 'e'); SAVEPOINT s; INSERT INTO w.u VALUES (3); ROLLBACK TO s; COMMIT", tag: "COMMIT"},
		{query: "SELECT (SELECT count(*) FROM w.u), (SELECT count(*) FROM w.t)", tag: "SELECT 1", rows: "2|4"},
	})
}

// A block over two tables commits all or nothing: when one of them cannot
// take the commit, the other does not either.
func TestTxnSeveralTablesAllOrNothing(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{{query: "BEGIN; INSERT INTO w.t VALUES (1, 'a'); INSERT INTO w.u VALUES (1)", tag: "INSERT 0 1"}})
	runSteps(t, e.b, []step{{query: "DROP TABLE w.u; CREATE TABLE w.u (id int)", tag: "CREATE TABLE"}})
	runSteps(t, e.a, []step{
		{query: "COMMIT", code: pgerror.UndefinedTable, status: 'I'},
		{query: "SELECT (SELECT count(*) FROM w.t), (SELECT count(*) FROM w.u)", tag: "SELECT 1", rows: "0|0"},
	})
	if n := e.parquetFiles(t); n != 0 {
		t.Fatalf("%d data files left by a block that committed nothing", n)
	}
}

func TestTxnSavepoints(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{
		{query: "BEGIN; INSERT INTO w.t VALUES (1, 'a'); SAVEPOINT s1; INSERT INTO w.t VALUES (2, 'b')", tag: "INSERT 0 1"},
		{query: "SAVEPOINT s2; INSERT INTO w.t VALUES (3, 'c')", tag: "INSERT 0 1"},
		{query: "ROLLBACK TO s2", tag: "ROLLBACK"},
		{query: "SELECT id FROM w.t ORDER BY id", tag: "SELECT 2", rows: "1;2"},
		{query: "INSERT INTO w.t VALUES (NULL, 'x')", code: pgerror.NotNullViolation, status: 'E'},
		{query: "ROLLBACK TO s1", tag: "ROLLBACK", status: 'T'},
		{query: "SELECT id FROM w.t ORDER BY id", tag: "SELECT 1", rows: "1"},
		{query: "INSERT INTO w.t VALUES (4, 'd'); RELEASE s1; COMMIT", tag: "COMMIT"},
	})
	runSteps(t, e.b, []step{{query: "SELECT id FROM w.t ORDER BY id", tag: "SELECT 2", rows: "1;4"}})
}

func TestTxnCopyFromInBlock(t *testing.T) {
	e := newTxnEnv(t)
	copyIn := func(s *Session, data string) {
		t.Helper()
		if err := loadCopy(t, s, "COPY w.t FROM STDIN", data); err != nil {
			t.Fatalf("COPY: %v", err)
		}
	}
	runSteps(t, e.a, []step{{query: "BEGIN", tag: "BEGIN"}})
	copyIn(e.a, "1\tone\n2\ttwo\n")
	runSteps(t, e.a, []step{{query: "SELECT count(*) FROM w.t", tag: "SELECT 1", rows: "2"}})
	runSteps(t, e.b, []step{{query: "SELECT count(*) FROM w.t", tag: "SELECT 1", rows: "0"}})
	runSteps(t, e.a, []step{{query: "ROLLBACK", tag: "ROLLBACK"}, {query: "BEGIN", tag: "BEGIN"}})
	copyIn(e.a, "3\tthree\n")
	runSteps(t, e.a, []step{{query: "COMMIT", tag: "COMMIT"}})
	runSteps(t, e.b, []step{{query: "SELECT id, note FROM w.t", tag: "SELECT 1", rows: "3|three"}})
}

func TestTxnSessionCloseDiscards(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{{query: "BEGIN; INSERT INTO w.t VALUES (1, 'a')", tag: "INSERT 0 1"}})
	if e.parquetFiles(t) == 0 {
		t.Fatal("the INSERT in the block wrote no data file")
	}
	e.a.Close()
	if n := e.parquetFiles(t); n != 0 {
		t.Fatalf("%d data files left after the session closed inside its block", n)
	}
	runSteps(t, e.b, []step{{query: "SELECT count(*) FROM w.t", tag: "SELECT 1", rows: "0"}})
}

func TestTxnCommitAfterTableDropped(t *testing.T) {
	e := newTxnEnv(t)
	runSteps(t, e.a, []step{{query: "BEGIN; INSERT INTO w.t VALUES (1, 'a')", tag: "INSERT 0 1"}})
	runSteps(t, e.b, []step{{query: "DROP TABLE w.t; CREATE TABLE w.t (id int NOT NULL, note text)", tag: "CREATE TABLE"}})
	runSteps(t, e.a, []step{
		{query: "COMMIT", code: pgerror.UndefinedTable, status: 'I'},
		{query: "SELECT count(*) FROM w.t", tag: "SELECT 1", rows: "0"},
	})
}

func loadTxnTable(t *testing.T, s *Session, name string) *storage.Table {
	t.Helper()
	cat, err := s.engine.catalog("sales_wh")
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(s.callerContext(context.Background()), "w", name)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}
