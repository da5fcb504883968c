package exec

import (
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// TestDecimalDigits: the digits a computed numeric's values can take,
// from declared precisions and constants through + - *.
func TestDecimalDigits(t *testing.T) {
	x := &planner.ColRef{ID: 1, Name: "x", Typ: numeric152}
	y := &planner.ColRef{ID: 2, Name: "y", Typ: numeric152}
	free := &planner.ColRef{ID: 3, Name: "f", Typ: numericAt(2)}
	bin := func(op string, l, r planner.Expr, scale int32) planner.Expr {
		return &planner.BinOp{Op: benchOp(t, op), L: l, R: r, Typ: numericAt(scale)}
	}
	tests := []struct {
		name   string
		e      planner.Expr
		want   int32
		wantOK bool
	}{
		{"a numeric(15,2) column", x, 15, true},
		{"the constant 1", numConst(1, 0), 1, true},
		{"the constant -0.05", numConst(-5, 2), 2, true},
		{"the constant 123456.789", numConst(123456789, 3), 9, true},
		{"1 - x", bin("-", numConst(1, 0), x, 2), 16, true},
		{"x + y", bin("+", x, y, 2), 16, true},
		{"x * (1 - y)", bin("*", x, bin("-", numConst(1, 0), y, 2), 4), 31, true},
		{"x * 0.05", bin("*", x, numConst(5, 2), 4), 17, true},
		{"a product rounded to another scale", bin("*", x, y, 2), 0, false},
		{"a column without a declared precision", bin("+", free, x, 2), 0, false},
		{"a quotient", bin("/", x, y, 16), 0, false},
		{"a general numeric", &planner.ColRef{ID: 4, Name: "g", Typ: types.NumericGeneral(2)}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := decimalDigits(tc.e)
			if ok != tc.wantOK || ok && got != tc.want {
				t.Fatalf("decimalDigits = %d, %v; want %d, %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

// TestArithmeticOperandsNarrowed: in x * (1 - y) + (y - 2.5) the
// operands 1 - y and y - 2.5 (16 digits) are computed in 64 bits and
// handed up as decimal64, the product (31 digits) and the sum stay
// 128-bit, and every row, NULLs and negative values included, equals the
// 128-bit computation of the same expression.
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
	if prod.narrow || sum.narrow {
		t.Fatal("a result past 18 digits, or the expression's own, was narrowed")
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

// TestArithNarrowFallsBackPast64Bits: a value past 64 bits, which the
// declared precisions rule out but a foreign file might hold, makes the
// narrowed operator answer in 128 bits, which its parent reads.
func TestArithNarrowFallsBackPast64Bits(t *testing.T) {
	dt := &arrow.Decimal64Type{Precision: 18, Scale: 0}
	l := newFixed(dt, []int64{1 << 40, 3}, nil, 0)
	r := newFixed(dt, []int64{1 << 40, -4}, nil, 0)
	defer l.Release()
	defer r.Release()
	e := &binaryEval{op: benchOp(t, "*"), res: numericAt(0), digits: 18, narrow: true, reuseOut: true}
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
}
