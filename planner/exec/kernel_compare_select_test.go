package exec

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

var cmpOps = []string{"=", "<>", "<", "<=", ">", ">="}

// selectCase is a column, and constants to compare it with.
type selectCase struct {
	name   string
	typ    types.T
	vals   []any // nil = NULL
	consts []any
	ktyp   types.T // the constants' type; typ when zero
}

func selectCases() []selectCase {
	i64 := func(vs ...int64) []any {
		out := make([]any, len(vs))
		for i, v := range vs {
			out[i] = v
		}
		return out
	}
	decs := func(ss ...string) []any {
		out := make([]any, len(ss))
		for i, s := range ss {
			if s == "" {
				continue
			}
			out[i] = dec(s)
		}
		return out
	}
	withNulls := func(vs []any) []any { return append([]any{nil}, append(vs, nil)...) }
	return []selectCase{
		{name: "int8", typ: types.Int8,
			vals:   withNulls(i64(math.MinInt64, -5, -1, 0, 1, 5, 24, math.MaxInt64, 7, 7)),
			consts: i64(math.MinInt64, math.MinInt64+1, -1, 0, 7, 24, math.MaxInt64-1, math.MaxInt64)},
		{name: "int4", typ: types.Int4,
			vals:   withNulls(i64(math.MinInt32, -3, 0, 3, math.MaxInt32)),
			consts: i64(math.MinInt32, 0, 3, math.MaxInt32)},
		{name: "int2", typ: types.Int2, vals: withNulls(i64(math.MinInt16, -3, 0, 3, math.MaxInt16)), consts: i64(math.MinInt16, 0, 3, math.MaxInt16)},
		{name: "timestamp", typ: types.Timestamp,
			vals:   withNulls(i64(types.TimestampNegInfinity, -86400e6, 0, 757382400000000, types.TimestampPosInfinity)),
			consts: i64(types.TimestampNegInfinity, 0, 757382400000000, types.TimestampPosInfinity)},
		{name: "date", typ: types.Date,
			vals:   withNulls([]any{types.DateNegInfinity, int32(-1), int32(0), int32(8766), int32(9131), types.DatePosInfinity}),
			consts: []any{types.DateNegInfinity, int32(0), int32(8766), types.DatePosInfinity}},
		{name: "numeric(38,2) vs numeric(38,2)", typ: numeric382,
			vals:   withNulls(decs("-9223372036854775808", "-9223372036854775809", "-100000000000000000000000", "-5", "0", "5", "7", "2400", "9223372036854775807", "9223372036854775808", "100000000000000000000000")),
			consts: decs("-9223372036854775808", "-9223372036854775809", "-5", "0", "7", "2400", "9223372036854775807", "9223372036854775808", "99999999999999999999999999999999999999")},
		{name: "numeric(38,2) vs scale 0", typ: numeric382, ktyp: numericAt(0),
			vals:   withNulls(decs("-2400", "-2399", "0", "2399", "2400", "2401", "100000000000000000000000")),
			consts: decs("-24", "0", "24", "92233720368547758", "99999999999999999999999999999999999999")},
		// numeric(15,2) is held in 64 bits; constants past them are wider.
		{name: "numeric(15,2) vs numeric(15,2)", typ: numeric152,
			vals:   withNulls(decs("-9223372036854775808", "-5", "0", "5", "7", "2400", "9223372036854775807")),
			consts: decs("-9223372036854775808", "-5", "0", "7", "2400", "9223372036854775807")},
		{name: "numeric(15,2) vs wider constants", typ: numeric152, ktyp: numericAt(2),
			vals:   withNulls(decs("-9223372036854775808", "-5", "0", "2400", "9223372036854775807")),
			consts: decs("-9223372036854775809", "-5", "9223372036854775808", "99999999999999999999999999999999999999")},
		{name: "numeric(15,2) vs scale 0", typ: numeric152, ktyp: numericAt(0),
			vals:   withNulls(decs("-2400", "-2399", "0", "2399", "2400", "2401", "9223372036854775807")),
			consts: decs("-24", "0", "24", "92233720368547758", "99999999999999999999999999999999999999")},
		{name: "numeric(15,2) vs scale 3", typ: numeric152, ktyp: numericAt(3),
			vals:   withNulls(decs("-5", "5", "6")),
			consts: decs("50", "55", "-55")},
		{name: "float8", typ: types.Float8,
			vals:   withNulls([]any{math.Inf(-1), -1.5, 0.0, math.Copysign(0, -1), 2.5, math.Inf(1), math.NaN()}),
			consts: []any{math.Inf(-1), 0.0, 2.5, math.Inf(1), math.NaN()}},
		{name: "float4", typ: types.Float4,
			vals:   withNulls([]any{-1.5, 0.1, 2.5, math.NaN()}),
			consts: []any{0.1, 2.5, math.NaN()}},
		{name: "text", typ: types.Text,
			vals:   withNulls([]any{"", "A", "AB", "B", "BUILDING", "BUILDINGS", "building", "é"}),
			consts: []any{"", "A", "BUILDING", "Z", "é"}},
		// Without NULLs the one-byte constant takes the flag loop, the
		// ranges their branchless loops; an empty last value is read
		// safely.
		{name: "flags", typ: types.Text,
			vals:   []any{"R", "A", "", "RR", "R", "N", "é", "R", ""},
			consts: []any{"R", "N", "", "Z"}},
		{name: "int4 without NULLs", typ: types.Int4,
			vals:   i64(math.MinInt32, -3, 0, 3, 3, 9, math.MaxInt32),
			consts: i64(math.MinInt32, -3, 3, 4, math.MaxInt32)},
	}
}

