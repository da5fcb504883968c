package storage

import (
	"github.com/apache/iceberg-go"
)

// rowGroupMatch judges a bound expression (NOT already rewritten away) for
// one row group: false only when the statistics prove that no row of the
// group makes the expression true as SQL evaluates it, so the group can
// be skipped. Any doubt (a column without statistics, a type it does not
// compare, a predicate it cannot judge) is true, and true only means the
// group is read.
//
// SQL's three-valued logic is what lets NULLs prune: a comparison with a
// NULL is never true, so a group whose column is all NULL matches no
// comparison on it. Floating-point columns are never judged, as NaN sorts
// apart from SQL's order and Parquet keeps no NaN count.
//
// With bloom set, an equality or IN list the statistics do not refute is
// judged by bloom too (the group's bloom filters, bloomProbe.match):
// false when the filter of the column holds none of the values.
type rowGroupMatch struct {
	group *rowGroupStats
	bloom func(fieldID int, lits []iceberg.Literal) bool // nil: statistics only
}

func (*rowGroupMatch) VisitTrue() bool                            { return true }
func (*rowGroupMatch) VisitFalse() bool                           { return false }
func (*rowGroupMatch) VisitAnd(l, r bool) bool                    { return l && r }
func (*rowGroupMatch) VisitOr(l, r bool) bool                     { return l || r }
func (*rowGroupMatch) VisitNot(bool) bool                         { return true } // RewriteNotExpr leaves none
func (*rowGroupMatch) VisitUnbound(iceberg.UnboundPredicate) bool { return true }

func (m *rowGroupMatch) VisitBound(pred iceberg.BoundPredicate) bool {
	if !m.statsMatch(pred) {
		return false
	}
	ref, ok := pred.Term().(iceberg.BoundReference)
	if !ok || m.bloom == nil {
		return true
	}
	switch p := pred.(type) {
	case iceberg.BoundSetPredicate:
		if pred.Op() == iceberg.OpIn {
			return m.bloom(ref.Field().ID, p.Literals().Members())
		}
	case iceberg.BoundLiteralPredicate:
		if pred.Op() == iceberg.OpEQ {
			return m.bloom(ref.Field().ID, []iceberg.Literal{p.Literal()})
		}
	}
	return true
}

// statsMatch judges pred by the group's statistics.
func (m *rowGroupMatch) statsMatch(pred iceberg.BoundPredicate) bool {
	ref, ok := pred.Term().(iceberg.BoundReference)
	if !ok {
		return true // a transform or an extract
	}
	id := ref.Field().ID
	nulls, counted := m.group.nulls[id]
	allNull := counted && nulls == m.group.rows
	switch pred.Op() {
	case iceberg.OpIsNull:
		return !counted || nulls > 0
	case iceberg.OpNotNull:
		return !allNull
	case iceberg.OpEQ, iceberg.OpLT, iceberg.OpLTEQ, iceberg.OpGT, iceberg.OpGTEQ, iceberg.OpIn:
		if allNull {
			return false
		}
	default:
		return true // <>, NOT IN, NaN tests, prefixes: not judged
	}
	lower, okL := m.group.lower[id]
	upper, okU := m.group.upper[id]
	if !okL || !okU {
		return true
	}
	if set, isSet := pred.(iceberg.BoundSetPredicate); isSet {
		for _, lit := range set.Literals().Members() {
			if withinBounds(iceberg.OpEQ, lower, upper, lit) {
				return true
			}
		}
		return false
	}
	lp, ok := pred.(iceberg.BoundLiteralPredicate)
	if !ok {
		return true
	}
	return withinBounds(pred.Op(), lower, upper, lp.Literal())
}

// withinBounds reports whether some value v in [lower, upper] may satisfy
// "v op lit"; true when the literal's type does not compare with the
// bounds'.
func withinBounds(op iceberg.Operation, lower, upper, lit iceberg.Literal) bool {
	lo, okL := compareLiterals(lower, lit)
	hi, okU := compareLiterals(upper, lit)
	if !okL || !okU {
		return true
	}
	switch op {
	case iceberg.OpEQ:
		return lo <= 0 && hi >= 0
	case iceberg.OpLT:
		return lo < 0
	case iceberg.OpLTEQ:
		return lo <= 0
	case iceberg.OpGT:
		return hi > 0
	case iceberg.OpGTEQ:
		return hi >= 0
	}
	return true
}
