package storage

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// readerOf builds a one-batch reader of schema from per-column builders.
func readerOf(t *testing.T, schema *arrow.Schema, fill func(b *array.RecordBuilder)) array.RecordReader {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	fill(b)
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rdr.Release)
	return rdr
}

func TestAppendRejectsBadBatches(t *testing.T) {
	tests := []struct {
		name   string
		schema *arrow.Schema
		fill   func(b *array.RecordBuilder)
		code   string
	}{
		{
			name:   "NULL in NOT NULL column",
			schema: arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil),
			fill: func(b *array.RecordBuilder) {
				b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 0}, []bool{true, false})
				b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
			},
			code: pgerror.NotNullViolation,
		},
		{
			name:   "wrong type",
			schema: arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String}, {Name: "name", Type: arrow.BinaryTypes.String}}, nil),
			fill: func(b *array.RecordBuilder) {
				b.Field(0).(*array.StringBuilder).Append("1")
				b.Field(1).(*array.StringBuilder).Append("a")
			},
			code: pgerror.DatatypeMismatch,
		},
		{
			name:   "narrowing type",
			schema: arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Uint64}, {Name: "name", Type: arrow.BinaryTypes.String}}, nil),
			fill: func(b *array.RecordBuilder) {
				b.Field(0).(*array.Uint64Builder).Append(1 << 63)
				b.Field(1).(*array.StringBuilder).Append("a")
			},
			code: pgerror.DatatypeMismatch,
		},
		{
			name:   "missing column",
			schema: arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil),
			fill:   func(b *array.RecordBuilder) { b.Field(0).(*array.Int64Builder).Append(1) },
			code:   pgerror.DatatypeMismatch,
		},
		{
			name:   "extra column",
			schema: arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String}, {Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil),
			fill: func(b *array.RecordBuilder) {
				b.Field(0).(*array.Int64Builder).Append(1)
				b.Field(1).(*array.StringBuilder).Append("a")
				b.Field(2).(*array.Int64Builder).Append(1)
			},
			code: pgerror.UndefinedColumn,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cat := openCatalog(t, "wh", "", AllowAll{})
			tbl := createIDTable(t, cat, "ns", "t")
			ctx := adminCtx(t)
			tbl, err := tbl.Append(ctx, idBatches(t, 100, 103, 3))
			if err != nil {
				t.Fatal(err)
			}
			before := tbl.SnapshotID()

			_, err = tbl.Append(ctx, readerOf(t, tt.schema, tt.fill))
			if !errors.Is(err, ErrConstraint) {
				t.Fatalf("Append = %v, want ErrConstraint", err)
			}
			if got := pgerror.Code(err); got != tt.code {
				t.Fatalf("SQLSTATE %s, want %s (%v)", got, tt.code, err)
			}
			after, err := cat.LoadTable(ctx, "ns", "t")
			if err != nil {
				t.Fatal(err)
			}
			if after.SnapshotID() != before || countRows(t, after) != 3 {
				t.Fatalf("rejected append changed the table: snapshot %d -> %d, %d rows",
					before, after.SnapshotID(), countRows(t, after))
			}
		})
	}
}

func TestAppendNotNullInLaterBatchCommitsNothing(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	ctx := adminCtx(t)
	nullable := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	var recs []arrow.RecordBatch
	for i, valid := range []bool{true, true, false} {
		b := array.NewRecordBuilder(memory.DefaultAllocator, nullable)
		b.Field(0).(*array.Int64Builder).AppendValues([]int64{int64(i)}, []bool{valid})
		b.Field(1).(*array.StringBuilder).AppendNull()
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	rdr, err := array.NewRecordReader(nullable, recs)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	_, err = tbl.Append(ctx, rdr)
	if !errors.Is(err, ErrConstraint) || pgerror.From(err).Message != `null value in column "id" violates not-null constraint` {
		t.Fatalf("Append = %v", err)
	}
	after, err := cat.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if after.SnapshotID() != 0 {
		t.Fatal("failed append left a snapshot")
	}
}

func TestAppendWidensLosslessly(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.CreateTable(ctx, "ns", "t", arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: tsUTC, Nullable: true},
	}, nil), CreateTableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Columns in another order, narrower or differently spelled types.
	in := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "+00:00"}, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int16},
	}, nil)
	tbl, err = tbl.Append(ctx, readerOf(t, in, func(b *array.RecordBuilder) {
		b.Field(0).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{42, 0}, []bool{true, false})
		b.Field(1).(*array.LargeStringBuilder).AppendValues([]string{"x", "y"}, nil)
		b.Field(2).(*array.Int16Builder).AppendValues([]int16{-5, 7}, nil)
	}))
	if err != nil {
		t.Fatal(err)
	}
	_, rows := readAll(t, tbl, ScanRequest{})
	want := [][]any{{int64(-5), "x", int64(42)}, {int64(7), "y", nil}}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Fatalf("rows %v, want %v", rows, want)
	}
}

