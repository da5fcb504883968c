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
// table while it also runs UPDATEs of the same seed rows, so commits race
// in the catalog: an INSERT that loses reloads the table and commits its
// file again; an UPDATE that loses to an INSERT commits its rewrite on
// the newer table, and one that loses to the other server's UPDATE runs
// again on the rows that UPDATE wrote. Nothing may be lost, written twice
// or updated twice.
func TestTwoServersWriteConcurrently(t *testing.T) {
	perServer := 500
	if v := os.Getenv("SQE_TEST_INSERTS_PER_SERVER"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("SQE_TEST_INSERTS_PER_SERVER=%q is not a positive number", v)
		}
		perServer = n
	}
	const seeds, updatesPerServer = 50, 10
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
	token, err := first.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 10*time.Minute)
	setup := connect(t, ctx, first, token)
	execAll(t, ctx, setup,
		"CREATE SCHEMA w",
		"CREATE TABLE w.c (id bigint NOT NULL, server int, v bigint NOT NULL)",
		fmt.Sprintf("INSERT INTO w.c SELECT -g, -1, 0 FROM generate_series(1, %d) AS g", seeds))

	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i, srv := range []*server{first, second} {
		inserter, updater := connect(t, ctx, srv, token), connect(t, ctx, srv, token)
		wg.Go(func() {
			for n := range perServer {
				id := i*perServer + n
				q := fmt.Sprintf("INSERT INTO w.c VALUES (%d, %d, 1)", id, i)
				if _, err := inserter.Exec(ctx, q); err != nil {
					errs <- fmt.Errorf("server %d: %s: %w", i, q, err)
					return
				}
			}
		})
		wg.Go(func() {
			for range updatesPerServer {
				const q = "UPDATE w.c SET v = v + 1 WHERE id < 0"
				tag, err := updater.Exec(ctx, q)
				if err != nil {
					errs <- fmt.Errorf("server %d: %s: %w", i, q, err)
					return
				}
				if tag.RowsAffected() != seeds {
					errs <- fmt.Errorf("server %d: %s updated %d rows, want %d", i, q, tag.RowsAffected(), seeds)
					return
				}
			}
		})
	}
	if failed := waitReporting(t, &wg, errs); failed {
		t.Fatalf("logs:\n%s\n%s", first.log(), second.log())
	}
	t.Logf("%d inserts and %d updates through two servers in %s", 2*perServer, 2*updatesPerServer,
		time.Since(start).Round(time.Millisecond))

	// Both servers see every row exactly once, and every seed row carries
	// every update exactly once.
	total := int64(2 * perServer)
	wantSum := total * (total - 1) / 2
	for i, srv := range []*server{first, second} {
		conn := connect(t, ctx, srv, token)
		var count, distinct, sum, perFirst, seedRows, seedV, minSeedV int64
		err := conn.QueryRow(ctx, `SELECT count(*) FILTER (WHERE id >= 0), count(DISTINCT id) FILTER (WHERE id >= 0),
			sum(id) FILTER (WHERE id >= 0), count(*) FILTER (WHERE server = 0),
			count(*) FILTER (WHERE id < 0), sum(v) FILTER (WHERE id < 0), min(v) FILTER (WHERE id < 0) FROM w.c`).
			Scan(&count, &distinct, &sum, &perFirst, &seedRows, &seedV, &minSeedV)
		if err != nil {
			t.Fatalf("server %d: %v", i, err)
		}
		if count != total || distinct != total || sum != wantSum || perFirst != int64(perServer) {
			t.Errorf("server %d reads count %d, distinct ids %d, sum %d, rows from server 0 %d; want %d, %d, %d, %d",
				i, count, distinct, sum, perFirst, total, total, wantSum, perServer)
		}
		if want := int64(seeds * 2 * updatesPerServer); seedRows != seeds || seedV != want || minSeedV != 2*updatesPerServer {
			t.Errorf("server %d reads %d seed rows with sum(v) %d, min(v) %d; want %d, %d, %d",
				i, seedRows, seedV, minSeedV, seeds, want, 2*updatesPerServer)
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

// Eight clients of one server UPDATE counters of one table at once while
// others INSERT into it: the UPDATEs are committed in groups, each
// reading the changes queued ahead of it, so none may be lost or applied
// twice, and no INSERT may be lost or written twice.
func TestConcurrentUpdatesOfOneTable(t *testing.T) {
	t.Parallel()
	const clients, updatesPerClient, insertsPerClient, counters = 8, 30, 30, 10
	srv := startTestServer(t, false)
	token, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 5*time.Minute)
	setup := connect(t, ctx, srv, token)
	execAll(t, ctx, setup,
		"CREATE SCHEMA cu",
		"CREATE TABLE cu.c (id int NOT NULL, hits bigint NOT NULL)",
		fmt.Sprintf("INSERT INTO cu.c SELECT -g, 0 FROM generate_series(1, %d) AS g", counters))
	var wg sync.WaitGroup
	errs := make(chan error, 2*clients)
	for i := range clients {
		updater, inserter := connect(t, ctx, srv, token), connect(t, ctx, srv, token)
		wg.Go(func() {
			for n := range updatesPerClient {
				q := fmt.Sprintf("UPDATE cu.c SET hits = hits + 1 WHERE id = %d", -1-(i+n)%counters)
				if tag, err := updater.Exec(ctx, q); err != nil || tag.RowsAffected() != 1 {
					errs <- fmt.Errorf("client %d: %s: %v (%d rows)", i, q, err, tag.RowsAffected())
					return
				}
			}
		})
		wg.Go(func() {
			for n := range insertsPerClient {
				q := fmt.Sprintf("INSERT INTO cu.c VALUES (%d, 1)", i*insertsPerClient+n)
				if _, err := inserter.Exec(ctx, q); err != nil {
					errs <- fmt.Errorf("client %d: %s: %w", i, q, err)
					return
				}
			}
		})
	}
	if failed := waitReporting(t, &wg, errs); failed {
		t.FailNow()
	}
	var counterRows, hits, inserted, distinct int64
	err = setup.QueryRow(ctx, `SELECT count(*) FILTER (WHERE id < 0), sum(hits) FILTER (WHERE id < 0),
		count(*) FILTER (WHERE id >= 0), count(DISTINCT id) FILTER (WHERE id >= 0) FROM cu.c`).
		Scan(&counterRows, &hits, &inserted, &distinct)
	if err != nil {
		t.Fatal(err)
	}
	if counterRows != counters || hits != clients*updatesPerClient || inserted != clients*insertsPerClient || distinct != inserted {
		t.Errorf("%d counters with %d hits, %d inserted rows (%d distinct); want %d, %d, %d",
			counterRows, hits, inserted, distinct, counters, clients*updatesPerClient, clients*insertsPerClient)
	}
}

// waitReporting waits for wg's goroutines, reports every error they
// sent on errs and says whether any came.
func waitReporting(t *testing.T, wg *sync.WaitGroup, errs chan error) bool {
	t.Helper()
	wg.Wait()
	close(errs)
	failed := false
	for err := range errs {
		t.Error(err)
		failed = true
	}
	return failed
}
