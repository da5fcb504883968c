package storage

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// bloomValue is the value row i of the bloom tests holds in every tested
// column: in each row group of bloomGroupRows rows the first row holds
// 0 and the last 1000, so every group's bounds are [0, 1000] and
// statistics prune nothing, and the rows between hold 1 + 10i, found in
// one group only. No row holds 5.
func bloomValue(i int) int64 {
	switch i % bloomGroupRows {
	case 0:
		return 0
	case bloomGroupRows - 1:
		return 1000
	}
	return 1 + 10*int64(i)
}

const (
	bloomGroupRows = 10
	bloomRows      = 50
)

// bloomColumns are the tested columns: name, Arrow type, and the Iceberg
// literal (as the SQL layer would push it) of a bloomValue.
var bloomColumns = []struct {
	name string
	typ  arrow.DataType
	lit  func(v int64) iceberg.Literal
}{
	{"b", arrow.PrimitiveTypes.Int64, func(v int64) iceberg.Literal { return iceberg.NewLiteral(v) }},
	{"i", arrow.PrimitiveTypes.Int32, func(v int64) iceberg.Literal { return iceberg.NewLiteral(int32(v)) }},
	{"s", arrow.BinaryTypes.String, func(v int64) iceberg.Literal { return iceberg.NewLiteral(fmt.Sprintf("v%04d", v)) }},
	{"d", arrow.FixedWidthTypes.Date32, func(v int64) iceberg.Literal { return iceberg.NewLiteral(iceberg.Date(v)) }},
	{"ts", &arrow.TimestampType{Unit: arrow.Microsecond}, func(v int64) iceberg.Literal {
		return iceberg.NewLiteral(iceberg.Timestamp(bloomMicros(v)))
	}},
	{"n12", &arrow.Decimal128Type{Precision: 12, Scale: 2}, func(v int64) iceberg.Literal { return iceberg.NewLiteral(bloomDecimal(v)) }},
	{"n38", &arrow.Decimal128Type{Precision: 38, Scale: 2}, func(v int64) iceberg.Literal { return iceberg.NewLiteral(bloomDecimal(v)) }},
}

// appendBloomValue appends the bloomValue v in the form of the column
// b builds.
func appendBloomValue(b array.Builder, v int64) {
	switch fb := b.(type) {
	case *array.Int64Builder:
		fb.Append(v)
	case *array.Int32Builder:
		fb.Append(int32(v))
	case *array.StringBuilder:
		fb.Append(fmt.Sprintf("v%04d", v))
	case *array.Date32Builder:
		fb.Append(arrow.Date32(v))
	case *array.TimestampBuilder:
		fb.Append(arrow.Timestamp(bloomMicros(v)))
	case *array.Decimal128Builder:
		fb.Append(bloomDecimal(v).Val)
	}
}

func bloomMicros(v int64) int64 { return 1_600_000_000_000_000 + v*int64(time.Second/time.Microsecond) }

// bloomDecimal is v.07, or -0.07 for 0 so that negative values are
// stored too (each group's bounds still hold every value).
func bloomDecimal(v int64) iceberg.Decimal {
	u := v*100 + 7
	if v == 0 {
		u = -u
	}
	return iceberg.Decimal{Val: decimal128.FromI64(u), Scale: 2}
}

// bloomTable creates a table of the row and the columns named, with
// row groups of bloomGroupRows rows and, when bloom is set, a bloom
// filter on every tested column, and writes bloomRows rows in one file.
// With n12 among the columns SQE writes the file, otherwise iceberg-go.
func bloomTable(t *testing.T, names []string, bloom bool) *Table {
	t.Helper()
	fields := []arrow.Field{{Name: "row", Type: arrow.PrimitiveTypes.Int64}}
	props := map[string]string{
		table.ParquetRowGroupLimitKey:       fmt.Sprint(bloomGroupRows),
		table.ParquetBloomFilterMaxBytesKey: "1024",
	}
	for _, c := range bloomColumns {
		if slices.Contains(names, c.name) {
			fields = append(fields, arrow.Field{Name: c.name, Type: c.typ, Nullable: true})
			if bloom {
				props[table.ParquetBloomFilterColumnEnabledKeyPrefix+"."+c.name] = "true"
			}
		}
	}
	sc := arrow.NewSchema(fields, nil)
	tbl := createTestTable(t, sc, props)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i := range bloomRows {
		v := bloomValue(i)
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		for f := 1; f < len(fields); f++ {
			appendBloomValue(b.Field(f), v)
		}
	}
	return appendBuilt(t, tbl, b)
}

// TestBloomFilterPruning looks up each tested column, on tables written
// by iceberg-go and by SQE, and checks that the row groups read are
// those holding the value (bloom filters prune what statistics cannot),
// that every row holding it is read, and that a table without the
// property reads every group.
func TestBloomFilterPruning(t *testing.T) {
	all := []string{"b", "i", "s", "d", "ts", "n12", "n38"}
	byIceberg := []string{"b", "i", "s", "d", "ts", "n38"}
	lookups := []struct {
		name   string
		values []int64
		groups int // with bloom filters
	}{
		{"present in one group", []int64{bloomValue(13)}, 1},
		{"absent", []int64{5}, 0},
		{"in every group", []int64{0}, 5},
		{"in list across groups", []int64{bloomValue(3), bloomValue(45)}, 2},
		{"in list of absent values", []int64{5, 6, 7}, 0},
	}
	for _, tc := range []struct {
		name  string
		cols  []string
		bloom bool
	}{
		{"written by SQE", all, true},
		{"written by iceberg-go", byIceberg, true},
		{"without the property", all, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tbl := bloomTable(t, tc.cols, tc.bloom)
			for _, col := range tc.cols {
				var lit func(int64) iceberg.Literal
				for _, c := range bloomColumns {
					if c.name == col {
						lit = c.lit
					}
				}
				for _, lk := range lookups {
					filter := bloomFilterOf(col, lk.values, lit)
					_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"row"}, Filter: filter, PruneOnly: true})
					want := 5
					if tc.bloom {
						want = lk.groups
					}
					if len(rows) != bloomGroupRows*want {
						t.Errorf("%s %s: read %d rows, want the %d of %d row groups", col, lk.name, len(rows), bloomGroupRows*want, want)
					}
					var read []int64
					for _, r := range rows {
						read = append(read, r[0].(int64))
					}
					for i := range bloomRows {
						if slices.Contains(lk.values, bloomValue(i)) && !slices.Contains(read, int64(i)) {
							t.Errorf("%s %s: row %d is missing from the rows read", col, lk.name, i)
						}
					}
				}
			}
		})
	}
}

