package exec

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// decimalOperands are values around the edges of the 64-bit paths: the
// int64 limits, values whose rescaling or product leaves 64 bits, 128-bit
// values and the numeric(38) limit.
func decimalOperands() []decimal128.Num {
	out := []decimal128.Num{
		decimal128.FromI64(0), decimal128.FromI64(1), decimal128.FromI64(-1), decimal128.FromI64(7), decimal128.FromI64(-250),
		decimal128.FromI64(math.MaxInt64), decimal128.FromI64(math.MinInt64), decimal128.FromI64(math.MaxInt64 - 1),
		decimal128.FromI64(math.MaxInt64 / 100), decimal128.FromI64(math.MaxInt64/100 + 1), decimal128.FromI64(-(math.MaxInt64/100 + 1)),
		decimal128.FromI64(3037000499), decimal128.FromI64(3037000500), decimal128.FromI64(-3037000500),
		dec("9223372036854775808"), dec("-9223372036854775809"), dec("100000000000000000000"),
		dec("99999999999999999999999999999999999999"), dec("-99999999999999999999999999999999999999"),
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 40 {
		out = append(out, decimal128.FromI64(rng.Int64N(2e7)-1e7), decimal128.FromI64(rng.Int64()-math.MaxInt64/2))
	}
	return out
}

// refArith is the exact answer through math/big; ok is false when it
// overflows numeric(38).
func refArith(op string, a, b decimal128.Num, as, bs, to int32) (decimal128.Num, bool) {
	x, y := a.BigInt(), b.BigInt()
	var v *big.Int
	from := as + bs
	switch op {
	case "*":
		v = new(big.Int).Mul(x, y)
	default:
		from = max(as, bs)
		x.Mul(x, types.Pow10(from-as))
		y.Mul(y, types.Pow10(from-bs))
		if op == "+" {
			v = x.Add(x, y)
		} else {
			v = x.Sub(x, y)
		}
	}
	r, ok := types.RoundBig(v, from, to)
	return r, ok && r.FitsInPrecision(types.MaxNumericPrecision)
}

func TestDecimalArithmeticFastPaths(t *testing.T) {
	scales := []struct{ as, bs, to int32 }{
		{2, 2, -1}, {0, 2, -1}, {2, 0, -1}, {4, 2, -1}, {2, 6, -1}, {0, 0, -1}, {2, 20, -1},
		{2, 2, 1}, {3, 2, 8}, // a result scale other than the binder's takes the rounding path
	}
	vals := decimalOperands()
	for _, op := range []string{"+", "-", "*"} {
		for _, sc := range scales {
			to := sc.to
			if to < 0 {
				to = max(sc.as, sc.bs)
				if op == "*" {
					to = sc.as + sc.bs
				}
			}
			for _, a := range vals {
				for _, b := range vals {
					want, wantOK := refArith(op, a, b, sc.as, sc.bs, to)
					name := fmt.Sprintf("%s %s(scale %d) %s %s(scale %d) at scale %d", op, a.BigInt(), sc.as, op, b.BigInt(), sc.bs, to)
					// Each loop that takes these operands: 128 bits both,
					// and where they fit, 64 bits on either side or both.
					for path, run := range decimalArithPaths(op, a, b, sc.as, sc.bs, to) {
						out := make([]decimal128.Num, 1)
						err := run(out)
						if !wantOK {
							var pe *pgerror.Error
							if !errors.As(err, &pe) || pe.Code != pgerror.NumericValueOutOfRange {
								t.Fatalf("%s (%s): got %s, %v; want SQLSTATE 22003", name, path, out[0].BigInt(), err)
							}
							continue
						}
						if err != nil || out[0] != want {
							t.Fatalf("%s (%s): got %s, %v; want %s", name, path, out[0].BigInt(), err, want.BigInt())
						}
					}
				}
			}
		}
	}
}

// TestDecimalArithmeticNulls: a NULL operand gives NULL and never an
// error, even where its buffer slot holds a value that would overflow.
func TestDecimalArithmeticNulls(t *testing.T) {
	big38 := dec("99999999999999999999999999999999999999")
	typ := numericAt(2)
	l := arrayOf(t, typ, []any{decimal128.FromI64(150), nil, big38, decimal128.FromI64(-7), nil})
	r := arrayOf(t, typ, []any{decimal128.FromI64(25), decimal128.FromI64(1), nil, decimal128.FromI64(math.MaxInt64), nil})
	defer l.Release()
	defer r.Release()
	for _, tc := range []struct {
		op   string
		res  types.T
		want []any
	}{
		{"+", numericAt(2), []any{decimal128.FromI64(175), nil, nil, dec("9223372036854775800"), nil}},
		{"-", numericAt(2), []any{decimal128.FromI64(125), nil, nil, dec("-9223372036854775814"), nil}},
		{"*", numericAt(4), []any{decimal128.FromI64(3750), nil, nil, dec("-64563604257983430649"), nil}},
	} {
		got, err := arith(tc.op, l, r, tc.res)
		if err != nil {
			t.Fatalf("%s: %v", tc.op, err)
		}
		d := got.(*array.Decimal128)
		for i, w := range tc.want {
			switch {
			case w == nil && d.IsValid(i):
				t.Errorf("%s row %d: got %s, want NULL", tc.op, i, d.Value(i).BigInt())
			case w != nil && (d.IsNull(i) || d.Value(i) != w.(decimal128.Num)):
				t.Errorf("%s row %d: got %v, want %s", tc.op, i, d.Value(i).BigInt(), w.(decimal128.Num).BigInt())
			}
		}
		got.Release()
	}
}

// TestNestedDecimalArithmeticReusesOperands: in price * (1 - disc) *
// (1 + tax) the inner results are reused from batch to batch; each
// batch's answer is still the exact one, NULL rows included, and the
// outermost result, which the caller keeps, is never overwritten.
func TestNestedDecimalArithmeticReusesOperands(t *testing.T) {
	cols := []planner.Column{
		{ID: 1, Name: "price", Type: numeric152, Nullable: true},
		{ID: 2, Name: "disc", Type: numeric152, Nullable: true},
		{ID: 3, Name: "tax", Type: numeric152, Nullable: true},
	}
	ref := func(i int) *planner.ColRef {
		return &planner.ColRef{ID: cols[i].ID, Name: cols[i].Name, Typ: cols[i].Type}
	}
	op := func(name string, l, r planner.Expr, scale int32) planner.Expr {
		return opExpr(t, name, l, r, numericAt(scale))
	}
	expr := op("*", op("*", ref(0), op("-", numConst(1, 0), ref(1), 2), 4), op("+", numConst(1, 0), ref(2), 2), 6)
	ev, err := compile(expr, cols)
	if err != nil {
		t.Fatal(err)
	}
	var reusing func(ev evaluator) int
	reusing = func(ev evaluator) int {
		be, ok := ev.(*binaryEval)
		if !ok {
			return 0
		}
		n := reusing(be.l) + reusing(be.r)
		if be.reuseOut {
			n++
		}
		return n
	}
	if got := reusing(ev); got != 3 {
		t.Fatalf("%d inner results reuse their values, want 3", got)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	var kept []arrow.Array
	var keptWant [][]any
	for _, n := range []int{5, 3, 9, 1, 7} {
		vals := make([][]any, 3)
		for c := range vals {
			for r := 0; r < n; r++ {
				if rng.IntN(4) == 0 {
					vals[c] = append(vals[c], nil)
					continue
				}
				vals[c] = append(vals[c], decimal128.FromI64(rng.Int64N(2_000_000)-1_000_000))
			}
		}
		want := make([]any, n)
		for r := range n {
			if vals[0][r] == nil || vals[1][r] == nil || vals[2][r] == nil {
				continue
			}
			p, d, x := vals[0][r].(decimal128.Num).BigInt(), vals[1][r].(decimal128.Num).BigInt(), vals[2][r].(decimal128.Num).BigInt()
			v := p.Mul(p, new(big.Int).Sub(big.NewInt(100), d))
			v.Mul(v, new(big.Int).Add(big.NewInt(100), x))
			want[r] = decimal128.FromBigInt(v)
		}
		arrs := make([]arrow.Array, 3)
		fields := make([]arrow.Field, 3)
		for c := range arrs {
			arrs[c] = arrayOf(t, numeric152, vals[c])
			fields[c] = arrow.Field{Name: cols[c].Name, Type: arrs[c].DataType(), Nullable: true}
		}
		b := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
		releaseAll(arrs)
		got, err := ev.eval(context.Background(), b)
		b.Release()
		if err != nil {
			t.Fatal(err)
		}
		kept, keptWant = append(kept, got), append(keptWant, want)
		for k, a := range kept {
			d := a.(*array.Decimal128)
			for r, w := range keptWant[k] {
				switch {
				case w == nil && d.IsValid(r):
					t.Fatalf("batch %d row %d: got %s, want NULL", k, r, d.Value(r).BigInt())
				case w != nil && (d.IsNull(r) || d.Value(r) != w.(decimal128.Num)):
					t.Fatalf("batch %d row %d: got %s, want %s", k, r, d.Value(r).BigInt(), w.(decimal128.Num).BigInt())
				}
			}
		}
	}
	releaseAll(kept)
}

// decimalArithPaths are the loops that compute a op b into out: the
// 128-bit one, and those of 64-bit operands for each operand that fits.
func decimalArithPaths(op string, a, b decimal128.Num, as, bs, to int32) map[string]func(out []decimal128.Num) error {
	sub := op == "-"
	paths := map[string]func([]decimal128.Num) error{
		"128 and 128": func(out []decimal128.Num) error {
			if op == "*" {
				return mulDecimals([]decimal128.Num{a}, []decimal128.Num{b}, as, bs, out, nil, to)
			}
			return addDecimals(sub, []decimal128.Num{a}, []decimal128.Num{b}, as, bs, out, nil, to)
		},
	}
	a64, aok := int64Of(a)
	b64, bok := int64Of(b)
	if aok && bok {
		paths["64 and 64"] = func(out []decimal128.Num) error {
			if op == "*" {
				return mulDecimals64([]int64{a64}, []int64{b64}, as, bs, out, nil, to)
			}
			return addDecimals64(sub, []int64{a64}, []int64{b64}, as, bs, out, nil, to)
		}
	}
	if aok {
		paths["64 and 128"] = func(out []decimal128.Num) error {
			if op == "*" {
				return mulDecimalsMixed([]int64{a64}, []decimal128.Num{b}, as, bs, out, nil, to)
			}
			return addDecimalsMixed(sub, false, []int64{a64}, []decimal128.Num{b}, as, bs, out, nil, to)
		}
	}
	if bok {
		paths["128 and 64"] = func(out []decimal128.Num) error {
			if op == "*" {
				return mulDecimalsMixed([]int64{b64}, []decimal128.Num{a}, bs, as, out, nil, to)
			}
			return addDecimalsMixed(sub, true, []int64{b64}, []decimal128.Num{a}, bs, as, out, nil, to)
		}
	}
	return paths
}

// TestDecimalArithmeticAcrossWidths: arith over columns of every pairing
// of decimal64 and decimal128 gives the 128-bit answer, NULLs included.
func TestDecimalArithmeticAcrossWidths(t *testing.T) {
	narrow, wide := types.Numeric(15, 2), types.Numeric(30, 2)
	lvals := []any{decimal128.FromI64(150), nil, decimal128.FromI64(math.MaxInt64), decimal128.FromI64(-7), decimal128.FromI64(99)}
	rvals := []any{decimal128.FromI64(25), decimal128.FromI64(1), nil, decimal128.FromI64(math.MaxInt64), decimal128.FromI64(-99)}
	for _, op := range []string{"+", "-", "*"} {
		res := numericAt(2)
		if op == "*" {
			res = numericAt(4)
		}
		ref := func() arrow.Array {
			l, r := arrayOf(t, wide, lvals), arrayOf(t, wide, rvals)
			defer l.Release()
			defer r.Release()
			got, err := arith(op, l, r, res)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}()
		for _, lt := range []types.T{narrow, wide} {
			for _, rt := range []types.T{narrow, wide} {
				l, r := arrayOf(t, lt, lvals), arrayOf(t, rt, rvals)
				got, err := arith(op, l, r, res)
				if err != nil {
					t.Fatalf("%s %s %s: %v", lt, op, rt, err)
				}
				if !array.Equal(got, ref) {
					t.Errorf("%s %s %s: got %v, want %v", lt, op, rt, got, ref)
				}
				got.Release()
				l.Release()
				r.Release()
			}
		}
		ref.Release()
	}
}

// TestMulInt64MatchesBigInt: the checked 64-bit product is exact when it
// fits and reports overflow when it does not, signs and extremes
// included.
func TestMulInt64MatchesBigInt(t *testing.T) {
	edges := []int64{0, 1, -1, 2, -2, 3, 10, -10, 1 << 31, -(1 << 31), 1<<32 - 1, 3037000499, 3037000500, -3037000499,
		-3037000500, 1 << 62, -(1 << 62), math.MaxInt64, math.MinInt64, math.MaxInt64 / 2, math.MinInt64 / 2, 999_999_999_999_999}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 2000 {
		edges = append(edges, int64(rng.Uint64())>>rng.IntN(64))
	}
	for _, x := range edges {
		for _, y := range edges[:40] {
			want := new(big.Int).Mul(big.NewInt(x), big.NewInt(y))
			fits := want.IsInt64()
			got, ok := mulInt64(x, y)
			if ok != fits || ok && got != want.Int64() {
				t.Fatalf("mulInt64(%d, %d) = %d, %v; want %v (fits %v)", x, y, got, ok, want, fits)
			}
		}
	}
}
