package planner

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/sql/types"
)

// Rule is one plan rewrite, named as a verb. A rule is a pure function
// of its input: it never edits the tree it was given, but returns new
// nodes along the paths it changes and shares the subtrees it leaves
// alone, so a plan that is shared, or optimized twice, never sees a
// half-applied rule.
type Rule struct {
	Name  string
	Apply func(Node) Node
}

// Batch is a named list of rules, applied once each, in order.
type Batch struct {
	Name  string
	Rules []Rule
}

// batches are the optimizer's rules in the order Optimize applies them.
// Security expansion (the barrier filter and masking projection) happened
// in the binder, right after name resolution; every rule must respect
// those barriers: only a leakproof predicate moves below a barrier
// filter, and no predicate on a masked column moves below the masking
// projection. CheckPlan verifies that, on every plan before it runs.
func batches(parallel ParallelOptions) []Batch {
	return []Batch{
		{Name: "subqueries", Rules: []Rule{
			// Optimize the plan of each subquery used as an expression on
			// its own, first: the rules below then see (and decorrelation
			// moves) plans already narrowed.
			{Name: "optimizeSubqueries", Apply: optimizeSubqueries},
		}},
		{Name: "joins", Rules: []Rule{
			// Take the conjuncts every branch of an OR shares out of it, so
			// an equality they all require can become a hash key.
			{Name: "factorOrConjuncts", Apply: factorOrConjuncts},
			// Add beside an OR over several join inputs the restriction it
			// implies on each input, for the rules below to push there.
			{Name: "extractOrRestrictions", Apply: extractOrRestrictions},
			// Run a correlated [NOT] EXISTS / IN subquery of a WHERE clause
			// as a semi or anti join hashed on its correlation, instead of
			// once per outer row.
			{Name: "decorrelateSubqueries", Apply: decorrelateSubqueries},
			// Run a correlated scalar subquery that aggregates the rows
			// equalities with the outer row select as a left join with its
			// aggregate grouped by those equalities' columns, instead of
			// once per outer row.
			{Name: "decorrelateScalarSubqueries", Apply: decorrelateScalarSubqueries},
			// Move WHERE and ON conjuncts down to the join input they read,
			// as far as outer joins and barriers allow.
			{Name: "pushFiltersThroughJoins", Apply: pushFiltersThroughJoins},
			// Fold what is left above an inner join into its ON condition,
			// where equalities between the sides become hash keys.
			{Name: "mergeFiltersIntoJoins", Apply: mergeFiltersIntoJoins},
			// Run an uncorrelated IN subquery of a filter, now on the join
			// input it reads, as a semi join, which the join order and its
			// estimates can see.
			{Name: "joinUncorrelatedInSubqueries", Apply: joinUncorrelatedInSubqueries},
			// Reorder trees of inner joins from row estimates, linked leaves
			// first, hashing the leaf each join adds unless it is estimated
			// at more than twice the tree so far.
			{Name: "orderJoins", Apply: orderJoins},
			// Hash the left input of a semi or anti join estimated smaller
			// than its right one: the few outer rows of an EXISTS over a
			// large table are hashed instead of the large table.
			// Let a grouped aggregate joined on a group key with a small
			// filtered input read only the groups that input can join.
			{Name: "restrictAggregatesByJoin", Apply: restrictAggregatesByJoin},
			{Name: "hashSmallerExistenceSide", Apply: hashSmallerExistenceSide},
		}},
		{Name: "scans", Rules: []Rule{
			// Record on each scan the leakproof predicates sitting on it that
			// Iceberg can evaluate, so files and row groups that cannot
			// match are never read.
			{Name: "pushFiltersIntoScan", Apply: pushFiltersIntoScan},
			// Read only the columns something above uses.
			{Name: "pruneScanColumns", Apply: pruneScanColumns},
			// Drop after a filter the columns only its predicate reads.
			{Name: "narrowFilteredScans", Apply: narrowFilteredScans},
		}},
		{Name: "counts", Rules: []Rule{
			// Answer count(*) of a whole table from its data files'
			// record counts, when no predicate but a row filter its files
			// proved true for every row applies.
			{Name: "countRowsFromFiles", Apply: countRowsFromFiles},
		}},
		// Last: it wraps finished pipelines, and no rule may rewrite what
		// runs inside a Gather's workers after it.
		{Name: "parallelism", Rules: []Rule{
			// Run pipelines over large tables, and the aggregates above
			// them, in several workers.
			{Name: "parallelize", Apply: func(n Node) Node { return parallelize(n, parallel) }},
			// Tell the Gathers whose rows' order no node above observes
			// (it changes no node their workers run).
			{Name: "markAnyOrderGathers", Apply: markAnyOrderGathers},
		}},
	}
}

