package planner

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/sql/types"
)

// Rule is one pure plan rewrite, named as a verb.
type Rule struct {
	Name  string
	Apply func(Node) Node
}

// Rules are applied in order. Security expansion (the barrier filter and
// masking projection) happened in the binder, right after name
// resolution; every rule here must respect those barriers: only a
// leakproof predicate moves below a barrier filter, and no predicate on a
// masked column moves below the masking projection.
var Rules = []Rule{
	// Take the conjuncts every branch of an OR shares out of it, so an
	// equality they all require can become a hash key.
	{Name: "factorOrConjuncts", Apply: factorOrConjuncts},
	// Run a correlated [NOT] EXISTS / IN subquery of a WHERE clause as a
	// semi or anti join hashed on its correlation, instead of once per
	// outer row.
	{Name: "decorrelateSubqueries", Apply: decorrelateSubqueries},
	// Move WHERE and ON conjuncts down to the join input they read, as
	// far as outer joins and barriers allow.
	{Name: "pushFiltersThroughJoins", Apply: pushFiltersThroughJoins},
	// Fold what is left above an inner join into its ON condition, where
	// equalities between the sides become hash keys.
	{Name: "mergeFiltersIntoJoins", Apply: mergeFiltersIntoJoins},
	// Reorder trees of inner joins from row estimates, linked leaves
	// first, hashing the smaller side of each join.
	{Name: "orderJoins", Apply: orderJoins},
	// Translate the leakproof predicates sitting on a scan into Iceberg
	// filters, so files and row groups that cannot match are never read.
	{Name: "pushFiltersIntoScan", Apply: pushFiltersIntoScan},
	// Read only the columns something above uses.
	{Name: "pruneScanColumns", Apply: pruneScanColumns},
}

// Optimize applies Rules to a bound plan.
func Optimize(p *Plan) *Plan {
	root := p.Root
	for _, r := range Rules {
		root = r.Apply(root)
	}
	return &Plan{Root: root}
}

func pushFiltersIntoScan(n Node) Node {
	walk(n, func(n Node) {
		f, ok := n.(*Filter)
		if !ok {
			return
		}
		var scan *Scan
		var preds []Expr
		preds = append(preds, SplitConjuncts(f.Pred)...)
		switch in := f.Input.(type) {
		case *Scan:
			scan = in
		case *Filter:
			// A user filter above a barrier: only leakproof conjuncts may be
			// evaluated on rows the barrier has not admitted, which is what
			// pruning amounts to. The barrier's own predicate is the policy
			// and may always be pushed.
			s, ok := in.Input.(*Scan)
			if !ok || !in.Barrier {
				return
			}
			scan = s
			preds = append(preds, SplitConjuncts(in.Pred)...)
		case *Project:
			// A user filter above a masking projection. A column the
			// projection passes through unmasked keeps its scan column's
			// id, so only conjuncts on those translate; a masked column is
			// a new one no scan has. The barrier below pushes its own
			// predicate when it is visited.
			if !in.Masking {
				return
			}
			if scan = scanUnderBarrier(in.Input); scan == nil {
				return
			}
		default:
			return
		}
		for _, p := range preds {
			if !p.Leakproof() {
				continue
			}
			ie := toIceberg(p, scan)
			if ie == nil {
				continue
			}
			if scan.Pushed == nil {
				scan.Pushed = ie
			} else {
				scan.Pushed = iceberg.NewAnd(scan.Pushed, ie)
			}
		}
	})
	return n
}

// scanUnderBarrier is n when it is a scan, or the scan under n when n is
// a barrier filter; nil otherwise.
func scanUnderBarrier(n Node) *Scan {
	switch x := n.(type) {
	case *Scan:
		return x
	case *Filter:
		if s, ok := x.Input.(*Scan); ok && x.Barrier {
			return s
		}
	}
	return nil
}

// toIceberg translates a simple comparison of a scan column with a
// constant into an Iceberg expression, or returns nil.
func toIceberg(e Expr, scan *Scan) iceberg.BooleanExpression {
	name := func(id ColumnID) (string, types.T, bool) {
		for i, c := range scan.Cols {
			if c.ID == id {
				tc := scan.Table.Columns()[scan.TableColumns[i]]
				return tc.Name, tc.Type, true
			}
		}
		return "", types.T{}, false
	}
	switch x := e.(type) {
	case *IsNull:
		cr, ok := x.Arg.(*ColRef)
		if !ok {
			return nil
		}
		n, _, ok := name(cr.ID)
		if !ok {
			return nil
		}
		if x.Negated {
			return iceberg.NotNull(iceberg.Reference(n))
		}
		return iceberg.IsNull(iceberg.Reference(n))
	case *BinOp:
		if x.Op.Name == "AND" {
			l, r := toIceberg(x.L, scan), toIceberg(x.R, scan)
			if l == nil || r == nil {
				return nil
			}
			return iceberg.NewAnd(l, r)
		}
		cr, okL := x.L.(*ColRef)
		c, okR := x.R.(*Const)
		op := x.Op.Name
		if !okL || !okR {
			cr, okL = x.R.(*ColRef)
			c, okR = x.L.(*Const)
			op = flip(op)
		}
		if !okL || !okR || c.Value == nil {
			return nil
		}
		n, colType, ok := name(cr.ID)
		if !ok || colType != c.Typ {
			return nil
		}
		ref := iceberg.Reference(n)
		switch v := c.Value.(type) {
		case int64:
			switch colType.OID {
			case types.OIDInt8:
				return icebergCompare(op, ref, v)
			case types.OIDInt4, types.OIDInt2:
				return icebergCompare(op, ref, int32(v))
			}
		case float64:
			// Not pushed: PostgreSQL orders NaN above every number and
			// equal to itself, while the storage layer compares floats as
			// IEEE does (NaN matches nothing), so a pushed filter could drop
			// the NaN rows SQL keeps (f8 = 'NaN', f8 > 5).
		case string:
			return icebergCompare(op, ref, v)
		case bool:
			if op == "=" {
				return iceberg.EqualTo(ref, v)
			}
		case int32:
			if colType.OID == types.OIDDate {
				return icebergCompare(op, ref, iceberg.Date(v))
			}
		case decimal128.Num:
			_ = v
		}
	}
	return nil
}