func arrayOf(t *testing.T, typ types.T, vals []any) arrow.Array {
	t.Helper()
	a, err := valuesArray(typ, vals)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// referenceRows is what the array comparison says for the rows of rs:
// the rows where it is true, and those where it is NULL.
func referenceRows(t *testing.T, op string, col arrow.Array, ktyp types.T, k any, rows []int32) (trueRows, nullRows []int32) {
	t.Helper()
	ka, err := constArray(ktyp, k, col.Len())
	if err != nil {
		t.Fatal(err)
	}
	defer ka.Release()
	mask, err := compareArrays(op, col, ka)
	if err != nil {
		t.Fatal(err)
	}
	defer mask.Release()
	m := mask.(*array.Boolean)
	for _, i := range rows {
		switch {
		case m.IsNull(int(i)):
			nullRows = append(nullRows, i)
		case m.Value(int(i)):
			trueRows = append(trueRows, i)
		}
	}
	return trueRows, nullRows
}

func TestCmpSelectMatchesCompareArrays(t *testing.T) {
	for _, tc := range selectCases() {
		// A slice past a first row, as the scan hands batches out.
		full := arrayOf(t, tc.typ, append([]any{tc.vals[len(tc.vals)-1]}, tc.vals...))
		col := array.NewSlice(full, 1, int64(full.Len()))
		full.Release()
		batch := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "c", Type: col.DataType(), Nullable: true}}, nil), []arrow.Array{col}, int64(col.Len()))
		col.Release()
		ktyp := tc.ktyp
		if ktyp.OID == 0 {
			ktyp = tc.typ
		}
		n := col.Len()
		all := make([]int32, n)
		for i := range all {
			all[i] = int32(i)
		}
		var odd []int32
		for i := 1; i < n; i += 2 {
			odd = append(odd, int32(i))
		}
		for _, k := range tc.consts {
			for _, op := range cmpOps {
				s := &cmpSelect{op: op, right: -1, konst: k, kscale: ktyp.Scale, kfloat32: ktyp.OID == types.OIDFloat4}
				s.acc, _ = cmpAccept(op)
				for _, rows := range []struct {
					name string
					rs   rowSet
					sel  []int32
				}{
					{"dense", rowSet{dense: true, n: n}, all},
					{"selected", rowSet{sel: odd, n: n}, odd},
				} {
					for _, track := range []bool{false, true} {
						name := fmt.Sprintf("%s/%s %v/%s/track=%v", tc.name, op, k, rows.name, track)
						rs := rows.rs
						if track {
							rs.nulls = make([]bool, n)
						}
						got, ok := s.selectRows(batch, rs, nil)
						wantTrue, wantNull := referenceRows(t, op, batch.Column(0), ktyp, k, rows.sel)
						if !ok {
							if kd, isDec := k.(decimal128.Num); isDec {
								if _, fits := rescaleDecimal(kd, ktyp.Scale, tc.typ.Scale); !fits || ktyp.Scale > tc.typ.Scale {
									continue // such a constant takes the array path
								}
							}
							t.Fatalf("%s: no typed selection", name)
						}
						want := wantTrue
						if track {
							want = slices.Sorted(slices.Values(append(slices.Clone(wantTrue), wantNull...)))
							for i, marked := range rs.nulls {
								if marked != slices.Contains(wantNull, int32(i)) {
									t.Fatalf("%s: row %d marked NULL %v", name, i, marked)
								}
							}
						}
						if !slices.Equal(got, want) {
							t.Fatalf("%s: got rows %v, want %v", name, got, want)
						}
					}
				}
			}
		}
		batch.Release()
	}
}

