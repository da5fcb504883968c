package compattests

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// serverLoad is what a server holds for its sessions: the sessions
// pg_stat_activity lists besides the observer's, the open sessions the
// metrics count and the server's goroutines.
type serverLoad struct {
	others     int64
	sessions   float64
	goroutines float64
}

func loadOf(t *testing.T, ctx context.Context, s *server, observer *pgx.Conn) serverLoad {
	t.Helper()
	var l serverLoad
	if err := observer.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid()").Scan(&l.others); err != nil {
		t.Fatalf("pg_stat_activity: %v", err)
	}
	m := scrape(t, s.httpAddr(t))
	l.sessions, l.goroutines = m["sqe_connections"], m["go_goroutines"]
	return l
}

// goroutineSlack is how many goroutines above the baseline still count
// as back to it: the runtime and the HTTP endpoint start a few of their
// own now and then. A leak of one session's query is far more.
const goroutineSlack = 4

// awaitBaseline waits until the server holds no more than base for its
// sessions, and fails the test with what it still holds after a
// generous bound.
func awaitBaseline(t *testing.T, ctx context.Context, s *server, observer *pgx.Conn, base serverLoad, what string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		l := loadOf(t, ctx, s, observer)
		if l.others == base.others && l.sessions == base.sessions && l.goroutines <= base.goroutines+goroutineSlack {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the server still holds %+v, baseline %+v", what, l, base)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A client that vanishes (its socket closed, no Terminate) in the middle
// of a result or of a COPY FROM leaves nothing behind: its query stops,
// pg_stat_activity no longer lists it, the session and goroutine counts
// return to where they were, and the COPY's rows are not in the table.
func TestClientDisconnectStopsItsQuery(t *testing.T) {
	t.Parallel()
	s := startTestServer(t, false)
	token, err := s.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 2*time.Minute)
	observer := connect(t, ctx, s, token)
	execAll(t, ctx, observer,
		"CREATE SCHEMA d",
		"CREATE TABLE d.t (id bigint NOT NULL, pad text)",
		"INSERT INTO d.t VALUES (1, 'a'), (2, 'b')")
	base := loadOf(t, ctx, s, observer)

	cases := []struct {
		name string
		// vanish runs the client's part and closes its socket under it.
		vanish func(t *testing.T, conn *pgx.Conn)
	}{
		{name: "mid-result", vanish: func(t *testing.T, conn *pgx.Conn) {
			rows, err := conn.Query(ctx, "SELECT a.g, b.g, repeat('x', 100) FROM generate_series(1, 5000) AS a(g), generate_series(1, 5000) AS b(g)")
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 1000 && rows.Next(); i++ {
			}
			if err := rows.Err(); err != nil {
				t.Fatalf("the result failed before the client left: %v", err)
			}
			if err := conn.PgConn().Conn().Close(); err != nil {
				t.Fatal(err)
			}
			rows.Close()
		}},
		{name: "mid-COPY FROM", vanish: func(t *testing.T, conn *pgx.Conn) {
			const leaveAfter = 50_000
			pad := strings.Repeat("y", 64)
			n := 0
			src := pgx.CopyFromFunc(func() ([]any, error) {
				n++
				if n == leaveAfter {
					_ = conn.PgConn().Conn().Close()
					return nil, errors.New("the client left")
				}
				return []any{int64(n + 100), pad}, nil
			})
			if _, err := conn.CopyFrom(ctx, pgx.Identifier{"d", "t"}, []string{"id", "pad"}, src); err == nil {
				t.Fatal("COPY FROM succeeded although the client left in the middle")
			}
		}},
	}
	for _, tc := range cases {
		conn := connect(t, ctx, s, token)
		tc.vanish(t, conn)
		awaitBaseline(t, ctx, s, observer, base, tc.name)
		var count, sum int64
		if err := observer.QueryRow(ctx, "SELECT count(*), sum(id) FROM d.t").Scan(&count, &sum); err != nil {
			t.Fatalf("%s: read: %v", tc.name, err)
		}
		if count != 2 || sum != 3 {
			t.Errorf("%s: the table has %d rows summing to %d, want the 2 rows it had (nothing half committed)", tc.name, count, sum)
		}
	}
}