func flip(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

func icebergCompare[T iceberg.LiteralType](op string, ref iceberg.UnboundTerm, v T) iceberg.BooleanExpression {
	switch op {
	case "=":
		return iceberg.EqualTo(ref, v)
	case "<>":
		return iceberg.NotEqualTo(ref, v)
	case "<":
		return iceberg.LessThan(ref, v)
	case "<=":
		return iceberg.LessThanEqual(ref, v)
	case ">":
		return iceberg.GreaterThan(ref, v)
	case ">=":
		return iceberg.GreaterThanEqual(ref, v)
	}
	return nil
}

func pruneScanColumns(root Node) Node {
	used := map[ColumnID]bool{}
	for _, c := range root.Columns() {
		used[c.ID] = true
	}
	// A barrier filter reads its scan's columns below the masking
	// projection: they count for the scan, not for the projection.
	policy := map[ColumnID]bool{}
	proven := map[ColumnID]bool{}
	walk(root, func(n Node) {
		switch x := n.(type) {
		case *Filter:
			switch {
			case x.Proven:
				// Passes rows through unevaluated: its columns stay in
				// the plan, unread unless something else reads them.
				ExprColumns(x.Pred, proven)
			case x.Barrier:
				ExprColumns(x.Pred, policy)
			default:
				ExprColumns(x.Pred, used)
			}
		case *Project:
			if x.Masking {
				return // narrowed below, to what the rest reads
			}
			for _, e := range x.Exprs {
				ExprColumns(e, used)
			}
		case *Aggregate:
			for _, e := range x.Groups {
				ExprColumns(e, used)
			}
			for _, a := range x.Aggs {
				for _, e := range a.Exprs() {
					ExprColumns(e, used)
				}
			}
		case *Sort:
			for _, k := range x.Keys {
				ExprColumns(k.Expr, used)
			}
		case *Join:
			if x.On != nil {
				ExprColumns(x.On, used)
			}
		case *Lateral:
			// The right side reads these left columns per row.
			for _, c := range x.Outer {
				used[c.ID] = true
			}
		case *Window:
			windowColumns(x, used)
		case *ProjectSet:
			for _, f := range x.Funcs {
				for _, a := range f.Args {
					ExprColumns(a, used)
				}
			}
		case *Append, *SetOp, *RecursiveUnion:
			// Set operations compare and return whole rows.
			for _, in := range n.Inputs() {
				for _, c := range in.Columns() {
					used[c.ID] = true
				}
			}
		case *Values:
			for _, row := range x.Rows {
				for _, e := range row {
					ExprColumns(e, used)
				}
			}
		}
	})
	walk(root, pruneMaskingProject(used))
	for id := range policy {
		used[id] = true
	}
	walk(root, func(n Node) {
		s, ok := n.(*Scan)
		if !ok {
			return
		}
		var cols []Column
		var idx []int
		var unread []bool
		for i, c := range s.Cols {
			switch {
			case used[c.ID]:
				cols = append(cols, c)
				idx = append(idx, s.TableColumns[i])
				unread = append(unread, false)
			case proven[c.ID]:
				cols = append(cols, c)
				idx = append(idx, s.TableColumns[i])
				unread = append(unread, true)
			}
		}
		s.Cols, s.TableColumns = cols, idx
		if slices.Contains(unread, true) {
			s.Unread = unread
		}
	})
	return root
}

// pruneMaskingProject narrows each masking projection to the outputs used
// marks, and marks what those read. The binder gives that projection
// every visible column of its table, so that a mask applies wherever the
// column is named; a mask nothing reads would still run on every row.
// Dropping it shows nothing more (the barrier filter below stays) and
// cannot hide an error, as mask functions never fail.
func pruneMaskingProject(used map[ColumnID]bool) func(Node) {
	return func(n Node) {
		p, ok := n.(*Project)
		if !ok || !p.Masking {
			return
		}
		var exprs []Expr
		var cols []Column
		for i, c := range p.Cols {
			if used[c.ID] {
				exprs = append(exprs, p.Exprs[i])
				cols = append(cols, c)
				ExprColumns(p.Exprs[i], used)
			}
		}
		p.Exprs, p.Cols = exprs, cols
	}
}

// walk visits every node of the tree, parents first.
func walk(n Node, visit func(Node)) {
	visit(n)
	for _, in := range n.Inputs() {
		walk(in, visit)
	}
}
