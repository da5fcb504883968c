package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sqe-db/sqe/sql/types"
)

// arrayContainment evaluates the array operators @> (arraycontains),
// <@ (arraycontained) and && (arrayoverlap). All pairs of a row's
// elements are compared in one vectorized equality, then folded per row
// as PostgreSQL's array_contain_compare does: a NULL element never
// equals anything, so a NULL in the array whose elements must all be
// found makes containment false. A NULL array gives NULL.
func arrayContainment(name string, args []arrow.Array, elem types.T) (arrow.Array, error) {
	a, err := listArg(args[0])
	if err != nil {
		return nil, err
	}
	b, err := listArg(args[1])
	if err != nil {
		return nil, err
	}
	// each is the array whose elements are looked for in other; all
	// says whether every one must be found (containment) or any one
	// (overlap).
	each, other, all := a, b, true
	switch name {
	case "arraycontains":
		each, other = b, a
	case "arrayoverlap":
		all = false
	}
	n := a.Len()
	var eIdx, oIdx []int32
	for r := 0; r < n; r++ {
		if each.IsNull(r) || other.IsNull(r) {
			continue
		}
		es, ee := each.ValueOffsets(r)
		os, oe := other.ValueOffsets(r)
		for i := es; i < ee; i++ {
			for j := os; j < oe; j++ {
				eIdx = append(eIdx, int32(i))
				oIdx = append(oIdx, int32(j))
			}
		}
	}
	var eq *array.Boolean
	if len(eIdx) > 0 {
		ev, err := takeIndices(each.ListValues(), eIdx)
		if err != nil {
			return nil, fmt.Errorf("gather array elements: %w", err)
		}
		defer ev.Release()
		ov, err := takeIndices(other.ListValues(), oIdx)
		if err != nil {
			return nil, fmt.Errorf("gather array elements: %w", err)
		}
		defer ov.Release()
		c, err := compareTyped("=", ev, ov, elem)
		if err != nil {
			return nil, err
		}
		defer c.Release()
		eq = c.(*array.Boolean)
	}
	out := make([]byte, bitutil.BytesForBits(int64(n)))
	validity, nulls := validity2(a, b)
	pos := 0
	for r := 0; r < n; r++ {
		if each.IsNull(r) || other.IsNull(r) {
			continue
		}
		es, ee := each.ValueOffsets(r)
		os, oe := other.ValueOffsets(r)
		width := int(oe - os)
		result := all
		for i := es; i < ee; i++ {
			found := false
			if each.ListValues().IsValid(int(i)) {
				for j := 0; j < width; j++ {
					if eq.IsValid(pos+j) && eq.Value(pos+j) {
						found = true
						break
					}
				}
			}
			pos += width
			if found != all {
				// A miss decides containment, a hit decides overlap.
				result = found
				pos += int(ee-i-1) * width
				break
			}
		}
		if result {
			bitutil.SetBit(out, r)
		}
	}
	return newBool(n, out, validity, nulls), nil
}
