package sql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// callRow runs one CALL and returns its single row split into values.
func callRow(t *testing.T, s *Session, query string) []string {
	t.Helper()
	rows, tags, err := run(t, s, query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if len(rows) != 1 || tags[len(tags)-1] != "CALL" {
		t.Fatalf("%s: rows %q, tag %q; want one row and CALL", query, rows, tags)
	}
	return strings.Split(rows[0], "|")
}

// TestCallMaintenance compacts and expires a table written by single-row
// INSERTs and checks that its rows never change.
func TestCallMaintenance(t *testing.T) {
	s, _ := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{{sql: "SET search_path = w", tag: "SET"}})
	for i := 1; i <= 6; i++ {
		runDMLSteps(t, s, []dmlStep{{sql: fmt.Sprintf("INSERT INTO items (id, t) VALUES (%d, 'v%d')", i, i), tag: "INSERT 0 1"}})
	}
	const all = "SELECT id, t, k FROM items ORDER BY id"
	want := []string{"1|v1|7", "2|v2|7", "3|v3|7", "4|v4|7", "5|v5|7", "6|v6|7"}
	runDMLSteps(t, s, []dmlStep{{sql: all, rows: want, tag: "SELECT 6"}})

	got := callRow(t, s, "CALL system.rewrite_data_files(table => 'items')")
	if got[0] != "6" || got[1] != "1" || got[2] == "0" {
		t.Errorf("rewrite_data_files answered %v, want 6 files into 1", got)
	}
	// Positional, with the database's name in front: nothing left to do.
	if got := callRow(t, s, "CALL sales_wh.system.rewrite_data_files('w.items')"); strings.Join(got, "|") != "0|0|0" {
		t.Errorf("second rewrite_data_files answered %v, want 0|0|0", got)
	}
	runDMLSteps(t, s, []dmlStep{{sql: all, rows: want, tag: "SELECT 6"}})

	// Expire everything but the current snapshot: the 6 INSERTs' and the
	// compaction's first, with the 6 small files.
	got = callRow(t, s, "CALL system.expire_snapshots(table => 'sales_wh.w.items', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)")
	if got[0] != "6" || got[1] != "0" || got[2] != "0" || got[3] == "0" || got[4] != "7" || got[5] != "0" || got[6] != "7" {
		t.Errorf("expire_snapshots answered %v", got)
	}
	runDMLSteps(t, s, []dmlStep{{sql: all, rows: want, tag: "SELECT 6"}})
	if got := callRow(t, s, "CALL system.expire_snapshots('items', now(), 1)"); strings.Join(got, "|") != "0|0|0|0|0|0|0" {
		t.Errorf("second expire_snapshots answered %v", got)
	}
}

