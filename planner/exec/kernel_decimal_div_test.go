package exec

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/types"
)

// bigDiv is the reference: the math/big path every row used to take.
func bigDiv(a, b decimal128.Num, shift int32) (decimal128.Num, bool) {
	num := a.BigInt()
	num.Mul(num, types.Pow10(shift))
	return types.DivRound(num, b.BigInt())
}

func TestDivDecimalMatchesBigInt(t *testing.T) {
	tests := []struct {
		name  string
		a, b  string
		shift int32
		want  string
	}{
		{name: "exact", a: "100", b: "4", shift: 0, want: "25"},
		{name: "round half up", a: "5", b: "2", shift: 0, want: "3"},
		{name: "round half away from zero", a: "-5", b: "2", shift: 0, want: "-3"},
		{name: "negative divisor", a: "5", b: "-2", shift: 0, want: "-3"},
		{name: "both negative", a: "-7", b: "-2", shift: 1, want: "35"},
		{name: "round down", a: "1", b: "3", shift: 6, want: "333333"},
		{name: "round up", a: "2", b: "3", shift: 6, want: "666667"},
		{name: "min int64", a: "-9223372036854775808", b: "-1", shift: 0, want: "9223372036854775808"},
		{name: "wide numerator", a: "9223372036854775807", b: "7", shift: 19, want: "13176245766935394010000000000000000000"},
		{name: "wide operand", a: "100000000000000000000", b: "3", shift: 2, want: "3333333333333333333333"},
		{name: "negative shift takes big path", a: "100", b: "3", shift: -2, want: "33"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := divDecimal(dec(tc.a), dec(tc.b), tc.shift)
			want, wok := bigDiv(dec(tc.a), dec(tc.b), tc.shift)
			if !ok || got != dec(tc.want) || !wok || want != got {
				t.Fatalf("got %s (ok %v), want %s; big path %s", got.BigInt(), ok, tc.want, want.BigInt())
			}
		})
	}
}

func TestDivModDecimalRandomAgainstBigInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 11))
	for i := range 50000 {
		a := decimal128.FromI64(rng.Int64() >> rng.IntN(63))
		b := decimal128.FromI64(rng.Int64() >> rng.IntN(63))
		if i%2 == 0 {
			a = a.Negate()
		}
		if b.Sign() == 0 {
			continue
		}
		shift := int32(rng.IntN(20))
		got, gok := divDecimal(a, b, shift)
		want, wok := bigDiv(a, b, shift)
		if gok != wok || got != want {
			t.Fatalf("%s * 10^%d / %s: got %s %v, want %s %v", a.BigInt(), shift, b.BigInt(), got.BigInt(), gok, want.BigInt(), wok)
		}
		_, wantMod := a.Div(b)
		if m := modDecimal(a, b); m != wantMod {
			t.Fatalf("%s %% %s: got %s, want %s", a.BigInt(), b.BigInt(), m.BigInt(), wantMod.BigInt())
		}
	}
}

// BenchmarkDecimalDiv compares the 128-bit quotient with the math/big
// path.
func BenchmarkDecimalDiv(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 8192
	l, r := make([]decimal128.Num, n), make([]decimal128.Num, n)
	for i := range l {
		l[i] = decimal128.FromI64(rng.Int64N(10_000_000))
		r[i] = decimal128.FromI64(1 + rng.Int64N(10_000))
	}
	out := make([]decimal128.Num, n)
	b.Run("int128", func(b *testing.B) {
		for b.Loop() {
			for i := range l {
				out[i], _ = divDecimal(l[i], r[i], 6)
			}
		}
	})
	b.Run("bigint", func(b *testing.B) {
		for b.Loop() {
			for i := range l {
				out[i], _ = bigDiv(l[i], r[i], 6)
			}
		}
	})
}
