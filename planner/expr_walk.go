package planner

import (
	"fmt"
	"reflect"
)

// Generic walks over bound expressions, for the rules that inspect or
// rewrite them. None of them enters a subquery's plan: what a subquery
// reads from its enclosing query is listed in its Outer columns.

// anyExpr reports whether pred holds for e or for an expression inside
// it.
func anyExpr(e Expr, pred func(Expr) bool) bool {
	if pred(e) {
		return true
	}
	for _, c := range exprChildren(e) {
		if anyExpr(c, pred) {
			return true
		}
	}
	return false
}

// exprChildren are the expressions e is computed from.
func exprChildren(e Expr) []Expr {
	switch x := e.(type) {
	case *BinOp:
		return []Expr{x.L, x.R}
	case *Not:
		return []Expr{x.Arg}
	case *Negate:
		return []Expr{x.Arg}
	case *IsNull:
		return []Expr{x.Arg}
	case *Cast:
		return []Expr{x.Arg}
	case *Func:
		return x.Args
	case *Case:
		var out []Expr
		for _, w := range x.Whens {
			out = append(out, w.Cond, w.Result)
		}
		if x.Else != nil {
			out = append(out, x.Else)
		}
		return out
	case *Subquery:
		return x.Args
	case *ArrayExpr:
		return x.Elems
	case *ArrayCompare:
		return []Expr{x.Left, x.Array}
	case *ColRef, *OuterRef, *Const, *Param:
	default:
		panic(fmt.Sprintf("exprChildren: unhandled %T", e))
	}
	return nil
}

// mapExpr rebuilds e bottom-up, replacing each expression x by f(x) once
// its children are replaced. Unchanged parts are shared, not copied.
func mapExpr(e Expr, f func(Expr) Expr) Expr {
	m := func(x Expr) Expr { return mapExpr(x, f) }
	switch x := e.(type) {
	case *BinOp:
		if l, r := m(x.L), m(x.R); l != x.L || r != x.R {
			c := *x
			c.L, c.R = l, r
			e = &c
		}
	case *Not:
		if a := m(x.Arg); a != x.Arg {
			e = &Not{Arg: a}
		}
	case *Negate:
		if a := m(x.Arg); a != x.Arg {
			e = &Negate{Arg: a}
		}
	case *IsNull:
		if a := m(x.Arg); a != x.Arg {
			e = &IsNull{Arg: a, Negated: x.Negated}
		}
	case *Cast:
		if a := m(x.Arg); a != x.Arg {
			e = &Cast{Arg: a, To: x.To}
		}
	case *Func:
		if args, changed := mapExprs(x.Args, m); changed {
			c := *x
			c.Args = args
			e = &c
		}
	case *Case:
		c := *x
		changed := false
		c.Whens = make([]When, len(x.Whens))
		for i, w := range x.Whens {
			c.Whens[i] = When{Cond: m(w.Cond), Result: m(w.Result)}
			changed = changed || c.Whens[i].Cond != w.Cond || c.Whens[i].Result != w.Result
		}
		if x.Else != nil {
			c.Else = m(x.Else)
			changed = changed || c.Else != x.Else
		}
		if changed {
			e = &c
		}
	case *Subquery:
		if args, changed := mapExprs(x.Args, m); changed {
			c := *x
			c.Args = args
			e = &c
		}
	case *ArrayExpr:
		if elems, changed := mapExprs(x.Elems, m); changed {
			e = &ArrayExpr{Elems: elems, Typ: x.Typ}
		}
	case *ArrayCompare:
		if l, a := m(x.Left), m(x.Array); l != x.Left || a != x.Array {
			c := *x
			c.Left, c.Array = l, a
			e = &c
		}
	case *ColRef, *OuterRef, *Const, *Param:
	default:
		panic(fmt.Sprintf("mapExpr: unhandled %T", e))
	}
	return f(e)
}

func mapExprs(es []Expr, m func(Expr) Expr) ([]Expr, bool) {
	out := make([]Expr, len(es))
	changed := false
	for i, a := range es {
		out[i] = m(a)
		changed = changed || out[i] != a
	}
	return out, changed
}

