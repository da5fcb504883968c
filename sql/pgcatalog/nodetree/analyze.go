package nodetree

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// Env is what the analysis needs of the session.
type Env struct {
	// Zone is the session's TimeZone: timestamptz constants are kept as
	// their text in it, as PostgreSQL prints them.
	Zone *time.Location
	// TypeOf is the type SQE gives an expression, for a function call
	// the function registry does not describe (now(), version()).
	TypeOf func(expr *pg_query.Node) (types.T, error)
}

// errUnsupported marks an expression outside what Analyze reproduces.
var errUnsupported = errors.New("expression not analysed")

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUnsupported, fmt.Sprintf(format, args...))
}

// Default analyses a column's DEFAULT, kept as SQL text, for a column of
// type col, as PostgreSQL does when the default is stored: it returns nil
// when PostgreSQL would store none (a NULL of the column's type), and an
// expression it cannot reproduce the analysis of as a Verbatim node
// holding the text.
func Default(sql string, col types.T, env Env) *Node {
	expr, err := parseExpr(sql)
	if err != nil {
		return &Node{Kind: Verbatim, Type: col, Value: sql}
	}
	a := analyzer{env: env}
	n, err := a.expr(expr)
	if err == nil {
		n, err = a.coerce(n, col, false)
	}
	if err != nil {
		return &Node{Kind: Verbatim, Type: col, Value: sql}
	}
	if n.Kind == Const && n.Null {
		return nil
	}
	return n
}

// parseExpr parses one expression.
func parseExpr(sql string) (*pg_query.Node, error) {
	tree, err := pg_query.Parse("SELECT " + sql)
	if err != nil {
		return nil, err
	}
	if len(tree.Stmts) != 1 {
		return nil, unsupported("%d statements", len(tree.Stmts))
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || len(sel.TargetList) != 1 || len(sel.FromClause) > 0 || sel.WhereClause != nil {
		return nil, unsupported("not a single expression")
	}
	rt := sel.TargetList[0].GetResTarget()
	if rt == nil || rt.Name != "" || rt.Val == nil {
		return nil, unsupported("not a single expression")
	}
	return rt.Val, nil
}

// analyzer is PostgreSQL's transformExpr for the nodes a default holds.
type analyzer struct {
	env Env
}

func (a *analyzer) expr(n *pg_query.Node) (*Node, error) {
	switch x := n.Node.(type) {
	case *pg_query.Node_AConst:
		return constant(x.AConst)
	case *pg_query.Node_TypeCast:
		return a.typeCast(x.TypeCast)
	case *pg_query.Node_FuncCall:
		return a.funcCall(n, x.FuncCall)
	case *pg_query.Node_AExpr:
		return a.aExpr(x.AExpr)
	case *pg_query.Node_BoolExpr:
		return a.boolExpr(x.BoolExpr)
	case *pg_query.Node_NullTest:
		arg, err := a.expr(x.NullTest.Arg)
		if err != nil {
			return nil, err
		}
		name := "IS NULL"
		if x.NullTest.Nulltesttype == pg_query.NullTestType_IS_NOT_NULL {
			name = "IS NOT NULL"
		}
		return &Node{Kind: NullTest, Type: types.Bool, Name: name, Args: []*Node{arg}}, nil
	case *pg_query.Node_BooleanTest:
		return a.booleanTest(x.BooleanTest)
	case *pg_query.Node_SqlvalueFunction:
		return sqlValueFunction(x.SqlvalueFunction)
	case *pg_query.Node_CaseExpr:
		return a.caseExpr(x.CaseExpr)
	case *pg_query.Node_CoalesceExpr:
		args, t, err := a.commonArgs(x.CoalesceExpr.Args)
		if err != nil {
			return nil, err
		}
		return &Node{Kind: CoalesceExpr, Type: t, Args: args}, nil
	case *pg_query.Node_MinMaxExpr:
		args, t, err := a.commonArgs(x.MinMaxExpr.Args)
		if err != nil {
			return nil, err
		}
		name := "GREATEST"
		if x.MinMaxExpr.Op == pg_query.MinMaxOp_IS_LEAST {
			name = "LEAST"
		}
		return &Node{Kind: MinMaxExpr, Type: t, Name: name, Args: args}, nil
	case *pg_query.Node_AArrayExpr:
		args, elem, err := a.commonArgs(x.AArrayExpr.Elements)
		if err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return nil, unsupported("ARRAY[] without a type")
		}
		t, ok := types.ArrayOf(elem)
		if !ok {
			return nil, unsupported("array of %s", elem.Name())
		}
		return &Node{Kind: ArrayExpr, Type: t, Args: args}, nil
	}
	return nil, unsupported("%T", n.Node)
}

