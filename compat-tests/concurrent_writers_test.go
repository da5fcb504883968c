package compattests

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Two `sqe serve` processes share one warehouse: the same SQLite catalog
// file and the same data folder. Each takes single-row INSERTs into one
// table at the same time, so their commits race in the catalog; the loser
// of each race reloads the table and commits its file again. Nothing may be
// lost or written twice.
//
// Every commit rewrites the table's metadata, which lists every snapshot,
// so N single-row commits cost O(N²) until snapshots are expired: 150 rows
// per server keeps the default run well under a minute on two loaded
// cores; SQE_TEST_INSERTS_PER_SERVER=500 runs the full-size version
// (about five minutes there).
func TestTwoServersInsertConcurrently(t *testing.T) {
	perServer := 150
	if v := os.Getenv("SQE_TEST_INSERTS_PER_SERVER"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("SQE_TEST_INSERTS_PER_SERVER=%q is not a positive number", v)
		}
		perServer = n
	}
	dir := t.TempDir()
	dataDir := filepath.Join(dir, "data")
	// The servers run in dir and read sqe.toml from there. Two writers
	// racing flat out lose many commits in a row on a loaded machine; more
	// retries than the default keep the test about correctness, not luck.
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte("[storage]\ncommit_retries = 200\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// One after the other: the first creates the issuer key and the
	// catalog tables that the second then opens.
	first := startTestServerIn(t, dataDir, false)
	second := startTestServerIn(t, dataDir, false)
	token, err := first.mintCLI("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 5*time.Minute)
	setup := connect(t, ctx, first, token)
	if _, err := setup.Exec(ctx, "CREATE SCHEMA w"); err != nil {
		t.Fatal(err)
	}
	if _, err := setup.Exec(ctx, "CREATE TABLE w.c (id bigint NOT NULL, server int)"); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for i, srv := range []*server{first, second} {
		conn := connect(t, ctx, srv, token)
		wg.Go(func() {
			for n := range perServer {
				id := i*perServer + n
				q := fmt.Sprintf("INSERT INTO w.c VALUES (%d, %d)", id, i)
				if _, err := conn.Exec(ctx, q); err != nil {
					errs <- fmt.Errorf("server %d: %s: %w", i, q, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.Fatalf("logs:\n%s\n%s", first.log(), second.log())
	}
	t.Logf("%d inserts through two servers in %s", 2*perServer, time.Since(start).Round(time.Millisecond))

	// Both servers see every row exactly once.
	total := int64(2 * perServer)
	wantSum := total * (total - 1) / 2
	for i, srv := range []*server{first, second} {
		conn := connect(t, ctx, srv, token)
		var count, distinct, sum int64
		var perFirst int64
		err := conn.QueryRow(ctx, "SELECT count(*), count(DISTINCT id), sum(id), count(*) FILTER (WHERE server = 0) FROM w.c").
			Scan(&count, &distinct, &sum, &perFirst)
		if err != nil {
			t.Fatalf("server %d: %v", i, err)
		}
		if count != total || distinct != total || sum != wantSum || perFirst != int64(perServer) {
			t.Errorf("server %d reads count %d, distinct ids %d, sum %d, rows from server 0 %d; want %d, %d, %d, %d",
				i, count, distinct, sum, perFirst, total, total, wantSum, perServer)
		}
	}
}

// execAll runs statements on conn, failing the test on the first error.
func execAll(t *testing.T, ctx context.Context, conn *pgx.Conn, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