// SameExpr reports whether a and b are the same computation: the same
// structure over the same columns and constants, so evaluating one in
// place of the other changes nothing. It answers false for what it cannot
// prove, such as subqueries and volatile functions.
func SameExpr(a, b Expr) bool {
	switch x := a.(type) {
	case *ColRef:
		y, ok := b.(*ColRef)
		return ok && x.ID == y.ID
	case *OuterRef:
		y, ok := b.(*OuterRef)
		return ok && x.ID == y.ID
	case *Const:
		y, ok := b.(*Const)
		return ok && x.Typ == y.Typ && reflect.DeepEqual(x.Value, y.Value)
	case *Param:
		y, ok := b.(*Param)
		return ok && x.Index == y.Index && x.Typ == y.Typ
	case *BinOp:
		y, ok := b.(*BinOp)
		return ok && x.Op.Name == y.Op.Name && x.Typ == y.Typ && SameExpr(x.L, y.L) && SameExpr(x.R, y.R)
	case *Not:
		y, ok := b.(*Not)
		return ok && SameExpr(x.Arg, y.Arg)
	case *Negate:
		y, ok := b.(*Negate)
		return ok && SameExpr(x.Arg, y.Arg)
	case *IsNull:
		y, ok := b.(*IsNull)
		return ok && x.Negated == y.Negated && SameExpr(x.Arg, y.Arg)
	case *Cast:
		y, ok := b.(*Cast)
		return ok && x.To == y.To && SameExpr(x.Arg, y.Arg)
	case *Func:
		y, ok := b.(*Func)
		// A function of the session (Row) is compared by name only if it
		// is not one; a volatile function differs from itself.
		return ok && x.Row == nil && y.Row == nil && !volatileFunc(x.Name) &&
			x.Name == y.Name && x.Typ == y.Typ && sameExprs(x.Args, y.Args)
	case *Case:
		y, ok := b.(*Case)
		if !ok || x.Typ != y.Typ || len(x.Whens) != len(y.Whens) || (x.Else == nil) != (y.Else == nil) {
			return false
		}
		for i := range x.Whens {
			if !SameExpr(x.Whens[i].Cond, y.Whens[i].Cond) || !SameExpr(x.Whens[i].Result, y.Whens[i].Result) {
				return false
			}
		}
		return x.Else == nil || SameExpr(x.Else, y.Else)
	case *ArrayExpr:
		y, ok := b.(*ArrayExpr)
		return ok && x.Typ == y.Typ && sameExprs(x.Elems, y.Elems)
	case *ArrayCompare:
		y, ok := b.(*ArrayCompare)
		return ok && x.Op.Name == y.Op.Name && x.All == y.All && SameExpr(x.Left, y.Left) && SameExpr(x.Array, y.Array)
	}
	return false
}

func sameExprs(a, b []Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !SameExpr(a[i], b[i]) {
			return false
		}
	}
	return true
}

// EvaluatesAside reports whether e may be evaluated on rows it was not
// asked about (those a filter rejected) with no effect but its cost and
// perhaps an error, which the caller then must not report: it calls no
// volatile function and runs no subquery.
func EvaluatesAside(e Expr) bool {
	return !anyExpr(e, func(x Expr) bool {
		switch y := x.(type) {
		case *Func:
			return volatileFunc(y.Name)
		case *Subquery:
			return true
		}
		return false
	})
}

// volatileFunc reports a function whose result may change from one call
// to the next within a statement (PostgreSQL's VOLATILE).
func volatileFunc(name string) bool {
	return name == "random" || name == "pg_sleep"
}

