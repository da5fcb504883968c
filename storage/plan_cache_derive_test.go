package storage

import (
	"slices"
	"testing"

	"github.com/apache/iceberg-go"
)

// TestPlanDerivesFromTheUnfilteredPlan plans filtered scans of four
// one-row files (ids 0..3; name "n<id>") from the snapshot's plan without
// a filter, and checks that the files kept are those iceberg-go's planner
// keeps, that only the unfiltered plan is cached, and that the filters
// derive does not judge as precisely as the planner are left to it.
func TestPlanDerivesFromTheUnfilteredPlan(t *testing.T) {
	id, name := iceberg.Reference("id"), iceberg.Reference("name")
	for _, tt := range []struct {
		name        string
		partitioned bool
		filter      iceberg.BooleanExpression
		derived     bool
		files       int
	}{
		{name: "point", filter: iceberg.EqualTo(id, int64(2)), derived: true, files: 1},
		{name: "point outside every file", filter: iceberg.EqualTo(id, int64(7)), derived: true, files: 0},
		{name: "range on a bound", filter: iceberg.GreaterThanEqual(id, int64(3)), derived: true, files: 1},
		{name: "in list", filter: iceberg.IsIn(id, int64(0), int64(3), int64(9)), derived: true, files: 2},
		{name: "string point", filter: iceberg.EqualTo(name, "n1"), derived: true, files: 1},
		{name: "negated range", filter: iceberg.NewNot(iceberg.LessThan(id, int64(1))), derived: true, files: 3},
		{name: "is null of a column without NULLs", filter: iceberg.IsNull(name), derived: true, files: 0},
		{name: "or", filter: iceberg.NewOr(iceberg.EqualTo(id, int64(0)), iceberg.EqualTo(name, "n3")), derived: true, files: 2},
		{name: "not equal is left to the planner", filter: iceberg.NotEqualTo(id, int64(2)), files: 4},
		{name: "prefix is left to the planner", filter: iceberg.StartsWith(name, "n2"), files: 1},
		{name: "partitioned table is left to the planner", partitioned: true, filter: iceberg.EqualTo(id, int64(2)), files: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := adminCtx(t)
			tbl := oneRowCommits(t, tt.partitioned)
			cache := newPlanCache(8, 1000)
			got, derived, err := cache.derive(ctx, tbl.tbl, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if derived != tt.derived {
				t.Fatalf("derived = %v, want %v", derived, tt.derived)
			}
			want, err := planFiles(ctx, tbl.tbl, tt.filter, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != tt.files {
				t.Fatalf("planning found %d files, want %d", len(want), tt.files)
			}
			if !derived {
				return
			}
			if !slices.Equal(viewTasks(got), viewTasks(want)) {
				t.Errorf("derived plan %v, planning says %v", viewTasks(got), viewTasks(want))
			}
			k, _ := planKeyFor(tbl.tbl, tt.filter, 0)
			if _, cached := cache.get(k); cached {
				t.Error("the derived plan was cached")
			}
			all, _ := planKeyFor(tbl.tbl, nil, 0)
			if _, cached := cache.get(all); !cached {
				t.Error("the unfiltered plan was not cached")
			}
		})
	}
}
