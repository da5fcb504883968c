package compattests

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqe-db/sqe/sql/types"
)

// TestFloatTextMatchesPostgres prints 200,000 float8 and as many float4
// values as SQE prints them (types.AppendFloat, which pgwire and casts to
// text use) and has PostgreSQL 15 print them, sent as binary so both see
// the same bits: random bit patterns, large integers and powers of two
// scaled, where the ends of a float's rounding interval have few digits
// (PostgreSQL's Ryu never prints an end; strconv does when the mantissa
// is even: 1e23 is 9.999999999999999e+22), and the named edge cases.
func TestFloatTextMatchesPostgres(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	pg := startRefPostgres(t, ctx)
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=127.0.0.1 port=%s user=alice dbname=%s sslmode=disable", pg.port, demoDatabase))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Fallbacks = nil
	conn := connectConfig(t, ctx, cfg)
	rng := rand.New(rand.NewPCG(7, 9))
	edges := []float64{1e23, -3.2577019733917368e+16, 3.8893531918179523e18, 5e-324, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, 1 << 53, 1<<53 + 2, 1 << 50, 0.1, 1.5, 1e15, 1e16, 1e-4, 1e-5, 123456789012345680}
	const n, chunk = 200_000, 20_000
	var bad8, bad4 int
	for lo := 0; lo < n; lo += chunk {
		f8 := make([]float64, 0, chunk)
		f4 := make([]float32, 0, chunk)
		if lo == 0 {
			f8 = append(f8, edges...)
			for _, e := range edges {
				if x := float32(e); !math.IsInf(float64(x), 0) && (x != 0 || e == 0) {
					f4 = append(f4, x)
				}
			}
			f4 = append(f4, math.MaxFloat32, math.SmallestNonzeroFloat32, 1e10, 16777216, 16777218)
		}
		for len(f8) < chunk {
			switch rng.IntN(3) {
			case 0:
				if x := math.Float64frombits(rng.Uint64()); !math.IsNaN(x) {
					f8 = append(f8, x)
				}
			case 1:
				f8 = append(f8, float64(rng.Int64N(1<<62))*float64(rng.IntN(9)+1))
			default:
				f8 = append(f8, math.Ldexp(1+rng.Float64(), rng.IntN(200)-40))
			}
		}
		for len(f4) < chunk {
			switch rng.IntN(3) {
			case 0:
				if x := math.Float32frombits(rng.Uint32()); !math.IsNaN(float64(x)) {
					f4 = append(f4, x)
				}
			case 1:
				f4 = append(f4, float32(rng.Int64N(1<<30))*float32(rng.IntN(9)+1))
			default:
				f4 = append(f4, float32(math.Ldexp(1+rng.Float64(), rng.IntN(120)-20)))
			}
		}
		bad8 += compareFloatText(t, conn, "float8", f8, func(i int) string { return string(types.AppendFloat(nil, f8[i], 64)) }, bad8)
		bad4 += compareFloatText(t, conn, "float4", f4, func(i int) string { return string(types.AppendFloat(nil, float64(f4[i]), 32)) }, bad4)
	}
	if bad8+bad4 > 0 {
		t.Errorf("of %d values each, %d float8 and %d float4 print otherwise than in PostgreSQL", n, bad8, bad4)
	}
}

// compareFloatText has PostgreSQL print vals (a []float64 or []float32)
// as text, compares each with sqe(i), logs the first differences and
// returns how many there are.
func compareFloatText(t *testing.T, conn *pgx.Conn, typ string, vals any, sqe func(i int) string, before int) int {
	t.Helper()
	rows, err := conn.Query(t.Context(), "SELECT x::text FROM unnest($1::"+typ+"[]) x", vals)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	bad, i := 0, 0
	for rows.Next() {
		var want string
		if err := rows.Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got := sqe(i); got != want {
			bad++
			if before+bad <= 10 {
				t.Logf("%s: PostgreSQL prints %s, SQE %s", typ, want, got)
			}
		}
		i++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return bad
}
