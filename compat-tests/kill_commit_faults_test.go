package compattests

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// killLoopIterations is how often the server is killed during commits.
const killLoopIterations = 50

// rowsPerTxn is how many rows each transaction writes, over two INSERTs,
// so that a transaction half applied shows as a group of the wrong size.
const rowsPerTxn = 3

// commitLedger is the client's record of what it asked and what it was
// told: a transaction is acknowledged when COMMIT returned success, and
// in doubt when COMMIT was sent but no answer came before the kill.
type commitLedger struct {
	acked   map[int]bool
	inDoubt map[int]bool
	// doubted counts the transactions that were in doubt at a kill.
	doubted int
}

// TestKilledDuringCommitsLosesNoAcknowledgedCommit kills the server with
// SIGKILL at a random moment while a client commits numbered
// transactions, fifty times on one data directory. After every restart
// each acknowledged transaction is there with all its rows, a
// transaction in doubt is there whole or not at all, and nothing else is
// there.
func TestKilledDuringCommitsLosesNoAcknowledgedCommit(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed>>1))
	dataDir := filepath.Join(t.TempDir(), "data")
	ctx := testContext(t, 3*time.Minute)

	srv := startTestServerIn(t, dataDir, false)
	token, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	conn := connect(t, ctx, srv, token)
	execAll(t, ctx, conn, "CREATE SCHEMA k", "CREATE TABLE k.log (txn int NOT NULL, part int NOT NULL)")

	ledger := commitLedger{acked: map[int]bool{}, inDoubt: map[int]bool{}}
	next := 0
	start := time.Now()
	for iter := range killLoopIterations {
		if iter > 0 {
			srv = startTestServerIn(t, dataDir, false)
			conn = connect(t, ctx, srv, token)
			checkLedger(t, ctx, conn, iter, &ledger)
		}
		// The kill comes at a random moment of the writes: before, during
		// or after a COMMIT.
		killAt := time.Duration(20+rng.IntN(230)) * time.Millisecond
		killed := make(chan struct{})
		go func() {
			defer close(killed)
			time.Sleep(killAt)
			_ = srv.kill()
		}()
		next = commitUntilKilled(ctx, conn, next, &ledger)
		<-killed
		_ = conn.Close(context.Background())
	}
	srv = startTestServerIn(t, dataDir, false)
	conn = connect(t, ctx, srv, token)
	checkLedger(t, ctx, conn, killLoopIterations, &ledger)
	t.Logf("%d kills in %s: %d transactions acknowledged, %d in doubt at a kill",
		killLoopIterations, time.Since(start).Round(time.Millisecond), len(ledger.acked), ledger.doubted)
	if len(ledger.acked) < killLoopIterations/2 {
		t.Errorf("only %d transactions were acknowledged over %d runs: the loop did not exercise commits", len(ledger.acked), killLoopIterations)
	}
}

// commitUntilKilled commits transaction after transaction, numbered from
// next, until one fails because the server is gone; it returns the next
// unused number.
func commitUntilKilled(ctx context.Context, conn *pgx.Conn, next int, ledger *commitLedger) int {
	for ; ; next++ {
		txn := next
		tx, err := conn.Begin(ctx)
		if err != nil {
			return next + 1
		}
		if _, err := tx.Exec(ctx, "INSERT INTO k.log VALUES ($1, 0), ($1, 1)", txn); err != nil {
			return next + 1
		}
		if _, err := tx.Exec(ctx, "INSERT INTO k.log VALUES ($1, 2)", txn); err != nil {
			return next + 1
		}
		ledger.inDoubt[txn] = true
		if err := tx.Commit(ctx); err != nil {
			return next + 1
		}
		delete(ledger.inDoubt, txn)
		ledger.acked[txn] = true
	}
}

// checkLedger reads the table after a restart and holds it to the ledger.
// A transaction in doubt found whole is durable from then on.
func checkLedger(t *testing.T, ctx context.Context, conn *pgx.Conn, iter int, ledger *commitLedger) {
	t.Helper()
	rows, err := conn.Query(ctx, "SELECT txn, count(*), count(DISTINCT part) FROM k.log GROUP BY txn")
	if err != nil {
		t.Fatalf("restart %d: read: %v", iter, err)
	}
	present := map[int]bool{}
	for rows.Next() {
		var txn int
		var n, parts int64
		if err := rows.Scan(&txn, &n, &parts); err != nil {
			t.Fatalf("restart %d: scan: %v", iter, err)
		}
		present[txn] = true
		switch {
		case n != rowsPerTxn || parts != rowsPerTxn:
			t.Errorf("restart %d: transaction %d has %d rows (%d distinct), want all %d or none", iter, txn, n, parts, rowsPerTxn)
		case !ledger.acked[txn] && !ledger.inDoubt[txn]:
			t.Errorf("restart %d: transaction %d is visible but its COMMIT was never sent", iter, txn)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("restart %d: read: %v", iter, err)
	}
	var lost []int
	for txn := range ledger.acked {
		if !present[txn] {
			lost = append(lost, txn)
		}
	}
	if len(lost) > 0 {
		sort.Ints(lost)
		t.Fatalf("restart %d: acknowledged transactions lost: %v", iter, lost)
	}
	for txn := range ledger.inDoubt {
		ledger.doubted++
		if present[txn] {
			ledger.acked[txn] = true
		}
		delete(ledger.inDoubt, txn)
	}
	if t.Failed() {
		t.FailNow()
	}
}
