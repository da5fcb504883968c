package storage

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// pruneSchema is the table the pruning tests read: id 0..49 in row groups
// of 10 (ids 0-9, 10-19, ...), name NULL in the whole group 20-29 and
// "n<id>" elsewhere, f = id as a double but NaN for id 5.
var pruneSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

type pruneRow struct {
	id   int64
	name *string
	f    float64
}

func pruneRows() []pruneRow {
	rows := make([]pruneRow, 50)
	for i := range rows {
		r := pruneRow{id: int64(i), f: float64(i)}
		if i < 20 || i >= 30 {
			name := fmt.Sprintf("n%02d", i)
			r.name = &name
		}
		if i == 5 {
			r.f = math.NaN()
		}
		rows[i] = r
	}
	return rows
}

func pruneTable(t *testing.T) *Table {
	t.Helper()
	tbl := createTestTable(t, pruneSchema, map[string]string{table.ParquetRowGroupLimitKey: "10"})
	b := array.NewRecordBuilder(memory.DefaultAllocator, pruneSchema)
	defer b.Release()
	for _, r := range pruneRows() {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		if r.name == nil {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(*r.name)
		}
		b.Field(2).(*array.Float64Builder).Append(r.f)
	}
	return appendBuilt(t, tbl, b)
}

// TestRowGroupPruning scans one file of five row groups with filters
// that SQL would evaluate on each row (want) and checks that the row
// groups read are those the statistics cannot exclude (groups) and that
// no row the filter admits is lost, by Scan (whose batches are whole
// groups, as PruneOnly leaves the rows unfiltered) and by Morsels.
func TestRowGroupPruning(t *testing.T) {
	tbl := pruneTable(t)
	ref := func(name string) iceberg.UnboundTerm { return iceberg.Reference(name) }
	named := func(r pruneRow) bool { return r.name != nil }
	tests := []struct {
		name   string
		filter iceberg.BooleanExpression
		want   func(pruneRow) bool
		groups int
	}{
		{"point", iceberg.EqualTo(ref("id"), int64(15)), func(r pruneRow) bool { return r.id == 15 }, 1},
		{"on a group's lower bound", iceberg.EqualTo(ref("id"), int64(30)), func(r pruneRow) bool { return r.id == 30 }, 1},
		{"on a group's upper bound", iceberg.EqualTo(ref("id"), int64(39)), func(r pruneRow) bool { return r.id == 39 }, 1},
		{"in list", iceberg.IsIn(ref("id"), int64(3), int64(45)), func(r pruneRow) bool { return r.id == 3 || r.id == 45 }, 2},
		{"range", iceberg.GreaterThan(ref("id"), int64(39)), func(r pruneRow) bool { return r.id > 39 }, 1},
		{"range from a bound", iceberg.LessThanEqual(ref("id"), int64(10)), func(r pruneRow) bool { return r.id <= 10 }, 2},
		{"negated range", iceberg.NewNot(iceberg.LessThan(ref("id"), int64(40))), func(r pruneRow) bool { return r.id >= 40 }, 1},
		{"not equal reads every group", iceberg.NotEqualTo(ref("id"), int64(15)), func(r pruneRow) bool { return r.id != 15 }, 5},
		{"is null", iceberg.IsNull(ref("name")), func(r pruneRow) bool { return r.name == nil }, 1},
		{"is not null", iceberg.NotNull(ref("name")), named, 4},
		{"string point", iceberg.EqualTo(ref("name"), "n33"), func(r pruneRow) bool { return named(r) && *r.name == "n33" }, 1},
		{"string in the all-NULL group's range", iceberg.EqualTo(ref("name"), "n25"), func(pruneRow) bool { return false }, 0},
		{"double is not judged", iceberg.EqualTo(ref("f"), 12.0), func(r pruneRow) bool { return r.f == 12 }, 5},
		{"or across groups", iceberg.NewOr(iceberg.EqualTo(ref("id"), int64(15)), iceberg.IsNull(ref("name"))),
			func(r pruneRow) bool { return r.id == 15 || r.name == nil }, 2},
		{"and of two groups", iceberg.NewAnd(iceberg.EqualTo(ref("id"), int64(15)), iceberg.EqualTo(ref("name"), "n33")),
			func(pruneRow) bool { return false }, 0},
	}
	ctx := adminCtx(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want []int64
			for _, r := range pruneRows() {
				if tc.want(r) {
					want = append(want, r.id)
				}
			}
			_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"id"}, Filter: tc.filter, PruneOnly: true})
			if len(rows) != 10*tc.groups {
				t.Errorf("scan read %d rows, want the %d of %d row groups", len(rows), 10*tc.groups, tc.groups)
			}
			var read []int64
			for _, r := range rows {
				read = append(read, r[0].(int64))
			}
			for _, id := range want {
				if !slices.Contains(read, id) {
					t.Errorf("row %d is missing from the rows read %v", id, read)
				}
			}
			m, err := tbl.Morsels(ctx, ScanRequest{Columns: []string{"id"}, Filter: tc.filter, PruneOnly: true, MorselRows: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if m.Len() != tc.groups {
				t.Errorf("%d morsels, want %d", m.Len(), tc.groups)
			}
		})
	}
}

