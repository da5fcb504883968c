package compattests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// groupKillIterations is how often the server is killed while many
// clients insert into one table at once.
const groupKillIterations = 8

// groupWriters is how many clients insert concurrently: enough that
// their INSERTs meet in shared commits.
const groupWriters = 8

// writerLedger is one client's record: a row is acknowledged when its
// INSERT returned success, in doubt when the INSERT was sent but no
// answer came before the kill.
type writerLedger struct {
	acked   []int
	inDoubt int // -1 when none
}

// TestKilledDuringGroupCommitLosesOnlyUnacknowledgedRows kills the server
// with SIGKILL at a random moment while eight clients each insert
// numbered rows, one per statement, into one table; their INSERTs are
// committed in groups. After every restart each acknowledged row is there
// exactly once, a row in doubt at most once, and no other row is there.
func TestKilledDuringGroupCommitLosesOnlyUnacknowledgedRows(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed>>1))
	dataDir := filepath.Join(t.TempDir(), "data")
	ctx := testContext(t, 4*time.Minute)

	srv := startTestServerIn(t, dataDir, false)
	token, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	setup := connect(t, ctx, srv, token)
	execAll(t, ctx, setup, "CREATE SCHEMA g", "CREATE TABLE g.rows (writer int NOT NULL, seq int NOT NULL)")
	_ = setup.Close(ctx)

	ledgers := make([]writerLedger, groupWriters)
	for i := range ledgers {
		ledgers[i].inDoubt = -1
	}
	next := make([]int, groupWriters)
	for iter := range groupKillIterations {
		if iter > 0 {
			srv = startTestServerIn(t, dataDir, false)
			checkWriterLedgers(t, ctx, connect(t, ctx, srv, token), iter, ledgers)
		}
		conns := make([]*pgx.Conn, groupWriters)
		for w := range conns {
			conns[w] = connect(t, ctx, srv, token)
		}
		killAt := time.Duration(100+rng.IntN(400)) * time.Millisecond
		var wg sync.WaitGroup
		for w, conn := range conns {
			wg.Go(func() { next[w] = insertUntilKilled(ctx, conn, w, next[w], &ledgers[w]) })
		}
		time.Sleep(killAt)
		_ = srv.kill()
		wg.Wait()
		for _, c := range conns {
			_ = c.Close(context.Background())
		}
	}
	srv = startTestServerIn(t, dataDir, false)
	checkWriterLedgers(t, ctx, connect(t, ctx, srv, token), groupKillIterations, ledgers)
	acked := 0
	for _, l := range ledgers {
		acked += len(l.acked)
	}
	t.Logf("%d kills: %d rows acknowledged by %d concurrent writers", groupKillIterations, acked, groupWriters)
	if acked < groupKillIterations*groupWriters {
		t.Errorf("only %d rows were acknowledged: the loop did not exercise commits", acked)
	}
}

// insertUntilKilled inserts rows (writer, seq) for seq from next on until
// an INSERT fails because the server is gone; it returns the next unused
// number.
func insertUntilKilled(ctx context.Context, conn *pgx.Conn, writer, next int, ledger *writerLedger) int {
	for ; ; next++ {
		ledger.inDoubt = next
		if _, err := conn.Exec(ctx, fmt.Sprintf("INSERT INTO g.rows VALUES (%d, %d)", writer, next)); err != nil {
			return next + 1
		}
		ledger.inDoubt = -1
		ledger.acked = append(ledger.acked, next)
	}
}

// checkWriterLedgers reads the table after a restart and holds it to the
// ledgers. A row in doubt that is found is acknowledged from then on.
func checkWriterLedgers(t *testing.T, ctx context.Context, conn *pgx.Conn, iter int, ledgers []writerLedger) {
	t.Helper()
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT writer, seq, count(*) FROM g.rows GROUP BY writer, seq")
	if err != nil {
		t.Fatalf("restart %d: read: %v", iter, err)
	}
	present := make([]map[int]bool, len(ledgers))
	for i := range present {
		present[i] = map[int]bool{}
	}
	for rows.Next() {
		var w, seq int
		var n int64
		if err := rows.Scan(&w, &seq, &n); err != nil {
			t.Fatalf("restart %d: scan: %v", iter, err)
		}
		switch {
		case w < 0 || w >= len(ledgers):
			t.Errorf("restart %d: row of unknown writer %d", iter, w)
			continue
		case n != 1:
			t.Errorf("restart %d: row (%d, %d) is there %d times", iter, w, seq, n)
		case !slices.Contains(ledgers[w].acked, seq) && ledgers[w].inDoubt != seq:
			t.Errorf("restart %d: row (%d, %d) is there but was never acknowledged nor in doubt", iter, w, seq)
		}
		present[w][seq] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("restart %d: read: %v", iter, err)
	}
	for w := range ledgers {
		l := &ledgers[w]
		for _, seq := range l.acked {
			if !present[w][seq] {
				t.Errorf("restart %d: acknowledged row (%d, %d) lost", iter, w, seq)
			}
		}
		if l.inDoubt >= 0 && present[w][l.inDoubt] {
			l.acked = append(l.acked, l.inDoubt)
		}
		l.inDoubt = -1
	}
	if t.Failed() {
		t.FailNow()
	}
}
