package planner

import (
	"context"
	"strings"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

func bindQuery(t *testing.T, query string) (*Plan, error) {
	t.Helper()
	tree, err := pg_query.Parse(query)
	if err != nil {
		t.Fatalf("parse %q: %v", query, err)
	}
	b := NewBinder(context.Background(), nil, OpenRelation{}, query)
	return b.BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
}

// findProjectSet returns the first ProjectSet of the plan.
func findProjectSet(n Node) *ProjectSet {
	if ps, ok := n.(*ProjectSet); ok {
		return ps
	}
	for _, in := range n.Inputs() {
		if ps := findProjectSet(in); ps != nil {
			return ps
		}
	}
	return nil
}

func TestCompositeSRFFieldSelection(t *testing.T) {
	tests := []struct {
		name      string
		query     string
		wantFuncs []string
		wantTypes []types.T // the output columns' types
		wantCode  string
	}{
		{
			name:      "x and n in lockstep",
			query:     "SELECT (information_schema._pg_expandarray(ARRAY[10, 20])).x, (INFORMATION_SCHEMA._PG_EXPANDARRAY(ARRAY[10, 20])).\"n\" AS pos",
			wantFuncs: []string{"unnest", "generate_subscripts"},
			wantTypes: []types.T{types.Int4, types.Int4},
		},
		{
			name:      "text elements",
			query:     "SELECT (information_schema._pg_expandarray(ARRAY['a'])).x",
			wantFuncs: []string{"unnest"},
			wantTypes: []types.T{types.Text},
		},
		{
			name:      "inside an expression",
			query:     "SELECT (information_schema._pg_expandarray(ARRAY[1])).n + 1",
			wantFuncs: []string{"generate_subscripts"},
			wantTypes: []types.T{types.Int4},
		},
		{
			name:      "a whole call becomes one column per field",
			query:     "SELECT information_schema._pg_expandarray(ARRAY['a']) AS keys",
			wantFuncs: []string{"unnest", "generate_subscripts"},
			wantTypes: []types.T{types.Text, types.Int4},
		},
		{
			name:      "and its fields are read through a subquery",
			query:     "SELECT (s.keys).n FROM (SELECT information_schema._pg_expandarray(ARRAY[1]) AS keys) s WHERE (s.keys).x = 1",
			wantFuncs: []string{"unnest", "generate_subscripts"},
			wantTypes: []types.T{types.Int4},
		},
		{name: "field of a plain column", query: "SELECT (s.a).x FROM (SELECT 1 AS a) s", wantCode: pgerror.UndefinedColumn},
		{name: "unknown field", query: "SELECT (information_schema._pg_expandarray(ARRAY[1])).y", wantCode: pgerror.UndefinedColumn},
		{name: "not in the select list", query: "SELECT 1 WHERE (information_schema._pg_expandarray(ARRAY[1])).n = 1", wantCode: pgerror.FeatureNotSupported},
		{name: "not an array", query: "SELECT (information_schema._pg_expandarray(1)).n", wantCode: pgerror.UndefinedFunction},
		{name: "other field selections are refused", query: "SELECT (lower('a')).x", wantCode: pgerror.FeatureNotSupported},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := bindQuery(t, tc.query)
			if tc.wantCode != "" {
				if got := pgerror.Code(err); got != tc.wantCode {
					t.Fatalf("error %v (%s), want SQLSTATE %s", err, got, tc.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("bind: %v", err)
			}
			ps := findProjectSet(p.Root)
			if ps == nil {
				t.Fatalf("no ProjectSet in\n%s", Explain(p.Root))
			}
			var names []string
			for _, f := range ps.Funcs {
				names = append(names, f.Name)
			}
			if strings.Join(names, ",") != strings.Join(tc.wantFuncs, ",") {
				t.Errorf("set-returning functions %q, want %q", names, tc.wantFuncs)
			}
			cols := p.Root.Columns()
			if len(cols) != len(tc.wantTypes) {
				t.Fatalf("%d output columns, want %d", len(cols), len(tc.wantTypes))
			}
			for i, c := range cols {
				if c.Type != tc.wantTypes[i] {
					t.Errorf("column %d (%s) is %s, want %s", i, c.Name, c.Type.Name(), tc.wantTypes[i].Name())
				}
			}
		})
	}
}
