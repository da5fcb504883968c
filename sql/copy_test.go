package sql

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// startCopy executes a one-statement query and returns its COPY result.
func startCopy(t *testing.T, s *Session, query string) (CopyOutResult, error) {
	t.Helper()
	ctx := context.Background()
	stmts, err := s.Parse(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute(ctx, stmts[0])
	if err != nil {
		return nil, err
	}
	t.Cleanup(res.Close)
	cp, err := StartCopyOut(ctx, res)
	if err == nil && cp == nil {
		t.Fatalf("%q is not a COPY result", query)
	}
	return cp, err
}

// loadCopy runs a COPY FROM STDIN statement with data as its input and
// returns what the load returned.
func loadCopy(t *testing.T, s *Session, query, data string) error {
	t.Helper()
	ctx := context.Background()
	stmts, err := s.Parse(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute(ctx, stmts[0])
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	cp, err := StartCopyIn(ctx, res)
	if err != nil || cp == nil {
		t.Fatalf("StartCopyIn: %v %v", cp, err)
	}
	return cp.Load(ctx, strings.NewReader(data))
}

// drainCopy reads a COPY result to its end and returns the row count.
func drainCopy(t *testing.T, cp CopyOutResult) int64 {
	t.Helper()
	var n int64
	for {
		b, err := cp.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return n
		}
		n += b.NumRows()
		b.Release()
	}
}

func TestCopyStatements(t *testing.T) {
	s := newTestSession(t)
	tests := []struct {
		query   string
		mode    CopyMode
		columns string // names, comma-separated
		rows    int64
	}{
		{"copy acdemo.orders to stdout", CopyText, "id,region,ssn,amount,order_date", 3},
		{"COPY acdemo.orders (ssn, id) TO STDOUT WITH (FORMAT csv, HEADER)", CopyCSV, "ssn,id", 3},
		{"copy binary acdemo.orders (amount) to stdout", CopyBinary, "amount", 3},
		{"copy (select region, count(*) as n from acdemo.orders group by region) to stdout csv", CopyCSV, "region,n", 2},
		{"copy (select id from acdemo.orders where id > 100) to stdout", CopyText, "id", 0},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			cp, err := startCopy(t, s, tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if cp.Columns() != nil {
				t.Errorf("a COPY must not describe rows, got %v", cp.Columns())
			}
			f := cp.CopyFormat()
			var names []string
			for _, c := range f.Columns {
				names = append(names, c.Name)
			}
			if f.Mode != tt.mode || strings.Join(names, ",") != tt.columns {
				t.Errorf("format %v columns %v, want %v %s", f.Mode, names, tt.mode, tt.columns)
			}
			if n := drainCopy(t, cp); n != tt.rows {
				t.Errorf("%d rows, want %d", n, tt.rows)
			}
			if want := fmt.Sprintf("COPY %d", tt.rows); cp.CommandTag() != want {
				t.Errorf("tag %q, want %q", cp.CommandTag(), want)
			}
		})
	}
}

func TestCopyRefusals(t *testing.T) {
	user := newTestSession(t)
	admin := newTestSession(t)
	admin.superuser = true
	const hint = "Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone."
	tests := []struct {
		s       *Session
		query   string
		code    string
		message string
		hint    string
	}{
		{user, "copy acdemo.orders to '/tmp/orders'", "42501", "must be superuser or have privileges of the pg_write_server_files role to COPY to a file", hint},
		{user, "copy (select 1) to '/tmp/one'", "42501", "must be superuser or have privileges of the pg_write_server_files role to COPY to a file", hint},
		{user, "copy acdemo.orders from '/tmp/orders'", "42501", "must be superuser or have privileges of the pg_read_server_files role to COPY from a file", hint},
		{user, "copy acdemo.orders to program 'cat'", "42501", "must be superuser or have privileges of the pg_execute_server_program role to COPY to or from an external program", hint},
		{admin, "copy acdemo.orders to '/tmp/orders'", "0A000", "COPY to or from a server file is not supported", ""},
		{admin, "copy acdemo.orders from program 'cat'", "0A000", "COPY to or from an external program is not supported", ""},
		{user, "copy acdemo.orders from stdin (format csv, force_quote (id))", "0A000", "COPY force quote only available using COPY TO", ""},
		{user, "copy acdemo.orders from stdin (force_null (id))", "0A000", "COPY force null available only in CSV mode", ""},
		{user, "copy acdemo.nope to stdout", "42P01", `relation "acdemo.nope" does not exist`, ""},
		{user, "copy acdemo.orders (id, nope) to stdout", "42703", `column "nope" of relation "orders" does not exist`, ""},
		{user, "copy acdemo.orders (id, id) to stdout", "42701", `column "id" specified more than once`, ""},
		{user, "copy (select 1 into t2) to stdout", "0A000", "COPY (SELECT INTO) is not supported", ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			_, err := startCopy(t, tt.s, tt.query)
			if err == nil {
				t.Fatalf("no error, want %s %s", tt.code, tt.message)
			}
			pe := pgerror.From(err)
			if pe.Code != tt.code || pe.Message != tt.message || pe.Hint != tt.hint {
				t.Fatalf("got %v (hint %q), want %s %s", err, pe.Hint, tt.code, tt.message)
			}
			if tt.code == "42P01" && pe.Position != 0 {
				t.Errorf("PostgreSQL reports no position opening COPY's table, got %d", pe.Position)
			}
		})
	}
}

func TestCopyThroughExtendedProtocol(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	ps, err := s.Prepare(ctx, "copy (select id, region from acdemo.orders) to stdout (format csv, force_quote (region))", nil)
	if err != nil {
		t.Fatal(err)
	}
	if ps.Columns != nil || len(ps.ParamTypes) != 0 {
		t.Fatalf("a COPY describes no rows and no parameters: %v %v", ps.Columns, ps.ParamTypes)
	}
	res, err := s.Bind(ctx, ps, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	cp, err := StartCopyOut(ctx, res)
	if err != nil || cp == nil {
		t.Fatalf("portal is not a COPY: %v", err)
	}
	f := cp.CopyFormat()
	if len(f.ForceQuote) != 2 || f.ForceQuote[0] || !f.ForceQuote[1] {
		t.Fatalf("force quote flags %v", f.ForceQuote)
	}
	if n := drainCopy(t, cp); n != 3 || cp.CommandTag() != "COPY 3" {
		t.Fatalf("%d rows, tag %q", n, cp.CommandTag())
	}

	// A bound COPY whose options are wrong fails when it starts, before
	// any COPY data.
	ps, err = s.Prepare(ctx, "copy acdemo.orders to stdout (delimiter 'ab')", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err = s.Bind(ctx, ps, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if _, err := StartCopyOut(ctx, res); pgerror.Code(err) != pgerror.FeatureNotSupported {
		t.Fatalf("got %v", err)
	}
}

func TestStartCopyOutIgnoresOtherResults(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	res := executeOne(t, ctx, s, "select 1")
	if cp, err := StartCopyOut(ctx, res); cp != nil || err != nil {
		t.Fatalf("a SELECT taken for a COPY: %v %v", cp, err)
	}
}