// TestRowGroupFooterBudget checks that a scan reads no footer beyond its
// budget (the file is then read whole) and that a footer read once
// serves later scans whatever their budget.
func TestRowGroupFooterBudget(t *testing.T) {
	tbl := pruneTable(t)
	ctx := adminCtx(t)
	filter := iceberg.EqualTo(iceberg.Reference("id"), int64(15))
	tasks, err := tbl.planInCommitOrder(ctx, filter, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 {
		t.Fatalf("%d files planned, want 1", len(tasks))
	}
	bound := tbl.rowGroupFilter(filter)
	for _, step := range []struct {
		budget, left, groups int
	}{
		{budget: 0, left: 0, groups: 5}, // not cached, no read allowed
		{budget: 1, left: 0, groups: 1}, // read
		{budget: 0, left: 0, groups: 1}, // cached
		{budget: 3, left: 3, groups: 1}, // cached, nothing read
	} {
		budget := &pruneBudget{footers: step.budget}
		got := tbl.rowGroupTasks(ctx, tasks[0], bound, budget)
		if len(got) != step.groups || budget.footers != step.left {
			t.Errorf("budget %d: %d row groups kept and %d reads left, want %d and %d",
				step.budget, len(got), budget.footers, step.groups, step.left)
		}
	}
}

// TestMorselsJoinRowGroups checks that Morsels joins adjacent row groups
// of the five-group file up to MorselRows rows, never across a pruned
// group, and that the morsels read in order are the scan's rows.
func TestMorselsJoinRowGroups(t *testing.T) {
	tbl := pruneTable(t)
	ctx := adminCtx(t)
	ids := func(from, to int64) []int64 {
		var out []int64
		for i := from; i < to; i++ {
			out = append(out, i)
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		filter  iceberg.BooleanExpression
		rows    int64
		morsels int
		want    []int64
	}{
		{name: "default", morsels: 1, want: ids(0, 50)},
		{name: "two groups each", rows: 20, morsels: 3, want: ids(0, 50)},
		{name: "one group each", rows: 10, morsels: 5, want: ids(0, 50)},
		{name: "adjacent survivors", filter: iceberg.LessThanEqual(iceberg.Reference("id"), int64(10)), morsels: 1, want: ids(0, 20)},
		{name: "survivors apart", filter: iceberg.IsIn(iceberg.Reference("id"), int64(3), int64(45)), morsels: 2,
			want: append(ids(0, 10), ids(40, 50)...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tbl.Morsels(ctx, ScanRequest{Columns: []string{"id"}, Filter: tc.filter, PruneOnly: true, MorselRows: tc.rows})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if m.Len() != tc.morsels {
				t.Errorf("%d morsels, want %d", m.Len(), tc.morsels)
			}
			var got []int64
			for i := range m.Len() {
				got = append(got, readMorsel(t, m, i)...)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("morsels read %v, want %v", got, tc.want)
			}
		})
	}
}

// pruneTSTable is a table of ids 0..49 in row groups of 10, at and atz
// = id ms after the epoch, amount = id / 100 (stored as an integer).
func pruneTSTable(t *testing.T) *Table {
	t.Helper()
	micros := &arrow.TimestampType{Unit: arrow.Microsecond}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "at", Type: micros},
		{Name: "atz", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "amount", Type: &arrow.Decimal128Type{Precision: 12, Scale: 2}},
	}, nil)
	tbl := createTestTable(t, schema, map[string]string{table.ParquetRowGroupLimitKey: "10"})
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range int64(50) {
		b.Field(0).(*array.Int64Builder).Append(i)
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(i * 1000))
		b.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(i * 1000))
		b.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(i))
	}
	return appendBuilt(t, tbl, b)
}

