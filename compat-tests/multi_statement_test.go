package compattests

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

func TestPsqlMultiStatement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sql  string
		// want is the unaligned output. psql 15 prints every result of a
		// multi-statement -c; older releases printed only the last, so the
		// last line is what must match and earlier ones must come from
		// earlier statements.
		want []string
	}{
		{"two selects", "SELECT 1; SELECT 2", []string{"1", "2"}},
		{"empty query", ";", nil},
		{"comment only", "-- comment", nil},
		{"empty statements around one", "; SELECT 'x'; ;", []string{"x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := mustPsql(t, shared.server, psqlRun{password: shared.token, args: unaligned(tt.sql)})
			got := lines(res.stdout)
			if len(tt.want) == 0 {
				if len(got) != 0 {
					t.Errorf("output = %q, want none", got)
				}
				return
			}
			if len(got) == 0 || got[len(got)-1] != tt.want[len(tt.want)-1] {
				t.Fatalf("output = %q, want it to end with %q", got, tt.want[len(tt.want)-1])
			}
			if !slices.Equal(got, tt.want) && !slices.Equal(got, tt.want[len(tt.want)-1:]) {
				t.Errorf("output = %q, want %q (or only the last result)", got, tt.want)
			}
		})
	}
	t.Run("error in the middle", func(t *testing.T) {
		t.Parallel()
		res := runPsql(t, shared.server, psqlRun{password: shared.token, args: unaligned("SELECT 1; SELECT 1/0; SELECT 3")})
		if res.exitCode == 0 {
			t.Fatalf("psql exited 0; stdout %q", res.stdout)
		}
		if !strings.Contains(res.stderr, "division by zero") {
			t.Errorf("stderr = %q, want division by zero", res.stderr)
		}
		if slices.Contains(lines(res.stdout), "3") {
			t.Errorf("the statement after the error ran: stdout %q", res.stdout)
		}
	})
}

