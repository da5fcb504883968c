package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// Array slices, a[lo:hi], a[:hi], a[lo:], a[:], as PostgreSQL computes
// them on a one-dimensional array: an omitted bound is the array's own,
// bounds outside the array are clamped to it, an empty range gives an
// empty array, and a NULL array or bound gives NULL. The slice is
// numbered from the array's usual lower bound again. Like subscripts
// (bind_arrays.go) slices are computed a row at a time on the array's
// constant representation.

// isSliceIndirection reports whether some subscript of ind is a slice;
// PostgreSQL then reads every subscript of it as one.
func isSliceIndirection(ind *pg_query.A_Indirection) bool {
	for _, n := range ind.Indirection {
		if idx := n.GetAIndices(); idx != nil && idx.IsSlice {
			return true
		}
	}
	return false
}

// bindSlice binds a slice of the bound array arr.
func (b *Binder) bindSlice(arr Expr, ind *pg_query.A_Indirection, ec *exprCtx) (Expr, error) {
	if _, ok := arr.Type().Elem(); !ok {
		return nil, b.errAt(exprLocation(ind.Arg), pgerror.DatatypeMismatch,
			"cannot subscript type %s because it does not support subscripting", arr.Type().Name())
	}
	if len(ind.Indirection) != 1 {
		// Each further subscript slices a dimension SQE's arrays do
		// not have.
		return nil, pgerror.Unsupported("slices of multidimensional arrays are not supported yet")
	}
	idx := ind.Indirection[0].GetAIndices()
	args := []Expr{arr}
	bound := func(n *pg_query.Node) (bool, error) {
		if n == nil {
			return false, nil
		}
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return false, err
		}
		if t := e.Type(); t.OID != types.OIDUnknown && t.Family() != types.FamilyInt {
			return false, b.errAt(exprLocation(n), pgerror.DatatypeMismatch, "array subscript must have type integer")
		}
		if e, err = b.coerce(e, types.Int4, exprLocation(n)); err != nil {
			return false, err
		}
		args = append(args, e)
		return true, nil
	}
	hasLo, err := bound(idx.Lidx)
	if err != nil {
		return nil, err
	}
	hasHi, err := bound(idx.Uidx)
	if err != nil {
		return nil, err
	}
	lower := lowerBound(arr.Type())
	// A slice given one bound is named for it, so that the plan tells
	// a[lo:] from a[:hi] (the SQL writer writes it back).
	name := "array_slice"
	switch {
	case hasLo && !hasHi:
		name = "array_slice_from"
	case hasHi && !hasLo:
		name = "array_slice_to"
	}
	return &Func{Name: name, Args: args, Typ: arr.Type(), leakproof: true, Row: func(a []any) (any, error) {
		for _, v := range a {
			if v == nil {
				return nil, nil
			}
		}
		vals := a[0].([]any)
		// Positions in the array's numbering, clamped to its bounds.
		lo, hi := lower, lower+int64(len(vals))-1
		next := 1
		if hasLo {
			lo = max(lo, a[next].(int64))
			next++
		}
		if hasHi {
			hi = min(hi, a[next].(int64))
		}
		if lo > hi {
			return []any{}, nil
		}
		return append([]any{}, vals[lo-lower:hi-lower+1]...), nil
	}}, nil
}
