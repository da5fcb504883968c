package exec

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// The benchmarks run the operators on batches held in memory, so they
// measure the engine alone: no storage, no decoding, no protocol.

const (
	benchRows      = 1_000_000
	benchSortRows  = 100_000
	benchBatchRows = 8192
	// benchValMax bounds val so that id*2+val cannot overflow and val >
	// benchValMax/2 keeps about half the rows.
	benchValMax = 1_000_000_000
)

var benchRegions = [...]string{"EU", "US", "APAC", "LATAM"}

// benchColumns are the columns of the in-memory table:
// id bigint, region text, quantity integer, val bigint.
var benchColumns = []planner.TableColumn{
	{Name: "id", Type: types.Int8},
	{Name: "region", Type: types.Text, Nullable: true},
	{Name: "quantity", Type: types.Int4, Nullable: true},
	{Name: "val", Type: types.Int8, Nullable: true},
}

// benchTable is a planner.Table over batches generated once, in memory.
type benchTable struct {
	batches []arrow.RecordBatch
	rows    int64
}

// newBenchTable generates rows rows in benchBatchRows-row batches from a
// fixed seed, so every run sees the same data.
func newBenchTable(tb testing.TB, rows int) *benchTable {
	tb.Helper()
	fields := make([]arrow.Field, len(benchColumns))
	for i, c := range benchColumns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.Arrow(), Nullable: c.Nullable}
	}
	schema := arrow.NewSchema(fields, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	t := &benchTable{rows: int64(rows)}
	for lo := 0; lo < rows; lo += benchBatchRows {
		n := min(benchBatchRows, rows-lo)
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		id := b.Field(0).(*array.Int64Builder)
		region := b.Field(1).(*array.StringBuilder)
		qty := b.Field(2).(*array.Int32Builder)
		val := b.Field(3).(*array.Int64Builder)
		for i := range n {
			id.Append(int64(lo + i + 1))
			region.Append(benchRegions[rng.IntN(len(benchRegions))])
			qty.Append(int32(1 + rng.IntN(20)))
			val.Append(rng.Int64N(benchValMax))
		}
		t.batches = append(t.batches, b.NewRecordBatch())
		b.Release()
	}
	tb.Cleanup(func() {
		for _, b := range t.batches {
			b.Release()
		}
	})
	return t
}

func (t *benchTable) QualifiedName() planner.TableName {
	return planner.TableName{Catalog: "bench", Schema: "mem", Name: "t"}
}
func (t *benchTable) OID() uint32                    { return 1 }
func (t *benchTable) Columns() []planner.TableColumn { return benchColumns }
func (t *benchTable) RowEstimate() int64             { return t.rows }

func (t *benchTable) Scan(_ context.Context, columns []int, _ iceberg.BooleanExpression) (planner.RecordStream, error) {
	return &benchStream{table: t, columns: columns}, nil
}

// benchStream hands out the table's batches narrowed to the asked
// columns; the arrays are shared, not copied.
type benchStream struct {
	table   *benchTable
	columns []int
	next    int
}

func (s *benchStream) Next() (arrow.RecordBatch, error) {
	if s.next >= len(s.table.batches) {
		return nil, io.EOF
	}
	src := s.table.batches[s.next]
	s.next++
	fields := make([]arrow.Field, len(s.columns))
	cols := make([]arrow.Array, len(s.columns))
	for i, c := range s.columns {
		fields[i] = src.Schema().Field(c)
		cols[i] = src.Column(c)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, src.NumRows()), nil
}

func (s *benchStream) Close() error { return nil }

// benchScan is a Scan of the named columns; column IDs are the table
// column index plus one.
func benchScan(t *benchTable, names ...string) (*planner.Scan, map[string]*planner.ColRef) {
	scan := &planner.Scan{Table: t}
	refs := map[string]*planner.ColRef{}
	for _, name := range names {
		for i, c := range benchColumns {
			if c.Name != name {
				continue
			}
			id := planner.ColumnID(i + 1)
			scan.TableColumns = append(scan.TableColumns, i)
			scan.Cols = append(scan.Cols, planner.Column{ID: id, Name: c.Name, Type: c.Type, Nullable: c.Nullable})
			refs[name] = &planner.ColRef{ID: id, Name: c.Name, Typ: c.Type}
		}
	}
	return scan, refs
}