// bloomFilterOf is col = value, or col IN values.
func bloomFilterOf(col string, values []int64, lit func(int64) iceberg.Literal) iceberg.BooleanExpression {
	lits := make([]iceberg.Literal, len(values))
	for i, v := range values {
		lits[i] = lit(v)
	}
	if len(lits) == 1 {
		return iceberg.LiteralPredicate(iceberg.OpEQ, iceberg.Reference(col), lits[0])
	}
	return iceberg.SetPredicate(iceberg.OpIn, iceberg.Reference(col), lits)
}

// TestBloomFiltersCached checks that a lookup that read the filters
// once prunes the same groups with nothing left to read, and that a
// lookup with no read allowed and nothing cached keeps every group.
func TestBloomFiltersCached(t *testing.T) {
	tbl := bloomTable(t, []string{"s"}, true)
	ctx := adminCtx(t)
	filter := iceberg.EqualTo(iceberg.Reference("s"), fmt.Sprintf("v%04d", bloomValue(13)))
	tasks, err := tbl.planInCommitOrder(ctx, filter, 0)
	if err != nil || len(tasks) != 1 {
		t.Fatalf("%d files planned (%v), want 1", len(tasks), err)
	}
	bound := tbl.rowGroupFilter(filter)
	for _, step := range []struct {
		name           string
		footers, reads int
		groups, left   int
	}{
		{"no filter read allowed", 1, 0, 5, 0},
		{"read", 1, bloomReads, 1, bloomReads - 6}, // the footer is cached, five filters
		{"cached", 0, 0, 1, 0},
	} {
		budget := &pruneBudget{footers: step.footers, blooms: step.reads}
		got := tbl.rowGroupTasks(ctx, tasks[0], bound, budget)
		if len(got) != step.groups || budget.blooms != step.left {
			t.Errorf("%s: %d row groups kept and %d reads left, want %d and %d",
				step.name, len(got), budget.blooms, step.groups, step.left)
		}
	}
}

// TestBloomHashMatchesWriter writes each tested type with arrow-go's
// writer, as either writer stores it (decimals as integers or as
// fixed-length bytes), and checks that the hash of each stored value's
// literal is in the column's filter and that the form is known.
func TestBloomHashMatchesWriter(t *testing.T) {
	for _, asInteger := range []bool{true, false} {
		for _, c := range bloomColumns {
			t.Run(fmt.Sprintf("%s/decimal-as-integer=%v", c.name, asInteger), func(t *testing.T) {
				sc := arrow.NewSchema([]arrow.Field{{Name: c.name, Type: c.typ, Nullable: true,
					Metadata: arrow.NewMetadata([]string{fieldIDKey}, []string{"1"})}}, nil)
				b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
				defer b.Release()
				var lits []iceberg.Literal
				for i := range bloomRows {
					v := bloomValue(i)
					appendBloomValue(b.Field(0), v)
					lits = append(lits, c.lit(v))
				}
				b.Field(0).AppendNull()
				rec := b.NewRecordBatch()
				defer rec.Release()
				var buf bytes.Buffer
				props := parquet.NewWriterProperties(parquet.WithBloomFilterEnabledFor(c.name, true),
					parquet.WithMaxBloomFilterBytes(1024), parquet.WithStoreDecimalAsInteger(asInteger))
				w, err := pqarrow.NewFileWriter(sc, &buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
				if err != nil {
					t.Fatal(err)
				}
				if err := w.Write(rec); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				rdr, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
				if err != nil {
					t.Fatal(err)
				}
				defer rdr.Close()
				icebergSchema, err := table.ArrowSchemaToIcebergWithFreshIDs(sc, false)
				if err != nil {
					t.Fatal(err)
				}
				meta := rdr.MetaData()
				blooms := bloomColumnsOf(icebergSchema, meta, meta.RowGroup(0), map[int]*storedAs{})
				col, ok := blooms[1]
				if !ok {
					t.Fatalf("no bloom column for %s stored as %s", c.name, meta.Schema.Column(0))
				}
				bfr, err := rdr.GetBloomFilterReader().RowGroup(0)
				if err != nil {
					t.Fatal(err)
				}
				bf, err := bfr.GetColumnBloomFilter(0)
				if err != nil || bf == nil {
					t.Fatalf("bloom filter: %v, %v", bf, err)
				}
				for _, lit := range lits {
					h, ok := col.stored.hash(bf.Hasher(), lit)
					if !ok || !bf.CheckHash(h) {
						t.Errorf("%v (%T): hashed %v, in the filter %v", lit, lit, ok, ok && bf.CheckHash(h))
					}
				}
				absent := c.lit(5)
				if h, ok := col.stored.hash(bf.Hasher(), absent); !ok || bf.CheckHash(h) {
					t.Errorf("%v: hashed %v, found in the filter", absent, ok)
				}
			})
		}
	}
}
