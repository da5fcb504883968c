package planner

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// PostgreSQL's polymorphic array functions take anycompatiblearray and
// anycompatible arguments: the element type is the common type of the
// arrays' elements and the plain arguments (untyped literals taking it),
// and every argument is converted to it or to its array type. None is
// leakproof (PostgreSQL marks none so: they can fail on array size
// limits).

// arrayParam says what one parameter of an array function is.
type arrayParam uint8

const (
	paramArray arrayParam = iota // anycompatiblearray
	paramElem                    // anycompatible
	paramInt                     // integer
)

// arrayFuncSig is an array function's parameters and result.
type arrayFuncSig struct {
	params []arrayParam
	// result: "array" (the resolved array type), "int" or "int[]".
	result string
}

// lookupArrayFuncSig gives an array function's signature by name and
// argument count.
func lookupArrayFuncSig(name string, nargs int) (arrayFuncSig, bool) {
	switch {
	case name == "array_append" && nargs == 2, name == "array_remove" && nargs == 2:
		return arrayFuncSig{[]arrayParam{paramArray, paramElem}, "array"}, true
	case name == "array_prepend" && nargs == 2:
		return arrayFuncSig{[]arrayParam{paramElem, paramArray}, "array"}, true
	case name == "array_cat" && nargs == 2:
		return arrayFuncSig{[]arrayParam{paramArray, paramArray}, "array"}, true
	case name == "array_replace" && nargs == 3:
		return arrayFuncSig{[]arrayParam{paramArray, paramElem, paramElem}, "array"}, true
	case name == "array_position" && nargs == 2:
		return arrayFuncSig{[]arrayParam{paramArray, paramElem}, "int"}, true
	case name == "array_position" && nargs == 3:
		return arrayFuncSig{[]arrayParam{paramArray, paramElem, paramInt}, "int"}, true
	case name == "array_positions" && nargs == 2:
		return arrayFuncSig{[]arrayParam{paramArray, paramElem}, "int[]"}, true
	}
	return arrayFuncSig{}, false
}

// isArrayFunction reports whether name is one of the polymorphic array
// functions bound here.
func isArrayFunction(name string) bool {
	switch name {
	case "array_append", "array_prepend", "array_cat", "array_remove", "array_replace", "array_position", "array_positions":
		return true
	}
	return false
}

// bindArrayFunction binds a call of a polymorphic array function.
func (b *Binder) bindArrayFunction(fc *pg_query.FuncCall, name string, ec *exprCtx) (Expr, error) {
	if fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 {
		return nil, b.errAt(fc.Location, pgerror.WrongObjectType, "%s is not an aggregate function", name)
	}
	args := make([]Expr, len(fc.Args))
	for i, n := range fc.Args {
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	sig, ok := lookupArrayFuncSig(name, len(args))
	if !ok {
		return nil, b.noArrayFunction(name, args, fc.Location)
	}
	e, ok, err := b.arrayCall(name, sig, args, fc.Location)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, b.noArrayFunction(name, args, fc.Location)
	}
	return e, nil
}

func (b *Binder) noArrayFunction(name string, args []Expr, loc int32) error {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = a.Type().Name()
	}
	return b.errAt(loc, pgerror.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// arrayCall resolves the element type of a call, converts its
// arguments and builds the Func; ok is false when the arguments do not
// fit the signature.
func (b *Binder) arrayCall(name string, sig arrayFuncSig, args []Expr, loc int32) (Expr, bool, error) {
	elem, ok, err := b.resolveArrayElem(sig.params, args)
	if err != nil || !ok {
		return nil, ok, err
	}
	arr, ok := types.ArrayOf(elem)
	if !ok {
		return nil, false, nil
	}
	for i, p := range sig.params {
		to := elem
		switch p {
		case paramArray:
			to = arr
		case paramInt:
			to = types.Int4
		}
		if args[i], err = b.coerce(args[i], to, loc); err != nil {
			return nil, true, err
		}
	}
	res := arr
	switch sig.result {
	case "int":
		res = types.Int4
	case "int[]":
		res = types.T{OID: types.OIDInt4Array}
	}
	return &Func{Name: name, Args: args, Typ: res}, true, nil
}

// resolveArrayElem finds the common element type of the anycompatible
// arguments, as PostgreSQL's polymorphic resolution does: the types of
// the arrays' elements and of the plain arguments, untyped ones
// excluded. Arguments that do not fit their parameter give ok false.
func (b *Binder) resolveArrayElem(params []arrayParam, args []Expr) (types.T, bool, error) {
	var cands []types.T
	for i, p := range params {
		t := args[i].Type()
		if t.OID == types.OIDUnknown {
			continue
		}
		switch p {
		case paramArray:
			e, ok := t.Elem()
			if !ok || lowerBound(t) == 0 {
				return types.T{}, false, nil
			}
			cands = append(cands, e)
		case paramElem:
			if _, isArr := t.Elem(); isArr {
				return types.T{}, false, nil
			}
			cands = append(cands, t)
		case paramInt:
			if t.Family() != types.FamilyInt {
				return types.T{}, false, nil
			}
		}
	}
	if len(cands) == 0 {
		// Only untyped literals: anycompatible takes text.
		return types.Text, true, nil
	}
	elem := cands[0]
	for _, c := range cands[1:] {
		if c.OID == elem.OID {
			continue
		}
		ct, ok := commonType(elem, c)
		if !ok {
			return types.T{}, false, nil
		}
		elem = ct
	}
	if elem.OID == types.OIDNumeric {
		// Array elements carry no typmod.
		elem = types.T{OID: types.OIDNumeric, Scale: elem.Scale}
	}
	return elem, true, nil
}

// arrayOperator binds the array operators @> (contains), <@ (is
// contained by) and && (overlaps), which take two arrays of one type (an
// untyped literal takes the other side's). ok is false when neither side
// is an array, for other operators, and when an untyped literal meets a
// non-array (jsonb @> has its own binding).
func (b *Binder) arrayOperator(opName string, l, r Expr, loc int32) (Expr, bool, error) {
	var fn string
	switch opName {
	case "@>":
		fn = "arraycontains"
	case "<@":
		fn = "arraycontained"
	case "&&":
		fn = "arrayoverlap"
	default:
		return nil, false, nil
	}
	lt, rt := l.Type(), r.Type()
	_, lArr := lt.Elem()
	_, rArr := rt.Elem()
	if !lArr && !rArr {
		return nil, false, nil
	}
	noOp := func() error {
		return b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s %s %s", lt.Name(), opName, rt.Name()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	if lowerBound(lt) == 0 || lowerBound(rt) == 0 {
		return nil, true, pgerror.Unsupported("%s on int2vector and oidvector is not supported yet", opName)
	}
	var err error
	switch {
	case lArr && rArr:
		if lt.OID != rt.OID {
			return nil, true, noOp()
		}
	case lArr && rt.OID == types.OIDUnknown:
		if r, err = b.coerce(r, lt, loc); err != nil {
			return nil, true, err
		}
	case rArr && lt.OID == types.OIDUnknown:
		if l, err = b.coerce(l, rt, loc); err != nil {
			return nil, true, err
		}
	default:
		return nil, true, noOp()
	}
	return &Func{Name: fn, Args: []Expr{l, r}, Typ: types.Bool}, true, nil
}