// Optimize turns a bound plan into the plan to run, applying the batches
// in order; parallel says how many workers a parallel part may use (the
// zero value keeps the plan serial). It is the optimizer's one entry
// point: the binder never optimizes, and every statement's plan passes
// through here once.
func Optimize(p *Plan, parallel ParallelOptions) *Plan {
	return &Plan{Root: applyBatches(p.Root, batches(parallel))}
}

func applyBatches(root Node, bs []Batch) Node {
	for _, b := range bs {
		for _, r := range b.Rules {
			root = r.Apply(root)
		}
	}
	return root
}

// pushFiltersIntoScan records on a scan the conjuncts of the filter
// above it that Iceberg can evaluate on file and row group statistics
// (Scan.Pushed). The filter stays where it is: pushing only prunes.
// Filters are visited before their inputs, so a user filter's conjuncts
// come before those of the barrier under it.
func pushFiltersIntoScan(n Node) Node {
	if f, ok := n.(*Filter); ok {
		n = pushIntoScanBelow(f)
	}
	return mapInputs(n, pushFiltersIntoScan)
}

// pushIntoScanBelow is f over a copy of the scan within its reach that
// also prunes by f's conjuncts; f itself when no scan is within reach or
// nothing new translates.
func pushIntoScanBelow(f *Filter) Node {
	var scan *Scan
	preds := SplitConjuncts(f.Pred)
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
			return f
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
			return f
		}
		if scan = scanUnderBarrier(in.Input); scan == nil {
			return f
		}
	default:
		return f
	}
	pushed := scan.Pushed
	for _, p := range preds {
		// A predicate pushed already (a subquery's plan is optimized on
		// its own, then again as part of a join) is not pushed twice.
		if !p.Leakproof() || toIceberg(p, scan) == nil || holdsExpr(pushed, p) {
			continue
		}
		pushed = append(pushed[:len(pushed):len(pushed)], p)
	}
	if len(pushed) == len(scan.Pushed) {
		return f
	}
	c := *scan
	c.Pushed = pushed
	return replaceScan(f, scan, &c)
}

// replaceScan is the chain of single-input nodes n with its scan old
// replaced by scan: the nodes between are copied, not edited.
func replaceScan(n Node, old, scan *Scan) Node {
	if n == Node(old) {
		return scan
	}
	ins := n.Inputs()
	if len(ins) != 1 {
		return n
	}
	m, _ := withInputs(n, []Node{replaceScan(ins[0], old, scan)})
	return m
}

// PushedFilter is the Iceberg translation of the scan's Pushed
// predicates, ANDed; nil when none translates.
func (s *Scan) PushedFilter() iceberg.BooleanExpression {
	var out iceberg.BooleanExpression
	for _, p := range s.Pushed {
		ie := toIceberg(p, s)
		if ie == nil {
			// Pruning is optional: a predicate whose column is no longer
			// read prunes nothing, and every row still meets the filter
			// it came from.
			continue
		}
		if out == nil {
			out = ie
		} else {
			out = iceberg.NewAnd(out, ie)
		}
	}
	return out
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
		switch x.Op.Name {
		case "AND", "OR":
			// An IN list is an OR of equalities (InList).
			l, r := toIceberg(x.L, scan), toIceberg(x.R, scan)
			if l == nil || r == nil {
				return nil
			}
			if x.Op.Name == "OR" {
				return iceberg.NewOr(l, r)
			}
			return iceberg.NewAnd(l, r)
		}
		cr, okL := x.L.(*ColRef)
		c, okR := x.R.(*Const)
		op := x.Op.Name
		if !okL || !okR {
			cr, okL = x.R.(*ColRef)
			c, okR = x.L.(*Const)
			op = FlipComparison(op)
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
			case types.OIDTimestamp, types.OIDTimestampTZ:
				// Microseconds since the epoch (UTC for timestamptz), as
				// Iceberg stores both; the infinities are the extremes
				// of int64 in either.
				return icebergCompare(op, ref, iceberg.Timestamp(v))
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
			// Only a numeric with a declared precision is an Iceberg
			// decimal of that scale; the constant has the column's type
			// (checked above), so its unscaled value is at that scale.
			if colType.OID == types.OIDNumeric && colType.Precision > 0 {
				return icebergCompare(op, ref, iceberg.Decimal{Val: v, Scale: int(colType.Scale)})
			}
		}
	}
	return nil
}

