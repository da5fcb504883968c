package planner

// narrowFilteredScans puts a projection of what the rest of the plan
// reads over a filter on a scan whose predicate alone reads some of the
// scan's columns (TPC-H Q13's o_comment, tested by NOT LIKE and read by
// nothing else). The executor runs the pair as one filter that copies
// only the kept columns of the rows it keeps, so such a column reaches no
// join's build side, Gather or sort. Only a filter on a scan without
// policies is narrowed: a secured relation keeps its shape. A subquery's
// plan is not narrowed (optimizeSubqueries): the decorrelating rules of
// the plan around it look for its filters on their scans.
func narrowFilteredScans(root Node) Node {
	candidate := func(f *Filter) bool {
		s, ok := f.Input.(*Scan)
		return ok && s.Guard == nil && !f.Barrier && !f.Proven
	}
	used, policy, proven := map[ColumnID]bool{}, map[ColumnID]bool{}, map[ColumnID]bool{}
	for _, c := range root.Columns() {
		used[c.ID] = true
	}
	readColumns(root, used, policy, proven, candidate)
	// Every mask counts as read here, whatever reads its output.
	walkOutsideCTEs(root, func(n Node) {
		if p, ok := n.(*Project); ok && p.Masking {
			for _, e := range p.Exprs {
				ExprColumns(e, used)
			}
		}
	})
	var narrow func(Node) Node
	narrow = func(n Node) Node {
		if c, ok := n.(*CTE); ok {
			// A WITH query's plan is read by its references, which
			// readColumns does not follow: it is left as it is.
			in := narrow(c.Input)
			if in == c.Input {
				return c
			}
			cp := *c
			cp.Input = in
			return &cp
		}
		if p, ok := n.(*Project); ok && onlyColumnRefs(p.Exprs) {
			if f, ok := p.Input.(*Filter); ok && candidate(f) {
				// A projection of columns over a filter already runs
				// as one filter copying only those columns.
				return p
			}
		}
		n = mapInputs(n, narrow)
		f, ok := n.(*Filter)
		if !ok || !candidate(f) {
			return n
		}
		cols := f.Columns()
		var exprs []Expr
		var kept []Column
		for _, c := range cols {
			if used[c.ID] || policy[c.ID] || proven[c.ID] {
				exprs = append(exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
				kept = append(kept, c)
			}
		}
		if len(kept) == len(cols) {
			return n
		}
		return &Project{Input: f, Exprs: exprs, Cols: kept}
	}
	return narrow(root)
}
