package planner

import (
	"testing"

	"github.com/sqe-db/sqe/sql/types"
)

func TestSetOpColumnType(t *testing.T) {
	tests := []struct {
		name string
		l, r types.T
		want types.T
		ok   bool
	}{
		// pg_tables.schemaname UNION pg_views.schemaname (metabase).
		{"name and name stay name", types.Name, types.Name, types.Name, true},
		{"name and an untyped literal", types.Name, types.Unknown, types.Name, true},
		{"an untyped literal and name", types.Unknown, types.Name, types.Name, true},
		{"name and text become text", types.Name, types.Text, types.Text, true},
		{"varchar and text become text", types.Varchar, types.Text, types.Text, true},
		{"same varchar length kept", types.VarcharN(3), types.VarcharN(3), types.VarcharN(3), true},
		{"different varchar lengths drop the length", types.VarcharN(3), types.VarcharN(5), types.Varchar, true},
		{"two literals are text", types.Unknown, types.Unknown, types.Text, true},
		{"integers widen", types.Int4, types.Int8, types.Int8, true},
		{"text and integer do not match", types.Text, types.Int4, types.T{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := setOpColumnType(tc.l, tc.r)
			if ok != tc.ok || (ok && got != tc.want) {
				t.Fatalf("setOpColumnType(%s, %s) = %s, %v; want %s, %v", tc.l.Name(), tc.r.Name(), got.Name(), ok, tc.want.Name(), tc.ok)
			}
		})
	}
}