func benchOp(tb testing.TB, name string) functions.Operator {
	tb.Helper()
	op, ok := functions.LookupOperator(name)
	if !ok {
		tb.Fatalf("operator %s not registered", name)
	}
	return op
}

func benchAgg(tb testing.TB, name string) functions.Aggregate {
	tb.Helper()
	ag, ok := functions.LookupAggregate(name)
	if !ok {
		tb.Fatalf("aggregate %s not registered", name)
	}
	return ag
}

// benchDrain runs the plan to the end and calls visit on every batch.
func benchDrain(tb testing.TB, plan planner.Node, visit func(arrow.RecordBatch)) int64 {
	tb.Helper()
	op, err := Build(context.Background(), plan)
	if err != nil {
		tb.Fatalf("build: %v", err)
	}
	defer op.Close()
	return drainOperator(tb, op, visit)
}

// drainOperator reads op to the end, calls visit (when set) on every
// batch and returns the rows read.
func drainOperator(tb testing.TB, op Operator, visit func(arrow.RecordBatch)) int64 {
	tb.Helper()
	var rows int64
	for {
		b, err := op.Next(context.Background())
		if err != nil {
			tb.Fatalf("next: %v", err)
		}
		if b == nil {
			return rows
		}
		rows += b.NumRows()
		if visit != nil {
			visit(b)
		}
		b.Release()
	}
}

// benchFilter runs the filter plan, which must keep want rows of the
// input's inputRows, and reports rows per second.
func benchFilter(b *testing.B, plan planner.Node, want, inputRows int64) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if got := benchDrain(b, plan, nil); got != want {
			b.Fatalf("filter kept %d rows, want %d", got, want)
		}
		n++
	}
	reportRowsPerSec(b, inputRows, n)
}

// reportRowsPerSec reports the input rows processed per second.
func reportRowsPerSec(b *testing.B, inputRows int64, iterations int) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(inputRows)*float64(iterations)/s, "rows/s")
	}
}

// BenchmarkFilterInt64GreaterConst: WHERE val > const, about half the
// rows pass.
func BenchmarkFilterInt64GreaterConst(b *testing.B) {
	t := newBenchTable(b, benchRows)
	threshold := int64(benchValMax / 2)
	want := int64(0)
	for _, batch := range t.batches {
		for _, v := range batch.Column(3).(*array.Int64).Int64Values() {
			if v > threshold {
				want++
			}
		}
	}
	scan, c := benchScan(t, "id", "val")
	plan := &planner.Filter{Input: scan, Pred: &planner.BinOp{
		Op: benchOp(b, ">"), L: c["val"], R: &planner.Const{Typ: types.Int8, Value: threshold}, Typ: types.Bool,
	}}
	benchFilter(b, plan, want, t.rows)
}

// BenchmarkProjectArithmetic: SELECT id * 2 + val.
func BenchmarkProjectArithmetic(b *testing.B) {
	t := newBenchTable(b, benchRows)
	scan, c := benchScan(t, "id", "val")
	expr := &planner.BinOp{Op: benchOp(b, "+"), Typ: types.Int8,
		L: &planner.BinOp{Op: benchOp(b, "*"), L: c["id"], R: &planner.Const{Typ: types.Int8, Value: int64(2)}, Typ: types.Int8},
		R: c["val"]}
	plan := &planner.Project{Input: scan, Exprs: []planner.Expr{expr},
		Cols: []planner.Column{{ID: 100, Name: "r", Type: types.Int8}}}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		// The first row of every batch is checked against the formula.
		batch := 0
		check := func(out arrow.RecordBatch) {
			src := t.batches[batch]
			want := src.Column(0).(*array.Int64).Value(0)*2 + src.Column(3).(*array.Int64).Value(0)
			if got := out.Column(0).(*array.Int64).Value(0); got != want {
				b.Fatalf("batch %d: id*2+val = %d, want %d", batch, got, want)
			}
			batch++
		}
		if got := benchDrain(b, plan, check); got != t.rows {
			b.Fatalf("project produced %d rows, want %d", got, t.rows)
		}
		n++
	}
	reportRowsPerSec(b, t.rows, n)
}