// TestCallErrors checks each way a CALL can be wrong against the SQLSTATE
// and wording PostgreSQL 15 gives the same mistake with a procedure of
// the same signature.
func TestCallErrors(t *testing.T) {
	s, _ := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "SET search_path = w", tag: "SET"},
		{sql: "CALL system.nope()", code: pgerror.UndefinedFunction, msg: "procedure system.nope does not exist"},
		{sql: "CALL rewrite_data_files(table => 'items')", code: pgerror.UndefinedFunction, msg: "procedure rewrite_data_files does not exist"},
		{sql: "CALL other.system.rewrite_data_files('items')", code: pgerror.FeatureNotSupported, msg: "cross-database references are not implemented: other.system.rewrite_data_files"},
		{sql: "CALL system.rewrite_data_files()", code: pgerror.UndefinedFunction, msg: "procedure system.rewrite_data_files() does not exist"},
		{sql: "CALL system.rewrite_data_files(tbl => 'items')", code: pgerror.UndefinedFunction, msg: "procedure system.rewrite_data_files(tbl => unknown) does not exist"},
		{sql: "CALL system.rewrite_data_files(42)", code: pgerror.UndefinedFunction, msg: "procedure system.rewrite_data_files(integer) does not exist"},
		{sql: "CALL system.rewrite_data_files('items', table => 'items')", code: pgerror.UndefinedFunction, msg: "procedure system.rewrite_data_files(unknown, table => unknown) does not exist"},
		{sql: "CALL system.expire_snapshots('items', now(), 1, 2)", code: pgerror.UndefinedFunction, msg: "procedure system.expire_snapshots(unknown, timestamp with time zone, integer, integer) does not exist"},
		{sql: "CALL system.expire_snapshots(table => 'items', retain_last => true)", code: pgerror.UndefinedFunction, msg: "procedure system.expire_snapshots(table => unknown, retain_last => boolean) does not exist"},
		{sql: "CALL system.expire_snapshots(table => 'items', retain_last => 3000000000)", code: pgerror.UndefinedFunction, msg: "procedure system.expire_snapshots(table => unknown, retain_last => bigint) does not exist"},
		{sql: "CALL system.expire_snapshots(table => 'items', older_than => 5)", code: pgerror.UndefinedFunction, msg: "procedure system.expire_snapshots(table => unknown, older_than => integer) does not exist"},
		{sql: "CALL system.rewrite_data_files(table => 'items', table => 'items')", code: pgerror.SyntaxError, msg: `argument name "table" used more than once`},
		{sql: "CALL system.expire_snapshots(table => 'items', 1)", code: pgerror.SyntaxError, msg: "positional argument cannot follow named argument"},
		{sql: "CALL system.expire_snapshots(table => 'items', retain_last => 'x')", code: pgerror.InvalidTextRepresentation, msg: `invalid input syntax for type integer: "x"`},
		{sql: "CALL system.expire_snapshots(table => 'items', older_than => 'garbage')", code: pgerror.InvalidDatetimeFormat, msg: `invalid input syntax for type timestamp with time zone: "garbage"`},
		{sql: "CALL system.expire_snapshots(table => 'items', retain_last => 0)", code: pgerror.InvalidParameterValue, msg: "retain_last must be at least 1, not 0"},
		{sql: "CALL system.rewrite_data_files(table => NULL)", code: pgerror.NullValueNotAllowed, msg: `argument "table" of procedure system.rewrite_data_files must not be null`},
		{sql: "CALL system.rewrite_data_files(table => nope)", code: pgerror.UndefinedColumn, msg: `column "nope" does not exist`},
		{sql: "CALL system.rewrite_data_files(table => 'nothere')", code: pgerror.UndefinedTable, msg: `relation "nothere" does not exist`},
		{sql: "CALL system.rewrite_data_files(table => 'a.b.c.d')", code: pgerror.SyntaxError, msg: "improper relation name (too many dotted names): a.b.c.d"},
		{sql: "CALL system.rewrite_data_files(DISTINCT 'items')", code: pgerror.WrongObjectType, msg: "system.rewrite_data_files is a procedure: it takes plain arguments"},
		{sql: "BEGIN", tag: "BEGIN"},
		{sql: "CALL system.rewrite_data_files(table => 'items')", code: pgerror.ActiveSQLTransaction, msg: "system.rewrite_data_files cannot run inside a transaction block"},
		{sql: "ROLLBACK", tag: "ROLLBACK"},
	})
	// The failed call reports where the procedure is named, and a hint
	// with what it takes.
	_, _, err := run(t, s, "CALL system.expire_snapshots(retain_last => 2)")
	pe := pgerror.From(err)
	if pe.Position != 6 || pe.Detail != `Argument "table" is required.` ||
		pe.Hint != "The procedure takes system.expire_snapshots(table text, older_than timestamp with time zone (optional), retain_last integer (optional))." {
		t.Errorf("missing argument: position %d, detail %q, hint %q", pe.Position, pe.Detail, pe.Hint)
	}
	_, _, err = run(t, s, "CALL system.rewrite_data_files(table => 'items', table => 'x')")
	if pe := pgerror.From(err); pe.Position != 50 {
		t.Errorf("repeated argument at %d, want 50", pe.Position)
	}
}

// refuseWrites refuses alice every update of a table, as a reader's
// grants do; loads (reads) are allowed.
type refuseWrites struct{}

func (refuseWrites) Authorize(_ context.Context, p storage.Principal, a storage.Action, _ storage.Ident) error {
	if p.User == "alice" && a == storage.ActionUpdateTable {
		return errors.New("refused by test policy")
	}
	return nil
}