// nodeExprs lists the expressions n evaluates over its input rows; ok is
// false for a node kind it does not know. A scan's Pushed predicates are
// not evaluated over rows (they prune files) and are not listed.
func nodeExprs(n Node) (exprs []Expr, ok bool) {
	switch x := n.(type) {
	case *Scan, OneRow, *Append, *SetOp, *WorkTable, *RecursiveUnion, *Gather, *RowCount, *CTE, *CTEScan, *Remote:
		return nil, true
	case *Filter:
		return []Expr{x.Pred}, true
	case *Project:
		return x.Exprs, true
	case *Aggregate:
		exprs = append(exprs, x.Groups...)
		for _, a := range x.Aggs {
			exprs = append(exprs, a.Exprs()...)
		}
		return exprs, true
	case *Sort:
		for _, k := range x.Keys {
			exprs = append(exprs, k.Expr)
		}
		return exprs, true
	case *Sample:
		for _, e := range []Expr{x.Percent, x.Seed} {
			if e != nil {
				exprs = append(exprs, e)
			}
		}
		return exprs, true
	case *Limit:
		for _, e := range []Expr{x.CountExpr, x.OffsetExpr} {
			if e != nil {
				exprs = append(exprs, e)
			}
		}
		for _, k := range x.TieKeys {
			exprs = append(exprs, k.Expr)
		}
		return exprs, true
	case *Join:
		if x.On != nil {
			exprs = append(exprs, x.On)
		}
		return exprs, true
	case *Window:
		exprs = append(exprs, x.PartitionBy...)
		for _, k := range x.OrderBy {
			exprs = append(exprs, k.Expr)
		}
		for _, b := range []FrameBound{x.Frame.Start, x.Frame.End} {
			if b.Offset != nil {
				exprs = append(exprs, b.Offset)
			}
		}
		for _, f := range x.Funcs {
			exprs = append(exprs, f.Args...)
			if f.Agg != nil {
				exprs = append(exprs, f.Agg.Exprs()...)
			}
		}
		return exprs, true
	case *ProjectSet:
		for _, f := range x.Funcs {
			exprs = append(exprs, f.Args...)
		}
		return exprs, true
	case *Values:
		for _, row := range x.Rows {
			exprs = append(exprs, row...)
		}
		return exprs, true
	case *Lateral:
		// The right side reads these left columns per row.
		for _, c := range x.Outer {
			exprs = append(exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
		}
		return exprs, true
	}
	return nil, false
}

// mapNodeExprs is n with f applied to each expression nodeExprs lists,
// a copy of n when one changes (n itself otherwise); ok is false for a
// node kind it does not know, which it returns as it is.
func mapNodeExprs(n Node, f func(Expr) Expr) (_ Node, ok bool) {
	exprs := func(es []Expr) ([]Expr, bool) { return mapExprs(es, f) }
	keys := func(ks []SortKey) ([]SortKey, bool) {
		out := make([]SortKey, len(ks))
		changed := false
		for i, k := range ks {
			out[i] = k
			out[i].Expr = f(k.Expr)
			changed = changed || out[i].Expr != k.Expr
		}
		return out, changed
	}
	opt := func(e Expr) (Expr, bool) {
		if e == nil {
			return nil, false
		}
		m := f(e)
		return m, m != e
	}
	switch x := n.(type) {
	case *Scan, OneRow, *Append, *SetOp, *WorkTable, *RecursiveUnion, *Gather, *Lateral, *RowCount, *CTE, *CTEScan:
		return n, true
	case *Filter:
		if p := f(x.Pred); p != x.Pred {
			c := *x
			c.Pred = p
			return &c, true
		}
	case *Project:
		if es, changed := exprs(x.Exprs); changed {
			c := *x
			c.Exprs = es
			return &c, true
		}
	case *Aggregate:
		groups, changed := exprs(x.Groups)
		aggs := make([]*AggCall, len(x.Aggs))
		for i, a := range x.Aggs {
			var ch bool
			aggs[i], ch = mapAggCall(a, f)
			changed = changed || ch
		}
		if changed {
			c := *x
			c.Groups, c.Aggs = groups, aggs
			return &c, true
		}
	case *Sort:
		if ks, changed := keys(x.Keys); changed {
			c := *x
			c.Keys = ks
			return &c, true
		}
	case *Sample:
		percent, c1 := opt(x.Percent)
		seed, c2 := opt(x.Seed)
		if c1 || c2 {
			c := *x
			c.Percent, c.Seed = percent, seed
			return &c, true
		}
	case *Limit:
		count, c1 := opt(x.CountExpr)
		offset, c2 := opt(x.OffsetExpr)
		ties, c3 := keys(x.TieKeys)
		if c1 || c2 || c3 {
			c := *x
			c.CountExpr, c.OffsetExpr = count, offset
			if c3 {
				c.TieKeys = ties
			}
			return &c, true
		}
	case *Join:
		if on, changed := opt(x.On); changed {
			c := *x
			c.On = on
			return &c, true
		}
	case *Window:
		part, changed := exprs(x.PartitionBy)
		order, ch := keys(x.OrderBy)
		changed = changed || ch
		start, ch := opt(x.Frame.Start.Offset)
		changed = changed || ch
		end, ch := opt(x.Frame.End.Offset)
		changed = changed || ch
		funcs := make([]*WindowCall, len(x.Funcs))
		for i, wf := range x.Funcs {
			args, argsChanged := exprs(wf.Args)
			agg := wf.Agg
			aggChanged := false
			if agg != nil {
				agg, aggChanged = mapAggCall(agg, f)
			}
			funcs[i] = wf
			if argsChanged || aggChanged {
				cf := *wf
				cf.Args, cf.Agg = args, agg
				funcs[i] = &cf
				changed = true
			}
		}
		if changed {
			c := *x
			c.PartitionBy, c.OrderBy, c.Funcs = part, order, funcs
			c.Frame.Start.Offset, c.Frame.End.Offset = start, end
			return &c, true
		}
	case *ProjectSet:
		funcs := make([]*SRFCall, len(x.Funcs))
		changed := false
		for i, sf := range x.Funcs {
			funcs[i] = sf
			if args, ch := exprs(sf.Args); ch {
				cf := *sf
				cf.Args = args
				funcs[i] = &cf
				changed = true
			}
		}
		if changed {
			c := *x
			c.Funcs = funcs
			return &c, true
		}
	case *Values:
		rows := make([][]Expr, len(x.Rows))
		changed := false
		for i, row := range x.Rows {
			var ch bool
			rows[i], ch = exprs(row)
			changed = changed || ch
		}
		if changed {
			c := *x
			c.Rows = rows
			return &c, true
		}
	default:
		return n, false
	}
	return n, true
}

// mapAggCall is a with f applied to each expression it evaluates, a copy
// when one changes.
func mapAggCall(a *AggCall, f func(Expr) Expr) (*AggCall, bool) {
	c := *a
	changed := false
	for _, e := range []*Expr{&c.Arg, &c.Delim, &c.Filter, &c.Direct} {
		if *e != nil {
			m := f(*e)
			changed = changed || m != *e
			*e = m
		}
	}
	if len(a.OrderBy) > 0 {
		c.OrderBy = make([]SortKey, len(a.OrderBy))
		for i, k := range a.OrderBy {
			c.OrderBy[i] = k
			c.OrderBy[i].Expr = f(k.Expr)
			changed = changed || c.OrderBy[i].Expr != k.Expr
		}
	}
	if len(a.RowArgs) > 0 {
		var ch bool
		c.RowArgs, ch = mapExprs(a.RowArgs, f)
		changed = changed || ch
	}
	if !changed {
		return a, false
	}
	return &c, true
}
