package planner

// Guard records on the leaf of a secured relation (a table's Scan, or the
// WorkTable holding a DML target's rows) what the binder put above it, so
// that CheckPlan can tell, on the plan about to run, that it is still
// there.
type Guard struct {
	// Policy is the predicate of the caller's row filters, which a
	// barrier filter directly above the leaf evaluates alone: only
	// leakproof filters may come between. Nil without row filters.
	Policy Expr
	// Hidden are the leaf's columns whose stored values the caller may
	// not see: masked columns and, in a DML target (which holds every
	// column of its table), restricted ones. With Hidden not empty a
	// masking projection sits above the barrier (or the leaf), and only
	// the barrier, that projection and the WriteBack columns read them.
	Hidden []ColumnID
	// WriteBack are the columns of a DML statement's Matches that carry
	// the new row images to storage: a row written back keeps the stored
	// values of the columns the statement does not assign, so these may
	// be computed from Hidden columns. Nothing reads them but the writer.
	WriteBack []ColumnID
}

// securedRelation is a table reference as gate two lets its caller see
// it.
type securedRelation struct {
	// node is the masking projection over the barrier filter over the
	// leaf; either is left out when no mask, or no row filter, applies.
	node Node
	// user are the columns the caller's expressions see, in table order:
	// the visible ones, a masked one as its mask.
	user []Column
	// policy is the row filters' predicate over the stored values; nil
	// without row filters.
	policy Expr
	// guard is what was recorded on the leaf; nil when nothing applies.
	guard *Guard
}

// secureRelation builds the secured relation rel describes over leaf, a
// Scan or the WorkTable of a DML target: the one place gate two is
// applied to a table reference, read or written.
//
//  1. Restricted columns are not among user, so no expression of the
//     caller can name them.
//  2. The row filters, ANDed, become a barrier filter directly above the
//     leaf, evaluated on stored values.
//  3. Each masked column is replaced by its mask in a masking projection
//     above the barrier, so every user expression sees only the mask.
//
// stored are the leaf's columns holding the table's stored values, in
// table order, and tableIdx the table column index of each: policy
// expressions see them under the table's column names. A scan holds the
// visible columns only; a DML target holds every column and keeps them
// all (passStored) beside the masks in the projection's output, as the
// rows it writes back need their stored values. qualifier names the
// relation's columns. The guard is recorded on the leaf.
func (b *Binder) secureRelation(leaf Node, rel *SecuredRelation, stored []Column, tableIdx []int, qualifier string, passStored bool) *securedRelation {
	visible := make(map[int]bool, len(rel.Visible))
	for _, i := range rel.Visible {
		visible[i] = true
	}
	policyScope := &scope{cols: append([]Column(nil), stored...)}
	out := &securedRelation{node: leaf}
	g := &Guard{}
	if len(rel.RowFilters) > 0 {
		out.policy = b.bindPolicyFilters(rel.RowFilters, policyScope)
		barrier := &Filter{Input: leaf, Pred: out.policy, Barrier: true}
		if s, ok := leaf.(*Scan); ok {
			barrier.Proven = proveRowFilter(b.ctx, s, out.policy)
		}
		out.node = barrier
		g.Policy = out.policy
	}
	proj := &Project{Input: out.node, Masking: true}
	if passStored {
		for _, c := range leaf.Columns() {
			proj.Exprs = append(proj.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
			proj.Cols = append(proj.Cols, c)
		}
	}
	for k, c := range stored {
		i := tableIdx[k]
		if !visible[i] {
			g.Hidden = append(g.Hidden, c.ID)
			continue
		}
		expr, masked := rel.Masks[i]
		if !masked {
			if !passStored {
				proj.Exprs = append(proj.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
				proj.Cols = append(proj.Cols, c)
			}
			out.user = append(out.user, c)
			continue
		}
		g.Hidden = append(g.Hidden, c.ID)
		m := b.bindPolicyMask(expr, c, policyScope)
		mc := b.newColumn(c.Name, Column{Type: m.Type(), Qualifier: qualifier, Nullable: true})
		proj.Exprs = append(proj.Exprs, m)
		proj.Cols = append(proj.Cols, mc)
		out.user = append(out.user, mc)
	}
	if len(g.Hidden) > 0 {
		out.node = proj
	}
	if g.Policy != nil || len(g.Hidden) > 0 {
		out.guard = g
		switch x := leaf.(type) {
		case *Scan:
			x.Guard = g
		case *WorkTable:
			x.Guard = g
		}
	}
	return out
}
