package pgwire_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestPgxMaintenanceProcedures writes a table with 200 single-row INSERTs
// (200 data files, 200 snapshots), then compacts it and expires its
// history with CALL through pgx, in the extended protocol (pgx's default,
// which describes the CALL's row before running it) and the simple one.
// The rows must come back identical after each step.
func TestPgxMaintenanceProcedures(t *testing.T) {
	target := startSQE(t)
	// 200 commits take about two minutes with -race on two busy cores.
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	conn := connectPgx(t, ctx, target)
	exec := func(query string, args ...any) {
		t.Helper()
		if _, err := conn.Exec(ctx, query, args...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
	exec("CREATE SCHEMA maint")
	exec("CREATE TABLE maint.t (id bigint NOT NULL, note text)")
	for i := int64(1); i <= 200; i++ {
		exec("INSERT INTO maint.t VALUES ($1, $2)", i, fmt.Sprintf("row %d", i))
	}
	rows := func() []string {
		t.Helper()
		r, err := conn.Query(ctx, "SELECT id, note FROM maint.t ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		out, err := pgx.CollectRows(r, func(row pgx.CollectableRow) (string, error) {
			var id int64
			var note string
			err := row.Scan(&id, &note)
			return fmt.Sprintf("%d %s", id, note), err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := rows()
	if len(before) != 200 {
		t.Fatalf("%d rows before maintenance, want 200", len(before))
	}

	var rewritten, added int32
	var bytes int64
	err := conn.QueryRow(ctx, "CALL system.rewrite_data_files(table => 'maint.t')").Scan(&rewritten, &added, &bytes)
	if err != nil || rewritten != 200 || added != 1 || bytes <= 0 {
		t.Fatalf("rewrite_data_files: %d files into %d, %d bytes (%v); want 200 into 1", rewritten, added, bytes, err)
	}
	if got := rows(); !slices.Equal(got, before) {
		t.Fatalf("rows changed by compaction: %d rows, first %q", len(got), got[:min(3, len(got))])
	}
	// Again, in the simple protocol: nothing left to compact.
	err = conn.QueryRow(ctx, "CALL system.rewrite_data_files(table => 'maint.t')", pgx.QueryExecModeSimpleProtocol).Scan(&rewritten, &added, &bytes)
	if err != nil || rewritten != 0 || added != 0 || bytes != 0 {
		t.Fatalf("second rewrite_data_files: %d, %d, %d (%v); want nothing done", rewritten, added, bytes, err)
	}

	// Expire every snapshot but the current one: 200 INSERTs and the
	// compaction's first, and with them the 200 small files. The
	// arguments are parameters, whose types the server infers.
	var data, posDeletes, eqDeletes, manifests, lists, stats, expired int64
	future := time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)
	err = conn.QueryRow(ctx, "CALL system.expire_snapshots(table => $1, older_than => $2, retain_last => $3)", "maint.t", future, 1).
		Scan(&data, &posDeletes, &eqDeletes, &manifests, &lists, &stats, &expired)
	if err != nil || data != 200 || posDeletes != 0 || eqDeletes != 0 || manifests == 0 || lists != 201 || stats != 0 || expired != 201 {
		t.Fatalf("expire_snapshots: %d data files, %d manifests, %d manifest lists, %d snapshots (%v)", data, manifests, lists, expired, err)
	}
	if got := rows(); !slices.Equal(got, before) {
		t.Fatalf("rows changed by expiry: %d rows", len(got))
	}

	// Mistakes get PostgreSQL's SQLSTATEs; a failed CALL leaves the
	// connection usable.
	for _, tc := range []struct{ query, code string }{
		{"CALL system.nope()", "42883"},
		{"CALL system.expire_snapshots(retain_last => 1)", "42883"},
		{"CALL system.expire_snapshots(table => 'maint.t', retain_last => true)", "42883"},
		{"CALL system.expire_snapshots(table => 'maint.t', table => 'maint.t')", "42601"},
		{"CALL system.expire_snapshots(table => 'maint.t', retain_last => 0)", "22023"},
		{"CALL system.rewrite_data_files(table => 'maint.nope')", "42P01"},
	} {
		_, err := conn.Exec(ctx, tc.query)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != tc.code {
			t.Errorf("%s: %v, want SQLSTATE %s", tc.query, err, tc.code)
		}
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tx.Exec(ctx, "CALL system.rewrite_data_files(table => 'maint.t')")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "25001" {
		t.Errorf("CALL in a transaction block: %v, want SQLSTATE 25001", err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if got := rows(); !slices.Equal(got, before) {
		t.Fatalf("rows changed: %d rows", len(got))
	}
}
