package nodetree

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// anyParams are the built-in functions whose parameters, from the given
// position on, are of pseudo-type "any" (pg_proc), where PostgreSQL
// leaves an untyped literal untyped: concat('a', 1) prints as written.
// The parameters before that position are text.
var anyParams = map[string]int{
	"concat": 0, "concat_ws": 1, "format": 1, "num_nulls": 0, "num_nonnulls": 0,
	"json_build_array": 0, "json_build_object": 0, "jsonb_build_array": 0, "jsonb_build_object": 0,
}

// funcCall is a plain function call. Its arguments take the types the
// function registry resolves them to; a function the registry does not
// describe (one SQE's binder provides itself, such as now()) is typed by
// the session and may not take untyped literals.
func (a *analyzer) funcCall(raw *pg_query.Node, fc *pg_query.FuncCall) (*Node, error) {
	if fc.AggStar || fc.AggDistinct || fc.FuncVariadic || fc.Over != nil || len(fc.AggOrder) > 0 ||
		fc.AggFilter != nil || fc.AggWithinGroup {
		return nil, unsupported("function call form")
	}
	name, err := builtinName(fc.Funcname)
	if err != nil {
		return nil, err
	}
	sqlSyntax := fc.Funcformat == pg_query.CoercionForm_COERCE_SQL_SYNTAX
	if sqlSyntax {
		if !sqlSyntaxFunctions[name] || (name == "substring" && len(fc.Args) == 2 && fc.Args[1].GetAConst().GetSval() != nil) {
			return nil, unsupported("%s in SQL syntax", name)
		}
		if name == "extract" {
			return a.extract(raw, fc)
		}
	}
	args := make([]*Node, len(fc.Args))
	argTypes := make([]types.T, len(fc.Args))
	hasUnknown := false
	for i, arg := range fc.Args {
		if arg.GetNamedArgExpr() != nil {
			return nil, unsupported("named argument")
		}
		if args[i], err = a.expr(arg); err != nil {
			return nil, err
		}
		argTypes[i] = args[i].Type
		hasUnknown = hasUnknown || argTypes[i].OID == types.OIDUnknown
	}
	out := &Node{Kind: FuncExpr, Name: name, Args: args, SQLSyntax: sqlSyntax}
	if first, ok := anyParams[name]; ok {
		for i := 0; i < first && i < len(args); i++ {
			if args[i], err = a.coerce(args[i], types.Text, false); err != nil {
				return nil, err
			}
		}
		out.Type, err = a.typeOf(raw)
		return out, err
	}
	if sc, ok := functions.LookupScalar(name); ok {
		params, result, ok := sc.Resolve(argTypes)
		if !ok || len(params) != len(args) {
			return nil, unsupported("function %s(%v)", name, argTypes)
		}
		for i, p := range params {
			if args[i], err = a.coerce(args[i], paramType(args[i].Type, p), false); err != nil {
				return nil, err
			}
		}
		out.Type = result
		return out, nil
	}
	if hasUnknown {
		return nil, unsupported("untyped literal argument of %s", name)
	}
	out.Type, err = a.typeOf(raw)
	return out, err
}

// sqlSyntaxFunctions are the functions written in SQL-standard syntax
// that pg_get_expr prints back in it: TRIM, SUBSTRING ... FROM ... FOR,
// POSITION ... IN and EXTRACT.
var sqlSyntaxFunctions = map[string]bool{
	"btrim": true, "ltrim": true, "rtrim": true, "substring": true, "position": true, "extract": true,
}

// extract is EXTRACT(field FROM source): the field is a text constant
// printed as the bare word.
func (a *analyzer) extract(raw *pg_query.Node, fc *pg_query.FuncCall) (*Node, error) {
	if len(fc.Args) != 2 || fc.Args[0].GetAConst().GetSval() == nil {
		return nil, unsupported("EXTRACT form")
	}
	field := &Node{Kind: Const, Type: types.Text, Value: fc.Args[0].GetAConst().GetSval().Sval}
	source, err := a.expr(fc.Args[1])
	if err != nil {
		return nil, err
	}
	if source.Type.OID == types.OIDUnknown {
		return nil, unsupported("EXTRACT from an untyped literal")
	}
	t, err := a.typeOf(raw)
	if err != nil {
		return nil, err
	}
	return &Node{Kind: FuncExpr, Type: t, Name: "extract", Args: []*Node{field, source}, SQLSyntax: true}, nil
}

// paramType is the parameter type an argument of type arg is converted
// to, given the type p the function registry resolves it to. SQE computes
// integers as bigint where PostgreSQL's functions take integer, so a
// typed argument is converted only into another kind of type (integer to
// double precision for sqrt), and an untyped literal for an integer
// parameter is integer.
func paramType(arg, p types.T) types.T {
	switch {
	case arg.OID == types.OIDUnknown && numericRank(p).isInt():
		return types.Int4
	case arg.OID == types.OIDUnknown:
		return p
	case arg.Family() == p.Family():
		return arg
	}
	return p
}

// typeOf is the session's type of an expression.
func (a *analyzer) typeOf(raw *pg_query.Node) (types.T, error) {
	if a.env.TypeOf == nil {
		return types.T{}, unsupported("no session to type an expression")
	}
	t, err := a.env.TypeOf(raw)
	if err != nil {
		return types.T{}, unsupported("type of expression: %v", err)
	}
	return t, nil
}