func TestAppendEmptyReaderCommitsNothing(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	rdr, err := array.NewRecordReader(idSchema, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	after, err := tbl.Append(adminCtx(t), rdr)
	if err != nil {
		t.Fatal(err)
	}
	if after.SnapshotID() != 0 {
		t.Fatalf("empty append made snapshot %d", after.SnapshotID())
	}
}

func TestAppendIsOneSnapshot(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	after, err := tbl.Append(adminCtx(t), idBatches(t, 0, 1000, 100))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(after.tbl.Metadata().Snapshots()); n != 1 {
		t.Fatalf("%d snapshots after one append, want 1", n)
	}
	if after.RowCountEstimate() != 1000 {
		t.Fatalf("RowCountEstimate = %d", after.RowCountEstimate())
	}
}

// appendConcurrently runs one goroutine per table, each appending rounds
// batches of ids disjoint from the others'.
func appendConcurrently(t *testing.T, tables []*Table, rounds int) {
	t.Helper()
	ctx := adminCtx(t)
	var wg sync.WaitGroup
	errs := make(chan error, len(tables)*rounds)
	for w, tbl := range tables {
		wg.Go(func() {
			for r := range rounds {
				lo := int64((w*rounds + r) * 10)
				// Each worker keeps appending through its first, stale Table.
				if _, err := tbl.Append(ctx, idBatches(t, lo, lo+10, 10)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent append: %v", err)
	}
}

func checkIDs(t *testing.T, tbl *Table, n int) {
	t.Helper()
	_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"id"}})
	var ids []int64
	for _, r := range rows {
		ids = append(ids, r[0].(int64))
	}
	slices.Sort(ids)
	if len(ids) != n {
		t.Fatalf("%d rows, want %d", len(ids), n)
	}
	for i, id := range ids {
		if id != int64(i) {
			t.Fatalf("ids[%d] = %d: rows lost or duplicated", i, id)
		}
	}
	if got := tbl.RowCountEstimate(); got != int64(n) {
		t.Fatalf("RowCountEstimate = %d, want %d", got, n)
	}
}

func TestConcurrentAppendsInOneCatalog(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	appendConcurrently(t, []*Table{tbl, tbl, tbl}, 4)
	final, err := cat.LoadTable(adminCtx(t), "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, final, 3*4*10)
}

func TestConcurrentAppendsFromTwoCatalogs(t *testing.T) {
	dir := t.TempDir()
	a := openCatalog(t, "wh", dir, AllowAll{})
	b := openCatalog(t, "wh", dir, AllowAll{})
	createIDTable(t, a, "ns", "t")
	ctx := adminCtx(t)
	ta, err := a.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := b.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	// Separate catalogs share no lock: the commits race in SQLite and the
	// losers must reload and retry.
	appendConcurrently(t, []*Table{ta, tb, ta, tb}, 5)
	final, err := b.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, final, 4*5*10)
}

func TestIsCommitConflict(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{errors.New(`requirement failed: branch "main" has changed: expected id 1, found 2`), true},
		{errors.New(`requirement failed: branch "main" was created concurrently`), true},
		{errors.New(`requirement failed: table uuid mismatch`), false},
		{errors.New("disk full"), false},
	}
	for _, tt := range tests {
		if got := isCommitConflict(tt.err); got != tt.want {
			t.Errorf("isCommitConflict(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