// conjunctBatch is a batch of x integer, y integer, d date, p
// numeric(15,2), s text with NULLs in every column.
func conjunctBatch(t *testing.T, rows int) (arrow.RecordBatch, []planner.Column) {
	t.Helper()
	cols := []planner.Column{
		{ID: 1, Name: "x", Type: types.Int4, Nullable: true},
		{ID: 2, Name: "y", Type: types.Int4, Nullable: true},
		{ID: 3, Name: "d", Type: types.Date, Nullable: true},
		{ID: 4, Name: "p", Type: numeric152, Nullable: true},
		{ID: 5, Name: "s", Type: types.Text, Nullable: true},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	vals := make([][]any, len(cols))
	for r := 0; r < rows; r++ {
		null := func() bool { return rng.IntN(7) == 0 }
		pick := func(v any) any {
			if null() {
				return nil
			}
			return v
		}
		vals[0] = append(vals[0], pick(int64(rng.IntN(7)-3)))
		vals[1] = append(vals[1], pick(int64(rng.IntN(7)-3)))
		vals[2] = append(vals[2], pick(int32(8760+rng.IntN(12))))
		vals[3] = append(vals[3], pick(decimal128.FromI64(int64(rng.IntN(41)-20))))
		vals[4] = append(vals[4], pick([]string{"A", "B", "AB", ""}[rng.IntN(4)]))
	}
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.Arrow(), Nullable: true}
		arrs[i] = arrayOf(t, c.Type, vals[i])
	}
	b := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(rows))
	releaseAll(arrs)
	t.Cleanup(b.Release)
	return b, cols
}

func opExpr(t *testing.T, name string, l, r planner.Expr, typ types.T) *planner.BinOp {
	t.Helper()
	op, ok := functions.LookupOperator(name)
	if !ok {
		t.Fatalf("no operator %s", name)
	}
	return &planner.BinOp{Op: op, L: l, R: r, Typ: typ}
}

