package sql

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// callArg is one argument as the call wrote it.
type callArg struct {
	name string // "" when given by position
	expr *pg_query.Node
	typ  types.T
}

// boundCall is a call matched to its procedure, with the SELECT that
// evaluates its arguments, one per parameter in order, each cast to the
// parameter's type (NULL for an omitted one).
type boundCall struct {
	proc *procedure
	eval *pg_query.SelectStmt
}

// bindCall matches fc's arguments to p's parameters as PostgreSQL matches
// a call to a function's signature, and type-checks them. The SQLSTATEs
// are PostgreSQL's: a repeated name and a positional argument after a
// named one are syntax errors (42601); an
// unknown name, a missing required argument, one argument too many and an
// argument of a type that does not cast implicitly all make the call match
// no signature, which PostgreSQL reports as an undefined function (42883,
// "procedure p(...) does not exist"); the detail says which it was.
func (s *Session) bindCall(ctx context.Context, p *procedure, fc *pg_query.FuncCall, query string, params *planner.Params) (*boundCall, error) {
	args, err := callArgs(fc, query)
	if err != nil {
		return nil, err
	}
	if err := s.typeArgs(ctx, args, query, params); err != nil {
		return nil, err
	}
	noMatch := func(format string, a ...any) error {
		return pgerror.New(pgerror.UndefinedFunction, "procedure %s does not exist", callSignature(p.name, args)).
			WithPosition(positionOf(query, fc.Location)).
			WithDetail(format, a...).
			WithHint("The procedure takes %s.", p.signature())
	}
	exprs := make([]*pg_query.Node, len(p.params))
	for i, a := range args {
		slot := i
		if a.name != "" {
			slot = paramIndex(p, a.name)
			if slot < 0 {
				return nil, noMatch("It has no argument named \"%s\".", a.name)
			}
		} else if slot >= len(p.params) {
			return nil, noMatch("It takes at most %d arguments.", len(p.params))
		}
		prm := p.params[slot]
		if exprs[slot] != nil {
			return nil, noMatch("Argument \"%s\" is given twice.", prm.name)
		}
		if !implicitlyCoercible(a.typ, prm.typ) {
			return nil, noMatch("Argument \"%s\" must be of type %s, not %s.", prm.name, prm.typ.Name(), a.typ.Name())
		}
		exprs[slot] = a.expr
	}
	bc := &boundCall{proc: p, eval: newTargetSelect()}
	for i, prm := range p.params {
		if exprs[i] == nil && prm.required {
			return nil, noMatch("Argument \"%s\" is required.", prm.name)
		}
		arg := exprs[i]
		if arg == nil {
			arg = &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Isnull: true, Location: -1}}}
		}
		bc.eval.TargetList = append(bc.eval.TargetList, pg_query.MakeResTargetNodeWithVal(castTo(arg, prm.typ), -1))
	}
	// Binding now reports a bad value of a known type (and infers the
	// types of parameters) before anything runs.
	if _, err := s.bindSelect(ctx, bc.eval, query, params); err != nil {
		return nil, err
	}
	return bc, nil
}

// callArgs lists fc's arguments, refusing what a procedure call cannot
// have and PostgreSQL's two syntax errors of named notation.
func callArgs(fc *pg_query.FuncCall, query string) ([]callArg, error) {
	if fc.AggStar || fc.AggDistinct || fc.FuncVariadic || len(fc.AggOrder) > 0 || fc.AggFilter != nil || fc.Over != nil || fc.AggWithinGroup {
		return nil, pgerror.New(pgerror.WrongObjectType, "%s is a procedure: it takes plain arguments", funcName(fc)).
			WithPosition(positionOf(query, fc.Location))
	}
	var out []callArg
	seen := map[string]bool{}
	for _, n := range fc.Args {
		na := n.GetNamedArgExpr()
		if na == nil {
			if len(out) > 0 && out[len(out)-1].name != "" {
				return nil, pgerror.New(pgerror.SyntaxError, "positional argument cannot follow named argument").
					WithPosition(positionOf(query, nodeLocation(n)))
			}
			out = append(out, callArg{expr: n})
			continue
		}
		if seen[na.Name] {
			return nil, pgerror.New(pgerror.SyntaxError, "argument name \"%s\" used more than once", na.Name).
				WithPosition(positionOf(query, na.Location))
		}
		seen[na.Name] = true
		out = append(out, callArg{name: na.Name, expr: na.Arg})
	}
	return out, nil
}

