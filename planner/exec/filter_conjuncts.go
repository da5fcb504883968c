package exec

import (
	"cmp"
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
)

// conjunctSelect runs a filter's predicate as the list of its conjuncts
// (the operands of its top-level ANDs), left to right, each on the rows
// the ones before it have not rejected, narrowing a selection vector.
// A comparison of a column with a constant or with another column runs
// as a typed selection (cmpSelect); any other conjunct is evaluated as a
// boolean array.
//
// A conjunct that can fail (1/x, a narrowing cast) sees exactly the rows
// it saw as the right operand of the AND chain's short circuit: those no
// conjunct before it found false. A row an earlier conjunct found NULL is
// therefore kept, marked, until no conjunct that can fail is left, and
// only then dropped.
//
// Between conjuncts that can fail, the others run cheapest first (a
// date range before a text IN list, which then sees only the rows the
// range kept): which of them runs first changes no answer and no row a
// conjunct that can fail sees, so the order written is kept only around
// those.
type conjunctSelect struct {
	conjuncts []conjunct
	// laterMayFail[j]: a conjunct after the j-th can fail.
	laterMayFail []bool
	// Per-batch scratch, reused: the selection and the one being built,
	// and the rows a conjunct found NULL.
	sel, next []int32
	nulls     []bool
}

type conjunct struct {
	ev  evaluator
	cmp *cmpSelect // nil when the conjunct has no typed selection
	// tree runs an AND/OR conjunct as selections (nil: not one, or a
	// leaf may fail).
	tree    *boolTree
	mayFail bool
	cheap   bool
	cost    int // conjunctCost, for the order of conjuncts
}

// orderByCost sorts each run of conjuncts that cannot fail, between
// those that can, cheapest first (stably: ties keep the written order).
func orderByCost(cs []conjunct) {
	start := 0
	for i := 0; i <= len(cs); i++ {
		if i == len(cs) || cs[i].mayFail {
			slices.SortStableFunc(cs[start:i], func(a, b conjunct) int { return cmp.Compare(a.cost, b.cost) })
			start = i + 1
		}
	}
}

// conjunctCost guesses the relative work per row of a conjunct from how
// it runs: a typed comparison of fixed-width values with a constant 1, of
// two such columns 2 (and it keeps more rows than a range does), of text
// 4 (8 for two columns), an AND or OR tree the sum of its leaves', any
// other expression 16.
func conjunctCost(c *conjunct, input []planner.Column) int {
	switch {
	case c.cmp != nil:
		cost := 1
		if input[c.cmp.left].Type.Arrow().ID() == arrow.STRING {
			cost = 4
		}
		if c.cmp.right >= 0 {
			cost *= 2
		}
		return cost
	case c.tree != nil:
		return c.tree.cost(input)
	}
	return 16
}

// cost is the sum of the tree's leaves' conjunctCost.
func (t *boolTree) cost(input []planner.Column) int {
	if t.kids == nil {
		return conjunctCost(&t.leaf, input)
	}
	sum := 0
	for _, k := range t.kids {
		sum += k.cost(input)
	}
	return sum
}

// andOperands lists the conjuncts of e's top-level ANDs, left to right.
func andOperands(e planner.Expr, dst []planner.Expr) []planner.Expr {
	if b, ok := e.(*planner.BinOp); ok && b.Op.Kind == functions.Logical && b.Op.Name == "AND" {
		return andOperands(b.R, andOperands(b.L, dst))
	}
	return append(dst, e)
}

func compileConjuncts(pred planner.Expr, input []planner.Column) (*conjunctSelect, error) {
	exprs := andOperands(pred, nil)
	cs := &conjunctSelect{laterMayFail: make([]bool, len(exprs))}
	for _, e := range exprs {
		ev, err := compile(e, input)
		if err != nil {
			return nil, err
		}
		c := conjunct{ev: ev, cheap: cheapEval(ev)}
		if be, ok := ev.(*binaryEval); ok {
			if x, ok := e.(*planner.BinOp); ok {
				c.cmp = newCmpSelect(x, be.l, be.r, input)
			}
		}
		if c.cmp == nil {
			if c.tree, err = compileBoolTree(e, input); err != nil {
				return nil, err
			}
		}
		// A typed comparison cannot fail, nor can a folded constant or a
		// tree of those.
		c.mayFail = !e.Leakproof() && c.cmp == nil && c.tree == nil && !allConst(ev)
		c.cost = conjunctCost(&c, input)
		cs.conjuncts = append(cs.conjuncts, c)
	}
	var err error
	if cs.conjuncts, err = joinColumnRanges(cs.conjuncts, exprs, input); err != nil {
		return nil, err
	}
	cs.laterMayFail = cs.laterMayFail[:len(cs.conjuncts)]
	orderByCost(cs.conjuncts)
	for j := len(cs.conjuncts) - 2; j >= 0; j-- {
		cs.laterMayFail[j] = cs.laterMayFail[j+1] || cs.conjuncts[j+1].mayFail
	}
	return cs, nil
}

