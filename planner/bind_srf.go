package planner

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// isSRF names the set-returning functions SQE implements.
func isSRF(name string) bool {
	switch strings.ToLower(name) {
	case "unnest", "generate_series", "generate_subscripts":
		return true
	}
	_, ok := jsonSRFs[strings.ToLower(name)]
	return ok
}

// containsSRF reports a set-returning function call in an expression.
func containsSRF(n *pg_query.Node) bool {
	found := false
	walkAST(n, func(fc *pg_query.FuncCall) {
		if isSRF(funcName(fc)) {
			found = true
		}
	})
	return found || containsCompositeSRF(n)
}

// bindSRF binds a set-returning function call: its arguments are bound in
// ec's scope, the call is recorded for the ProjectSet the query will get,
// and the expression is a reference to the call's output column.
func (b *Binder) bindSRF(fc *pg_query.FuncCall, name string, ec *exprCtx) (Expr, error) {
	if ec.srfs == nil {
		return nil, b.errAt(fc.Location, pgerror.FeatureNotSupported, "set-returning functions are not allowed in %s", ec.clause)
	}
	name = strings.ToLower(name)
	args := make([]Expr, len(fc.Args))
	for i, n := range fc.Args {
		e, err := b.bindExpr(n, &exprCtx{scope: ec.scope, clause: ec.clause})
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	var out types.T
	noFunc := func() error {
		names := make([]string, len(args))
		for i, a := range args {
			names[i] = a.Type().Name()
		}
		return b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", "))
	}
	switch name {
	case "json_array_elements", "json_array_elements_text", "jsonb_array_elements", "jsonb_array_elements_text",
		"json_object_keys", "jsonb_object_keys":
		f := jsonSRFs[name]
		if len(args) != 1 || (args[0].Type().OID != f.arg.OID && !isUnknown(args[0])) {
			return nil, noFunc()
		}
		var err error
		if args[0], err = b.coerce(args[0], f.arg, fc.Location); err != nil {
			return nil, err
		}
		out = f.out
	case "unnest":
		if len(args) != 1 {
			return nil, noFunc()
		}
		elem, ok := args[0].Type().Elem()
		if !ok {
			return nil, noFunc()
		}
		out = elem
	case "generate_subscripts":
		if len(args) != 2 {
			return nil, noFunc()
		}
		if _, ok := args[0].Type().Elem(); !ok {
			return nil, noFunc()
		}
		var err error
		if args[1], err = b.coerce(args[1], types.Int4, fc.Location); err != nil {
			return nil, err
		}
		out = types.Int4
	case "generate_series":
		if len(args) != 2 && len(args) != 3 {
			return nil, noFunc()
		}
		if ts, ok := datetimeSeriesType(args); ok {
			var err error
			for i := range args[:2] {
				if args[i], err = b.coerce(args[i], ts, fc.Location); err != nil {
					return nil, err
				}
			}
			out = ts
			break
		}
		out = types.Int4
		for _, a := range args {
			switch a.Type().OID {
			case types.OIDInt8:
				out = types.Int8
			case types.OIDInt2, types.OIDInt4, types.OIDUnknown:
			default:
				return nil, noFunc()
			}
		}
		for i := range args {
			var err error
			if args[i], err = b.coerce(args[i], out, fc.Location); err != nil {
				return nil, err
			}
		}
	}
	call := &SRFCall{Name: name, Args: args, Out: b.newColumn(name, Column{Type: out, Nullable: true})}
	*ec.srfs = append(*ec.srfs, call)
	return &ColRef{ID: call.Out.ID, Name: call.Out.Name, Typ: out}, nil
}