// typeArgs sets each argument's type. A string literal, a bare NULL and
// a parameter ($n) whose type the client left open are of type unknown,
// as in PostgreSQL, and so fit any parameter (the cast to it then infers
// the $n's type); the type of any other expression is what binding it
// says.
func (s *Session) typeArgs(ctx context.Context, args []callArg, query string, params *planner.Params) error {
	probe := newTargetSelect()
	var typed []int
	for i := range args {
		if c := args[i].expr.GetAConst(); c != nil && (c.Isnull || c.GetSval() != nil) {
			args[i].typ = types.Unknown
			continue
		}
		if ref := args[i].expr.GetParamRef(); ref != nil {
			args[i].typ = types.Unknown
			if n := int(ref.Number); params != nil && n >= 1 && n <= len(params.Types) {
				args[i].typ = params.Types[n-1]
			}
			continue
		}
		probe.TargetList = append(probe.TargetList, pg_query.MakeResTargetNodeWithVal(args[i].expr, -1))
		typed = append(typed, i)
	}
	if len(typed) == 0 {
		return nil
	}
	p, err := s.bindSelect(ctx, probe, query, params)
	if err != nil {
		return err
	}
	for j, c := range p.Root.Columns() {
		args[typed[j]].typ = c.Type
	}
	return nil
}

// evaluate runs bc's SELECT and returns the arguments by parameter name;
// a NULL optional argument takes the parameter's default, a NULL
// required one fails (22004).
func (s *Session) evaluate(ctx context.Context, bc *boundCall, query string, params *planner.Params) (procArgs, error) {
	p, err := s.plan(ctx, bc.eval, query, params)
	if err != nil {
		return nil, err
	}
	row, rows, err := s.firstRow(ctx, p.Root)
	if err != nil {
		return nil, err
	}
	args := procArgs{}
	for i, prm := range bc.proc.params {
		if i < len(row) && row[i] != nil && row[i] != (unreadValue{}) {
			args[prm.name] = row[i]
		}
	}
	if rows != 1 {
		// Only a set-returning function makes other than one row.
		return nil, pgerror.New(pgerror.FeatureNotSupported, "set-returning functions are not allowed in CALL arguments")
	}
	for _, prm := range bc.proc.params {
		if _, ok := args[prm.name]; ok {
			continue
		}
		if prm.required {
			return nil, pgerror.New(pgerror.NullValueNotAllowed, "argument \"%s\" of procedure %s must not be null", prm.name, bc.proc.name)
		}
		if prm.def != nil {
			args[prm.name] = prm.def
		}
	}
	return args, nil
}

// unreadValue stands, in a row of firstRow, for a value of a type that
// argValue does not read.
type unreadValue struct{}

// firstRow runs root and returns its first row as Go values (argValue;
// nil for NULL, unreadValue for a type argValue does not read) and how
// many rows it made.
func (s *Session) firstRow(ctx context.Context, root planner.Node) ([]any, int64, error) {
	res, err := newRowsResult(ctx, s.callerContext(ctx), root, s.statementLimits())
	if err != nil {
		return nil, 0, err
	}
	defer res.Close()
	var (
		row  []any
		rows int64
	)
	for {
		b, err := res.Next(ctx)
		if err != nil {
			return nil, 0, err
		}
		if b == nil {
			return row, rows, nil
		}
		if rows == 0 && b.NumRows() > 0 {
			row = make([]any, b.NumCols())
			for i := range row {
				v, ok := argValue(b.Column(i))
				if !ok && !b.Column(i).IsNull(0) {
					v = unreadValue{}
				}
				row[i] = v
			}
		}
		rows += b.NumRows()
		b.Release()
	}
}