// TestConjunctSelectMatchesPredicate checks the filter's conjunct-wise
// selection against evaluating the whole predicate as a boolean array.
func TestConjunctSelectMatchesPredicate(t *testing.T) {
	b, cols := conjunctBatch(t, 3000)
	ref := func(i int) *planner.ColRef {
		return &planner.ColRef{ID: cols[i].ID, Name: cols[i].Name, Typ: cols[i].Type}
	}
	x, y, d, p, s := ref(0), ref(1), ref(2), ref(3), ref(4)
	i4 := func(v int64) *planner.Const { return &planner.Const{Typ: types.Int4, Value: v} }
	and := func(l, r planner.Expr) planner.Expr { return opExpr(t, "AND", l, r, types.Bool) }
	cmp := func(op string, l, r planner.Expr) planner.Expr { return opExpr(t, op, l, r, types.Bool) }
	ts := &planner.Const{Typ: types.Timestamp, Value: int64(8765) * types.MicrosPerDay}
	preds := map[string]planner.Expr{
		"column vs constant":  cmp("<", x, i4(1)),
		"constant vs column":  cmp("<", i4(1), x),
		"column vs column":    cmp("<=", x, y),
		"numeric scale 0":     cmp(">=", p, numConst(-3, 0)),
		"numeric range":       and(cmp(">=", p, numConst(-5, 2)), cmp("<=", p, numConst(5, 2))),
		"date as timestamp":   cmp("<", &planner.Cast{Arg: d, To: types.Timestamp}, ts),
		"widened integer":     cmp(">", &planner.Cast{Arg: x, To: types.Int8}, &planner.Const{Typ: types.Int8, Value: int64(0)}),
		"text":                and(cmp("=", s, &planner.Const{Typ: types.Text, Value: "A"}), cmp("<>", x, i4(0))),
		"null constant":       and(cmp("=", x, &planner.Const{Typ: types.Int4}), cmp(">", y, i4(0))),
		"or is one conjunct":  and(opExpr(t, "OR", cmp("=", x, i4(0)), cmp("=", y, i4(0)), types.Bool), cmp(">", p, numConst(0, 2))),
		"is null":             and(&planner.IsNull{Arg: x}, cmp(">", y, i4(-2))),
		"nested and on right": and(cmp(">", x, i4(-3)), and(cmp("<", y, i4(3)), cmp("<>", s, &planner.Const{Typ: types.Text, Value: ""}))),
		"date range as date and timestamp": and(cmp(">=", d, &planner.Const{Typ: types.Date, Value: int32(8762)}),
			cmp("<", &planner.Cast{Arg: d, To: types.Timestamp}, ts)),
		"empty range": and(cmp(">", x, i4(2)), cmp("<", x, i4(0))),
		"numeric range, one bound without a range test": and(cmp(">=", p, numConst(-5, 2)), cmp("<=", p, numConst(55, 3))),
		"numeric range, two scales":                     and(cmp(">=", p, numConst(-5, 2)), cmp("<=", p, numConst(1, 0))),
		"ranges apart around a division": and(and(cmp("<>", x, i4(0)), cmp(">", x, i4(-3))),
			and(cmp(">", opExpr(t, "/", i4(6), x, types.Int4), i4(1)), cmp("<", x, i4(3)))),
		"division guarded": and(cmp("<>", x, i4(0)),
			cmp(">", opExpr(t, "/", i4(6), x, types.Int4), i4(1))),
		"text run after the integers": and(and(cmp("=", s, &planner.Const{Typ: types.Text, Value: "A"}),
			opExpr(t, "OR", cmp("=", s, &planner.Const{Typ: types.Text, Value: "B"}), cmp("<", x, i4(0)), types.Bool)),
			and(cmp("<", d, &planner.Const{Typ: types.Date, Value: int32(8765)}), cmp(">", p, numConst(0, 2)))),
	}
	for name, pred := range preds {
		t.Run(name, func(t *testing.T) {
			ev, err := compile(pred, cols)
			if err != nil {
				t.Fatal(err)
			}
			mask, err := ev.eval(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			want := selection(nil, mask.(*array.Boolean))
			mask.Release()
			cs, err := compileConjuncts(pred, cols)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second run reuses the scratch
				got, err := cs.selectRows(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("selected %d rows, want %d\ngot  %v\nwant %v", len(got), len(want), got, want)
				}
			}
		})
	}
}

