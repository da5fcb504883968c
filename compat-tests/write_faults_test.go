package compattests

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// countParquet counts the data files under dir.
func countParquet(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
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

// A server killed (SIGKILL, no chance to clean up) in the middle of a large
// COPY FROM leaves the table at its previous snapshot: after a restart it
// is readable, holds none of the COPY's rows, and takes writes again. The
// COPY's data files stay behind unreferenced (orphans) until maintenance
// removes them; they are never visible as rows.
func TestKilledDuringCopyKeepsPreviousSnapshot(t *testing.T) {
	t.Parallel()
	dataDir := filepath.Join(t.TempDir(), "data")
	srv := startTestServerIn(t, dataDir, false)
	token, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 3*time.Minute)
	conn := connect(t, ctx, srv, token)
	execAll(t, ctx, conn,
		"CREATE SCHEMA f",
		"CREATE TABLE f.big (id bigint NOT NULL, pad text)",
		"INSERT INTO f.big VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	before := countParquet(t, dataDir)

	// The generator kills the server once a good part of the stream has
	// been produced, then keeps producing until the client notices.
	const killAfter = 300_000
	const giveUpAfter = 50_000_000
	var produced atomic.Int64
	var killed atomic.Bool // set on pgx's encoding goroutine
	pad := strings.Repeat("x", 64)
	src := pgx.CopyFromFunc(func() ([]any, error) {
		n := produced.Add(1)
		if n == killAfter {
			if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				return nil, err
			}
			<-srv.exited
			killed.Store(true)
		}
		if n > giveUpAfter {
			return nil, errors.New("the COPY stream never failed after the server was killed")
		}
		return []any{n + 100, pad}, nil
	})
	_, copyErr := conn.CopyFrom(ctx, pgx.Identifier{"f", "big"}, []string{"id", "pad"}, src)
	if !killed.Load() {
		t.Fatalf("the COPY ended (%v) after %d rows, before the server was killed", copyErr, produced.Load())
	}
	if copyErr == nil {
		t.Fatal("COPY reported success although the server was killed during it")
	}
	t.Logf("COPY after SIGKILL at row %d: %v", killAfter, copyErr)

	again := startTestServerIn(t, dataDir, false)
	conn2 := connect(t, ctx, again, token)
	var count, sum int64
	if err := conn2.QueryRow(ctx, "SELECT count(*), sum(id) FROM f.big").Scan(&count, &sum); err != nil {
		t.Fatalf("read after restart: %v\nlog:\n%s", err, again.log())
	}
	if count != 3 || sum != 6 {
		t.Fatalf("after the killed COPY the table has %d rows summing to %d, want the previous 3 rows summing to 6", count, sum)
	}
	execAll(t, ctx, conn2, "INSERT INTO f.big VALUES (4, 'd')")
	if err := conn2.QueryRow(ctx, "SELECT count(*), sum(id) FROM f.big").Scan(&count, &sum); err != nil {
		t.Fatal(err)
	}
	if count != 4 || sum != 10 {
		t.Fatalf("after a write following the restart: %d rows, sum %d; want 4, 10", count, sum)
	}
	t.Logf("data files: %d before the COPY, %d after the restart and one insert (orphans are the COPY's)",
		before, countParquet(t, dataDir))
}

// A write whose data files cannot be created fails with an error and
// leaves the previous snapshot as it was, in autocommit and in a block.
// The partition folder the write needs is made a regular file, which
// stops root as well as anyone else (a read-only mode would not).
func TestUnwritableDataPathKeepsPreviousSnapshot(t *testing.T) {
	t.Parallel()
	dataDir := filepath.Join(t.TempDir(), "data")
	srv := startTestServerIn(t, dataDir, false)
	token, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 2*time.Minute)
	conn := connect(t, ctx, srv, token)
	execAll(t, ctx, conn,
		"CREATE SCHEMA f",
		"CREATE TABLE f.p (region text, id bigint) WITH (partitioning = 'region')",
		"INSERT INTO f.p VALUES ('EU', 1), ('EU', 2)")

	eu, err := filepath.Glob(filepath.Join(dataDir, "warehouse", "f.db", "p", "data", "region=EU"))
	if err != nil || len(eu) != 1 {
		t.Fatalf("partition folder of region EU not found (%v, %v)", eu, err)
	}
	blocker := filepath.Join(filepath.Dir(eu[0]), "region=US")
	if err := os.WriteFile(blocker, []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}

	check := func(when string) {
		t.Helper()
		var count, sum int64
		if err := conn.QueryRow(ctx, "SELECT count(*), sum(id) FROM f.p").Scan(&count, &sum); err != nil {
			t.Fatalf("%s: read: %v", when, err)
		}
		if count != 2 || sum != 3 {
			t.Fatalf("%s: %d rows summing to %d, want the previous 2 rows summing to 3", when, count, sum)
		}
	}

	_, err = conn.Exec(ctx, "INSERT INTO f.p VALUES ('EU', 10), ('US', 20)")
	if err == nil {
		t.Fatal("INSERT into an unwritable partition succeeded")
	}
	pe := asPgError(t, err)
	if !strings.Contains(pe.Message, "f.p") && !strings.Contains(pe.Message, "region=US") {
		t.Errorf("error %q names neither the table nor the path", pe.Message)
	}
	t.Logf("autocommit INSERT: %s %s", pe.Code, pe.Message)
	check("after the failed INSERT")

	execAll(t, ctx, conn, "BEGIN", "INSERT INTO f.p VALUES ('EU', 30)")
	if _, err := conn.Exec(ctx, "INSERT INTO f.p VALUES ('US', 40)"); err == nil {
		t.Fatal("INSERT into an unwritable partition succeeded in a block")
	}
	if _, err := conn.Exec(ctx, "SELECT 1"); err == nil || asPgError(t, err).Code != "25P02" {
		t.Fatalf("the block is not failed after the write error: %v", err)
	}
	execAll(t, ctx, conn, "ROLLBACK")
	check("after the rolled back block")

	// Once the path is writable again the table takes the write.
	if err := os.Remove(blocker); err != nil {
		t.Fatal(err)
	}
	execAll(t, ctx, conn, "INSERT INTO f.p VALUES ('US', 20)")
	var count int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM f.p WHERE region = 'US'").Scan(&count); err != nil || count != 1 {
		t.Fatalf("US rows after the path was fixed: %d, %v", count, err)
	}
}
