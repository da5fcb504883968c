package planner

import (
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// jsonbOperator binds jsonb's containment (@>, <@), existence (?, ?|,
// ?&), concatenation (||) and deletion (-) operators. ok is false when
// neither operand is json or jsonb, and for || with a string operand,
// which is text concatenation. A json or jsonb operand with no matching
// operator is 42883, as in PostgreSQL (json has none of these).
//
// Containment, existence and concatenation cannot fail on valid jsonb,
// so they are leakproof; deletion fails on a scalar.
func (b *Binder) jsonbOperator(op string, l, r Expr, loc int32) (Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	if lt.Family() != types.FamilyJSON && rt.Family() != types.FamilyJSON {
		return nil, false, nil
	}
	isJSONB := func(e Expr) bool { return e.Type().OID == types.OIDJSONB }
	isString := func(e Expr) bool { return e.Type().Family() == types.FamilyString || isUnknown(e) }
	bothJSONB := (isJSONB(l) || isUnknown(l)) && (isJSONB(r) || isUnknown(r))
	var name string
	var lw, rw, res types.T
	leakproof := true
	switch op {
	case "@>", "<@":
		if !bothJSONB {
			break
		}
		name, lw, rw, res = "jsonb_contains", types.JSONB, types.JSONB, types.Bool
	case "||":
		switch {
		case bothJSONB:
			name, lw, rw, res = "jsonb_concat", types.JSONB, types.JSONB, types.JSONB
		case isString(l) || isString(r):
			return nil, false, nil // anynonarray || text
		}
	case "?", "?|", "?&":
		if !isJSONB(l) {
			break
		}
		switch {
		case op == "?" && isString(r):
			name, rw = "jsonb_exists", types.Text
		case op != "?" && (rt.OID == types.OIDTextArray || isUnknown(r)):
			name, rw = "jsonb_exists_any", types.TextArray
			if op == "?&" {
				name = "jsonb_exists_all"
			}
		}
		lw, res = types.JSONB, types.Bool
	case "-":
		if !isJSONB(l) {
			break
		}
		leakproof = false
		switch {
		case isString(r):
			name, rw = "jsonb_delete", types.Text
		case rt.OID == types.OIDTextArray:
			name, rw = "jsonb_delete_keys", types.TextArray
		case rt.Family() == types.FamilyInt:
			name, rw = "jsonb_delete_index", types.Int4
		}
		lw, res = types.JSONB, types.JSONB
	default:
		return nil, false, nil
	}
	if name == "" {
		return nil, true, b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s %s %s", lt.Name(), op, rt.Name()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	var err error
	if l, err = b.coerce(l, lw, loc); err != nil {
		return nil, true, err
	}
	if r, err = b.coerce(r, rw, loc); err != nil {
		return nil, true, err
	}
	if op == "<@" {
		l, r = r, l
	}
	return &Func{Name: name, Args: []Expr{l, r}, Typ: res, leakproof: leakproof}, true, nil
}