// TestConjunctSelectErrors: a conjunct that can fail sees the rows no
// earlier conjunct found false, NULL ones included, as the AND chain's
// short circuit gave it.
func TestConjunctSelectErrors(t *testing.T) {
	cols := []planner.Column{{ID: 1, Name: "x", Type: types.Int4, Nullable: true}, {ID: 2, Name: "y", Type: types.Int4, Nullable: true}}
	x := &planner.ColRef{ID: 1, Name: "x", Typ: types.Int4}
	y := &planner.ColRef{ID: 2, Name: "y", Typ: types.Int4}
	i4 := func(v int64) *planner.Const { return &planner.Const{Typ: types.Int4, Value: v} }
	and := func(l, r planner.Expr) planner.Expr { return opExpr(t, "AND", l, r, types.Bool) }
	cmp := func(op string, l, r planner.Expr) planner.Expr { return opExpr(t, op, l, r, types.Bool) }
	divides := cmp(">", opExpr(t, "/", i4(6), x, types.Int4), i4(1))
	tests := []struct {
		name     string
		x, y     []any
		pred     planner.Expr
		wantRows []int32
		wantErr  string // SQLSTATE
	}{
		{name: "false row skips the division", x: []any{int64(0), int64(2), int64(3)}, y: []any{int64(0), int64(1), int64(1)},
			pred: and(cmp(">", y, i4(0)), divides), wantRows: []int32{1, 2}},
		{name: "a cheaper conjunct written after the division runs after it", x: []any{int64(0), int64(2)}, y: []any{int64(0), int64(1)},
			pred: and(divides, cmp(">", y, i4(0))), wantErr: pgerror.DivisionByZero},
		{name: "NULL row still evaluates the division", x: []any{int64(0), int64(2)}, y: []any{nil, int64(1)},
			pred: and(cmp(">", y, i4(0)), divides), wantErr: pgerror.DivisionByZero},
		{name: "NULL row of a later typed conjunct is dropped", x: []any{int64(0), int64(2)}, y: []any{int64(1), nil},
			pred: and(and(cmp("<>", x, i4(0)), divides), cmp(">", y, i4(0))), wantRows: []int32{}},
		{name: "selected rows only", x: []any{int64(0), int64(0), int64(3), int64(1)}, y: []any{int64(0), int64(0), int64(1), int64(1)},
			pred: and(and(cmp(">", y, i4(0)), cmp("<", x, i4(3))), divides), wantRows: []int32{3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			xa, ya := arrayOf(t, types.Int4, tc.x), arrayOf(t, types.Int4, tc.y)
			b := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: xa.DataType(), Nullable: true}, {Name: "y", Type: ya.DataType(), Nullable: true}}, nil),
				[]arrow.Array{xa, ya}, int64(xa.Len()))
			xa.Release()
			ya.Release()
			defer b.Release()
			cs, err := compileConjuncts(tc.pred, cols)
			if err != nil {
				t.Fatal(err)
			}
			got, err := cs.selectRows(context.Background(), b)
			if tc.wantErr != "" {
				var pe *pgerror.Error
				if !errors.As(err, &pe) || pe.Code != tc.wantErr {
					t.Fatalf("got rows %v, error %v; want SQLSTATE %s", got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.wantRows) && !(len(got) == 0 && len(tc.wantRows) == 0) {
				t.Fatalf("got rows %v, want %v", got, tc.wantRows)
			}
		})
	}
}