// constant is make_const: integers that fit are integer, then bigint;
// other numbers numeric; strings untyped until their use types them.
func constant(c *pg_query.A_Const) (*Node, error) {
	switch {
	case c.Isnull:
		return &Node{Kind: Const, Type: types.Unknown, Null: true}, nil
	case c.GetIval() != nil:
		return &Node{Kind: Const, Type: types.Int4, Value: strconv.FormatInt(int64(c.GetIval().Ival), 10)}, nil
	case c.GetFval() != nil:
		s := c.GetFval().Fval
		if i, ok := isIntegerLiteral(s); ok {
			return &Node{Kind: Const, Type: types.Int8, Value: strconv.FormatInt(i, 10)}, nil
		}
		v, err := constText(s, types.T{OID: types.OIDNumeric}, nil)
		if err != nil {
			return nil, unsupported("numeric %s: %v", s, err)
		}
		return &Node{Kind: Const, Type: types.T{OID: types.OIDNumeric}, Value: v}, nil
	case c.GetBoolval() != nil:
		v := "f"
		if c.GetBoolval().Boolval {
			v = "t"
		}
		return &Node{Kind: Const, Type: types.Bool, Value: v}, nil
	case c.GetSval() != nil:
		return &Node{Kind: Const, Type: types.Unknown, Value: c.GetSval().Sval}, nil
	}
	return nil, unsupported("bit string constant")
}

// typeCast is expr::type, CAST(expr AS type) and type 'literal'.
func (a *analyzer) typeCast(tc *pg_query.TypeCast) (*Node, error) {
	to, err := planner.TypeFromName(tc.TypeName)
	if err != nil {
		return nil, unsupported("type: %v", err)
	}
	if arr := tc.Arg.GetAArrayExpr(); arr != nil && len(arr.Elements) == 0 {
		if _, ok := to.Elem(); !ok {
			return nil, unsupported("ARRAY[] cast to %s", to.Name())
		}
		return &Node{Kind: ArrayExpr, Type: to}, nil
	}
	arg, err := a.expr(tc.Arg)
	if err != nil {
		return nil, err
	}
	return a.coerce(arg, to, true)
}

// sqlValueFunction is CURRENT_DATE and the other SQL-standard niladic
// functions, printed as keywords.
func sqlValueFunction(f *pg_query.SQLValueFunction) (*Node, error) {
	var name string
	var t types.T
	precision := false
	switch f.Op {
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
		name, t = "CURRENT_DATE", types.Date
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:
		name, t = "CURRENT_TIME", timeTZ
		precision = f.Op == pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
		name, t = "CURRENT_TIMESTAMP", types.TimestampTZ
		precision = f.Op == pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
		name, t = "LOCALTIME", types.Time
		precision = f.Op == pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
		name, t = "LOCALTIMESTAMP", types.Timestamp
		precision = f.Op == pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:
		name, t = "CURRENT_ROLE", types.Name
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER:
		name, t = "CURRENT_USER", types.Name
	case pg_query.SQLValueFunctionOp_SVFOP_USER:
		name, t = "USER", types.Name
	case pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER:
		name, t = "SESSION_USER", types.Name
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		name, t = "CURRENT_CATALOG", types.Name
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
		name, t = "CURRENT_SCHEMA", types.Name
	default:
		return nil, unsupported("SQL value function %s", f.Op)
	}
	if precision {
		name += "(" + strconv.Itoa(int(f.Typmod)) + ")"
	}
	return &Node{Kind: SQLValueFunction, Type: t, Name: name}, nil
}

// timeTZ is time with time zone, CURRENT_TIME's type: SQE stores no
// column of it, but a default may convert it to time.
var timeTZ = types.T{OID: 1266}

// boolExpr is AND, OR and NOT; untyped literals become boolean.
func (a *analyzer) boolExpr(b *pg_query.BoolExpr) (*Node, error) {
	var name string
	switch b.Boolop {
	case pg_query.BoolExprType_AND_EXPR:
		name = "AND"
	case pg_query.BoolExprType_OR_EXPR:
		name = "OR"
	case pg_query.BoolExprType_NOT_EXPR:
		name = "NOT"
	default:
		return nil, unsupported("boolean operator %s", b.Boolop)
	}
	out := &Node{Kind: BoolExpr, Type: types.Bool, Name: name}
	for _, arg := range b.Args {
		n, err := a.boolArg(arg)
		if err != nil {
			return nil, err
		}
		out.Args = append(out.Args, n)
	}
	return out, nil
}