// FlipComparison is the comparison operator with its operands swapped:
// k < c is c > k.
func FlipComparison(op string) string {
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

// pruneScanColumns narrows each scan to the columns something above it
// reads, and each masking projection to the masks something reads.
func pruneScanColumns(root Node) Node {
	used := map[ColumnID]bool{}
	for _, c := range root.Columns() {
		used[c.ID] = true
	}
	// A barrier filter reads its scan's columns below the masking
	// projection: they count for the scan, not for the projection.
	policy := map[ColumnID]bool{}
	proven := map[ColumnID]bool{}
	readColumns(root, used, policy, proven, nil)
	// A masking projection keeps the outputs something reads, and then
	// its kept masks read their scan's columns.
	kept := map[*Project][]bool{}
	walkOutsideCTEs(root, func(n Node) {
		p, ok := n.(*Project)
		if !ok || !p.Masking {
			return
		}
		keep := make([]bool, len(p.Cols))
		for i, c := range p.Cols {
			if used[c.ID] {
				keep[i] = true
				ExprColumns(p.Exprs[i], used)
			}
		}
		kept[p] = keep
	})
	for id := range policy {
		used[id] = true
	}
	var narrow func(Node) Node
	narrow = func(n Node) Node {
		if c, ok := n.(*CTE); ok {
			return narrowCTE(c, narrow)
		}
		p, masking := n.(*Project)
		masking = masking && p.Masking
		n = mapInputs(n, narrow)
		switch x := n.(type) {
		case *Project:
			if masking {
				return narrowMaskingProject(x, kept[p])
			}
		case *Scan:
			return narrowScan(x, used, proven)
		case *CTEScan:
			return narrowCTEScan(x, used)
		}
		return n
	}
	return narrow(root)
}

// narrowCTE is c with its Input narrowed by narrow, then its Def
// computing only the columns the references left read, and narrowed as
// a plan of its own.
func narrowCTE(c *CTE, narrow func(Node) Node) Node {
	in := narrow(c.Input)
	read := map[ColumnID]bool{}
	cteReads(in, c.ID, read)
	def := pruneScanColumns(narrowCTEDef(c.Def, read))
	if in == c.Input && def == c.Def {
		return c
	}
	cp := *c
	cp.Input, cp.Def = in, def
	return &cp
}

// readColumns adds to used the columns the nodes outside WITH queries
// plans read, to policy those barrier filters read, and to proven those
// proven row filters name; a masking projection's masks are not read
// here (what reads each output decides). skip, when set, names filters
// whose predicates are left out.
func readColumns(root Node, used, policy, proven map[ColumnID]bool, skip func(*Filter) bool) {
	walkOutsideCTEs(root, func(n Node) {
		switch x := n.(type) {
		case *Filter:
			switch {
			case skip != nil && skip(x):
				// The caller asks what is read besides this filter.
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
}

// walkOutsideCTEs visits the nodes of the tree as walk does, but not the
// plans of the WITH queries it computes (CTE.Def): what reads their
// columns is known only once their references are narrowed.
func walkOutsideCTEs(n Node, visit func(Node)) {
	visit(n)
	if c, ok := n.(*CTE); ok {
		walkOutsideCTEs(c.Input, visit)
		return
	}
	for _, in := range n.Inputs() {
		walkOutsideCTEs(in, visit)
	}
}

// narrowMaskingProject is p with only the outputs keep marks. The binder
// gives that projection every visible column of its table, so that a
// mask applies wherever the column is named; a mask nothing reads would
// still run on every row. Dropping it shows nothing more (the barrier
// filter below stays) and cannot hide an error, as mask functions never
// fail.
func narrowMaskingProject(p *Project, keep []bool) Node {
	return keepProjectOutputs(p, func(i int) bool { return keep[i] })
}

// keepProjectOutputs is p computing only the outputs keep marks (by
// position), p itself when it keeps them all.
func keepProjectOutputs(p *Project, keep func(i int) bool) Node {
	var exprs []Expr
	var cols []Column
	for i, c := range p.Cols {
		if keep(i) {
			exprs = append(exprs, p.Exprs[i])
			cols = append(cols, c)
		}
	}
	if len(cols) == len(p.Cols) {
		return p
	}
	c := *p
	c.Exprs, c.Cols = exprs, cols
	return &c
}

// narrowScan is s reading only the columns used marks, and returning the
// ones only a proven row filter names (proven) as NULLs, unread.
func narrowScan(s *Scan, used, proven map[ColumnID]bool) Node {
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
	if !slices.Contains(unread, true) {
		unread = nil
	}
	if len(cols) == len(s.Cols) && slices.Equal(unread, s.Unread) {
		return s
	}
	c := *s
	c.Cols, c.TableColumns, c.Unread = cols, idx, unread
	return &c
}

// walk visits every node of the tree, parents first.
func walk(n Node, visit func(Node)) {
	visit(n)
	for _, in := range n.Inputs() {
		walk(in, visit)
	}
}
