package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// The polymorphic array functions (array_cat, array_append,
// array_prepend, array_position(s), array_remove, array_replace). Each
// kernel plans its output as indices into one values array (the input
// lists' values, with the scalar arguments appended after them), so an
// output list of any element type is gathered with a single take, and
// element matching is one vectorized comparison over (element, row)
// pairs. Their kernels need the element type (jsonb compares by value),
// so they are looked up by argument types.

// arrayFuncKernel returns the kernel of an array function, given its
// argument types; ok is false for other functions.
func arrayFuncKernel(name string, args []types.T) (scalarKernel, bool) {
	var elem types.T
	for _, a := range args {
		if e, ok := a.Elem(); ok {
			elem = e
			break
		}
	}
	switch name {
	case "array_cat":
		return arrayCat, true
	case "array_append":
		return func(a []arrow.Array, res types.T) (arrow.Array, error) { return arrayAddElem(a[0], a[1], false, res) }, true
	case "array_prepend":
		return func(a []arrow.Array, res types.T) (arrow.Array, error) { return arrayAddElem(a[1], a[0], true, res) }, true
	case "array_position":
		return func(a []arrow.Array, res types.T) (arrow.Array, error) { return arrayPosition(a, elem) }, true
	case "array_positions":
		return func(a []arrow.Array, res types.T) (arrow.Array, error) { return arrayPositions(a, elem, res) }, true
	case "array_remove":
		return func(a []arrow.Array, res types.T) (arrow.Array, error) { return arrayRemove(a, elem, res) }, true
	case "array_replace":
		return func(a []arrow.Array, res types.T) (arrow.Array, error) { return arrayReplace(a, elem, res) }, true
	case "arraycontains", "arraycontained", "arrayoverlap":
		return func(a []arrow.Array, res types.T) (arrow.Array, error) { return arrayContainment(name, a, elem) }, true
	}
	return nil, false
}

// listArg is an argument that must be a list array.
func listArg(a arrow.Array) (*array.List, error) {
	l, ok := a.(*array.List)
	if !ok {
		return nil, fmt.Errorf("array function over %s", a.DataType())
	}
	return l, nil
}

// buildList makes a list array of res whose row r holds
// values[idx[offsets[r]:offsets[r+1]]], NULL where valid is false.
func buildList(res types.T, values arrow.Array, idx, offsets []int32, valid []bool) (arrow.Array, error) {
	taken, err := takeIndices(values, idx)
	if err != nil {
		return nil, fmt.Errorf("gather array elements: %w", err)
	}
	defer taken.Release()
	n := len(offsets) - 1
	var vb *memory.Buffer
	nulls := 0
	if valid != nil {
		bits := make([]byte, bitutil.BytesForBits(int64(n)))
		for r, v := range valid {
			if v {
				bitutil.SetBit(bits, r)
			} else {
				nulls++
			}
		}
		if nulls > 0 {
			vb = memory.NewBufferBytes(bits)
		}
	}
	data := array.NewData(res.Arrow(), n, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.GetBytes(offsets))},
		[]arrow.ArrayData{taken.Data()}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// joinValues concatenates a list's values with further element arrays;
// the second result is the index where each of those arrays starts.
func joinValues(list *array.List, more ...arrow.Array) (arrow.Array, []int32, error) {
	vals := list.ListValues()
	parts := []arrow.Array{vals}
	starts := make([]int32, len(more))
	at := int32(vals.Len())
	for i, m := range more {
		starts[i] = at
		at += int32(m.Len())
		parts = append(parts, m)
	}
	all, err := concatArrays(parts)
	if err != nil {
		return nil, nil, fmt.Errorf("join array elements: %w", err)
	}
	return all, starts, nil
}

