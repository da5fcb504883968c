package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
)

// boolTree runs a filter conjunct that is a tree of ORs and ANDs over
// comparisons as selections, the way conjunctSelect runs the top-level
// ANDs: an AND's operands each narrow the rows the ones before kept, an
// OR's operands each look only at the rows the ones before did not take.
// Q19's parts (three brands, each with four containers and a size range)
// or an OR of quantity ranges thus compare each row only until its answer
// is known, with typed loops, instead of evaluating every comparison over
// the whole batch as boolean arrays.
//
// A filter keeps a row only where its predicate is true. In a tree of ANDs
// and ORs (no NOT) the predicate is true exactly where it is true with
// every NULL comparison taken as false, so the tree selects with two
// values. It is used only when no leaf can fail: a leaf evaluated on
// fewer rows than PostgreSQL would evaluate it on could otherwise hide an
// error PostgreSQL raises.
type boolTree struct {
	or   bool        // an OR node; else an AND node when kids is set
	kids []*boolTree // nil for a leaf
	leaf conjunct

	// Scratch of an OR node, reused across batches: the rows still
	// undecided, the rows an operand took, and which rows were taken.
	rest, took []int32
	taken      []bool
	// Scratch of an AND node: the selection being narrowed, in turn.
	a, b []int32
}

// compileBoolTree is e's tree, or nil when e is no AND or OR or a leaf
// may fail.
func compileBoolTree(e planner.Expr, input []planner.Column) (*boolTree, error) {
	if logicalOp(e) == "" {
		return nil, nil
	}
	return buildBoolTree(e, input)
}

func logicalOp(e planner.Expr) string {
	if b, ok := e.(*planner.BinOp); ok && b.Op.Kind == functions.Logical && (b.Op.Name == "AND" || b.Op.Name == "OR") {
		return b.Op.Name
	}
	return ""
}

func buildBoolTree(e planner.Expr, input []planner.Column) (*boolTree, error) {
	if op := logicalOp(e); op != "" {
		t := &boolTree{or: op == "OR"}
		for _, operand := range flattenLogical(e, op, nil) {
			k, err := buildBoolTree(operand, input)
			if k == nil || err != nil {
				return nil, err
			}
			t.kids = append(t.kids, k)
		}
		return t, nil
	}
	ev, err := compile(e, input)
	if err != nil {
		return nil, err
	}
	c := conjunct{ev: ev}
	if be, ok := ev.(*binaryEval); ok {
		if x, ok := e.(*planner.BinOp); ok {
			c.cmp = newCmpSelect(x, be.l, be.r, input)
		}
	}
	if !e.Leakproof() && c.cmp == nil && !allConst(ev) {
		return nil, nil
	}
	return &boolTree{leaf: c}, nil
}

// flattenLogical lists the operands of a chain of one logical operator.
func flattenLogical(e planner.Expr, op string, dst []planner.Expr) []planner.Expr {
	if logicalOp(e) == op {
		b := e.(*planner.BinOp)
		return flattenLogical(b.R, op, flattenLogical(b.L, op, dst))
	}
	return append(dst, e)
}

// selectRows appends to out the rows of rs (which tracks no NULLs) where
// the tree is true, in row order.
func (t *boolTree) selectRows(ctx context.Context, b arrow.RecordBatch, rs rowSet, out []int32) ([]int32, error) {
	switch {
	case t.kids == nil:
		return t.selectLeaf(ctx, b, rs, out)
	case t.or:
		return t.selectAny(ctx, b, rs, out)
	}
	return t.selectAll(ctx, b, rs, out)
}

func (t *boolTree) selectLeaf(ctx context.Context, b arrow.RecordBatch, rs rowSet, out []int32) ([]int32, error) {
	if t.leaf.cmp != nil {
		if sel, ok := t.leaf.cmp.selectRows(b, rs, out); ok {
			return sel, nil
		}
	}
	mask, err := t.leaf.ev.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	defer mask.Release()
	return keepTrue(mask.(*array.Boolean), rs, out, false), nil
}

func (t *boolTree) selectAll(ctx context.Context, b arrow.RecordBatch, rs rowSet, out []int32) ([]int32, error) {
	cur := rs
	for i, k := range t.kids {
		if i == len(t.kids)-1 {
			return k.selectRows(ctx, b, cur, out)
		}
		next, err := k.selectRows(ctx, b, cur, t.a[:0])
		if err != nil {
			return nil, err
		}
		t.a, t.b = t.b, next
		if len(next) == 0 {
			return out, nil
		}
		cur = rowSet{sel: next, n: rs.n}
	}
	return out, nil
}

func (t *boolTree) selectAny(ctx context.Context, b arrow.RecordBatch, rs rowSet, out []int32) ([]int32, error) {
	t.taken = grow(t.taken, rs.n)[:rs.n]
	clear(t.taken)
	cur := rs
	for i, k := range t.kids {
		took, err := k.selectRows(ctx, b, cur, t.took[:0])
		if err != nil {
			return nil, err
		}
		t.took = took
		for _, r := range took {
			t.taken[r] = true
		}
		if i == len(t.kids)-1 {
			break
		}
		// The next operand looks at the rows not taken yet.
		rest := t.rest[:0]
		if cur.dense {
			for r := 0; r < rs.n; r++ {
				if !t.taken[r] {
					rest = append(rest, int32(r))
				}
			}
		} else {
			for _, r := range cur.sel {
				if !t.taken[r] {
					rest = append(rest, r)
				}
			}
		}
		t.rest = rest
		if len(rest) == 0 {
			break
		}
		cur = rowSet{sel: rest, n: rs.n}
	}
	if rs.dense {
		for r := 0; r < rs.n; r++ {
			if t.taken[r] {
				out = append(out, int32(r))
			}
		}
		return out, nil
	}
	for _, r := range rs.sel {
		if t.taken[r] {
			out = append(out, r)
		}
	}
	return out, nil
}