// argValue is the first value of an evaluated argument column as Go
// value; false for NULL.
func argValue(col arrow.Array) (any, bool) {
	if col.Len() == 0 || col.IsNull(0) {
		return nil, false
	}
	switch c := col.(type) {
	case *array.String:
		return c.Value(0), true
	case *array.Int32:
		return c.Value(0), true
	case *array.Int64:
		return c.Value(0), true
	case *array.Boolean:
		return c.Value(0), true
	case *array.Timestamp:
		return c.Value(0).ToTime(c.DataType().(*arrow.TimestampType).Unit), true
	}
	return nil, false
}

// newTargetSelect is an empty SELECT without FROM, as the parser makes
// one, for the caller to add targets to.
func newTargetSelect() *pg_query.SelectStmt {
	return &pg_query.SelectStmt{Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT}
}

// implicitlyCoercible reports whether PostgreSQL casts a value of type
// from to type to in a function call without being asked: unknown (a
// string literal) to anything, integers to wider integers, strings to
// text, and dates and timestamps to timestamp with time zone.
func implicitlyCoercible(from, to types.T) bool {
	if from.OID == types.OIDUnknown || from.OID == to.OID {
		return true
	}
	switch to.OID {
	case types.OIDText:
		return from.Family() == types.FamilyString
	case types.OIDInt4:
		return from.OID == types.OIDInt2
	case types.OIDInt8:
		return from.OID == types.OIDInt2 || from.OID == types.OIDInt4
	case types.OIDTimestampTZ:
		return from.OID == types.OIDDate || from.OID == types.OIDTimestamp
	}
	return false
}

// castTypeName is the type name a cast to t is written with, for the
// types procedure parameters may have.
func castTypeName(t types.T) (string, bool) {
	switch t.OID {
	case types.OIDText:
		return "text", true
	case types.OIDInt4:
		return "int4", true
	case types.OIDInt8:
		return "int8", true
	case types.OIDBool:
		return "bool", true
	case types.OIDTimestampTZ:
		return "timestamptz", true
	}
	return "", false
}

// castTo wraps n in a cast to t (one castTypeName knows).
func castTo(n *pg_query.Node, t types.T) *pg_query.Node {
	name, _ := castTypeName(t)
	tn := &pg_query.TypeName{Names: []*pg_query.Node{pg_query.MakeStrNode("pg_catalog"), pg_query.MakeStrNode(name)}, Typemod: -1, Location: -1}
	return &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{Arg: n, TypeName: tn, Location: nodeLocation(n)}}}
}

func paramIndex(p *procedure, name string) int {
	for i, prm := range p.params {
		if prm.name == name {
			return i
		}
	}
	return -1
}

// callSignature writes a call's argument types as PostgreSQL's "does not
// exist" message does: name(type, name => type).
func callSignature(name string, args []callArg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.typ.Name()
		if a.typ.OID == types.OIDUnknown {
			parts[i] = "unknown"
		}
		if a.name != "" {
			parts[i] = a.name + " => " + parts[i]
		}
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// funcName is the procedure name as written, parts joined by dots.
func funcName(fc *pg_query.FuncCall) string {
	parts := make([]string, len(fc.Funcname))
	for i, n := range fc.Funcname {
		parts[i] = n.GetString_().GetSval()
	}
	return strings.Join(parts, ".")
}

// nodeLocation is the location of an expression node, -1 when it has
// none.
func nodeLocation(n *pg_query.Node) int32 {
	m := n.ProtoReflect()
	fd := m.WhichOneof(m.Descriptor().Oneofs().ByName("node"))
	if fd == nil || fd.Kind() != protoreflect.MessageKind {
		return -1
	}
	inner := m.Get(fd).Message()
	lf := inner.Descriptor().Fields().ByName("location")
	if lf == nil {
		return -1
	}
	return int32(inner.Get(lf).Int())
}
