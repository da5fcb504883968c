package policy

import (
	"context"
	"fmt"
	"testing"

	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// BenchmarkSecure is policy resolution for one table reference with a
// warm cache: a 40-column table among 200 tables' policies (a mask on
// each table's first column, a row filter on each table, a tag mask),
// resolved for a caller that two of them apply to.
func BenchmarkSecure(b *testing.B) {
	var policies []ranger.Policy
	for i := range 200 {
		table := fmt.Sprintf("t%d", i)
		m, err := ColumnMask("m"+table, Target{Database: "acdemo", Table: table, Column: "c0"}, engineer, "MASK_SHOW_LAST_4", "")
		if err != nil {
			b.Fatal(err)
		}
		f, err := RowFilter("f"+table, Target{Database: "acdemo", Table: table}, engineer, "c1 = current_user()")
		if err != nil {
			b.Fatal(err)
		}
		policies = append(policies, m, f)
	}
	tm, err := ColumnMask("tag", Target{Tag: "PII"}, engineer, "MASK_HASH", "")
	if err != nil {
		b.Fatal(err)
	}
	policies = append(policies, tm)
	hive, tag, err := serviceDefs()
	if err != nil {
		b.Fatal(err)
	}
	store := &memStore{snap: Snapshot{Version: 1, ServiceDef: hive, TagServiceDef: tag}}
	for _, p := range policies {
		if err := store.PutPolicy(context.Background(), p, true); err != nil {
			b.Fatal(err)
		}
	}
	tbl := &fakeTable{name: planner.TableName{Catalog: "sales_wh", Schema: "acdemo", Name: "t7"}, tags: map[int][]string{3: {"PII"}}}
	for i := range 40 {
		tbl.cols = append(tbl.cols, planner.TableColumn{Name: fmt.Sprintf("c%d", i), Type: types.Text})
	}
	sec := NewEnforcer(Config{Store: store}).SecurityFor(bob)
	ctx := context.Background()
	if rel, err := sec.Secure(ctx, tbl); err != nil || len(rel.Masks) != 2 || len(rel.RowFilters) != 1 {
		b.Fatalf("relation %+v, %v", rel, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := sec.Secure(ctx, tbl); err != nil {
			b.Fatal(err)
		}
	}
}
