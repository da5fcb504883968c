package sql

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
	"github.com/sqe-db/sqe/storage/demo"
)

func newTestSession(t testing.TB) *Session {
	t.Helper()
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	if err := demo.Load(storage.WithPrincipal(ctx, storage.Principal{User: "loader"}), cat, 1000); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(EngineConfig{AdminRoles: []string{"sqe_admin"}}, []storage.Catalog{cat}, governance.Passthrough{})
	s, err := e.NewSession(ctx, auth.Identity{User: "alice", Roles: []string{"analyst"}}, "sales_wh", []StartupSetting{{Name: "application_name", Value: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run executes every statement of query and returns the rows of the last
// one rendered as "a|b", with the command tags.
func run(t testing.TB, s *Session, query string) (rows []string, tags []string, err error) {
	t.Helper()
	ctx := context.Background()
	stmts, err := s.Parse(ctx, query)
	if err != nil {
		return nil, nil, err
	}
	for _, st := range stmts {
		res, err := s.Execute(ctx, st)
		if err != nil {
			return nil, tags, err
		}
		rows = nil
		for {
			b, err := res.Next(ctx)
			if err != nil {
				res.Close()
				return nil, tags, err
			}
			if b == nil {
				break
			}
			for r := 0; r < int(b.NumRows()); r++ {
				var vals []string
				for c := 0; c < int(b.NumCols()); c++ {
					col := b.Column(c)
					switch {
					case col.IsNull(r):
						vals = append(vals, "NULL")
					default:
						if d, ok := col.(*array.Decimal64); ok {
							vals = append(vals, decimal128.FromI64(int64(d.Value(r))).ToString(d.DataType().(*arrow.Decimal64Type).Scale))
							continue
						}
						if d, ok := col.(*array.Decimal128); ok {
							vals = append(vals, d.Value(r).ToString(d.DataType().(*arrow.Decimal128Type).Scale))
						} else {
							vals = append(vals, col.ValueStr(r))
						}
					}
				}
				rows = append(rows, strings.Join(vals, "|"))
			}
			b.Release()
		}
		tags = append(tags, res.CommandTag())
		res.Close()
	}
	return rows, tags, nil
}

func TestSessionStatements(t *testing.T) {
	tests := []struct {
		name     string
		query    string
		wantRows []string
		wantTags []string
		wantCode string
		wantPos  int32
	}{
		{name: "three-part name", query: "SELECT id, region, ssn FROM sales_wh.acdemo.orders ORDER BY id",
			wantRows: []string{"1|EU|111-11-1111", "2|US|222-22-2222", "3|EU|333-33-3333"}, wantTags: []string{"SELECT 3"}},
		{name: "search_path", query: "SET search_path = acdemo; SELECT count(*) FROM orders",
			wantRows: []string{"3"}, wantTags: []string{"SET", "SELECT 1"}},
		{name: "search_path default misses", query: "SELECT * FROM orders", wantCode: pgerror.UndefinedTable, wantPos: 15},
		{name: "show", query: "SHOW application_name", wantRows: []string{"test"}, wantTags: []string{"SHOW"}},
		{name: "unknown setting", query: "SHOW nope", wantCode: pgerror.UndefinedObject},
		{name: "parallel workers", query: "SET max_parallel_workers_per_gather = 4; SHOW max_parallel_workers_per_gather",
			wantRows: []string{"4"}, wantTags: []string{"SET", "SHOW"}},
		{name: "serial plans", query: "SET max_parallel_workers_per_gather = 0; SELECT count(*) FROM acdemo.orders",
			wantRows: []string{"3"}, wantTags: []string{"SET", "SELECT 1"}},
		{name: "parallel workers out of range", query: "SET max_parallel_workers_per_gather = -1", wantCode: pgerror.InvalidParameterValue},
		{name: "parallel workers not a number", query: "SET max_parallel_workers_per_gather = 'many'", wantCode: pgerror.InvalidParameterValue},
		{name: "fixed setting refused", query: "SET IntervalStyle = 'iso_8601'", wantCode: pgerror.FeatureNotSupported},
		{name: "fixed setting same value", query: "SET client_encoding = 'UTF8'", wantTags: []string{"SET"}},
		{name: "syntax error position", query: "SELECT 1 +", wantCode: pgerror.SyntaxError, wantPos: 11},
		{name: "syntax error at start", query: "SELEC 1", wantCode: pgerror.SyntaxError, wantPos: 1},
		{name: "undefined column position", query: "SELECT id, nope FROM acdemo.orders", wantCode: pgerror.UndefinedColumn, wantPos: 12},
		{name: "unsupported statement", query: "CREATE MATERIALIZED VIEW v AS SELECT 1", wantCode: pgerror.FeatureNotSupported},
		{name: "transaction", query: "BEGIN; SELECT 1; COMMIT", wantRows: []string{}, wantTags: []string{"BEGIN", "SELECT 1", "COMMIT"}},
		{name: "explain", query: "EXPLAIN SELECT id FROM acdemo.orders WHERE id = 2", wantTags: []string{"EXPLAIN"}},
		{name: "session functions", query: "SELECT current_user, current_database(), current_schema(), session_user, current_setting('search_path')",
			wantRows: []string{`alice|sales_wh|public|alice|"$user", public`}, wantTags: []string{"SELECT 1"}},
		{name: "current_schema follows search_path", query: "SET search_path = nope, acdemo; SELECT current_schema",
			wantRows: []string{"acdemo"}, wantTags: []string{"SET", "SELECT 1"}},
		{name: "current_setting missing_ok", query: "SELECT current_setting('nope', true)", wantRows: []string{"NULL"}, wantTags: []string{"SELECT 1"}},
		{name: "current_setting unknown", query: "SELECT current_setting('nope')", wantCode: pgerror.UndefinedObject},
		{name: "transaction isolation", query: "SHOW TRANSACTION ISOLATION LEVEL", wantRows: []string{"read committed"}, wantTags: []string{"SHOW"}},
		{name: "sales count", query: "SELECT count(*) FROM acdemo.sales", wantRows: []string{"1000"}, wantTags: []string{"SELECT 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSession(t)
			rows, tags, err := run(t, s, tt.query)
			if tt.wantCode != "" {
				var pe *pgerror.Error
				if !errors.As(err, &pe) || pe.Code != tt.wantCode {
					t.Fatalf("want %s, got %v", tt.wantCode, err)
				}
				if tt.wantPos != 0 && pe.Position != tt.wantPos {
					t.Fatalf("position %d, want %d", pe.Position, tt.wantPos)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantRows != nil && strings.Join(rows, "\n") != strings.Join(tt.wantRows, "\n") {
				t.Errorf("rows %q, want %q", rows, tt.wantRows)
			}
			if strings.Join(tags, ",") != strings.Join(tt.wantTags, ",") {
				t.Errorf("tags %q, want %q", tags, tt.wantTags)
			}
		})
	}
}

func TestFailedTransactionBlock(t *testing.T) {
	s := newTestSession(t)
	steps := []struct {
		query    string
		wantCode string
		status   byte
	}{
		{"BEGIN", "", 'T'},
		{"SELECT nope FROM acdemo.orders", pgerror.UndefinedColumn, 'E'},
		{"SELECT 1", pgerror.InFailedSQLTransaction, 'E'},
		{"ROLLBACK", "", 'I'},
		{"SELECT 1", "", 'I'},
	}
	for _, st := range steps {
		_, _, err := run(t, s, st.query)
		if got := pgerror.Code(err); st.wantCode != "" && got != st.wantCode || st.wantCode == "" && err != nil {
			t.Fatalf("%s: error %v, want %q", st.query, err, st.wantCode)
		}
		if s.TxStatus() != st.status {
			t.Fatalf("%s: status %c, want %c", st.query, s.TxStatus(), st.status)
		}
	}
}

func TestUnknownDatabaseIsFatal(t *testing.T) {
	e := NewEngine(EngineConfig{}, nil, nil)
	_, err := e.NewSession(context.Background(), auth.Identity{User: "alice"}, "nope", nil)
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.InvalidCatalogName || pe.Severity != pgerror.SeverityFatal {
		t.Fatalf("got %v", err)
	}
}

func TestParseSplitsStatements(t *testing.T) {
	s := &Session{}
	tests := []struct {
		query string
		want  []string
	}{
		{"", nil},
		{"  ;; ", nil},
		{"-- only a comment", nil},
		{"SELECT 1; SELECT 'a;b'", []string{"SELECT 1", "SELECT 'a;b'"}},
		{"SELECT 2 /* c */", []string{"SELECT 2 /* c */"}},
	}
	for _, tt := range tests {
		stmts, err := s.Parse(context.Background(), tt.query)
		if err != nil {
			t.Fatalf("%q: %v", tt.query, err)
		}
		var got []string
		for _, st := range stmts {
			got = append(got, st.SQL)
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%q: got %q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestAggregatesWithSessionFunctions(t *testing.T) {
	s := newTestSession(t)
	rows, _, err := run(t, s, "SELECT region, sum(amount), quote_ident(region), format_type(1700, 786438) FROM acdemo.orders GROUP BY region ORDER BY region")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"EU|430.75|\"EU\"|numeric(12,2)", "US|75.00|\"US\"|numeric(12,2)"}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows %q, want %q", rows, want)
	}
}

func TestSetRole(t *testing.T) {
	tests := []struct {
		query    string
		wantTags []string
		wantCode string
	}{
		{"SET ROLE NONE", []string{"SET"}, ""},
		{"RESET ROLE", []string{"RESET"}, ""},
		{"SET ROLE analyst", nil, pgerror.FeatureNotSupported},
	}
	for _, tt := range tests {
		s := newTestSession(t)
		_, tags, err := run(t, s, tt.query)
		if got := pgerror.Code(err); (tt.wantCode == "" && err != nil) || (tt.wantCode != "" && got != tt.wantCode) {
			t.Fatalf("%s: error %v, want %q", tt.query, err, tt.wantCode)
		}
		if tt.wantCode == "" && strings.Join(tags, ",") != strings.Join(tt.wantTags, ",") {
			t.Errorf("%s: tags %v, want %v", tt.query, tags, tt.wantTags)
		}
	}
}

// executeOne parses and executes a one-statement query under ctx and
// returns its result, closed when the test ends; it fails the test when
// either step fails.
func executeOne(t *testing.T, ctx context.Context, s *Session, query string) Result {
	t.Helper()
	stmts, err := s.Parse(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute(ctx, stmts[0])
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	t.Cleanup(res.Close)
	return res
}
