package planner

import (
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// operatorFunction binds an operator that PostgreSQL implements by a
// function over fixed types (the bitwise operators, @, |/, ^@...) as a
// call of that function's kernel. ok is false when opName is no such
// operator; a known operator over types it does not take is 42883.
func (b *Binder) operatorFunction(opName string, args []Expr, loc int32) (Expr, bool, error) {
	op, ok := functions.LookupOperatorFunction(opName, len(args) == 1)
	if !ok {
		return nil, false, nil
	}
	argTypes := make([]types.T, len(args))
	for i, a := range args {
		argTypes[i] = a.Type()
	}
	want, res, ok := op.Resolve(argTypes)
	if !ok {
		if len(args) == 1 {
			return nil, true, b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s %s", opName, argTypes[0].Name()).
				WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
		}
		return nil, true, b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s %s %s", argTypes[0].Name(), opName, argTypes[1].Name()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	out := make([]Expr, len(args))
	for i, a := range args {
		var err error
		if out[i], err = b.coerce(a, want[i], loc); err != nil {
			return nil, true, err
		}
	}
	return &Func{Name: op.Func, Args: out, Typ: res, leakproof: op.Leakproof}, true, nil
}

// patternComparison binds a text_pattern_ops operator (~<~ and its kin)
// between two strings as the byte-wise comparison it is.
func (b *Binder) patternComparison(opName string, l, r Expr, loc int32) (Expr, bool, error) {
	cmp, ok := functions.LookupPatternComparison(opName)
	if !ok {
		return nil, false, nil
	}
	isString := func(t types.T) bool { return t.Family() == types.FamilyString || t.OID == types.OIDUnknown }
	if !isString(l.Type()) || !isString(r.Type()) {
		return nil, true, b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s %s %s", l.Type().Name(), opName, r.Type().Name()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	e, err := b.binary(cmp, l, r, loc)
	return e, true, err
}
