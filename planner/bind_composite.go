package planner

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Set-returning functions whose rows are composite, such as
// information_schema._pg_expandarray(anyarray) returning SETOF record
// (x anyelement, n int), which pgjdbc and Metabase call as
// (information_schema._pg_expandarray(i.indkey)).n. SQE has no composite
// values: a call is accepted where one of its fields is selected
// immediately, each field bound as the plain set-returning function that
// computes it, or as a whole select-list entry, which becomes one column
// per field ("keys.x", "keys.n") that (alias.keys).x reads, as pgjdbc's
// getPrimaryKeys does. SELECT * shows those columns rather than PostgreSQL's
// one record column. The select list's ProjectSet runs those
// functions in lockstep, so (f(a)).x and (f(a)).n in one select list
// stay on the same row, as PostgreSQL's do.

// compositeSRFField is one field of a composite set-returning function's
// rows: the set-returning function that yields it, given the call's
// arguments.
type compositeSRFField func(args []*pg_query.Node) *pg_query.FuncCall

// compositeSRFs lists the composite set-returning functions by the name
// they are called by (schema-qualified: information_schema is not on the
// search path) and their fields.
var compositeSRFs = map[string]map[string]compositeSRFField{
	// x is each element of the array, n its 1-based position: unnest and
	// generate_subscripts(a, 1), which numbers from 1 whatever the array's
	// lower bound, as _pg_expandarray does.
	"information_schema._pg_expandarray": {
		"x": func(args []*pg_query.Node) *pg_query.FuncCall {
			return &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode("unnest")}, Args: args}
		},
		"n": func(args []*pg_query.Node) *pg_query.FuncCall {
			return &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode("generate_subscripts")},
				Args: append(append([]*pg_query.Node(nil), args...), pg_query.MakeAConstIntNode(1, -1))}
		},
	},
	// aclexplode(aclitem[]) returns SETOF record (grantor oid, grantee
	// oid, privilege_type text, is_grantable bool): a row per privilege of
	// each aclitem, as pgAdmin's privilege queries read them.
	"aclexplode": {
		"grantor":        aclexplodeField("aclexplode_grantors"),
		"grantee":        aclexplodeField("aclexplode_grantees"),
		"privilege_type": aclexplodeField("aclexplode_privilege_types"),
		"is_grantable":   aclexplodeField("aclexplode_grantable"),
	},
}

// compositeFieldOrder is the order of each composite function's fields
// in its record type.
var compositeFieldOrder = map[string][]string{
	"information_schema._pg_expandarray": {"x", "n"},
	"aclexplode":                         {"grantor", "grantee", "privilege_type", "is_grantable"},
}

// aclexplodeField is a field of aclexplode: the unnest of the session
// function fn, which computes that field of every row aclexplode returns
// as an array (the session knows the role names' OIDs).
func aclexplodeField(fn string) compositeSRFField {
	return func(args []*pg_query.Node) *pg_query.FuncCall {
		inner := &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode(fn)}, Args: args}
		return &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode("unnest")},
			Args: []*pg_query.Node{{Node: &pg_query.Node_FuncCall{FuncCall: inner}}}}
	}
}

// expandCompositeTarget binds a select-list entry that is a whole
// composite set-returning call, f(args) AS name, as one column per field
// named "name.field". SQE has no record values to carry it in one column,
// so (alias.name).field in an enclosing query reads that column
// (bindFieldSelection); ok is false when the entry is not such a call.
func (b *Binder) expandCompositeTarget(rt *pg_query.ResTarget, ec *exprCtx) ([]target, bool, error) {
	fc, fields := compositeSRFCall(rt.Val)
	if fields == nil {
		return nil, false, nil
	}
	name := rt.Name
	if name == "" {
		name = figureColname(rt.Val)
	}
	var out []target
	for _, field := range compositeFieldOrder[strings.ToLower(funcName(fc))] {
		sel := &pg_query.A_Indirection{Arg: rt.Val, Indirection: []*pg_query.Node{pg_query.MakeStrNode(field)}}
		e, err := b.bindFieldSelection(sel, ec)
		if err != nil {
			return nil, true, err
		}
		out = append(out, target{name: name + "." + field, expr: e})
	}
	return out, true, nil
}

// compositeSRFCall returns the call and its function's fields when n is a
// call of a composite set-returning function.
func compositeSRFCall(n *pg_query.Node) (*pg_query.FuncCall, map[string]compositeSRFField) {
	fc := n.GetFuncCall()
	if fc == nil {
		return nil, nil
	}
	return fc, compositeSRFs[strings.ToLower(funcName(fc))]
}

// isFieldSelection reports whether an indirection starts with a field
// name ((f(x)).field) rather than a subscript.
func isFieldSelection(ind *pg_query.A_Indirection) bool {
	return len(ind.Indirection) > 0 && ind.Indirection[0].GetString_() != nil
}

// bindFieldSelection binds (f(args)).field for a composite set-returning
// function f. Any other field selection is refused.
func (b *Binder) bindFieldSelection(ind *pg_query.A_Indirection, ec *exprCtx) (Expr, error) {
	fc, fields := compositeSRFCall(ind.Arg)
	if cr := ind.Arg.GetColumnRef(); cr != nil && len(ind.Indirection) == 1 {
		// (alias.col).field of a composite call expanded by
		// expandCompositeTarget.
		last := cr.Fields[len(cr.Fields)-1].GetString_()
		if last != nil {
			fieldsCopy := append([]*pg_query.Node(nil), cr.Fields[:len(cr.Fields)-1]...)
			fieldsCopy = append(fieldsCopy, pg_query.MakeStrNode(last.Sval+"."+ind.Indirection[0].GetString_().Sval))
			return b.bindColumnRef(&pg_query.ColumnRef{Fields: fieldsCopy, Location: cr.Location}, ec)
		}
	}
	if fields == nil || len(ind.Indirection) != 1 {
		return nil, pgerror.Unsupported("field selection is not supported yet")
	}
	if fc.AggStar || fc.AggDistinct || fc.Over != nil || fc.AggFilter != nil || len(fc.AggOrder) > 0 || fc.FuncVariadic {
		return nil, b.errAt(fc.Location, pgerror.WrongObjectType, "%s is not an aggregate function", funcName(fc))
	}
	name := ind.Indirection[0].GetString_().Sval
	field, ok := fields[name]
	if !ok {
		return nil, b.errAt(fc.Location, pgerror.UndefinedColumn, "could not identify column \"%s\" in record data type", name)
	}
	if len(fc.Args) != 1 {
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s with %d arguments does not exist", funcName(fc), len(fc.Args))
	}
	impl := field(fc.Args)
	impl.Location = fc.Location
	return b.bindSRF(impl, funcName(impl), ec)
}

// containsCompositeSRF reports a composite set-returning function call
// under a field selection anywhere in the expression n, subqueries aside
// (their set-returning functions are their own).
func containsCompositeSRF(n *pg_query.Node) bool {
	if n == nil {
		return false
	}
	found := false
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg_query.SubLink:
			return
		case *pg_query.A_Indirection:
			if _, fields := compositeSRFCall(x.Arg); fields != nil {
				found = true
				return
			}
		case *pg_query.FuncCall:
			if compositeSRFs[strings.ToLower(funcName(x))] != nil {
				found = true
				return
			}
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.Message() == nil || fd.IsMap():
			case fd.IsList():
				for i, l := 0, v.List(); i < l.Len() && !found; i++ {
					walk(l.Get(i).Message())
				}
			default:
				walk(v.Message())
			}
			return !found
		})
	}
	walk(n.ProtoReflect())
	return found
}
