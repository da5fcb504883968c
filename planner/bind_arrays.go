package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// Array operations that PostgreSQL defines as polymorphic functions:
// subscripts (a[i]), concatenation (||) and the int2vector/oidvector to
// array casts. They are computed a row at a time on the values'
// constant representation ([]any for an array), which is simple and
// fast enough for the catalog-sized arrays clients use them on; ||
// is bound to the vectorized array_cat, array_append and array_prepend
// (bind_array_funcs.go).

// lowerBound is the index of an array's first element: 1 for arrays,
// 0 for the int2vector and oidvector types of the catalogs.
func lowerBound(t types.T) int64 {
	if t.OID == types.OIDInt2Vector || t.OID == types.OIDOidVector {
		return 0
	}
	return 1
}

// bindIndirection binds a[i] and a[i:j] (see bindSlice), and field
// selection of composite calls ((f(x)).field).
func (b *Binder) bindIndirection(ind *pg_query.A_Indirection, ec *exprCtx) (Expr, error) {
	if isFieldSelection(ind) {
		return b.bindFieldSelection(ind, ec)
	}
	arr, err := b.bindExpr(ind.Arg, ec)
	if err != nil {
		return nil, err
	}
	if isSliceIndirection(ind) {
		return b.bindSlice(arr, ind, ec)
	}
	for _, n := range ind.Indirection {
		idx := n.GetAIndices()
		if idx == nil || idx.Uidx == nil {
			return nil, pgerror.Unsupported("field selection is not supported yet")
		}
		if arr, err = b.subscript(arr, idx.Uidx, ec, ind.Arg); err != nil {
			return nil, err
		}
	}
	return arr, nil
}

// subscript binds one level of a[i]: the element at index i, NULL when i
// is NULL or outside the array.
func (b *Binder) subscript(arr Expr, idxNode *pg_query.Node, ec *exprCtx, arrNode *pg_query.Node) (Expr, error) {
	elem, ok := arr.Type().Elem()
	if !ok {
		return nil, b.errAt(exprLocation(arrNode), pgerror.DatatypeMismatch,
			"cannot subscript type %s because it does not support subscripting", arr.Type().Name())
	}
	idx, err := b.bindExpr(idxNode, ec)
	if err != nil {
		return nil, err
	}
	it := idx.Type()
	if it.OID != types.OIDUnknown && it.Family() != types.FamilyInt {
		return nil, b.errAt(exprLocation(idxNode), pgerror.DatatypeMismatch, "array subscript must have type integer")
	}
	if idx, err = b.coerce(idx, types.Int4, exprLocation(idxNode)); err != nil {
		return nil, err
	}
	lower := lowerBound(arr.Type())
	return &Func{Name: "array_subscript", Args: []Expr{arr, idx}, Typ: elem, leakproof: true, Row: func(a []any) (any, error) {
		if a[0] == nil || a[1] == nil {
			return nil, nil
		}
		vals := a[0].([]any)
		k := a[1].(int64) - lower
		if k < 0 || k >= int64(len(vals)) {
			return nil, nil
		}
		return vals[k], nil
	}}, nil
}

// arrayConcat binds || with an array on either side: array || array,
// array || element and element || array. An untyped literal on one side
// is read as the other side's array type, as PostgreSQL resolves it. ok
// is false when neither side is an array.
func (b *Binder) arrayConcat(l, r Expr, loc int32) (Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	_, lArr := lt.Elem()
	_, rArr := rt.Elem()
	if !lArr && !rArr {
		return nil, false, nil
	}
	if lowerBound(lt) == 0 || lowerBound(rt) == 0 {
		return nil, true, pgerror.Unsupported("|| on int2vector and oidvector is not supported yet")
	}
	noOp := func() error {
		return b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s || %s", lt.Name(), rt.Name()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	sig := arrayFuncSig{[]arrayParam{paramArray, paramArray}, "array"}
	name := "array_cat"
	switch {
	case lArr && (rArr || rt.OID == types.OIDUnknown), rArr && lt.OID == types.OIDUnknown:
	case lArr:
		name, sig = "array_append", arrayFuncSig{[]arrayParam{paramArray, paramElem}, "array"}
	default:
		name, sig = "array_prepend", arrayFuncSig{[]arrayParam{paramElem, paramArray}, "array"}
	}
	e, ok, err := b.arrayCall(name, sig, []Expr{l, r}, loc)
	if err != nil {
		return nil, true, err
	}
	if !ok {
		return nil, true, noOp()
	}
	return e, true, nil
}

// vectorToArray casts int2vector to smallint[] or oidvector to oid[]. In
// PostgreSQL the array keeps the vector's lower bound 0, which SQE's
// arrays cannot carry, so only NULL and empty vectors convert; others are
// refused rather than renumbered.
func vectorToArray(e Expr, to types.T) *Func {
	return &Func{Name: "vector_to_array", Args: []Expr{e}, Typ: to, leakproof: false, Row: func(a []any) (any, error) {
		if a[0] == nil || len(a[0].([]any)) == 0 {
			return a[0], nil
		}
		return nil, pgerror.Unsupported("casting a non-empty %s to %s is not supported yet", e.Type().Name(), to.Name())
	}}
}

// isVectorToArray reports whether a cast is int2vector -> smallint[] or
// oidvector -> oid[].
func isVectorToArray(from, to types.T) bool {
	return from.OID == types.OIDInt2Vector && to.OID == types.OIDInt2Array ||
		from.OID == types.OIDOidVector && to.OID == types.OIDOidArray
}

// exprLocation is the parse location of an expression node, or -1.
func exprLocation(n *pg_query.Node) int32 {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_ColumnRef:
		return x.ColumnRef.Location
	case *pg_query.Node_AConst:
		return x.AConst.Location
	case *pg_query.Node_FuncCall:
		return x.FuncCall.Location
	case *pg_query.Node_TypeCast:
		return x.TypeCast.Location
	case *pg_query.Node_AExpr:
		return x.AExpr.Location
	case *pg_query.Node_ParamRef:
		return x.ParamRef.Location
	}
	return -1
}

// refuseVectorBounds refuses array_lower and array_upper on int2vector and
// oidvector: their kernels assume arrays that start at 1, and a vector
// starts at 0.
func refuseVectorBounds(name string, args []types.T) error {
	if (name == "array_lower" || name == "array_upper") && len(args) > 0 && lowerBound(args[0]) == 0 {
		return pgerror.Unsupported("%s of %s is not supported yet", name, args[0].Name())
	}
	return nil
}
