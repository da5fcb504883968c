package exec

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/types"
)

// bigMul is the reference: the exact product through math/big.
func bigMul(a, b decimal128.Num, as, bs, to int32) (decimal128.Num, bool) {
	return types.RoundBig(new(big.Int).Mul(a.BigInt(), b.BigInt()), as+bs, to)
}

func dec(s string) decimal128.Num {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return decimal128.FromBigInt(v)
}

func TestMulDecimalMatchesBigInt(t *testing.T) {
	tests := []struct {
		name          string
		a, b          string
		as, bs, to    int32
		want          string
		wantOverflows bool
	}{
		{name: "price times rate", a: "3890745", b: "94", as: 2, bs: 2, to: 4, want: "365730030"},
		{name: "negative", a: "-125", b: "3", as: 2, bs: 0, to: 2, want: "-375"},
		{name: "round half up", a: "15", b: "1", as: 1, bs: 0, to: 0, want: "2"},
		{name: "round half away from zero", a: "-15", b: "1", as: 1, bs: 0, to: 0, want: "-2"},
		{name: "round down", a: "149", b: "1", as: 2, bs: 0, to: 0, want: "1"},
		{name: "scale up", a: "7", b: "3", as: 0, bs: 0, to: 5, want: "2100000"},
		{name: "min int64 squared", a: "-9223372036854775808", b: "-9223372036854775808", as: 0, bs: 0, to: 0,
			want: "85070591730234615865843651857942052864"},
		{name: "wide operand takes big path", a: "100000000000000000000", b: "3", as: 0, bs: 0, to: 0, want: "300000000000000000000"},
		{name: "overflow", a: "100000000000000000000000", b: "100000000000000000000000", as: 0, bs: 0, to: 0, wantOverflows: true},
		{name: "scale up overflow", a: "9223372036854775807", b: "9223372036854775807", as: 0, bs: 0, to: 10, wantOverflows: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := mulDecimal(dec(tc.a), dec(tc.b), tc.as, tc.bs, tc.to)
			if tc.wantOverflows {
				if ok && got.FitsInPrecision(types.MaxNumericPrecision) {
					t.Fatalf("got %s, want overflow", got.BigInt())
				}
				return
			}
			if !ok || got != dec(tc.want) {
				t.Fatalf("got %s (ok %v), want %s", got.BigInt(), ok, tc.want)
			}
		})
	}
}

func TestMulDecimalRandomAgainstBigInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for range 20000 {
		a := decimal128.FromI64(rng.Int64N(1<<40) - 1<<39)
		b := decimal128.FromI64(rng.Int64N(1<<30) - 1<<29)
		as, bs := int32(rng.IntN(5)), int32(rng.IntN(5))
		to := int32(rng.IntN(12))
		got, gok := mulDecimal(a, b, as, bs, to)
		want, wok := bigMul(a, b, as, bs, to)
		if gok != wok || got != want {
			t.Fatalf("%s(s%d) * %s(s%d) at s%d: got %s %v, want %s %v", a.BigInt(), as, b.BigInt(), bs, to,
				got.BigInt(), gok, want.BigInt(), wok)
		}
	}
}

func TestRescaleDecimalMatchesTypesRescale(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vals := []decimal128.Num{dec("0"), dec("5"), dec("-5"), dec("99999999999999999999999999999999999999"),
		dec("-99999999999999999999999999999999999999"), dec("170141183460469231731687303715884105727")}
	for range 5000 {
		hi := rng.Int64N(1<<20) - 1<<19
		vals = append(vals, decimal128.New(hi, rng.Uint64()))
	}
	for _, v := range vals {
		for _, sc := range [][2]int32{{2, 0}, {4, 2}, {6, 4}, {19, 0}, {0, 2}, {2, 6}, {0, 38}, {30, 0}} {
			got, gok := rescaleDecimal(v, sc[0], sc[1])
			want, wok := types.Rescale(v, sc[0], sc[1])
			if gok != wok || (gok && got != want) {
				t.Fatalf("rescale %s from %d to %d: got %s %v, want %s %v", v.BigInt(), sc[0], sc[1], got.BigInt(), gok, want.BigInt(), wok)
			}
		}
	}
}

// BenchmarkDecimalMul compares the 128-bit product with the math/big
// path every row used to take.
func BenchmarkDecimalMul(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 8192
	l, r := make([]decimal128.Num, n), make([]decimal128.Num, n)
	for i := range l {
		l[i] = decimal128.FromI64(rng.Int64N(10_000_000))
		r[i] = decimal128.FromI64(rng.Int64N(100))
	}
	out := make([]decimal128.Num, n)
	b.Run("int128", func(b *testing.B) {
		for b.Loop() {
			if err := mulDecimals(l, r, 2, 2, out, nil, 4); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bigint", func(b *testing.B) {
		for b.Loop() {
			for i := range l {
				out[i], _ = bigMul(l[i], r[i], 2, 2, 4)
			}
		}
	})
}
