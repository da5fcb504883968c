package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// selectedAccumulator is an accumulator that folds a selection of a
// batch's rows where they are: the rows sel of arg (a filter's kept
// rows), the j-th of them into groups[j].
type selectedAccumulator interface {
	updateSelected(groups []int32, ngroups int, arg arrow.Array, sel []int32) error
}

// updateSelected folds the rows sel of arg into acc, gathering them first
// when acc does not read a selection.
func updateSelected(ctx context.Context, acc accumulator, groups, sel []int32, ngroups int, arg arrow.Array) error {
	if s, ok := acc.(selectedAccumulator); ok {
		return s.updateSelected(groups, ngroups, arg, sel)
	}
	if arg != nil {
		picked, err := gatherColumns(ctx, []arrow.Array{arg}, sel)
		if err != nil {
			return err
		}
		defer releaseAll(picked)
		arg = picked[0]
	}
	return acc.update(groups, ngroups, arg)
}

func (c *countAcc) updateSelected(groups []int32, n int, arg arrow.Array, sel []int32) error {
	if arg == nil || arg.NullN() == 0 {
		return c.update(groups, n, nil)
	}
	c.counts = grow(c.counts, n)
	for j, g := range groups {
		if arg.IsValid(int(sel[j])) {
			c.counts[g]++
		}
	}
	return nil
}