// naiveCompare orders two constant-representation values as PostgreSQL
// does: numerics exactly at their scales, NaN above every float.
func naiveCompare(a, b any, as, bs int32) int {
	switch x := a.(type) {
	case int64:
		return cmp.Compare(x, b.(int64))
	case int32:
		return cmp.Compare(x, b.(int32))
	case float64:
		return floatCmp(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	case decimal128.Num:
		l, r := x.BigInt(), b.(decimal128.Num).BigInt()
		l.Mul(l, types.Pow10(max(as, bs)-as))
		r.Mul(r, types.Pow10(max(as, bs)-bs))
		return l.Cmp(r)
	}
	panic(fmt.Sprintf("value %T", a))
}

// TestCompareArraysMatchesNaive checks the array comparison, every pair
// of a case's values and constants, against naiveCompare.
func TestCompareArraysMatchesNaive(t *testing.T) {
	for _, tc := range selectCases() {
		ktyp := tc.ktyp
		if ktyp.OID == 0 {
			ktyp = tc.typ
		}
		var lv, rv []any
		for _, v := range tc.vals {
			for _, k := range append(slices.Clone(tc.consts), nil) {
				lv, rv = append(lv, v), append(rv, k)
			}
		}
		if tc.typ.OID == types.OIDFloat4 {
			ktyp = tc.typ // float4 against float4, as the binder casts them
		}
		l, r := arrayOf(t, tc.typ, lv), arrayOf(t, ktyp, rv)
		for _, op := range cmpOps {
			acc, _ := cmpAccept(op)
			got, err := compareArrays(op, l, r)
			if err != nil {
				t.Fatal(err)
			}
			g := got.(*array.Boolean)
			for i := range lv {
				name := fmt.Sprintf("%s: %v %s %v", tc.name, lv[i], op, rv[i])
				if lv[i] == nil || rv[i] == nil {
					if g.IsValid(i) {
						t.Fatalf("%s: got %v, want NULL", name, g.Value(i))
					}
					continue
				}
				a, b := valueAt(l, i), valueAt(r, i)
				if want := acc[naiveCompare(a, b, tc.typ.Scale, ktyp.Scale)+1]; g.IsNull(i) || g.Value(i) != want {
					t.Fatalf("%s: got %v, want %v", name, g.Value(i), want)
				}
			}
			got.Release()
		}
		l.Release()
		r.Release()
	}
}

// TestConjunctOrder: conjuncts that cannot fail run cheapest first
// (fixed-width comparisons, then text, then the rest), each run bounded
// by the conjuncts that can fail, which keep their places.
func TestConjunctOrder(t *testing.T) {
	_, cols := conjunctBatch(t, 1)
	ref := func(i int) *planner.ColRef {
		return &planner.ColRef{ID: cols[i].ID, Name: cols[i].Name, Typ: cols[i].Type}
	}
	x, s := ref(0), ref(4)
	i4 := func(v int64) *planner.Const { return &planner.Const{Typ: types.Int4, Value: v} }
	cmp := func(op string, l, r planner.Expr) planner.Expr { return opExpr(t, op, l, r, types.Bool) }
	text := cmp("=", s, &planner.Const{Typ: types.Text, Value: "A"})
	textOr := opExpr(t, "OR", text, cmp("=", s, &planner.Const{Typ: types.Text, Value: "B"}), types.Bool)
	divides := cmp(">", opExpr(t, "/", i4(6), x, types.Int4), i4(1))
	cs := compileWritten(t, cols, textOr, text, cmp("<", x, i4(3)), divides, text, cmp(">", x, i4(-3)))
	var got []int
	for _, c := range cs.conjuncts {
		got = append(got, c.cost)
		if c.mayFail {
			got[len(got)-1] = -1
		}
	}
	if want := []int{1, 4, 8, -1, 1, 4}; !slices.Equal(got, want) {
		t.Fatalf("conjunct costs in run order %v, want %v", got, want)
	}
}

// TestJoinColumnRanges: comparisons of one column with constants run as
// one conjunct, but not across a conjunct that can fail, nor a <>.
func TestJoinColumnRanges(t *testing.T) {
	_, cols := conjunctBatch(t, 1)
	ref := func(i int) *planner.ColRef {
		return &planner.ColRef{ID: cols[i].ID, Name: cols[i].Name, Typ: cols[i].Type}
	}
	x, y, d, p := ref(0), ref(1), ref(2), ref(3)
	i4 := func(v int64) *planner.Const { return &planner.Const{Typ: types.Int4, Value: v} }
	cmp := func(op string, l, r planner.Expr) planner.Expr { return opExpr(t, op, l, r, types.Bool) }
	divides := cmp(">", opExpr(t, "/", i4(6), x, types.Int4), i4(1))
	for _, tc := range []struct {
		written []planner.Expr
		want    []int // per conjunct in run order, how many comparisons it tests
	}{
		{[]planner.Expr{cmp(">=", d, &planner.Const{Typ: types.Date, Value: int32(8762)}), cmp(">", x, i4(0)),
			cmp("<", &planner.Cast{Arg: d, To: types.Timestamp}, &planner.Const{Typ: types.Timestamp, Value: int64(0)}),
			cmp(">=", p, numConst(5, 2)), cmp("<=", p, numConst(7, 2)), cmp("<", x, i4(24))}, []int{2, 2, 2}},
		{[]planner.Expr{cmp(">", x, i4(-3)), divides, cmp("<", x, i4(3)), cmp("<", x, i4(5))}, []int{1, 1, 2}},
		{[]planner.Expr{cmp(">", x, i4(-3)), cmp("<>", x, i4(0)), cmp("<=", x, y), cmp("<", x, i4(3))}, []int{2, 1, 1}},
	} {
		cs := compileWritten(t, cols, tc.written...)
		var got []int
		for _, c := range cs.conjuncts {
			n := 1
			if c.cmp != nil {
				n += len(c.cmp.also)
			}
			got = append(got, n)
		}
		if !slices.Equal(got, tc.want) || len(cs.laterMayFail) != len(got) {
			t.Fatalf("%d conjuncts: comparisons per conjunct %v, want %v", len(tc.written), got, tc.want)
		}
	}
}

// compileWritten compiles the AND of the conjuncts written, left to right.
func compileWritten(t *testing.T, cols []planner.Column, written ...planner.Expr) *conjunctSelect {
	t.Helper()
	pred := written[0]
	for _, e := range written[1:] {
		pred = opExpr(t, "AND", pred, e, types.Bool)
	}
	cs, err := compileConjuncts(pred, cols)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// BenchmarkSelectStringEqual: l_returnflag = 'R' over a batch of one-letter
// flags (TPC-H Q10's filter).
func BenchmarkSelectStringEqual(b *testing.B) {
	const n = 65536
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	for i := range n {
		bld.Append(string("ANR"[i%3]))
	}
	col := bld.NewStringArray()
	defer col.Release()
	acc, _ := cmpAccept("=")
	out := make([]int32, 0, n)
	b.ReportAllocs()
	for b.Loop() {
		out = selectString(col, "R", acc, nil, 0, rowSet{dense: true, n: n}, out[:0])
		if len(out) != n/3 {
			b.Fatalf("%d rows, want %d", len(out), n/3)
		}
	}
}

// TestDatesCastInto: the range of dates a timestamp comparison accepts
// keeps the dates PostgreSQL's date-timestamp comparison keeps, the
// infinities and dates past the timestamps' range included, over all
// rows and over a selection.
func TestDatesCastInto(t *testing.T) {
	// pgCompare is date_cmp_timestamp: infinities at the ends, any finite
	// date at its midnight, compared exactly.
	pgCompare := func(d int32, ts int64) int {
		end := func(negInf, posInf bool) int { return boolInt(posInf) - boolInt(negInf) }
		if de, te := end(d == types.DateNegInfinity, d == types.DatePosInfinity), end(ts == types.TimestampNegInfinity, ts == types.TimestampPosInfinity); de != 0 || te != 0 {
			return cmp.Compare(de, te)
		}
		midnight := new(big.Int).Mul(big.NewInt(int64(d)), big.NewInt(types.MicrosPerDay))
		return midnight.Cmp(big.NewInt(ts))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	vals := []int32{types.DateNegInfinity, math.MinInt32 + 1, -2440588, -2440587, 0, 106751990, 106751991, 200000000, math.MaxInt32 - 1, types.DatePosInfinity}
	for range 200 {
		vals = append(vals, int32(8700+rng.IntN(120)))
	}
	all := make([]int32, len(vals))
	for i := range all {
		all[i] = int32(i)
	}
	var odd []int32
	for i := 1; i < len(vals); i += 2 {
		odd = append(odd, int32(i))
	}
	consts := []int64{types.TimestampNegInfinity, types.MinTimestampMicros, -1, 0, int64(8760)*types.MicrosPerDay + 1,
		int64(8760) * types.MicrosPerDay, types.MaxTimestampMicros, types.TimestampPosInfinity}
	for _, k := range consts {
		for _, op := range cmpOps {
			r := datesCastInto(newIntRange(op, k))
			for _, rows := range []struct {
				rs  rowSet
				sel []int32
			}{{rowSet{dense: true, n: len(vals)}, all}, {rowSet{sel: odd, n: len(vals)}, odd}} {
				var want []int32
				for _, i := range rows.sel {
					c := pgCompare(vals[i], k)
					if op == "=" && c == 0 || op == "<>" && c != 0 || op == "<" && c < 0 || op == "<=" && c <= 0 || op == ">" && c > 0 || op == ">=" && c >= 0 {
						want = append(want, i)
					}
				}
				got := selectRange(vals, r, nil, 0, rows.rs, []int32{})
				if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
					t.Fatalf("date::timestamp %s %d (dense %v): %v, want %v", op, k, rows.rs.dense, got, want)
				}
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