// arrayCat is array_cat (array || array): a NULL side is skipped and the
// result is NULL only when both are.
func arrayCat(args []arrow.Array, res types.T) (arrow.Array, error) {
	l, err := listArg(args[0])
	if err != nil {
		return nil, err
	}
	r, err := listArg(args[1])
	if err != nil {
		return nil, err
	}
	all, starts, err := joinValues(l, r.ListValues())
	if err != nil {
		return nil, err
	}
	defer all.Release()
	n := l.Len()
	offsets := make([]int32, n+1)
	valid := make([]bool, n)
	var idx []int32
	for row := 0; row < n; row++ {
		if l.IsValid(row) {
			s, e := l.ValueOffsets(row)
			for k := s; k < e; k++ {
				idx = append(idx, int32(k))
			}
		}
		if r.IsValid(row) {
			s, e := r.ValueOffsets(row)
			for k := s; k < e; k++ {
				idx = append(idx, starts[0]+int32(k))
			}
		}
		valid[row] = l.IsValid(row) || r.IsValid(row)
		offsets[row+1] = int32(len(idx))
	}
	return buildList(res, all, idx, offsets, valid)
}

// arrayAddElem is array_append (prepend false) and array_prepend: a NULL
// array is taken as empty, a NULL element is added as NULL, so the result
// is never NULL.
func arrayAddElem(listArr, elem arrow.Array, prepend bool, res types.T) (arrow.Array, error) {
	l, err := listArg(listArr)
	if err != nil {
		return nil, err
	}
	all, starts, err := joinValues(l, elem)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	n := l.Len()
	offsets := make([]int32, n+1)
	idx := make([]int32, 0, l.ListValues().Len()+n)
	for row := 0; row < n; row++ {
		if prepend {
			idx = append(idx, starts[0]+int32(row))
		}
		if l.IsValid(row) {
			s, e := l.ValueOffsets(row)
			for k := s; k < e; k++ {
				idx = append(idx, int32(k))
			}
		}
		if !prepend {
			idx = append(idx, starts[0]+int32(row))
		}
		offsets[row+1] = int32(len(idx))
	}
	return buildList(res, all, idx, offsets, nil)
}

// elementMatches compares every element of each non-NULL list row with
// that row's value of search, as IS NOT DISTINCT FROM (array_position,
// array_remove and array_replace find NULL elements with a NULL search
// value): the result is indexed by the element's position in the list's
// values.
func elementMatches(l *array.List, search arrow.Array, elem types.T) ([]bool, error) {
	vals := l.ListValues()
	match := make([]bool, vals.Len())
	var elemIdx, rowIdx []int32
	for row := 0; row < l.Len(); row++ {
		if l.IsNull(row) {
			continue
		}
		s, e := l.ValueOffsets(row)
		for k := s; k < e; k++ {
			elemIdx = append(elemIdx, int32(k))
			rowIdx = append(rowIdx, int32(row))
		}
	}
	if len(elemIdx) == 0 {
		return match, nil
	}
	ev, err := takeIndices(vals, elemIdx)
	if err != nil {
		return nil, fmt.Errorf("gather array elements: %w", err)
	}
	defer ev.Release()
	sv, err := takeIndices(search, rowIdx)
	if err != nil {
		return nil, fmt.Errorf("gather search values: %w", err)
	}
	defer sv.Release()
	c, err := compareTyped("=", ev, sv, elem)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	eq := c.(*array.Boolean)
	for i, k := range elemIdx {
		en, sn := ev.IsNull(i), sv.IsNull(i)
		match[k] = en && sn || !en && !sn && eq.Value(i)
	}
	return match, nil
}

