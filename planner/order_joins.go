package planner

import (
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
)

// orderJoins picks the order in which a tree of inner joins is run. The
// tree is flattened into its inputs (leaves: tables, subqueries, outer
// joins) and the conjuncts of its ON conditions, then rebuilt left-deep
// by a greedy walk over row estimates:
//
//   - start from the leaf with the most estimated rows (among those an
//     equality links to another, if any): it becomes the probe side every
//     later join streams through;
//   - add, one at a time, the leaf whose join with what is built so far is
//     estimated smallest, among the leaves an equality links to it; a
//     leaf linked only by another condition comes next, and a leaf linked
//     by nothing (a cross product) only when no linked leaf is left;
//   - each join hashes the leaf it adds, unless the leaf's estimate is
//     more than twice the tree's so far.
//
// An equality a = b between two leaves is taken to keep 1/n of the
// pairs. With statistics of both columns (ANALYZE), n is the larger of
// their distinct counts, as in PostgreSQL. Without, n is the smaller of
// the two tables' row counts: the usual foreign key to primary key join
// keeps one row per row of the referencing side, and a join on a column
// that is no key of either (a many-to-many) is then estimated large, so
// it comes late.
//
// Leaves stay whole, so a barrier filter or masking projection inside one
// is never crossed; only the placement of user conjuncts among the joins
// changes, which is free for inner joins.
func orderJoins(root Node) Node { return orderJoinsUnder(root, true) }

// orderJoinsUnder orders the join trees in n. byPosition tells whether
// n's consumer reads its columns by position (a statement's or a set
// operation's result) rather than by ID: a reordered tree then gets a
// projection back to the written column order. Other consumers find
// columns by ID, and a projection there would keep every column alive,
// defeating pruneScanColumns.
func orderJoinsUnder(n Node, byPosition bool) Node {
	if !isInnerJoinTree(n) {
		_, setOp := n.(*Append)
		if _, ok := n.(*SetOp); ok {
			setOp = true
		}
		if _, ok := n.(*RecursiveUnion); ok {
			setOp = true
		}
		return mapInputs(n, func(in Node) Node { return orderJoinsUnder(in, setOp) })
	}
	var leaves []Node
	var conjs []Expr
	flattenInnerJoins(n, &leaves, &conjs)
	g := newJoinGraph(leaves, conjs)
	g.foldSatellites()
	tree := g.build()
	if !byPosition {
		return tree
	}
	return keepColumnOrder(tree, n.Columns())
}

// isInnerJoinTree reports whether n is an inner join, possibly under
// non-barrier filters.
func isInnerJoinTree(n Node) bool {
	switch x := n.(type) {
	case *Join:
		return x.Kind == InnerJoin
	case *Filter:
		return !x.Barrier && isInnerJoinTree(x.Input)
	}
	return false
}

// flattenInnerJoins collects the leaves and conjuncts of an inner join
// tree; each leaf has its own join trees ordered first.
func flattenInnerJoins(n Node, leaves *[]Node, conjs *[]Expr) {
	if isInnerJoinTree(n) {
		switch x := n.(type) {
		case *Join:
			flattenInnerJoins(x.Left, leaves, conjs)
			flattenInnerJoins(x.Right, leaves, conjs)
			*conjs = append(*conjs, conjunctsOf(x.On)...)
			return
		case *Filter:
			*conjs = append(*conjs, SplitConjuncts(x.Pred)...)
			flattenInnerJoins(x.Input, leaves, conjs)
			return
		}
	}
	*leaves = append(*leaves, orderJoinsUnder(n, false))
}

