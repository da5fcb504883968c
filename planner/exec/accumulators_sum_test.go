package exec

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// TestDecimalSumAccumulator checks sum and avg of numeric and bigint
// against math/big, for values that keep the 64-bit part, overflow it
// upwards and downwards, and do not fit in it at all; NULLs are skipped
// and a group of NULLs only is NULL.
func TestDecimalSumAccumulator(t *testing.T) {
	maxI, minI := decimal128.FromI64(math.MaxInt64), decimal128.FromI64(math.MinInt64)
	tests := []struct {
		name    string
		typ     types.T
		batches [][]any // values of groups 0 and 1, alternating
		wantErr bool
	}{
		{name: "small", typ: numeric152, batches: [][]any{
			{decimal128.FromI64(150), decimal128.FromI64(-3), nil, decimal128.FromI64(7)},
			{decimal128.FromI64(1), nil, decimal128.FromI64(-250), nil},
		}},
		{name: "past int64 upwards", typ: numeric152, batches: [][]any{
			{maxI, nil, maxI, nil, maxI, nil},
			{decimal128.FromI64(-1), nil, maxI, nil},
		}},
		{name: "past int64 downwards", typ: numeric152, batches: [][]any{
			{minI, maxI, minI, maxI, decimal128.FromI64(-1), decimal128.FromI64(1)},
		}},
		{name: "wide values", typ: numericAt(0), batches: [][]any{
			{dec("100000000000000000000"), decimal128.FromI64(5), dec("-100000000000000000001"), decimal128.FromI64(-5)},
			{maxI, dec("-9223372036854775809"), maxI, nil},
		}},
		{name: "back inside int64", typ: numericAt(0), batches: [][]any{
			{maxI, nil, maxI, nil, minI, nil, minI, nil, decimal128.FromI64(3), nil},
		}},
		{name: "past numeric(38)", typ: numericAt(0), batches: [][]any{
			{dec("99999999999999999999999999999999999999"), nil},
			{decimal128.FromI64(1), nil},
		}, wantErr: true},
		{name: "past 128 bits", typ: numericAt(0), batches: [][]any{
			{dec("99999999999999999999999999999999999999"), nil, dec("99999999999999999999999999999999999999"), nil},
		}, wantErr: true},
		{name: "bigint", typ: types.Int8, batches: [][]any{
			{int64(math.MaxInt64), int64(math.MinInt64), int64(math.MaxInt64), nil, int64(2), int64(math.MinInt64)},
			{nil, int64(-7), int64(math.MaxInt64), nil},
		}},
	}
	for _, tc := range tests {
		for _, avg := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/avg=%v", tc.name, avg), func(t *testing.T) {
				scale := tc.typ.Scale
				out := types.T{OID: types.OIDNumeric, Scale: scale}
				if avg {
					out.Scale = max(16, scale)
				}
				acc := &decimalSumAcc{out: out, avg: avg}
				sums := [2]*big.Int{new(big.Int), new(big.Int)}
				var counts [2]int64
				for _, vals := range tc.batches {
					groups := make([]int32, len(vals))
					for i, v := range vals {
						groups[i] = int32(i % 2)
						switch x := v.(type) {
						case decimal128.Num:
							sums[i%2].Add(sums[i%2], x.BigInt())
							counts[i%2]++
						case int64:
							sums[i%2].Add(sums[i%2], big.NewInt(x))
							counts[i%2]++
						}
					}
					a := arrayOf(t, tc.typ, vals)
					err := acc.update(groups, 2, a)
					a.Release()
					if err != nil {
						if tc.wantErr {
							checkOverflow(t, err)
							return
						}
						t.Fatal(err)
					}
				}
				res, err := acc.result(2)
				if tc.wantErr {
					checkOverflow(t, err)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				defer res.Release()
				d := res.(*array.Decimal128)
				for g := range 2 {
					if counts[g] == 0 {
						if d.IsValid(g) {
							t.Errorf("group %d: got %s, want NULL", g, d.Value(g).BigInt())
						}
						continue
					}
					want := new(big.Int).Mul(sums[g], types.Pow10(out.Scale-scale))
					var w decimal128.Num
					if avg {
						w, _ = types.DivRound(want, big.NewInt(counts[g]))
					} else {
						w = decimal128.FromBigInt(want)
					}
					if d.IsNull(g) || d.Value(g) != w {
						t.Errorf("group %d: got %s, want %s", g, d.Value(g).BigInt(), w.BigInt())
					}
				}
			})
		}
	}
}