// BenchmarkHashAggregateStringKey: SELECT region, count(*), sum(quantity)
// GROUP BY region, four groups.
func BenchmarkHashAggregateStringKey(b *testing.B) {
	t := newBenchTable(b, benchRows)
	wantSum := int64(0)
	for _, batch := range t.batches {
		for _, q := range batch.Column(2).(*array.Int32).Int32Values() {
			wantSum += int64(q)
		}
	}
	scan, c := benchScan(t, "region", "quantity")
	count, sum := benchAgg(b, "count"), benchAgg(b, "sum")
	sumType, ok := sum.Result(types.Int4)
	if !ok {
		b.Fatal("sum(integer) has no result type")
	}
	plan := &planner.Aggregate{
		Input:     scan,
		Groups:    []planner.Expr{c["region"]},
		GroupCols: []planner.Column{{ID: 100, Name: "region", Type: types.Text}},
		Aggs: []*planner.AggCall{
			{Func: count, Out: planner.Column{ID: 101, Name: "count", Type: types.Int8}},
			{Func: sum, Arg: c["quantity"], Out: planner.Column{ID: 102, Name: "sum", Type: sumType}},
		},
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var rows, qty int64
		groups := benchDrain(b, plan, func(out arrow.RecordBatch) {
			counts := out.Column(1).(*array.Int64)
			sums := out.Column(2).(*array.Int64)
			for i := 0; i < int(out.NumRows()); i++ {
				rows += counts.Value(i)
				qty += sums.Value(i)
			}
		})
		if groups != int64(len(benchRegions)) || rows != t.rows || qty != wantSum {
			b.Fatalf("got %d groups, %d rows, sum %d; want %d, %d, %d", groups, rows, qty, len(benchRegions), t.rows, wantSum)
		}
		n++
	}
	reportRowsPerSec(b, t.rows, n)
}

// BenchmarkSortInt64 sorts 100k rows by a random bigint column.
func BenchmarkSortInt64(b *testing.B) {
	t := newBenchTable(b, benchSortRows)
	scan, c := benchScan(t, "id", "val")
	plan := &planner.Sort{Input: scan, Keys: []planner.SortKey{{Expr: c["val"]}}}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		prev := int64(-1)
		sorted := true
		rows := benchDrain(b, plan, func(out arrow.RecordBatch) {
			for _, v := range out.Column(1).(*array.Int64).Int64Values() {
				if v < prev {
					sorted = false
				}
				prev = v
			}
		})
		if rows != t.rows || !sorted {
			b.Fatalf("sort returned %d rows (want %d), ordered=%v", rows, t.rows, sorted)
		}
		n++
	}
	reportRowsPerSec(b, t.rows, n)
}

// TestBenchTableShape guards the benchmarks' fixture: the right row count,
// full batches and the column layout the plans assume.
func TestBenchTableShape(t *testing.T) {
	for _, rows := range []int{1, benchBatchRows, benchBatchRows + 1, 3*benchBatchRows + 5} {
		t.Run(fmt.Sprint(rows), func(t *testing.T) {
			tbl := newBenchTable(t, rows)
			scan, _ := benchScan(tbl, "region", "val")
			got := benchDrain(t, scan, func(b arrow.RecordBatch) {
				if b.NumCols() != 2 || b.Column(0).DataType().ID() != arrow.STRING || b.Column(1).DataType().ID() != arrow.INT64 {
					t.Fatalf("scan batch schema %s", b.Schema())
				}
				if b.NumRows() > benchBatchRows {
					t.Fatalf("batch of %d rows, want at most %d", b.NumRows(), benchBatchRows)
				}
			})
			if got != int64(rows) {
				t.Fatalf("scanned %d rows, want %d", got, rows)
			}
		})
	}
}