// TestRowGroupPruningTimestampsAndDecimals checks that row groups are
// judged by the statistics of timestamp, timestamptz and integer-stored
// decimal columns.
func TestRowGroupPruningTimestampsAndDecimals(t *testing.T) {
	tbl := pruneTSTable(t)
	ref := func(name string) iceberg.UnboundTerm { return iceberg.Reference(name) }
	dec := func(v int64) iceberg.Decimal { return iceberg.Decimal{Val: decimal128.FromI64(v), Scale: 2} }
	tests := []struct {
		name   string
		filter iceberg.BooleanExpression
		want   []int64 // ids the filter admits
		groups int
	}{
		{"timestamp point", iceberg.EqualTo(ref("at"), iceberg.Timestamp(15_000)), []int64{15}, 1},
		{"timestamp range", iceberg.GreaterThanEqual(ref("at"), iceberg.Timestamp(40_000)), []int64{40, 45, 49}, 1},
		{"timestamptz range", iceberg.LessThan(ref("atz"), iceberg.Timestamp(10_000)), []int64{0, 9}, 1},
		{"decimal point", iceberg.EqualTo(ref("amount"), dec(33)), []int64{33}, 1},
		{"decimal in list", iceberg.IsIn(ref("amount"), dec(3), dec(47)), []int64{3, 47}, 2},
		{"decimal absent", iceberg.EqualTo(ref("amount"), dec(5000)), nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"id"}, Filter: tc.filter, PruneOnly: true})
			if len(rows) != 10*tc.groups {
				t.Errorf("scan read %d rows, want the %d of %d row groups", len(rows), 10*tc.groups, tc.groups)
			}
			var read []int64
			for _, r := range rows {
				read = append(read, r[0].(int64))
			}
			for _, id := range tc.want {
				if !slices.Contains(read, id) {
					t.Errorf("row %d is missing from the rows read %v", id, read)
				}
			}
		})
	}
}

// TestRowGroupPruningSplitFile checks that a file iceberg-go plans as
// several tasks (larger than read.split.target-size) is still pruned by
// row group within each task, and loses no row.
func TestRowGroupPruningSplitFile(t *testing.T) {
	tbl := pruneTable(t)
	ctx := adminCtx(t)
	tbl, err := tbl.Alter(ctx, func(a *Alteration) error {
		return a.SetProperties(map[string]string{table.ReadSplitTargetSizeKey: "1"})
	})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := tbl.planInCommitOrder(ctx, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) < 2 {
		t.Fatalf("the file was planned as %d task, want several", len(tasks))
	}
	ref := iceberg.Reference("id")
	for _, tc := range []struct {
		filter iceberg.BooleanExpression
		want   []int64
		groups int
	}{
		{iceberg.EqualTo(ref, int64(15)), []int64{15}, 1},
		{iceberg.EqualTo(ref, int64(0)), []int64{0}, 1},
		{iceberg.EqualTo(ref, int64(49)), []int64{49}, 1},
		{iceberg.IsIn(ref, int64(3), int64(45)), []int64{3, 45}, 2},
		{iceberg.EqualTo(ref, int64(99)), nil, 0},
	} {
		_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"id"}, Filter: tc.filter, PruneOnly: true})
		if len(rows) != 10*tc.groups {
			t.Errorf("%v: read %d rows, want the %d of %d row groups", tc.filter, len(rows), 10*tc.groups, tc.groups)
		}
		var read []int64
		for _, r := range rows {
			read = append(read, r[0].(int64))
		}
		for _, id := range tc.want {
			if !slices.Contains(read, id) {
				t.Errorf("%v: row %d is missing from the rows read %v", tc.filter, id, read)
			}
		}
	}
}
