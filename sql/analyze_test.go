package sql

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestAnalyze: ANALYZE completes with PostgreSQL's tag once its names
// check out, and fails as PostgreSQL 15 does when they do not.
func TestAnalyze(t *testing.T) {
	tests := []struct {
		query, code, message string
	}{
		{query: "ANALYZE"},
		{query: "ANALYZE acdemo.orders"},
		{query: "ANALYZE VERBOSE acdemo.orders (id, region)"},
		{query: "ANALYZE acdemo.orders, acdemo.sales"},
		{query: "BEGIN; ANALYZE acdemo.orders; COMMIT"},
		{query: "ANALYZE nope", code: pgerror.UndefinedTable, message: `relation "nope" does not exist`},
		{query: "ANALYZE acdemo.orders, acdemo.nope", code: pgerror.UndefinedTable, message: `relation "acdemo.nope" does not exist`},
		{query: "ANALYZE acdemo.orders (nope)", code: pgerror.UndefinedColumn, message: `column "nope" of relation "orders" does not exist`},
		{query: "ANALYZE acdemo.orders (id, id)", code: pgerror.DuplicateColumn, message: `column "id" of relation "orders" appears more than once`},
		{query: "VACUUM", code: pgerror.FeatureNotSupported, message: "VACUUM is not supported: Iceberg tables are maintained by procedures"},
		{query: "VACUUM ANALYZE acdemo.orders", code: pgerror.FeatureNotSupported, message: "VACUUM is not supported: Iceberg tables are maintained by procedures"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			s := newTestSession(t)
			_, tags, err := run(t, s, tt.query)
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(strings.Join(tags, " "), "ANALYZE") {
					t.Fatalf("tags %q, want ANALYZE", tags)
				}
				return
			}
			if pgerror.Code(err) != tt.code || !strings.HasPrefix(err.Error(), tt.message) {
				t.Fatalf("err = %v, want %s %q", err, tt.code, tt.message)
			}
		})
	}
}

// TestVacuumNamesProcedures: the VACUUM error tells which procedures do
// its work.
func TestVacuumNamesProcedures(t *testing.T) {
	s := newTestSession(t)
	_, _, err := run(t, s, "VACUUM acdemo.orders")
	pe, ok := err.(*pgerror.Error)
	if !ok || !strings.Contains(pe.Hint, "system.rewrite_data_files") || !strings.Contains(pe.Hint, "system.expire_snapshots") {
		t.Fatalf("err = %#v, want a hint naming the maintenance procedures", err)
	}
}

// TestAnalyzeRefusedTable: a table the caller may not use fails ANALYZE
// with the very error a SELECT of it gets (42P01 where its schema is
// hidden), and says nothing more.
func TestAnalyzeRefusedTable(t *testing.T) {
	for _, policy := range []refuseFor{{namespace: "acdemo"}, {namespace: "acdemo", table: "sales"}} {
		s := newCatalogTestSession(t, policy)
		_, _, selErr := run(t, s, "SELECT 1 FROM acdemo.sales")
		_, _, err := run(t, s, "ANALYZE acdemo.sales")
		a, ok1 := err.(*pgerror.Error)
		b, ok2 := selErr.(*pgerror.Error)
		if !ok1 || !ok2 || a.Code != b.Code || a.Message != b.Message || a.Detail != b.Detail || a.Hint != b.Hint {
			t.Fatalf("%+v: ANALYZE says %v, SELECT %v: want the same error", policy, err, selErr)
		}
		if policy.table == "" && a.Code != pgerror.UndefinedTable {
			t.Fatalf("hidden schema: ANALYZE says %v, want 42P01", err)
		}
		if policy.table != "" {
			if _, tags, err := run(t, s, "ANALYZE acdemo.orders"); err != nil || !reflect.DeepEqual(tags, []string{"ANALYZE"}) {
				t.Fatalf("ANALYZE of a visible table: %q, %v", tags, err)
			}
		}
	}
}
