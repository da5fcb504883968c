package exec

import (
	"math/big"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// TestNarrowable: the arithmetic computed in 64 bits when its values fit
// is + - * of numerics of a fixed scale that does not round.
func TestNarrowable(t *testing.T) {
	n2, n4 := numericAt(2), numericAt(4)
	tests := []struct {
		name      string
		op        string
		res, l, r types.T
		want      bool
	}{
		{"1 - x", "-", n2, numericAt(0), numeric152, true},
		{"x + y", "+", n2, numeric152, numeric152, true},
		{"x * (1 - y)", "*", n4, numeric152, n2, true},
		{"a product rounded to another scale", "*", n2, numeric152, numeric152, false},
		{"a sum at a scale of neither operand", "+", n4, n2, n2, false},
		{"a quotient", "/", numericAt(16), numeric152, numeric152, false},
		{"a general numeric", "+", types.NumericGeneral(2), types.NumericGeneral(2), n2, false},
		{"an integer operand", "*", n2, n2, types.Int4, false},
	}
	for _, tc := range tests {
		if got := narrowable(tc.op, tc.res, tc.l, tc.r); got != tc.want {
			t.Errorf("%s: narrowable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestArithmeticOperandsNarrowed: in x * (1 - y) + (y - 2.5) the
// operands 1 - y, y - 2.5 and the product are computed in 64 bits and
// handed up as decimal64 while their values fit, the product's fall back
// to 128 bits for the batch where they do not (15-digit factors), the sum
// (read by the client) stays 128-bit, and every row, NULLs and negative
// values included, equals the 128-bit computation of the expression.
func TestArithmeticOperandsNarrowed(t *testing.T) {
	x := &planner.ColRef{ID: 1, Name: "x", Typ: numeric152}
	y := &planner.ColRef{ID: 2, Name: "y", Typ: numeric152}
	bin := func(op string, l, r planner.Expr, scale int32) *planner.BinOp {
		return &planner.BinOp{Op: benchOp(t, op), L: l, R: r, Typ: numericAt(scale)}
	}
	oneMinusY := bin("-", numConst(1, 0), y, 2)
	yMinus := bin("-", y, numConst(250, 2), 2)
	product := bin("*", x, oneMinusY, 4)
	expr := bin("+", product, yMinus, 4)
	input := []planner.Column{{ID: 1, Name: "x", Type: numeric152}, {ID: 2, Name: "y", Type: numeric152}}

	big15 := decimal128.FromI64(999_999_999_999_999)
	xs := []any{decimal128.FromI64(12050), nil, decimal128.FromI64(-7), big15, big15.Negate(), decimal128.FromI64(0)}
	ys := []any{decimal128.FromI64(5), decimal128.FromI64(3), nil, big15, decimal128.FromI64(100), big15.Negate()}
	xa, ya := arrayOf(t, numeric152, xs), arrayOf(t, numeric152, ys)
	defer xa.Release()
	defer ya.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: xa.DataType(), Nullable: true}, {Name: "y", Type: ya.DataType(), Nullable: true}}, nil)
	batch := array.NewRecordBatch(schema, []arrow.Array{xa, ya}, int64(len(xs)))
	defer batch.Release()

	ev, err := compile(expr, input)
	if err != nil {
		t.Fatal(err)
	}
	sum := ev.(*binaryEval)
	prod := sum.l.(*binaryEval)
	if !prod.r.(*binaryEval).narrow {
		t.Fatal("1 - y was not narrowed")
	}
	if !sum.r.(*binaryEval).narrow {
		t.Fatal("y - 2.5 was not narrowed")
	}
	if !prod.narrow || sum.narrow {
		t.Fatal("the product was not narrowed, or the expression's own result was")
	}
	for range 2 { // a second batch reuses the narrowed operands' buffers
		part, err := sum.r.eval(t.Context(), batch)
		if err != nil {
			t.Fatal(err)
		}
		if part.DataType().ID() != arrow.DECIMAL64 {
			t.Fatalf("y - 2.5 is %s, want decimal64", part.DataType())
		}
		part.Release()
		part, err = prod.eval(t.Context(), batch)
		if err != nil {
			t.Fatal(err)
		}
		if part.DataType().ID() != arrow.DECIMAL128 {
			t.Fatalf("x * (1 - y) of 15-digit factors is %s, want decimal128", part.DataType())
		}
		part.Release()
		got, err := ev.eval(t.Context(), batch)
		if err != nil {
			t.Fatal(err)
		}
		for i := range xs {
			if xs[i] == nil || ys[i] == nil {
				if !got.IsNull(i) {
					t.Fatalf("row %d: %v, want NULL", i, valueAt(got, i))
				}
				continue
			}
			xv, yv := xs[i].(decimal128.Num).BigInt(), ys[i].(decimal128.Num).BigInt()
			// x*(100 - y) at scale 4, plus (y - 250)*100.
			want := new(big.Int).Mul(xv, new(big.Int).Sub(big.NewInt(100), yv))
			want.Add(want, new(big.Int).Mul(new(big.Int).Sub(yv, big.NewInt(250)), big.NewInt(100)))
			if v := valueAt(got, i).(decimal128.Num); v.BigInt().Cmp(want) != 0 {
				t.Fatalf("row %d: %v, want %v", i, v.BigInt(), want)
			}
		}
		got.Release()
	}
}

// TestArithNarrowFallsBackPast64Bits: a value past 64 bits makes the
// narrowed operator answer in 128 bits, which its reader takes, for that
// batch and the ones after it.
func TestArithNarrowFallsBackPast64Bits(t *testing.T) {
	dt := &arrow.Decimal64Type{Precision: 18, Scale: 0}
	l := newFixed(dt, []int64{1 << 40, 3}, nil, 0)
	r := newFixed(dt, []int64{1 << 40, -4}, nil, 0)
	defer l.Release()
	defer r.Release()
	e := &binaryEval{op: benchOp(t, "*"), res: numericAt(0), narrow: true, reuseOut: true}
	got, err := e.arithNarrow(l, r)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if got.DataType().ID() != arrow.DECIMAL128 {
		t.Fatalf("%s, want the 128-bit result", got.DataType())
	}
	want := []decimal128.Num{decimal128.FromU64(1 << 40).Mul(decimal128.FromU64(1 << 40)), decimal128.FromI64(-12)}
	for i, w := range want {
		if v := valueAt(got, i).(decimal128.Num); v != w {
			t.Fatalf("row %d: %v, want %v", i, v, w)
		}
	}
	small := newFixed(dt, []int64{2, 3}, nil, 0)
	defer small.Release()
	next, err := e.arithNarrow(small, small)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Release()
	if next.DataType().ID() != arrow.DECIMAL128 || valueAt(next, 1).(decimal128.Num) != decimal128.FromI64(9) {
		t.Fatalf("the batch after: %s %v, want 128-bit 9", next.DataType(), valueAt(next, 1))
	}
}

// TestSumArgumentsNarrowed: a numeric sum's arithmetic argument hands its
// accumulator decimal64, unless another aggregate than a sum reads the
// same (shared) argument.
func TestSumArgumentsNarrowed(t *testing.T) {
	tbl := newLineitemTable(t, 10)
	plan := q1Plan(t, tbl)
	ctx := t.Context()
	narrowed := func(p *planner.Aggregate) []bool {
		op, err := Build(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		defer op.Close()
		h := rootOperator(op).(*hashAggregate)
		var got []bool
		for _, ev := range h.args {
			if sh, ok := ev.(*sharedEval); ok {
				ev = sh.inner
			}
			be, ok := ev.(*binaryEval)
			got = append(got, ok && be.narrow)
		}
		return got
	}
	// sum(l_extendedprice * (1 - l_discount)) and the charge are the
	// arithmetic arguments.
	if got, want := narrowed(plan), []bool{false, false, true, true, false, false, false, false}; !slices.Equal(got, want) {
		t.Fatalf("Q1's arguments narrowed %v, want %v", got, want)
	}
	withMax := *plan
	withMax.Aggs = append(slices.Clone(plan.Aggs), &planner.AggCall{Func: benchAgg(t, "max"),
		Out: planner.Column{ID: 110, Name: "max", Type: numericAt(4)}, Arg: plan.Aggs[2].Arg})
	if got, want := narrowed(&withMax), []bool{false, false, false, true, false, false, false, false, false}; !slices.Equal(got, want) {
		t.Fatalf("with max of the discounted price, narrowed %v, want %v", got, want)
	}
}