func checkOverflow(t *testing.T, err error) {
	t.Helper()
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.NumericValueOutOfRange {
		t.Fatalf("got %v, want SQLSTATE 22003", err)
	}
}

// TestDecimalSumMerge: a parallel aggregate's parts merge to the serial
// sum, their 64-bit parts included.
func TestDecimalSumMerge(t *testing.T) {
	maxI := decimal128.FromI64(math.MaxInt64)
	parts := [][]any{{maxI, decimal128.FromI64(5)}, {maxI, nil}, {decimal128.FromI64(-2), dec("100000000000000000000")}}
	var accs []*decimalSumAcc
	want := [2]*big.Int{new(big.Int), new(big.Int)}
	for _, p := range parts {
		acc := &decimalSumAcc{out: numericAt(2)}
		a := arrayOf(t, numeric382, p)
		if err := acc.update([]int32{0, 1}, 2, a); err != nil {
			t.Fatal(err)
		}
		a.Release()
		accs = append(accs, acc)
		for g, v := range p {
			if v != nil {
				want[g].Add(want[g], v.(decimal128.Num).BigInt())
			}
		}
	}
	merged := &decimalSumAcc{out: numericAt(2)}
	for _, acc := range accs {
		if err := merged.merge(acc, []int32{0, 1}, 2); err != nil {
			t.Fatal(err)
		}
	}
	res, err := merged.result(2)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	for g := range 2 {
		if got := res.(*array.Decimal128).Value(g); got.BigInt().Cmp(want[g]) != 0 {
			t.Errorf("group %d: got %s, want %s", g, got.BigInt(), want[g])
		}
	}
}

// TestDecimalSumWideOnlyWhenNeeded: groups whose sums stay in 64 bits
// never make the 128-bit parts, merged or not; the first sum past 64
// bits makes them, and the totals stay exact.
func TestDecimalSumWideOnlyWhenNeeded(t *testing.T) {
	small := arrayOf(t, numeric152, []any{decimal128.FromI64(7), decimal128.FromI64(-3), nil})
	defer small.Release()
	a, b := &decimalSumAcc{out: numericAt(2)}, &decimalSumAcc{out: numericAt(2)}
	for _, acc := range []*decimalSumAcc{a, b} {
		if err := acc.update([]int32{0, 1, 1}, 2, small); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.merge(b, []int32{1, 0}, 2); err != nil {
		t.Fatal(err)
	}
	if a.wide != nil {
		t.Fatalf("sums in 64 bits made the 128-bit parts (%d groups)", len(a.wide))
	}
	past := arrayOf(t, numeric152, []any{decimal128.FromI64(math.MaxInt64), decimal128.FromI64(math.MaxInt64)})
	defer past.Release()
	if err := a.update([]int32{1, 1}, 2, past); err != nil {
		t.Fatal(err)
	}
	if len(a.wide) != 2 {
		t.Fatalf("a sum past 64 bits: %d 128-bit parts, want 2", len(a.wide))
	}
	res, err := a.result(2)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	want1 := new(big.Int).Mul(big.NewInt(math.MaxInt64), big.NewInt(2))
	want1.Add(want1, big.NewInt(7-3))
	for g, want := range []*big.Int{big.NewInt(4), want1} {
		if got := res.(*array.Decimal128).Value(g).BigInt(); got.Cmp(want) != 0 {
			t.Errorf("group %d: got %s, want %s", g, got, want)
		}
	}
}