// joinColumnRanges makes the comparisons of one column with constants
// (x >= a AND x < b, a BETWEEN) one conjunct, tested as one range per
// row in one pass: the first of them takes the others, and its evaluator
// (for batches whose types have no range test) becomes their AND. Only
// comparisons between the same two conjuncts that can fail are joined,
// so each of those still sees the rows it would see.
func joinColumnRanges(cs []conjunct, exprs []planner.Expr, input []planner.Column) ([]conjunct, error) {
	out := cs[:0:0]
	var joined [][]planner.Expr // per conjunct of out, the expressions it tests
	head := map[int]int{}       // column → its range conjunct in out
	for i, c := range cs {
		if c.mayFail {
			clear(head)
		}
		if !rangeComparison(&c, input) {
			out, joined = append(out, c), append(joined, nil)
			continue
		}
		j, seen := head[c.cmp.left]
		if !seen {
			head[c.cmp.left] = len(out)
			out, joined = append(out, c), append(joined, []planner.Expr{exprs[i]})
			continue
		}
		out[j].cmp.also = append(out[j].cmp.also, c.cmp)
		joined[j] = append(joined[j], exprs[i])
	}
	for j, es := range joined {
		if len(es) < 2 {
			continue
		}
		ev, err := compile(planner.AndAll(es), input)
		if err != nil {
			return nil, err
		}
		out[j].ev, out[j].cheap = ev, cheapEval(ev)
	}
	return out, nil
}

// rangeComparison: c compares a column whose values are compared as
// integers with a constant, as a range (not <>).
func rangeComparison(c *conjunct, input []planner.Column) bool {
	if c.cmp == nil || c.cmp.right >= 0 || c.cmp.op == "<>" {
		return false
	}
	return comparesAsInts(input[c.cmp.left].Type.Arrow().ID())
}

// selectRows returns the rows of b where every conjunct is true. The
// slice is scratch, valid until the next call.
func (cs *conjunctSelect) selectRows(ctx context.Context, b arrow.RecordBatch) ([]int32, error) {
	n := int(b.NumRows())
	rs := rowSet{dense: true, n: n}
	tracking := false
	for j := range cs.conjuncts {
		c := &cs.conjuncts[j]
		rs.nulls = nil
		if cs.laterMayFail[j] {
			if !tracking {
				cs.nulls = grow(cs.nulls, n)[:n]
				clear(cs.nulls)
				tracking = true
			}
			rs.nulls = cs.nulls
		}
		out := cs.next[:0]
		ok := false
		switch {
		case c.cmp != nil:
			out, ok = c.cmp.selectRows(b, rs, out)
		case c.tree != nil && rs.nulls == nil:
			// With NULLs tracked for a later conjunct that may fail, the
			// rows this one finds NULL must be marked: the array does that.
			var err error
			if out, err = c.tree.selectRows(ctx, b, rs, out); err != nil {
				return nil, err
			}
			ok = true
		}
		if !ok {
			var err error
			if out, err = cs.evalConjunct(ctx, b, c, rs, out); err != nil {
				return nil, err
			}
		}
		cs.next, cs.sel = cs.sel, out
		rs = rowSet{sel: cs.sel, n: n}
		if len(out) == 0 {
			return out, nil
		}
	}
	if tracking {
		kept := cs.sel[:0]
		for _, i := range cs.sel {
			if !cs.nulls[i] {
				kept = append(kept, i)
			}
		}
		cs.sel = kept
	}
	return cs.sel, nil
}

// evalConjunct evaluates a conjunct as a boolean array and keeps the
// rows of rs where it is true. A conjunct that can fail is evaluated only
// on the rows of rs, unless it is cheap and succeeds on the whole batch
// (an error may come from a row already rejected, so it is retried on
// the rows of rs alone).
func (cs *conjunctSelect) evalConjunct(ctx context.Context, b arrow.RecordBatch, c *conjunct, rs rowSet, out []int32) ([]int32, error) {
	whole := rs.dense || len(rs.sel) == rs.n
	if whole || !c.mayFail || c.cheap {
		mask, err := c.ev.eval(ctx, b)
		if err == nil {
			defer mask.Release()
			return keepTrue(mask.(*array.Boolean), rs, out, false), nil
		}
		if whole || !c.mayFail {
			return nil, err
		}
	}
	sub, err := takeBatch(ctx, b, rs.sel)
	if err != nil {
		return nil, err
	}
	mask, err := c.ev.eval(ctx, sub)
	sub.Release()
	if err != nil {
		return nil, err
	}
	defer mask.Release()
	return keepTrue(mask.(*array.Boolean), rs, out, true), nil
}

// keepTrue appends the rows of rs where mask is true (and marks the NULL
// ones, when rs tracks NULLs). mask has a row per batch row, or with
// gathered a row per row of rs.sel.
func keepTrue(mask *array.Boolean, rs rowSet, out []int32, gathered bool) []int32 {
	hasNulls := mask.NullN() > 0
	at := func(k int, i int32) []int32 {
		switch {
		case hasNulls && mask.IsNull(k):
			return keepNull(rs, i, out)
		case mask.Value(k):
			return append(out, i)
		}
		return out
	}
	if rs.dense {
		for i := 0; i < rs.n; i++ {
			out = at(i, int32(i))
		}
		return out
	}
	for k, i := range rs.sel {
		if gathered {
			out = at(k, i)
		} else {
			out = at(int(i), i)
		}
	}
	return out
}
