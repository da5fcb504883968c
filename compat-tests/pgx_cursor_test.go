package compattests

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// fetchRows runs a FETCH and renders its rows as "id|region", with the
// command tag.
func fetchRows(t *testing.T, ctx context.Context, conn *pgx.Conn, sql string) (string, string) {
	t.Helper()
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	var got []string
	for rows.Next() {
		var id int64
		var region string
		if err := rows.Scan(&id, &region); err != nil {
			t.Fatalf("%s: scan: %v", sql, err)
		}
		got = append(got, fmt.Sprintf("%d|%s", id, region))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return strings.Join(got, ";"), rows.CommandTag().String()
}

// TestPgxCursors declares and fetches a cursor in every pgx mode: over the
// simple protocol and over the extended one, where a prepared FETCH is
// described with its cursor's columns, as PostgreSQL does.
func TestPgxCursors(t *testing.T) {
	forEachMode(t, func(t *testing.T, m execMode) {
		ctx := testContext(t, 30*time.Second)
		conn := connectMode(t, ctx, m)
		exec := func(sql, wantTag string) {
			t.Helper()
			tag, err := conn.Exec(ctx, sql)
			if err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			if tag.String() != wantTag {
				t.Fatalf("%s: tag %q, want %q", sql, tag, wantTag)
			}
		}
		fetch := []struct{ sql, rows, tag string }{
			{"FETCH 2 FROM c", "1|EU;2|US", "FETCH 2"},
			{"FETCH FORWARD 2 IN c", "3|EU", "FETCH 1"},
			{"FETCH ALL FROM c", "", "FETCH 0"},
		}
		exec("BEGIN", "BEGIN")
		exec("DECLARE c CURSOR FOR SELECT id, region FROM acdemo.orders ORDER BY id", "DECLARE CURSOR")
		for _, f := range fetch {
			if rows, tag := fetchRows(t, ctx, conn, f.sql); rows != f.rows || tag != f.tag {
				t.Fatalf("%s: %q %q, want %q %q", f.sql, rows, tag, f.rows, f.tag)
			}
		}
		exec("CLOSE c", "CLOSE CURSOR")
		exec("COMMIT", "COMMIT")

		// A WITH HOLD cursor outlives the transaction it was declared in.
		exec("DECLARE h CURSOR WITH HOLD FOR SELECT id, region FROM acdemo.orders WHERE region = 'EU' ORDER BY id", "DECLARE CURSOR")
		exec("MOVE 1 IN h", "MOVE 1")
		if rows, tag := fetchRows(t, ctx, conn, "FETCH NEXT FROM h"); rows != "3|EU" || tag != "FETCH 1" {
			t.Fatalf("FETCH NEXT FROM h: %q %q", rows, tag)
		}
		exec("CLOSE ALL", "CLOSE CURSOR ALL")

		// Without a block DECLARE is refused, as PostgreSQL refuses it.
		_, err := conn.Exec(ctx, "DECLARE x CURSOR FOR SELECT 1")
		if pe := asPgError(t, err); pe.Code != "25P01" || pe.Message != "DECLARE CURSOR can only be used in transaction blocks" {
			t.Fatalf("DECLARE outside a block: %s %s", pe.Code, pe.Message)
		}
		assertSelectOne(t, ctx, conn)
	})
}

// TestPgxDiscardAllDropsPreparedStatements checks DISCARD ALL deallocates
// the connection's prepared statements, as PostgreSQL's does.
func TestPgxDiscardAllDropsPreparedStatements(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	conn := connect(t, ctx, shared.server, shared.token)
	pc := conn.PgConn()
	if _, err := pc.Prepare(ctx, "discard_me", "SELECT 1", nil); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	if _, err := conn.Exec(ctx, "DISCARD ALL"); err != nil {
		t.Fatalf("DISCARD ALL: %v", err)
	}
	res := pc.ExecPrepared(ctx, "discard_me", nil, nil, nil).Read()
	if pe := asPgError(t, res.Err); pe.Code != "26000" {
		t.Fatalf("prepared statement after DISCARD ALL: %s %s", pe.Code, pe.Message)
	}
}
