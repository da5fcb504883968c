package exec

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// The lineitem benchmarks run the shapes of TPC-H Q1 and Q6 (filters on
// a date cast to timestamp and on numeric(15,2) columns, decimal
// arithmetic, decimal sums grouped by two one-letter strings) over an
// in-memory table with TPC-H's value ranges.

var numeric152 = types.T{OID: types.OIDNumeric, Precision: 15, Scale: 2}

// numeric382 is held in 128 bits, for values past 64.
var numeric382 = types.T{OID: types.OIDNumeric, Precision: 38, Scale: 2}

var lineitemColumns = []planner.TableColumn{
	{Name: "l_quantity", Type: numeric152},
	{Name: "l_extendedprice", Type: numeric152},
	{Name: "l_discount", Type: numeric152},
	{Name: "l_tax", Type: numeric152},
	{Name: "l_returnflag", Type: types.Text},
	{Name: "l_linestatus", Type: types.Text},
	{Name: "l_shipdate", Type: types.Date},
}

type lineitemTable struct{ *benchTable }

func (t lineitemTable) Columns() []planner.TableColumn { return lineitemColumns }

// newLineitemTable generates rows rows from a fixed seed.
func newLineitemTable(tb testing.TB, rows int) lineitemTable {
	tb.Helper()
	fields := make([]arrow.Field, len(lineitemColumns))
	for i, c := range lineitemColumns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.Arrow()}
	}
	schema := arrow.NewSchema(fields, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	t := lineitemTable{&benchTable{rows: int64(rows)}}
	for lo := 0; lo < rows; lo += benchBatchRows {
		n := min(benchBatchRows, rows-lo)
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for range n {
			qty := 1 + rng.Int64N(50)
			b.Field(0).(*array.Decimal64Builder).Append(decimal.Decimal64(qty * 100))
			b.Field(1).(*array.Decimal64Builder).Append(decimal.Decimal64(qty * (90000 + rng.Int64N(110000))))
			b.Field(2).(*array.Decimal64Builder).Append(decimal.Decimal64(rng.Int64N(11)))
			b.Field(3).(*array.Decimal64Builder).Append(decimal.Decimal64(rng.Int64N(9)))
			b.Field(4).(*array.StringBuilder).Append([]string{"A", "N", "R"}[rng.IntN(3)])
			b.Field(5).(*array.StringBuilder).Append([]string{"O", "F"}[rng.IntN(2)])
			b.Field(6).(*array.Date32Builder).Append(arrow.Date32(8036 + rng.IntN(2526)))
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

func lineitemScan(t lineitemTable) (*planner.Scan, map[string]*planner.ColRef) {
	scan := &planner.Scan{Table: t}
	refs := map[string]*planner.ColRef{}
	for i, c := range lineitemColumns {
		id := planner.ColumnID(i + 1)
		scan.TableColumns = append(scan.TableColumns, i)
		scan.Cols = append(scan.Cols, planner.Column{ID: id, Name: c.Name, Type: c.Type})
		refs[c.Name] = &planner.ColRef{ID: id, Name: c.Name, Typ: c.Type}
	}
	return scan, refs
}

func numConst(unscaled int64, scale int32) *planner.Const {
	return &planner.Const{Typ: types.T{OID: types.OIDNumeric, Scale: scale}, Value: decimal128.FromI64(unscaled)}
}

func numericAt(scale int32) types.T { return types.T{OID: types.OIDNumeric, Scale: scale} }

// q6Filter is Q6's WHERE clause as the binder writes it.
func q6Filter(tb testing.TB, c map[string]*planner.ColRef) planner.Expr {
	and := func(l, r planner.Expr) planner.Expr {
		return &planner.BinOp{Op: benchOp(tb, "AND"), L: l, R: r, Typ: types.Bool}
	}
	cmp := func(op string, l, r planner.Expr) planner.Expr {
		return &planner.BinOp{Op: benchOp(tb, op), L: l, R: r, Typ: types.Bool}
	}
	arith := func(op string, l, r planner.Expr, scale int32) planner.Expr {
		return &planner.BinOp{Op: benchOp(tb, op), L: l, R: r, Typ: numericAt(scale)}
	}
	const day19940101 = 8766
	yearLater := &planner.BinOp{Op: benchOp(tb, "+"), Typ: types.Timestamp,
		L: &planner.Const{Typ: types.Timestamp, Value: int64(day19940101) * types.MicrosPerDay},
		R: &planner.Const{Typ: types.Interval, Value: types.IntervalValue{Months: 12}}}
	return and(and(and(and(
		cmp(">=", c["l_shipdate"], &planner.Const{Typ: types.Date, Value: int32(day19940101)}),
		cmp("<", &planner.Cast{Arg: c["l_shipdate"], To: types.Timestamp}, yearLater)),
		cmp(">=", c["l_discount"], arith("-", numConst(6, 2), numConst(1, 2), 2))),
		cmp("<=", c["l_discount"], arith("+", numConst(6, 2), numConst(1, 2), 2))),
		cmp("<", c["l_quantity"], numConst(24, 0)))
}

// q6Want counts the rows Q6's filter keeps and sums their revenue
// (unscaled, scale 4), computed directly on the generated values.
func q6Want(t lineitemTable) (int64, decimal128.Num) {
	var rows int64
	var sum decimal128.Num
	for _, b := range t.batches {
		qty, price, disc := values[int64](b.Column(0)), values[int64](b.Column(1)), values[int64](b.Column(2))
		ship := values[int32](b.Column(6))
		for i := range ship {
			if ship[i] >= 8766 && ship[i] < 9131 && disc[i] >= 5 && disc[i] <= 7 && qty[i] < 2400 {
				rows++
				sum = sum.Add(decimal128.FromI64(price[i]).Mul(decimal128.FromI64(disc[i])))
			}
		}
	}
	return rows, sum
}

// BenchmarkFilterQ6: Q6's filter alone, about 2% of the rows pass.
func BenchmarkFilterQ6(b *testing.B) {
	t := newLineitemTable(b, benchRows)
	want, _ := q6Want(t)
	scan, c := lineitemScan(t)
	plan := &planner.Filter{Input: scan, Pred: q6Filter(b, c)}
	benchFilter(b, plan, want, t.rows)
}

// BenchmarkQ6: sum(l_extendedprice * l_discount) over Q6's filter.
func BenchmarkQ6(b *testing.B) {
	t := newLineitemTable(b, benchRows)
	_, want := q6Want(t)
	scan, c := lineitemScan(t)
	sum := benchAgg(b, "sum")
	plan := &planner.Aggregate{
		Input: &planner.Filter{Input: scan, Pred: q6Filter(b, c)},
		Aggs: []*planner.AggCall{{Func: sum, Out: planner.Column{ID: 100, Name: "revenue", Type: numericAt(4)},
			Arg: &planner.BinOp{Op: benchOp(b, "*"), L: c["l_extendedprice"], R: c["l_discount"], Typ: numericAt(4)}}},
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		benchDrain(b, plan, func(out arrow.RecordBatch) {
			if got := out.Column(0).(*array.Decimal128).Value(0); got != want {
				b.Fatalf("revenue %v, want %v", got, want)
			}
		})
		n++
	}
	reportRowsPerSec(b, t.rows, n)
}

// q1Plan is Q1's aggregate over its filter.
func q1Plan(tb testing.TB, t lineitemTable) *planner.Aggregate {
	scan, c := lineitemScan(t)
	arith := func(op string, l, r planner.Expr, scale int32) planner.Expr {
		return &planner.BinOp{Op: benchOp(tb, op), L: l, R: r, Typ: numericAt(scale)}
	}
	const day19981201 = 10561
	cutoff := &planner.BinOp{Op: benchOp(tb, "-"), Typ: types.Timestamp,
		L: &planner.Const{Typ: types.Timestamp, Value: int64(day19981201) * types.MicrosPerDay},
		R: &planner.Const{Typ: types.Interval, Value: types.IntervalValue{Days: 90}}}
	filter := &planner.Filter{Input: scan, Pred: &planner.BinOp{Op: benchOp(tb, "<="), Typ: types.Bool,
		L: &planner.Cast{Arg: c["l_shipdate"], To: types.Timestamp}, R: cutoff}}
	discPrice := arith("*", c["l_extendedprice"], arith("-", numConst(1, 0), c["l_discount"], 2), 4)
	charge := arith("*", discPrice, arith("+", numConst(1, 0), c["l_tax"], 2), 6)
	funcs := map[string]functions.Aggregate{"sum": benchAgg(tb, "sum"), "avg": benchAgg(tb, "avg"), "count": benchAgg(tb, "count")}
	agg := func(id planner.ColumnID, f string, arg planner.Expr, out types.T) *planner.AggCall {
		return &planner.AggCall{Func: funcs[f], Out: planner.Column{ID: id, Name: f, Type: out}, Arg: arg}
	}
	return &planner.Aggregate{
		Input:  filter,
		Groups: []planner.Expr{c["l_returnflag"], c["l_linestatus"]},
		GroupCols: []planner.Column{
			{ID: 100, Name: "l_returnflag", Type: types.Text}, {ID: 101, Name: "l_linestatus", Type: types.Text},
		},
		Aggs: []*planner.AggCall{
			agg(102, "sum", c["l_quantity"], numericAt(2)),
			agg(103, "sum", c["l_extendedprice"], numericAt(2)),
			agg(104, "sum", discPrice, numericAt(4)),
			agg(105, "sum", charge, numericAt(6)),
			agg(106, "avg", c["l_quantity"], numericAt(16)),
			agg(107, "avg", c["l_extendedprice"], numericAt(16)),
			agg(108, "avg", c["l_discount"], numericAt(16)),
			agg(109, "count", nil, types.Int8),
		},
	}
}

// BenchmarkQ1: Q1's grouped aggregates (six groups) over its filter,
// which keeps about 98% of the rows.
func BenchmarkQ1(b *testing.B) {
	t := newLineitemTable(b, benchRows)
	var wantRows int64
	var wantCharge decimal128.Num
	for _, batch := range t.batches {
		price, disc, tax := values[int64](batch.Column(1)), values[int64](batch.Column(2)), values[int64](batch.Column(3))
		for i, d := range values[int32](batch.Column(6)) {
			if d <= 10561-90 {
				wantRows++
				wantCharge = wantCharge.Add(decimal128.FromI64(price[i]).Mul(decimal128.FromI64(100 - disc[i])).Mul(decimal128.FromI64(100 + tax[i])))
			}
		}
	}
	plan := q1Plan(b, t)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var rows int64
		var charge decimal128.Num
		groups := benchDrain(b, plan, func(out arrow.RecordBatch) {
			for i := 0; i < int(out.NumRows()); i++ {
				rows += out.Column(9).(*array.Int64).Value(i)
				charge = charge.Add(out.Column(5).(*array.Decimal128).Value(i))
			}
		})
		if groups != 6 || rows != wantRows || charge != wantCharge {
			b.Fatalf("got %d groups, %d rows, charge %v; want 6, %d, %v", groups, rows, charge, wantRows, wantCharge)
		}
		n++
	}
	reportRowsPerSec(b, t.rows, n)
}
