package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/types"
)

// functionStyleCast binds typename(x), a call of one argument named after
// a type for which no function matches, as the cast x::typename, as
// PostgreSQL does (func_get_detail's coercion case): int4(2.5), text(true),
// "numeric"(x). ok is false when the name is no type, the call has
// decorations a cast cannot take, or no cast converts the argument, so the
// caller reports the function as missing.
func (b *Binder) functionStyleCast(fc *pg_query.FuncCall, name string, ec *exprCtx) (Expr, bool, error) {
	if len(fc.Args) != 1 || fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 || fc.Over != nil || fc.FuncVariadic {
		return nil, false, nil
	}
	if fc.Args[0].GetNamedArgExpr() != nil {
		return nil, false, nil
	}
	to, err := typeFromName(&pg_query.TypeName{Names: []*pg_query.Node{pg_query.MakeStrNode(name)}})
	if err != nil || to.IsRegType() || to.Family() == types.FamilyUnknown {
		return nil, false, nil
	}
	arg, err := b.bindExpr(fc.Args[0], ec)
	if err != nil {
		return nil, true, err
	}
	if !isUnknown(arg) && arg.Type() != to && !castSupported(arg.Type(), to) {
		return nil, false, nil
	}
	e, err := b.cast(arg, to, fc.Location)
	return e, true, err
}

// booleansAsOutput gives each boolean argument of a function that formats
// its arguments (concat, format) its output text, t or f.
func booleansAsOutput(args []Expr) []Expr {
	out := args
	for i, a := range args {
		if a.Type().OID != types.OIDBool {
			continue
		}
		if &out[0] == &args[0] {
			out = append([]Expr(nil), args...)
		}
		out[i] = &Func{Name: "bool_out", Args: []Expr{a}, Typ: types.Text, leakproof: true}
	}
	return out
}