func TestPgxMultiStatement(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	conn := connect(t, ctx, shared.server, shared.token)

	type result struct {
		tag  string
		rows [][]string
	}
	tests := []struct {
		name string
		sql  string
		// want are the results before any error; wantErr is the SQLSTATE
		// that ended the batch, if one did.
		want    []result
		wantErr string
	}{
		{
			name: "three results",
			sql:  "SELECT 1; SELECT 'a'; SELECT * FROM acdemo.orders ORDER BY id",
			want: []result{
				{tag: "SELECT 1", rows: [][]string{{"1"}}},
				{tag: "SELECT 1", rows: [][]string{{"a"}}},
				{tag: "SELECT 3", rows: [][]string{
					{"1", "EU", "111-11-1111", "120.50", "2024-01-15"},
					{"2", "US", "222-22-2222", "75.00", "2024-02-03"},
					{"3", "EU", "333-33-3333", "310.25", "2024-03-22"},
				}},
			},
		},
		{
			name: "error in the middle aborts the rest",
			sql:  "SELECT 1; SELECT nope FROM acdemo.orders; SELECT 3",
			want: []result{
				{tag: "SELECT 1", rows: [][]string{{"1"}}},
			},
			wantErr: "42703",
		},
		{
			name: "empty query",
			sql:  ";",
			want: []result{{}},
		},
		{
			name: "comment only",
			sql:  "-- comment",
			want: []result{{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results, err := conn.PgConn().Exec(ctx, tt.sql).ReadAll()
			var got []result
			for _, r := range results {
				g := result{tag: r.CommandTag.String()}
				for _, row := range r.Rows {
					cells := make([]string, len(row))
					for i, c := range row {
						cells[i] = string(c)
					}
					g.rows = append(g.rows, cells)
				}
				if r.Err != nil {
					t.Errorf("result %d: %v", len(got), r.Err)
				}
				got = append(got, g)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("ReadAll: %v", err)
			case tt.wantErr != "":
				if err == nil {
					t.Fatalf("ReadAll succeeded, want %s", tt.wantErr)
				}
				if code := asPgError(t, err).Code; code != tt.wantErr {
					t.Errorf("ReadAll error code %s, want %s", code, tt.wantErr)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d results %+v, want %d %+v", len(got), got, len(tt.want), tt.want)
			}
			for i := range got {
				if got[i].tag != tt.want[i].tag {
					t.Errorf("result %d: tag %q, want %q", i, got[i].tag, tt.want[i].tag)
				}
				if !slices.EqualFunc(got[i].rows, tt.want[i].rows, slices.Equal) {
					t.Errorf("result %d: rows %q, want %q", i, got[i].rows, tt.want[i].rows)
				}
			}
			assertSelectOne(t, ctx, conn)
		})
	}
}

// TestSimpleQueryStopsAtFirstError reads the raw protocol: pgx drains and
// drops whatever follows an ErrorResponse, so only the message stream
// shows whether the statements after a failed one really did not run.
func TestSimpleQueryStopsAtFirstError(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	fe := rawFrontend(t, ctx, shared.server, shared.token, 20*time.Second)
	fe.Send(&pgproto3.Query{String: "SELECT 1; SELECT 1/0; SELECT 3"})
	if err := fe.Flush(); err != nil {
		t.Fatalf("send query: %v", err)
	}

	got := receiveUntilReady(t, fe)
	want := []string{
		"RowDescription", "DataRow 1", "CommandComplete SELECT 1",
		"ErrorResponse 22012 division by zero",
		"ReadyForQuery I",
	}
	// The error may come before or after the failing statement's row
	// description; what matters is that nothing of SELECT 3 follows it.
	alt := []string{
		"RowDescription", "DataRow 1", "CommandComplete SELECT 1",
		"RowDescription", "ErrorResponse 22012 division by zero",
		"ReadyForQuery I",
	}
	if !slices.Equal(got, want) && !slices.Equal(got, alt) {
		t.Errorf("messages = %q, want %q", got, want)
	}
}

// receiveUntilReady reads the server's messages up to ReadyForQuery and
// names each: its type, with the value of a one-column DataRow, the tag
// of a CommandComplete, the SQLSTATE and message of an ErrorResponse and
// the transaction status of ReadyForQuery.
func receiveUntilReady(t *testing.T, fe *pgproto3.Frontend) []string {
	t.Helper()
	var got []string
	for {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatalf("receive after %q: %v", got, err)
		}
		switch m := msg.(type) {
		case *pgproto3.RowDescription:
			got = append(got, "RowDescription")
		case *pgproto3.DataRow:
			got = append(got, "DataRow "+string(m.Values[0]))
		case *pgproto3.CommandComplete:
			got = append(got, "CommandComplete "+string(m.CommandTag))
		case *pgproto3.ErrorResponse:
			got = append(got, "ErrorResponse "+m.Code+" "+m.Message)
		case *pgproto3.ReadyForQuery:
			return append(got, "ReadyForQuery "+string(m.TxStatus))
		default:
			got = append(got, fmt.Sprintf("%T", msg))
		}
	}
}

// rawFrontend logs in as alice with token and hands over the protocol
// connection, for a test that writes messages itself; the connection is
// closed when the test ends and every read and write must be done within
// limit.
func rawFrontend(t *testing.T, ctx context.Context, srv *server, token string, limit time.Duration) *pgproto3.Frontend {
	t.Helper()
	conn, err := pgx.ConnectConfig(ctx, pgxConfig(t, srv, "alice", demoDatabase, "disable", token))
	if err != nil {
		t.Fatal(err)
	}
	hj, err := conn.PgConn().Hijack()
	if err != nil {
		t.Fatalf("hijack: %v", err)
	}
	t.Cleanup(func() { _ = hj.Conn.Close() })
	if err := hj.Conn.SetDeadline(time.Now().Add(limit)); err != nil {
		t.Fatal(err)
	}
	return hj.Frontend
}
