package compattests

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
)

// slowQuery sleeps two seconds (pg_sleep, cancellable) before its join
// and sort of the million-row table can produce a row, and the client
// then reads slowly. The cancel must arrive while the statement runs:
// once rows stream, the client reads those already sent, a millisecond
// each, before it can see the error. With the sort alone as the wait,
// the test failed in two of three full runs once scans got faster.
const slowQuery = "SELECT s.* FROM acdemo.sales s CROSS JOIN (SELECT pg_sleep(2)) AS pause ORDER BY s.product, s.id"

func TestCancelLongQuery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// handler decides what pgx does when the context ends: send a
		// CancelRequest, or cut the socket (pgx's default).
		handler func(*pgconn.PgConn) ctxwatch.Handler
		// wantCancelled requires the server's 57014 rather than any
		// context error, and a connection that still works.
		wantCancelled bool
	}{
		{
			name: "cancel request",
			handler: func(c *pgconn.PgConn) ctxwatch.Handler {
				return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 10 * time.Second}
			},
			wantCancelled: true,
		},
		{name: "connection cut"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t, 60*time.Second)
			cfg := pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.token)
			if tt.handler != nil {
				cfg.BuildContextWatcherHandler = tt.handler
			}
			conn := connectConfig(t, ctx, cfg)

			qctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			defer cancel()
			start := time.Now()
			err := readSlowly(qctx, conn)
			elapsed := time.Since(start)
			if err == nil {
				t.Fatal("the query finished before the context ended; it is meant to run for seconds")
			}
			var pe *pgconn.PgError
			isCancel := errors.As(err, &pe) && pe.Code == "57014"
			if !isCancel && !errors.Is(err, context.DeadlineExceeded) && !pgconn.Timeout(err) {
				t.Fatalf("error = %v, want 57014 or a context deadline", err)
			}
			if tt.wantCancelled && !isCancel {
				t.Errorf("error = %v, want the server's 57014 after the cancel request", err)
			}
			if elapsed > 8*time.Second {
				t.Errorf("the query ran %s after a 500ms deadline", elapsed.Round(time.Millisecond))
			}
			if tt.wantCancelled {
				assertSelectOne(t, ctx, conn)
			}

			// The server is still healthy for a new connection.
			fresh := connect(t, ctx, shared.server, shared.token)
			var n int64
			if err := fresh.QueryRow(ctx, "SELECT count(*) FROM acdemo.orders").Scan(&n); err != nil || n != 3 {
				t.Errorf("new connection after the cancel: count = %d, err %v", n, err)
			}
		})
	}
}

// readSlowly runs slowQuery and consumes its rows one per millisecond.
func readSlowly(ctx context.Context, conn *pgx.Conn) error {
	rows, err := conn.Query(ctx, slowQuery)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		time.Sleep(time.Millisecond)
	}
	return rows.Err()
}