func TestCallNeedsWritePrivilege(t *testing.T) {
	s := newCatalogTestSession(t, refuseWrites{})
	runDMLSteps(t, s, []dmlStep{
		{sql: "SELECT count(*) FROM acdemo.orders", rows: []string{"3"}, tag: "SELECT 1"},
		{sql: "CALL system.rewrite_data_files(table => 'acdemo.orders')", code: pgerror.InsufficientPrivilege, msg: "permission denied for table orders"},
		{sql: "CALL system.expire_snapshots(table => 'acdemo.orders', retain_last => 1)", code: pgerror.InsufficientPrivilege, msg: "permission denied for table orders"},
	})
}

// TestCallArguments drives the CALL framework with a procedure of every
// kind of parameter, answering the arguments it received.
func TestCallArguments(t *testing.T) {
	echo := &procedure{
		name: "system.echo",
		params: []procParam{
			{name: "label", typ: types.Text, required: true},
			{name: "n", typ: types.Int8, def: int64(7)},
			{name: "at", typ: types.TimestampTZ},
			{name: "flag", typ: types.Bool},
		},
		columns: []Column{{Name: "args", Type: types.Text}},
		run: func(_ context.Context, _ *Session, args procArgs) ([]any, error) {
			label, _ := args.text("label")
			n, _ := args.integer("n")
			out := fmt.Sprintf("%s n=%d", label, n)
			if at, ok := args.timestamp("at"); ok {
				out += " at=" + at.Format(time.RFC3339)
			}
			if flag, ok := args["flag"].(bool); ok {
				out += fmt.Sprintf(" flag=%v", flag)
			}
			return []any{out}, nil
		},
	}
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	e := NewEngine(EngineConfig{}, []storage.Catalog{cat}, governance.Passthrough{})
	e.procedures = procedures{}
	e.procedures.register(echo)
	s, err := e.NewSession(ctx, auth.Identity{User: "alice"}, "sales_wh", []StartupSetting{{Name: "TimeZone", Value: "Europe/Paris"}})
	if err != nil {
		t.Fatal(err)
	}
	runDMLSteps(t, s, []dmlStep{
		{sql: "CALL system.echo('a')", rows: []string{"a n=7"}, tag: "CALL"},
		{sql: "CALL system.echo(label => 'b', n => NULL)", rows: []string{"b n=7"}, tag: "CALL"},
		{sql: "CALL system.echo('c', 2::smallint)", rows: []string{"c n=2"}, tag: "CALL"},
		{sql: "CALL system.echo('d', flag => 1 < 2, n => 40 + 2)", rows: []string{"d n=42 flag=true"}, tag: "CALL"},
		{sql: "CALL system.echo(upper('e'), at => '2026-06-01 12:00')", rows: []string{"E n=7 at=2026-06-01T10:00:00Z"}, tag: "CALL"},
		{sql: "CALL system.echo('f', at => TIMESTAMP '2026-01-01 00:00' + INTERVAL '1 day')", rows: []string{"f n=7 at=2026-01-01T23:00:00Z"}, tag: "CALL"},
		{sql: "CALL system.echo('g', at => DATE '2026-03-01')", rows: []string{"g n=7 at=2026-02-28T23:00:00Z"}, tag: "CALL"},
		{sql: "CALL system.echo('h', flag => 'yes')", rows: []string{"h n=7 flag=true"}, tag: "CALL"},
		{sql: "CALL system.echo(label := 'i')", rows: []string{"i n=7"}, tag: "CALL"},
		{sql: "CALL system.echo('j', n => 1.5)", code: pgerror.UndefinedFunction, msg: "procedure system.echo(unknown, n => numeric) does not exist"},
		{sql: "CALL system.echo('k', at => 'x'::text)", code: pgerror.UndefinedFunction, msg: "procedure system.echo(unknown, at => text) does not exist"},
		{sql: "CALL system.echo('l', n => generate_series(1, 2))", code: pgerror.FeatureNotSupported, msg: "set-returning functions are not allowed in CALL arguments"},
	})
}