// boolArg analyses an argument that must be boolean.
func (a *analyzer) boolArg(arg *pg_query.Node) (*Node, error) {
	n, err := a.expr(arg)
	if err != nil {
		return nil, err
	}
	if n.Type.OID != types.OIDBool && n.Type.OID != types.OIDUnknown {
		return nil, unsupported("%s where boolean is required", n.Type.Name())
	}
	return a.coerce(n, types.Bool, false)
}

// booleanTest is IS [NOT] TRUE / FALSE / UNKNOWN.
func (a *analyzer) booleanTest(b *pg_query.BooleanTest) (*Node, error) {
	arg, err := a.boolArg(b.Arg)
	if err != nil {
		return nil, err
	}
	names := map[pg_query.BoolTestType]string{
		pg_query.BoolTestType_IS_TRUE: "IS TRUE", pg_query.BoolTestType_IS_NOT_TRUE: "IS NOT TRUE",
		pg_query.BoolTestType_IS_FALSE: "IS FALSE", pg_query.BoolTestType_IS_NOT_FALSE: "IS NOT FALSE",
		pg_query.BoolTestType_IS_UNKNOWN: "IS UNKNOWN", pg_query.BoolTestType_IS_NOT_UNKNOWN: "IS NOT UNKNOWN",
	}
	name, ok := names[b.Booltesttype]
	if !ok {
		return nil, unsupported("boolean test %s", b.Booltesttype)
	}
	return &Node{Kind: BooleanTest, Type: types.Bool, Name: name, Args: []*Node{arg}}, nil
}

// caseExpr is CASE: the results converted to their common type, the
// conditions to boolean, and a simple CASE's WHEN values to its operand's
// type; a missing ELSE is NULL of the result type.
func (a *analyzer) caseExpr(c *pg_query.CaseExpr) (*Node, error) {
	out := &Node{Kind: CaseExpr}
	var operand *Node
	if c.Arg != nil {
		var err error
		if operand, err = a.expr(c.Arg); err != nil {
			return nil, err
		}
		if operand.Type.OID == types.OIDUnknown {
			if operand, err = a.coerce(operand, types.Text, false); err != nil {
				return nil, err
			}
		}
		out.Arg = operand
	}
	var results []*pg_query.Node
	for _, w := range c.Args {
		cw := w.GetCaseWhen()
		if cw == nil {
			return nil, unsupported("CASE part %T", w.Node)
		}
		var cond *Node
		var err error
		if operand != nil {
			if cond, err = a.expr(cw.Expr); err != nil {
				return nil, err
			}
			_, rt, _, err := binaryOperator("=", operand.Type, cond.Type)
			if err != nil {
				return nil, err
			}
			if cond, err = a.coerce(cond, rt, false); err != nil {
				return nil, err
			}
		} else if cond, err = a.boolArg(cw.Expr); err != nil {
			return nil, err
		}
		out.Args = append(out.Args, cond, nil)
		results = append(results, cw.Result)
	}
	if c.Defresult != nil {
		results = append(results, c.Defresult)
	}
	vals, t, err := a.commonArgs(results)
	if err != nil {
		return nil, err
	}
	for i := range c.Args {
		out.Args[2*i+1] = vals[i]
	}
	out.Default = &Node{Kind: Const, Type: t, Null: true}
	if c.Defresult != nil {
		out.Default = vals[len(vals)-1]
	}
	out.Type = t
	return out, nil
}

// commonArgs analyses args and converts them to their common type
// (select_common_type): text when all are untyped literals.
func (a *analyzer) commonArgs(args []*pg_query.Node) ([]*Node, types.T, error) {
	nodes := make([]*Node, len(args))
	ts := make([]types.T, len(args))
	for i, arg := range args {
		n, err := a.expr(arg)
		if err != nil {
			return nil, types.T{}, err
		}
		nodes[i], ts[i] = n, n.Type
	}
	t, err := commonType(ts)
	if err != nil {
		return nil, types.T{}, err
	}
	for i, n := range nodes {
		if nodes[i], err = a.coerce(n, t, false); err != nil {
			return nil, types.T{}, err
		}
	}
	return nodes, t, nil
}

// builtinName is the name of a built-in function or operator from its
// parts: only pg_catalog may qualify it.
func builtinName(parts []*pg_query.Node) (string, error) {
	var out []string
	for _, p := range parts {
		s := p.GetString_()
		if s == nil {
			return "", unsupported("name part %T", p.Node)
		}
		out = append(out, s.Sval)
	}
	if len(out) == 2 && out[0] == "pg_catalog" {
		out = out[1:]
	}
	if len(out) != 1 {
		return "", unsupported("qualified name %s", strings.Join(out, "."))
	}
	return out[0], nil
}
