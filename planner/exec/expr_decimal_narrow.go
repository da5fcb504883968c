package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// A numeric an operator computes has no declared precision, so its
// column is held in 128 bits (types.DecimalArrowType): TPC-H Q1's
// 1 - l_discount, of a numeric(15,2) column, is a 16-byte value per row,
// and the products it enters are 128-bit by 128-bit. But an arithmetic
// operand is read by nothing else than the operator above it, and a sum
// or average's argument by nothing else than its accumulator, which read
// either width. So such a value is computed in 64 bits and handed up as
// decimal64 when the batch's values fit there, as they do when the
// digits of what it is computed from (columns of a declared precision,
// constants) bound it to 18 or fewer, and as they mostly do otherwise
// (Q1's l_extendedprice * (1 - l_discount) * (1 + l_tax) is bounded to
// 47 digits, its values take 11); its type, as the planner and the
// client see it, does not change.

// constDigits is the precision a constant v (unscaled) at scale needs.
func constDigits(v decimal128.Num, scale int32) int32 {
	if v.Sign() < 0 {
		v = v.Negate()
	}
	return max(decimalLen(v), scale, 1)
}

// decimalLen is the number of decimal digits of v >= 0 (1 for 0).
func decimalLen(v decimal128.Num) int32 {
	n := int32(1)
	for ten := decimal128.FromU64(10); v.Cmp(ten) >= 0; n++ {
		v, _ = v.Div(ten)
	}
	return n
}

// narrowOperands marks the arithmetic operands of be (an arithmetic
// operator over numerics of one scale) to hand up decimal64 when their
// values fit, and holds a constant operand of such an operand in 64 bits
// too.
func narrowOperands(be *binaryEval) {
	for _, operand := range []evaluator{be.l, be.r} {
		if child, ok := operand.(*binaryEval); ok {
			child.narrowResult()
		}
	}
}

// narrowResult makes e, when it is arithmetic on numerics of one scale,
// hand up decimal64 when its values fit: its reader takes either width.
func (e *binaryEval) narrowResult() {
	if !narrowable(e.op.Name, e.res, e.operand, e.rOperand) {
		return
	}
	e.narrow = true
	e.l, e.r = narrowConst(e.l), narrowConst(e.r)
}

// narrowable reports whether op computes a numeric of type res from
// numerics l and r without rounding (+ and - at the larger scale, * at
// the sum of the scales), as arithNarrow computes it.
func narrowable(op string, res, l, r types.T) bool {
	for _, t := range []types.T{res, l, r} {
		if t.OID != types.OIDNumeric || t.General {
			return false
		}
	}
	switch op {
	case "+", "-":
		return res.Scale == max(l.Scale, r.Scale)
	case "*":
		return res.Scale == l.Scale+r.Scale
	}
	return false
}

// narrowSumArguments makes the arithmetic arguments of numeric sums and
// averages (args[i], accs[i] of aggs[i]) hand up decimal64 when their
// values fit, as decimalSumAcc reads either width. An argument whose
// evaluator another aggregate shares (sharedExprs) is narrowed only when
// every aggregate of that argument is such a sum.
func narrowSumArguments(aggs []*planner.AggCall, args []evaluator, accs []accumulator) {
	sums := func(a *planner.AggCall, acc accumulator) bool {
		_, ok := acc.(*decimalSumAcc)
		return ok && a.Arg != nil
	}
	for i, a := range aggs {
		if !sums(a, accs[i]) {
			continue
		}
		readers := true
		for j, b := range aggs {
			if b.Arg != nil && !sums(b, accs[j]) && planner.SameExpr(a.Arg, b.Arg) {
				readers = false
			}
		}
		ev := args[i]
		if sh, ok := ev.(*sharedEval); ok {
			ev = sh.inner
		}
		if be, ok := ev.(*binaryEval); ok && readers {
			be.narrowResult()
			// A sum folds its argument before the next batch, and so
			// does an arithmetic operator sharing it: the values can
			// live in one buffer, not fresh memory per batch.
			be.reuseOut = true
		}
	}
}

// narrowConst is ev, or a constant numeric ev of 18 digits or fewer
// held as decimal64.
func narrowConst(ev evaluator) evaluator {
	c, ok := ev.(*constEval)
	if !ok || c.typ.OID != types.OIDNumeric || c.typ.General {
		return ev
	}
	v, ok := c.value.(decimal128.Num)
	if !ok {
		return ev
	}
	d := constDigits(v, c.typ.Scale)
	if d > types.MaxDecimal64Precision {
		return ev
	}
	return &constEval{typ: types.T{OID: types.OIDNumeric, Precision: d, Scale: c.typ.Scale}, value: v}
}

// arithNarrow computes e (+ - * of a bounded numeric, narrow) in 64 bits
// from decimal64 operands. An operand of another width, or a row past 64
// bits (which the bound rules out for values within their columns'
// declared precision), takes the 128-bit kernels instead: the operator
// above reads either width.
func (e *binaryEval) arithNarrow(l, r arrow.Array) (arrow.Array, error) {
	if e.wide || l.DataType().ID() != arrow.DECIMAL64 || r.DataType().ID() != arrow.DECIMAL64 {
		return e.arithWide(l, r)
	}
	n := l.Len()
	if cap(e.out64) < n || !e.reuseOut {
		e.out64 = make([]int64, n)
	}
	out := e.out64[:n]
	validity, nulls := validity2(l, r)
	lv, rv := values[int64](l), values[int64](r)
	ok := true
	switch e.op.Name {
	case "*":
		ok = decimalScale(l)+decimalScale(r) == e.res.Scale && mulInts64Into(lv, rv, out, validity)
	default:
		lm, lok := pow10i64(e.res.Scale - decimalScale(l))
		rm, rok := pow10i64(e.res.Scale - decimalScale(r))
		ok = lok && rok && addScaledInts64Into(e.op.Name == "-", lv, rv, lm, rm, out, validity)
	}
	if !ok {
		// Values past 64 bits: this operator's are likely to stay so.
		e.wide = true
		return e.arithWide(l, r)
	}
	return newFixed(&arrow.Decimal64Type{Precision: types.MaxDecimal64Precision, Scale: e.res.Scale}, out, validity, nulls), nil
}

// arithWide is the 128-bit evaluation of decimal arithmetic.
func (e *binaryEval) arithWide(l, r arrow.Array) (arrow.Array, error) {
	if e.reuseOut {
		return e.arithDecimalReusing(l, r)
	}
	return arith(e.op.Name, l, r, e.res)
}

// mulInts64Into writes lv*rv into out for the valid rows (0 for the
// others); false when a product leaves 64 bits.
func mulInts64Into(lv, rv, out []int64, validity []byte) bool {
	for i := range out {
		if !validAt(validity, i) {
			out[i] = 0
			continue
		}
		v, ok := mulInt64(lv[i], rv[i])
		if !ok {
			return false
		}
		out[i] = v
	}
	return true
}

// addScaledInts64Into writes lv*lm ± rv*rm into out for the valid rows
// (0 for the others); false when a value leaves 64 bits.
func addScaledInts64Into(sub bool, lv, rv []int64, lm, rm int64, out []int64, validity []byte) bool {
	for i := range out {
		if !validAt(validity, i) {
			out[i] = 0
			continue
		}
		v, ok := addScaledInt64(lv[i], rv[i], lm, rm, sub)
		if !ok {
			return false
		}
		out[i] = v
	}
	return true
}
