package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// caseEval evaluates CASE branch by branch: each condition only on the
// rows no earlier branch took, and each result only on the rows that take
// it, so a guarded expression (CASE WHEN x <> 0 THEN 1/x END) never fails
// on a row it does not apply to. The pieces are then put back in row
// order with one take.
type caseEval struct {
	conds   []evaluator
	results []evaluator
	els     evaluator // nil: NULL
	typ     types.T
}

func (c *caseEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	n := int(b.NumRows())
	// branch[i] is the branch row i takes; len(conds) means ELSE.
	branch := make([]int, n)
	pending := make([]int32, n) // rows not yet decided, as indices into b
	for i := range pending {
		pending[i] = int32(i)
	}
	for k := range branch {
		branch[k] = len(c.conds)
	}
	cur := b
	cur.Retain()
	defer func() { cur.Release() }()
	for bi, cond := range c.conds {
		if len(pending) == 0 {
			break
		}
		mask, err := cond.eval(ctx, cur)
		if err != nil {
			return nil, err
		}
		m := mask.(*array.Boolean)
		var rest []int32
		var keep []int32 // positions in cur still pending
		for p, row := range pending {
			if m.IsValid(p) && m.Value(p) {
				branch[row] = bi
			} else {
				rest = append(rest, row)
				keep = append(keep, int32(p))
			}
		}
		mask.Release()
		if len(rest) != len(pending) && len(rest) > 0 {
			next, err := takeBatch(ctx, cur, keep)
			if err != nil {
				return nil, err
			}
			cur.Release()
			cur = next
		}
		pending = rest
	}
	// Evaluate each branch's result on its rows and remember where each
	// row's value lands in the concatenation of the pieces.
	var pieces []arrow.Array
	defer func() { releaseAll(pieces) }()
	pos := make([]int32, n)
	offset := int32(0)
	for bi := 0; bi <= len(c.conds); bi++ {
		var rows []int32
		for r, k := range branch {
			if k == bi {
				rows = append(rows, int32(r))
			}
		}
		if len(rows) == 0 {
			continue
		}
		ev := c.els
		if bi < len(c.conds) {
			ev = c.results[bi]
		}
		var piece arrow.Array
		if ev == nil {
			piece = array.MakeArrayOfNull(memory.DefaultAllocator, c.typ.Arrow(), len(rows))
		} else {
			sub, err := takeBatch(ctx, b, rows)
			if err != nil {
				return nil, err
			}
			piece, err = ev.eval(ctx, sub)
			sub.Release()
			if err != nil {
				return nil, err
			}
		}
		for i, r := range rows {
			pos[r] = offset + int32(i)
		}
		offset += int32(len(rows))
		pieces = append(pieces, piece)
	}
	if len(pieces) == 0 {
		return array.MakeArrayOfNull(memory.DefaultAllocator, c.typ.Arrow(), 0), nil
	}
	all, err := array.Concatenate(pieces, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("CASE: %w", err)
	}
	defer all.Release()
	idx := newFixed(arrow.PrimitiveTypes.Int32, pos, nil, 0)
	defer idx.Release()
	return takeArray(ctx, all, idx)
}

// takeBatch gathers rows idx of a batch (also one without columns).
func takeBatch(ctx context.Context, b arrow.RecordBatch, idx []int32) (arrow.RecordBatch, error) {
	cols, err := gatherColumns(ctx, b.Columns(), idx)
	if err != nil {
		return nil, err
	}
	out := array.NewRecordBatch(b.Schema(), cols, int64(len(idx)))
	releaseAll(cols)
	return out, nil
}

// takeIndices gathers rows idx of one array.
func takeIndices(a arrow.Array, idx []int32) (arrow.Array, error) {
	ia := newFixed(arrow.PrimitiveTypes.Int32, idx, nil, 0)
	defer ia.Release()
	return takeArray(context.Background(), a, ia)
}

// concatArrays joins arrays of one type into one.
func concatArrays(parts []arrow.Array) (arrow.Array, error) {
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	return array.Concatenate(parts, memory.DefaultAllocator)
}