// arrayPosition is array_position(array, value [, start]): the 1-based
// index of the first element not distinct from value (from start on),
// NULL when there is none or the array is NULL.
func arrayPosition(args []arrow.Array, elem types.T) (arrow.Array, error) {
	l, err := listArg(args[0])
	if err != nil {
		return nil, err
	}
	match, err := elementMatches(l, args[1], elem)
	if err != nil {
		return nil, err
	}
	n := l.Len()
	out := make([]int32, n)
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	nulls := 0
	for row := 0; row < n; row++ {
		found := false
		if l.IsValid(row) {
			from := int64(1)
			if len(args) == 3 {
				if args[2].IsNull(row) {
					return nil, pgerror.New(pgerror.NullValueNotAllowed, "initial position must not be null")
				}
				from = valueAt(args[2], row).(int64)
			}
			s, e := l.ValueOffsets(row)
			for k := s + max(from-1, 0); k < e; k++ {
				if match[k] {
					out[row] = int32(k - s + 1)
					found = true
					break
				}
			}
		}
		if found {
			bitutil.SetBit(bits, row)
		} else {
			nulls++
		}
	}
	return newFixed(arrow.PrimitiveTypes.Int32, out, bits, nulls), nil
}

// arrayPositions is array_positions: the indices of every element not
// distinct from the value, an empty array when none, NULL for a NULL
// array. The int4[] is assembled from its offsets and values directly.
func arrayPositions(args []arrow.Array, elem types.T, res types.T) (arrow.Array, error) {
	l, err := listArg(args[0])
	if err != nil {
		return nil, err
	}
	match, err := elementMatches(l, args[1], elem)
	if err != nil {
		return nil, err
	}
	n := l.Len()
	offsets := make([]int32, n+1)
	var pos []int32
	for row := 0; row < n; row++ {
		if l.IsValid(row) {
			s, e := l.ValueOffsets(row)
			for k := s; k < e; k++ {
				if match[k] {
					pos = append(pos, int32(k-s+1))
				}
			}
		}
		offsets[row+1] = int32(len(pos))
	}
	values := newFixed(arrow.PrimitiveTypes.Int32, pos, nil, 0)
	defer values.Release()
	validity, nulls := validity1(l)
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(validity)
	}
	data := array.NewData(res.Arrow(), n, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.GetBytes(offsets))},
		[]arrow.ArrayData{values.Data()}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// arrayRemove is array_remove: the array without the elements not
// distinct from the value.
func arrayRemove(args []arrow.Array, elem types.T, res types.T) (arrow.Array, error) {
	l, err := listArg(args[0])
	if err != nil {
		return nil, err
	}
	match, err := elementMatches(l, args[1], elem)
	if err != nil {
		return nil, err
	}
	n := l.Len()
	offsets := make([]int32, n+1)
	valid := make([]bool, n)
	var idx []int32
	for row := 0; row < n; row++ {
		if valid[row] = l.IsValid(row); valid[row] {
			s, e := l.ValueOffsets(row)
			for k := s; k < e; k++ {
				if !match[k] {
					idx = append(idx, int32(k))
				}
			}
		}
		offsets[row+1] = int32(len(idx))
	}
	return buildList(res, l.ListValues(), idx, offsets, valid)
}

// arrayReplace is array_replace(array, from, to): every element not
// distinct from "from" becomes "to".
func arrayReplace(args []arrow.Array, elem types.T, res types.T) (arrow.Array, error) {
	l, err := listArg(args[0])
	if err != nil {
		return nil, err
	}
	match, err := elementMatches(l, args[1], elem)
	if err != nil {
		return nil, err
	}
	all, starts, err := joinValues(l, args[2])
	if err != nil {
		return nil, err
	}
	defer all.Release()
	n := l.Len()
	offsets := make([]int32, n+1)
	valid := make([]bool, n)
	var idx []int32
	for row := 0; row < n; row++ {
		if valid[row] = l.IsValid(row); valid[row] {
			s, e := l.ValueOffsets(row)
			for k := s; k < e; k++ {
				if match[k] {
					idx = append(idx, starts[0]+int32(row))
				} else {
					idx = append(idx, int32(k))
				}
			}
		}
		offsets[row+1] = int32(len(idx))
	}
	return buildList(res, all, idx, offsets, valid)
}
