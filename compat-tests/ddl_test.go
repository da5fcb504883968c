package compattests

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestDDLThroughPgwire runs DDL over the wire: command tags, notices,
// SQLSTATEs, and a second session seeing new, altered and dropped tables
// at once.
func TestDDLThroughPgwire(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	var notices []string
	cfg := pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.token)
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		notices = append(notices, n.Severity+" "+n.Code+" "+n.Message)
	}
	conn := connectConfig(t, ctx, cfg)
	other := connect(t, ctx, shared.server, shared.token)

	exec := func(sql, wantTag string) {
		t.Helper()
		tag, err := conn.Exec(ctx, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if tag.String() != wantTag {
			t.Fatalf("%s: tag %q, want %q", sql, tag.String(), wantTag)
		}
	}
	fails := func(sql, wantCode string) {
		t.Helper()
		_, err := conn.Exec(ctx, sql)
		if pe := asPgError(t, err); pe.Code != wantCode {
			t.Fatalf("%s: %s %s, want %s", sql, pe.Code, pe.Message, wantCode)
		}
	}
	exec("CREATE SCHEMA wire_ddl", "CREATE SCHEMA")
	t.Cleanup(func() { _, _ = other.Exec(ctx, "DROP SCHEMA IF EXISTS wire_ddl CASCADE") })
	exec("CREATE SCHEMA IF NOT EXISTS wire_ddl", "CREATE SCHEMA")
	if len(notices) != 1 || notices[0] != `NOTICE 42P06 schema "wire_ddl" already exists, skipping` {
		t.Fatalf("notices %q", notices)
	}
	exec("CREATE TABLE wire_ddl.t (id bigint NOT NULL, name varchar(10))", "CREATE TABLE")
	fails("CREATE TABLE wire_ddl.t (id bigint)", "42P07")
	exec("CREATE TABLE wire_ddl.c AS SELECT id, region FROM acdemo.orders", "SELECT 3")

	var n int64
	if err := other.QueryRow(ctx, "SELECT count(*) FROM wire_ddl.c").Scan(&n); err != nil || n != 3 {
		t.Fatalf("other session counts %d rows: %v", n, err)
	}
	exec("ALTER TABLE wire_ddl.c RENAME COLUMN region TO area", "ALTER TABLE")
	var area string
	if err := other.QueryRow(ctx, "SELECT area FROM wire_ddl.c WHERE id = 2").Scan(&area); err != nil || area != "US" {
		t.Fatalf("renamed column reads %q: %v", area, err)
	}
	exec("COMMENT ON TABLE wire_ddl.c IS 'copy'", "COMMENT")
	var comment string
	if err := other.QueryRow(ctx, "SELECT obj_description('wire_ddl.c'::regclass, 'pg_class')").Scan(&comment); err != nil || comment != "copy" {
		t.Fatalf("comment %q: %v", comment, err)
	}
	exec("TRUNCATE wire_ddl.c", "TRUNCATE TABLE")
	if err := other.QueryRow(ctx, "SELECT count(*) FROM wire_ddl.c").Scan(&n); err != nil || n != 0 {
		t.Fatalf("after TRUNCATE the other session counts %d rows: %v", n, err)
	}
	fails("DROP SCHEMA wire_ddl", "2BP01")
	notices = nil
	exec("DROP TABLE IF EXISTS wire_ddl.t, wire_ddl.nope", "DROP TABLE")
	if len(notices) != 1 || notices[0] != `NOTICE 00000 table "nope" does not exist, skipping` {
		t.Fatalf("notices %q", notices)
	}
	exec("DROP SCHEMA wire_ddl CASCADE", "DROP SCHEMA")
	_, err := other.Exec(ctx, "SELECT * FROM wire_ddl.c")
	if pe := asPgError(t, err); pe.Code != "42P01" {
		t.Fatalf("dropped table: %s", pe.Code)
	}
}