// keepColumnOrder projects n's columns into the order want lists when
// reordering changed it, for the consumers that read columns by position
// (a statement's result, set operations).
func keepColumnOrder(n Node, want []Column) Node {
	got := n.Columns()
	same := len(got) == len(want)
	for i := 0; same && i < len(got); i++ {
		same = got[i].ID == want[i].ID
	}
	if same {
		return n
	}
	p := &Project{Input: n, Cols: append([]Column(nil), want...)}
	for _, c := range want {
		p.Exprs = append(p.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
	}
	return p
}

// joinConjunct is a conjunct of an inner join tree and the leaves it
// reads.
type joinConjunct struct {
	expr   Expr
	leaves []int
	// eqA, eqB are the leaves of the two sides of an equality usable as a
	// hash key (each side reads one leaf, different ones); -1 otherwise.
	eqA, eqB int
	placed   bool
}

// joinGraph is the leaves of an inner join tree with their estimates
// and the conjuncts linking them.
type joinGraph struct {
	leaves []Node
	rows   []float64 // estimated rows, after the leaf's own filters
	base   []float64 // rows of the leaf's largest table, unfiltered
	conjs  []*joinConjunct
	// top are conjuncts reading no leaf column (constants, or columns of
	// an enclosing query); they filter the finished tree.
	top []Expr
}

func newJoinGraph(leaves []Node, conjs []Expr) *joinGraph {
	g := &joinGraph{leaves: append([]Node(nil), leaves...)}
	owner := map[ColumnID]int{}
	for i, l := range leaves {
		for _, c := range l.Columns() {
			owner[c.ID] = i
		}
	}
	leafOf := func(e Expr) (set []int, foreign bool) {
		seen := map[int]bool{}
		for id := range exprRefs(e) {
			i, ok := owner[id]
			if !ok {
				return nil, true
			}
			if !seen[i] {
				seen[i] = true
				set = append(set, i)
			}
		}
		slices.Sort(set)
		return set, false
	}
	own := make([][]Expr, len(leaves))
	for _, c := range conjs {
		ls, foreign := leafOf(c)
		switch {
		case foreign || len(ls) == 0:
			g.top = append(g.top, c)
		case len(ls) == 1:
			own[ls[0]] = append(own[ls[0]], c)
		default:
			jc := &joinConjunct{expr: c, leaves: ls, eqA: -1, eqB: -1}
			if b, ok := c.(*BinOp); ok && b.Op.Name == "=" && arrow.TypeEqual(b.L.Type().Arrow(), b.R.Type().Arrow()) {
				la, _ := leafOf(b.L)
				lb, _ := leafOf(b.R)
				if len(la) == 1 && len(lb) == 1 && la[0] != lb[0] {
					jc.eqA, jc.eqB = la[0], lb[0]
				}
			}
			g.conjs = append(g.conjs, jc)
		}
	}
	for i := range g.leaves {
		g.leaves[i] = addFilter(g.leaves[i], own[i])
		g.rows = append(g.rows, estimateRows(g.leaves[i]))
		g.base = append(g.base, baseRows(g.leaves[i]))
	}
	return g
}

// addFilter is n filtered by conjs, merged into n when n is a user
// filter already.
func addFilter(n Node, conjs []Expr) Node {
	if len(conjs) == 0 {
		return n
	}
	if f, ok := n.(*Filter); ok && !f.Barrier {
		return &Filter{Input: f.Input, Pred: AndAll(append(SplitConjuncts(f.Pred), conjs...))}
	}
	return filterOver(n, conjs)
}

// foldSatellites joins each filtered leaf that only one other leaf links
// to (a satellite: TPC-H's nation filtered by name, region by name) with
// that leaf first, and makes the pair one leaf, repeatedly: supplier
// joined with its one nation becomes a leaf of 400 estimated rows instead
// of 10,000, which the greedy walk then hashes as such. Without folding,
// the walk sees supplier at its full size, may hash the large side of its
// join, and meets the filter only after it.
//
// The leaf the walk starts from (the largest) is neither folded nor
// folded into: its joins are the walk's to order. A satellite's own
// conjuncts all read it and its one neighbour, so they move into the pair.
func (g *joinGraph) foldSatellites() {
	for {
		start := g.start()
		x, y := -1, -1
		for c := range g.leaves {
			if c == start || g.rows[c] >= g.base[c] {
				continue
			}
			if n, ok := g.onlyNeighbour(c); ok && n != start {
				x, y = c, n
				break
			}
		}
		if x < 0 {
			return
		}
		g.fold(x, y)
	}
}

// onlyNeighbour is the one leaf equalities (hash keys) link c to, when
// there is one. Other conditions may link c to further leaves: they
// become conditions on the pair once c is folded.
func (g *joinGraph) onlyNeighbour(c int) (int, bool) {
	n := -1
	for _, jc := range g.conjs {
		if jc.placed || jc.eqA < 0 || jc.eqA != c && jc.eqB != c {
			continue
		}
		other := jc.eqA
		if other == c {
			other = jc.eqB
		}
		if n >= 0 && other != n {
			return -1, false
		}
		n = other
	}
	return n, n >= 0
}

// fold replaces leaf y by its join with leaf x, hashing x, and drops x:
// the conjuncts reading only x and y form the pair's condition, the
// others that read x now read the pair.
func (g *joinGraph) fold(x, y int) {
	var on []Expr
	for _, jc := range g.conjs {
		if jc.placed {
			continue
		}
		internal := true
		for _, l := range jc.leaves {
			internal = internal && (l == x || l == y)
		}
		if internal && slices.Contains(jc.leaves, x) {
			jc.placed = true
			on = append(on, jc.expr)
		}
	}
	g.leaves[y] = &Join{Left: g.leaves[y], Right: g.leaves[x], Kind: InnerJoin, On: AndAll(on)}
	g.rows[y] = math.Max(1, g.rows[y]*g.rows[x]/math.Max(1, math.Min(g.base[x], g.base[y])))
	g.base[y] = math.Max(g.base[y], g.base[x])
	g.leaves = slices.Delete(g.leaves, x, x+1)
	g.rows = slices.Delete(g.rows, x, x+1)
	g.base = slices.Delete(g.base, x, x+1)
	// x's columns are y's now, and leaf ids above x move down by one.
	renumber := func(l int) int {
		if l == x {
			l = y
		}
		if l > x {
			return l - 1
		}
		return l
	}
	kept := g.conjs[:0]
	for _, jc := range g.conjs {
		if jc.placed {
			continue
		}
		var leaves []int
		for _, l := range jc.leaves {
			if l = renumber(l); !slices.Contains(leaves, l) {
				leaves = append(leaves, l)
			}
		}
		slices.Sort(leaves)
		jc.leaves = leaves
		if jc.eqA >= 0 {
			jc.eqA, jc.eqB = renumber(jc.eqA), renumber(jc.eqB)
		}
		kept = append(kept, jc)
	}
	g.conjs = kept
}

// start is the leaf the greedy walk starts from: the one with the most
// estimated rows among those an equality links to another, if any.
func (g *joinGraph) start() int {
	linked := make([]bool, len(g.leaves))
	for _, jc := range g.conjs {
		if jc.eqA >= 0 && !jc.placed {
			linked[jc.eqA], linked[jc.eqB] = true, true
		}
	}
	start := -1
	for i, r := range g.rows {
		if start < 0 || linked[i] && !linked[start] || linked[i] == linked[start] && r > g.rows[start] {
			start = i
		}
	}
	return start
}

// Link strengths of a candidate leaf to the tree built so far, best last.
const (
	unlinked = iota
	linkedByCondition
	linkedByEquality
)

// build rebuilds the tree in the greedy order.
func (g *joinGraph) build() Node {
	in := make([]bool, len(g.leaves))
	start := g.start()
	in[start] = true
	tree, est := g.leaves[start], g.rows[start]
	for n := 1; n < len(g.leaves); n++ {
		best, bestLink, bestOut := -1, -1, 0.0
		for c := range g.leaves {
			if in[c] {
				continue
			}
			link, out := g.joinEstimate(in, est, c)
			better := best < 0 || link > bestLink ||
				link == bestLink && (out < bestOut || out == bestOut && g.rows[c] < g.rows[best])
			if better {
				best, bestLink, bestOut = c, link, out
			}
		}
		var on []Expr
		for _, jc := range g.conjs {
			if !jc.placed && g.covers(in, best, jc) {
				jc.placed = true
				on = append(on, jc.expr)
			}
		}
		in[best] = true
		// The right input is the one hashed: the leaf, unless its
		// estimate is more than twice the tree's. Hashing the tree would
		// stop its pipeline (the largest table's scan, probing every
		// join so far) at this join: its rows are gathered and hashed
		// by one goroutine before a probe starts, where hashing the leaf
		// lets the pipeline stream on through this join.
		if g.rows[best] <= 2*est {
			tree = &Join{Left: tree, Right: g.leaves[best], Kind: InnerJoin, On: AndAll(on)}
		} else {
			tree = &Join{Left: g.leaves[best], Right: tree, Kind: InnerJoin, On: AndAll(on)}
		}
		est = bestOut
	}
	return filterOver(tree, g.top)
}

// covers reports whether jc becomes evaluable when leaf c joins the
// leaves in: it reads c and otherwise only leaves in.
func (g *joinGraph) covers(in []bool, c int, jc *joinConjunct) bool {
	readsC := false
	for _, l := range jc.leaves {
		switch {
		case l == c:
			readsC = true
		case !in[l]:
			return false
		}
	}
	return readsC
}

// joinEstimate rates joining leaf c to the tree over in (est rows): how
// it is linked, and the estimated rows of the result.
//
// Several equalities between c and the same leaf are one composite key
// (partsupp's (partkey, suppkey) referenced by lineitem): together they
// keep one row per row of the referencing side, like one key would, so
// only the strongest of them divides. Dividing by each would estimate the
// join at a handful of rows and hash its real, large result.
func (g *joinGraph) joinEstimate(in []bool, est float64, c int) (link int, out float64) {
	out = est * g.rows[c]
	link = unlinked
	divisor := make([]float64, len(g.leaves)) // per leaf c is equated with
	for _, jc := range g.conjs {
		if jc.placed || !g.covers(in, c, jc) {
			continue
		}
		if jc.eqA >= 0 {
			link = linkedByEquality
			other := jc.eqA
			if other == c {
				other = jc.eqB
			}
			divisor[other] = math.Max(divisor[other], g.keyDistinct(jc))
			continue
		}
		link = max(link, linkedByCondition)
		out *= defaultSelectivity
	}
	for _, d := range divisor {
		if d > 0 {
			out /= math.Max(1, d)
		}
	}
	return link, math.Max(1, out)
}

// keyDistinct is the divisor of an equality jc between two leaves: the
// number of distinct values of the larger side's key, as PostgreSQL's
// eqjoinsel takes 1/max(nd1, nd2) to be an equality's selectivity, when
// the statistics of both key columns say; otherwise the smaller table's
// row count, the distinct values of a primary key that the other side
// references.
func (g *joinGraph) keyDistinct(jc *joinConjunct) float64 {
	guess := math.Min(g.base[jc.eqA], g.base[jc.eqB])
	return keyColumnsDistinct(jc.expr.(*BinOp), g.leaves[jc.eqA], g.leaves[jc.eqB], guess)
}

// estimateRows is n's estimated row count (see explain_cost.go).
func estimateRows(n Node) float64 {
	return estimatePlan(n, map[Node]planEstimate{}).rows
}

// baseRows is the row count of the largest table n reads, before any
// filter; n's own estimate when it reads none.
func baseRows(n Node) float64 {
	rows := -1.0
	walk(n, func(n Node) {
		if s, ok := n.(*Scan); ok {
			r := float64(defaultTableRows)
			if e := s.Table.RowEstimate(); e >= 0 {
				r = float64(e)
			}
			rows = math.Max(rows, r)
		}
	})
	if rows < 0 {
		return estimateRows(n)
	}
	return rows
}
