package exec

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// arrayEval builds ARRAY[e1, e2, ...] per row as an Arrow list.
type arrayEval struct {
	elems []evaluator
	typ   types.T
}

func (a *arrayEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	n := int(b.NumRows())
	elems, err := evalAll(ctx, a.elems, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(elems)
	elemType, _ := a.typ.Elem()
	k := len(elems)
	// The list's values are row 0's elements, then row 1's, ...: gather
	// them from the concatenated element arrays with one take.
	var values arrow.Array
	if k == 0 {
		values = array.MakeArrayOfNull(memory.DefaultAllocator, elemType.Arrow(), 0)
	} else {
		all, err := concatArrays(elems)
		if err != nil {
			return nil, err
		}
		idx := make([]int32, 0, n*k)
		for r := 0; r < n; r++ {
			for e := 0; e < k; e++ {
				idx = append(idx, int32(e*n+r))
			}
		}
		values, err = takeIndices(all, idx)
		all.Release()
		if err != nil {
			return nil, err
		}
	}
	defer values.Release()
	offsets := make([]int32, n+1)
	for r := range offsets {
		offsets[r] = int32(r * k)
	}
	data := array.NewData(arrow.ListOf(elemType.Arrow()), n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.GetBytes(offsets))}, []arrow.ArrayData{values.Data()}, 0, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// arrayCompareEval evaluates x op ANY/ALL (array): each row's left value
// is compared with each of its array's elements in one vectorized
// comparison, then folded per row with SQL's NULL rules.
type arrayCompareEval struct {
	node  *planner.ArrayCompare
	left  evaluator
	array evaluator
}

func (a *arrayCompareEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	n := int(b.NumRows())
	left, err := a.left.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	defer left.Release()
	arrV, err := a.array.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	defer arrV.Release()
	list := arrV.(*array.List)
	var leftIdx, elemIdx []int32
	for r := 0; r < n; r++ {
		if list.IsNull(r) {
			continue
		}
		start, end := list.ValueOffsets(r)
		for k := start; k < end; k++ {
			leftIdx = append(leftIdx, int32(r))
			elemIdx = append(elemIdx, int32(k))
		}
	}
	vals := make([]any, n)
	var cmp *array.Boolean
	if len(leftIdx) > 0 {
		l, err := takeIndices(left, leftIdx)
		if err != nil {
			return nil, err
		}
		defer l.Release()
		e, err := takeIndices(list.ListValues(), elemIdx)
		if err != nil {
			return nil, err
		}
		defer e.Release()
		c, err := compareTyped(a.node.Op.Name, l, e, a.node.Left.Type())
		if err != nil {
			return nil, err
		}
		defer c.Release()
		cmp = c.(*array.Boolean)
	}
	pos := 0
	for r := 0; r < n; r++ {
		if list.IsNull(r) {
			vals[r] = nil
			continue
		}
		start, end := list.ValueOffsets(r)
		sawNull, sawTrue, sawFalse := left.IsNull(r) && end > start, false, false
		for k := start; k < end; k++ {
			switch {
			case cmp.IsNull(pos):
				sawNull = true
			case cmp.Value(pos):
				sawTrue = true
			default:
				sawFalse = true
			}
			pos++
		}
		switch {
		case a.node.All && sawFalse:
			vals[r] = false
		case !a.node.All && sawTrue:
			vals[r] = true
		case sawNull:
			vals[r] = nil
		default:
			vals[r] = a.node.All
		}
	}
	return valuesArray(types.Bool, vals)
}

// arrayKernels are the array functions, computed row by row.
func arrayFunction(name string, args []arrow.Array, res types.T) (arrow.Array, error) {
	n := args[0].Len()
	vals := make([]any, n)
	for r := 0; r < n; r++ {
		if args[0].IsNull(r) {
			continue
		}
		list := args[0].(*array.List)
		start, end := list.ValueOffsets(r)
		length := end - start
		switch name {
		case "array_length", "array_upper":
			if args[1].IsNull(r) || valueAt(args[1], r).(int64) != 1 || length == 0 {
				continue
			}
			vals[r] = length
		case "array_lower":
			if args[1].IsNull(r) || valueAt(args[1], r).(int64) != 1 || length == 0 {
				continue
			}
			vals[r] = int64(1)
		case "cardinality":
			vals[r] = length
		case "array_to_string":
			if args[1].IsNull(r) {
				continue
			}
			sep := valueAt(args[1], r).(string)
			var nullStr *string
			if len(args) == 3 && !args[2].IsNull(r) {
				s := valueAt(args[2], r).(string)
				nullStr = &s
			}
			elems := array.NewSlice(list.ListValues(), start, end)
			text, err := castToText(elems, types.Text)
			elems.Release()
			if err != nil {
				return nil, err
			}
			parts := make([]string, 0, length)
			ts := text.(*array.String)
			for k := 0; k < ts.Len(); k++ {
				switch {
				case !ts.IsNull(k):
					parts = append(parts, ts.Value(k))
				case nullStr != nil:
					parts = append(parts, *nullStr)
				}
			}
			text.Release()
			vals[r] = strings.Join(parts, sep)
		default:
			return nil, fmt.Errorf("array function %s cannot be executed", name)
		}
	}
	return valuesArray(res, vals)
}

// stringToArray splits text into a text[] as string_to_array does: by
// the delimiter (each character when it is NULL, the whole string when
// it is empty); elements equal to the optional null string become NULL;
// an empty input gives an empty array.
func stringToArray(args []arrow.Array, res types.T) (arrow.Array, error) {
	n := args[0].Len()
	vals := make([]any, n)
	for r := 0; r < n; r++ {
		if args[0].IsNull(r) {
			continue
		}
		str := valueAt(args[0], r).(string)
		var parts []string
		switch {
		case str == "":
		case args[1].IsNull(r):
			for _, ch := range str {
				parts = append(parts, string(ch))
			}
		case valueAt(args[1], r).(string) == "":
			parts = []string{str}
		default:
			parts = strings.Split(str, valueAt(args[1], r).(string))
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			out[i] = p
			if len(args) == 3 && !args[2].IsNull(r) && p == valueAt(args[2], r).(string) {
				out[i] = nil
			}
		}
		vals[r] = out
	}
	return valuesArray(res, vals)
}