// bindRangeFunction binds a set-returning function in FROM:
// generate_series(1, 3) AS s(n) [WITH ORDINALITY].
func (b *Binder) bindRangeFunction(rf *pg_query.RangeFunction) (Node, *scope, error) {
	if rf.Lateral || rf.IsRowsfrom || len(rf.Functions) != 1 || len(rf.Coldeflist) > 0 {
		return nil, nil, pgerror.Unsupported("this form of function in FROM is not supported yet")
	}
	items := rf.Functions[0].GetList().GetItems()
	if len(items) == 0 {
		return nil, nil, pgerror.Unsupported("this form of function in FROM is not supported yet")
	}
	fc := items[0].GetFuncCall()
	if fc == nil {
		return nil, nil, pgerror.Unsupported("this form of function in FROM is not supported yet")
	}
	var srfs []*SRFCall
	// outNames are the columns' own names (the function's OUT
	// parameters); without them the one column is named by the alias.
	var outNames []string
	switch {
	case isJSONEach(funcName(fc)):
		var err error
		if srfs, err = b.bindJSONEach(fc); err != nil {
			return nil, nil, err
		}
		outNames = []string{"key", "value"}
	case isSRF(funcName(fc)):
		if _, err := b.bindSRF(fc, funcName(fc), &exprCtx{scope: &scope{}, clause: "FROM", srfs: &srfs}); err != nil {
			return nil, nil, err
		}
		if out := jsonSRFs[strings.ToLower(funcName(fc))].col; out != "" {
			outNames = []string{out}
		}
	default:
		return b.bindScalarInFrom(rf, fc)
	}
	ps := &ProjectSet{Input: OneRow{}, Funcs: srfs}
	alias := funcName(fc)
	var colnames []*pg_query.Node
	if rf.Alias != nil {
		alias, colnames = rf.Alias.Aliasname, rf.Alias.Colnames
	}
	available := len(srfs)
	if rf.Ordinality {
		available++
	}
	if len(colnames) > available {
		return nil, nil, pgerror.New(pgerror.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified", alias, available, len(colnames))
	}
	proj := &Project{Input: ps}
	for i, f := range srfs {
		name := alias
		switch {
		case i < len(colnames):
			name = colnames[i].GetString_().GetSval()
		case i < len(outNames):
			name = outNames[i]
		}
		proj.Exprs = append(proj.Exprs, &ColRef{ID: f.Out.ID, Name: f.Out.Name, Typ: f.Out.Type})
		proj.Cols = append(proj.Cols, b.newColumn(name, Column{Type: f.Out.Type, Qualifier: alias, Nullable: true}))
	}
	if rf.Ordinality {
		// WITH ORDINALITY numbers the function's rows from 1, in the
		// order it returns them: row_number() over the unordered rows.
		rn := b.newColumn("row_number", Column{Type: types.Int8})
		proj.Input = &Window{
			Input: ps,
			Frame: WindowFrame{Mode: RangeFrame, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}},
			Funcs: []*WindowCall{{Name: "row_number", Out: rn}},
		}
		ordName := "ordinality"
		if len(colnames) > len(srfs) {
			ordName = colnames[len(srfs)].GetString_().GetSval()
		}
		proj.Exprs = append(proj.Exprs, &ColRef{ID: rn.ID, Name: rn.Name, Typ: rn.Type})
		proj.Cols = append(proj.Cols, b.newColumn(ordName, Column{Type: types.Int8, Qualifier: alias}))
	}
	return proj, &scope{cols: proj.Cols}, nil
}

// bindScalarInFrom binds a scalar function in FROM, which PostgreSQL
// reads as a one-row relation with one column named after the alias (or
// the function).
func (b *Binder) bindScalarInFrom(rf *pg_query.RangeFunction, fc *pg_query.FuncCall) (Node, *scope, error) {
	if rf.Ordinality {
		return nil, nil, pgerror.Unsupported("WITH ORDINALITY is not supported yet")
	}
	e, err := b.bindExpr(&pg_query.Node{Node: &pg_query.Node_FuncCall{FuncCall: fc}}, &exprCtx{scope: &scope{}, clause: "FROM"})
	if err != nil {
		return nil, nil, err
	}
	alias := funcName(fc)
	name := alias
	if rf.Alias != nil {
		alias = rf.Alias.Aliasname
		name = alias
		if len(rf.Alias.Colnames) > 0 {
			name = rf.Alias.Colnames[0].GetString_().GetSval()
		}
	}
	proj := &Project{Input: OneRow{}, Exprs: []Expr{e}}
	proj.Cols = []Column{b.newColumn(name, Column{Type: e.Type(), Qualifier: alias, Nullable: true})}
	return proj, &scope{cols: proj.Cols}, nil
}
