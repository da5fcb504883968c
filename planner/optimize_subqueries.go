package planner

// optimizeSubqueries optimizes the plan of every subquery used as an
// expression (EXISTS, IN, scalar and ARRAY subqueries) on its own, nested
// ones first, as the plan of a statement: its filters reach its scans and
// its scans read only what it uses. A subquery's plan runs serially:
// it is run once per statement or per outer row, inside an operator of
// the enclosing plan.
func optimizeSubqueries(n Node) Node {
	n = mapInputs(n, optimizeSubqueries)
	m, _ := mapNodeExprs(n, func(e Expr) Expr {
		return mapExpr(e, func(x Expr) Expr {
			sq, ok := x.(*Subquery)
			if !ok {
				return x
			}
			c := *sq
			c.Plan = applyBatches(sq.Plan, subqueryBatches())
			return &c
		})
	})
	return m
}

// subqueryBatches are the batches a subquery's plan is optimized with,
// before the plan around it: all but narrowFilteredScans, whose
// projections would hide the filters on scans that the outer plan's
// decorrelating rules look for.
func subqueryBatches() []Batch {
	bs := batches(ParallelOptions{})
	for i, b := range bs {
		rules := make([]Rule, 0, len(b.Rules))
		for _, r := range b.Rules {
			if r.Name != "narrowFilteredScans" {
				rules = append(rules, r)
			}
		}
		bs[i].Rules = rules
	}
	return bs
}
