package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/types"
)

// bindBooleanTest binds x IS [NOT] TRUE / FALSE / UNKNOWN, which never
// yield NULL: IS TRUE is true only for true, IS UNKNOWN only for NULL.
func (b *Binder) bindBooleanTest(t *pg_query.BooleanTest, ec *exprCtx) (Expr, error) {
	arg, err := b.bindExpr(t.Arg, ec)
	if err != nil {
		return nil, err
	}
	if arg, err = b.requireBool(arg, t.Location, "IS TRUE"); err != nil {
		return nil, err
	}
	falseConst := &Const{Typ: types.Bool, Value: false}
	// coalesced is x with NULL read as false.
	coalesced := func(x Expr) (Expr, error) {
		return b.newCase([]When{{Cond: &IsNull{Arg: arg}, Result: falseConst}}, x, "CASE")
	}
	switch t.Booltesttype {
	case pg_query.BoolTestType_IS_TRUE:
		return coalesced(arg)
	case pg_query.BoolTestType_IS_NOT_TRUE:
		e, err := coalesced(arg)
		return &Not{Arg: e}, err
	case pg_query.BoolTestType_IS_FALSE:
		return coalesced(&Not{Arg: arg})
	case pg_query.BoolTestType_IS_NOT_FALSE:
		e, err := coalesced(&Not{Arg: arg})
		return &Not{Arg: e}, err
	case pg_query.BoolTestType_IS_UNKNOWN:
		return &IsNull{Arg: arg}, nil
	}
	return &IsNull{Arg: arg, Negated: true}, nil
}
