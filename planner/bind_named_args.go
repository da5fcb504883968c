package planner

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Named arguments, f(name => value) and f(name := value): the call is
// rewritten into its positional form from the function's parameter names
// in the registry, a parameter left out taking its default, as
// PostgreSQL's expand_function_arguments does. The positional call is
// then bound as any other.

// needsPositionalCall reports whether fc must be rewritten by
// positionalCall: it names an argument, or leaves out parameters that
// have defaults.
func needsPositionalCall(fc *pg_query.FuncCall, f functions.Scalar) bool {
	n := len(fc.Args)
	return hasNamedArgs(fc) || (n < len(f.Params) && f.Params[n].Default != "")
}

// hasNamedArgs reports whether some argument of fc is passed by name.
func hasNamedArgs(fc *pg_query.FuncCall) bool {
	for _, a := range fc.Args {
		if a.GetNamedArgExpr() != nil {
			return true
		}
	}
	return false
}

// positionalCall returns fc with its arguments in parameter order and
// defaults for the parameters it leaves out. The parser already refuses a
// positional argument after a named one.
func (b *Binder) positionalCall(fc *pg_query.FuncCall, f functions.Scalar, ec *exprCtx) (*pg_query.FuncCall, error) {
	slots := make([]*pg_query.Node, 0, len(f.Params))
	seen := map[string]bool{}
	for _, a := range fc.Args {
		na := a.GetNamedArgExpr()
		if na == nil {
			slots = append(slots, a)
			continue
		}
		if seen[na.Name] {
			return nil, b.errAt(na.Location, pgerror.SyntaxError, "argument name \"%s\" used more than once", na.Name)
		}
		seen[na.Name] = true
		pos := -1
		for i, p := range f.Params {
			if p.Name == na.Name {
				pos = i
			}
		}
		// An unknown name, or one a positional argument already fills,
		// matches no function.
		if pos < 0 || (pos < len(slots) && slots[pos] != nil) {
			return nil, b.noNamedMatch(fc, ec)
		}
		for len(slots) <= pos {
			slots = append(slots, nil)
		}
		slots[pos] = na.Arg
	}
	for i, s := range slots {
		if s != nil {
			continue
		}
		if f.Params[i].Default == "" {
			return nil, b.noNamedMatch(fc, ec)
		}
		slots[i] = literalNode(f.Params[i].Default)
	}
	// Trailing parameters left out take their defaults too, so that the
	// function always sees them (make_interval() is make_interval(0, ...)).
	for i := len(slots); i < len(f.Params) && f.Params[i].Default != ""; i++ {
		slots = append(slots, literalNode(f.Params[i].Default))
	}
	out := proto.Clone(fc).(*pg_query.FuncCall)
	out.Args = slots
	return out, nil
}

// noNamedMatch is PostgreSQL's error for a call whose named arguments
// match no function: the call's signature with the names.
func (b *Binder) noNamedMatch(fc *pg_query.FuncCall, ec *exprCtx) error {
	parts := make([]string, len(fc.Args))
	for i, a := range fc.Args {
		arg, prefix := a, ""
		if na := a.GetNamedArgExpr(); na != nil {
			arg, prefix = na.Arg, na.Name+" => "
		}
		parts[i] = prefix + b.argTypeNames([]*pg_query.Node{arg}, ec)
	}
	return b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s) does not exist", funcName(fc), strings.Join(parts, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// literalNode is the parse tree of a numeric literal.
func literalNode(s string) *pg_query.Node {
	if i, err := strconv.ParseInt(s, 10, 32); err == nil {
		return pg_query.MakeAConstIntNode(i, -1)
	}
	return &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{
		Val: &pg_query.A_Const_Fval{Fval: &pg_query.Float{Fval: s}}, Location: -1}}}
}
