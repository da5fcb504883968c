package sqlwrite

import (
	"math"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// comparedArray reports whether PostgreSQL compares arrays of type t as
// SQE does: element by element with the element type's comparison, NULL
// elements equal to each other and above the others, then the shorter
// array first (array_eq and array_cmp on the one-dimensional arrays SQE
// has). The elements are of a type whose own comparison is SQE's: not
// interval (PostgreSQL's equates a month with 30 days) nor json or jsonb.
// Text elements are compared under the C collation the writer names.
func comparedArray(t types.T) bool {
	elem, isArray := t.Elem()
	if !isArray || t.OID == types.OIDInt2Vector || t.OID == types.OIDOidVector {
		return false
	}
	switch elem.OID {
	case types.OIDBool, types.OIDInt2, types.OIDInt4, types.OIDInt8, types.OIDFloat4, types.OIDFloat8,
		types.OIDText, types.OIDVarchar, types.OIDDate, types.OIDTimestamp, types.OIDTimestampTZ,
		types.OIDTime, types.OIDUUID, types.OIDBytea:
		return true
	}
	return false
}

// isTextArray reports an array of text, which PostgreSQL orders by its
// elements' collation.
func isTextArray(t types.T) bool {
	elem, isArray := t.Elem()
	return isArray && isText(elem)
}

// intervalScaled reports an interval times a float8 factor (either
// way round) that PostgreSQL computes as SQE does. PostgreSQL's
// interval_mul rounds the days a fraction of a month spills into to the
// microsecond before carrying them, SQE's does not, so the two may part
// when the factor has a fraction; with an integral factor (a constant, or
// an integer cast) nothing spills, and both compute the parts' products
// and their range checks alike.
func intervalScaled(b *planner.BinOp) bool {
	if b.Op.Name != "*" || b.Typ.OID != types.OIDInterval {
		return false
	}
	l, r := b.L, b.R
	if l.Type().OID != types.OIDInterval {
		l, r = r, l
	}
	return l.Type().OID == types.OIDInterval && r.Type().OID == types.OIDFloat8 && integralFactor(r)
}

// integralFactor reports a float8 whose every value is an integer: a
// finite integral constant, or an integer cast to float8.
func integralFactor(e planner.Expr) bool {
	switch x := e.(type) {
	case *planner.Const:
		f, ok := x.Value.(float64)
		return ok && !math.IsInf(f, 0) && f == math.Trunc(f)
	case *planner.Cast:
		return isInt(x.Arg.Type())
	}
	return false
}

// intervalDivided reports an interval constant divided by a float8
// constant that PostgreSQL 15 computes as SQE does. Its interval_div
// checks no range, where SQE's fails, and rounds spilled month fractions
// as interval_mul does: so the divisor is 1 or at least 2 in magnitude
// (no part can then overflow) and divides the months without a fraction
// (none spill).
func intervalDivided(b *planner.BinOp) bool {
	iv, isConst := b.L.(*planner.Const)
	div, divConst := b.R.(*planner.Const)
	if b.Typ.OID != types.OIDInterval || !isConst || !divConst || b.R.Type().OID != types.OIDFloat8 {
		return false
	}
	span, ok := iv.Value.(types.IntervalValue)
	f, fok := div.Value.(float64)
	if !ok || !fok || math.IsInf(f, 0) || math.IsNaN(f) || !(f == 1 || math.Abs(f) >= 2) {
		return false
	}
	months := float64(span.Months) / f
	return months == math.Trunc(months)
}
