package exec

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// boolAcc is bool_and / every (and) or bool_or: NULLs are skipped, a
// group without a value is NULL.
type boolAcc struct {
	and  bool
	vals []bool
	seen []bool
}

func (b *boolAcc) update(groups []int32, n int, arg arrow.Array) error {
	b.vals, b.seen = grow(b.vals, n), grow(b.seen, n)
	in := arg.(*array.Boolean)
	for i, g := range groups {
		if in.IsNull(i) {
			continue
		}
		v := in.Value(i)
		switch {
		case !b.seen[g]:
			b.vals[g], b.seen[g] = v, true
		case b.and:
			b.vals[g] = b.vals[g] && v
		default:
			b.vals[g] = b.vals[g] || v
		}
	}
	return nil
}

func (b *boolAcc) memBytes() int64 { return int64(cap(b.vals) + cap(b.seen)) }

func (b *boolAcc) result(n int) (arrow.Array, error) {
	b.vals = grow(b.vals, n)
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	for g := 0; g < n; g++ {
		if b.vals[g] {
			bitutil.SetBit(bits, g)
		}
	}
	validity, nulls := seenBitmap(b.seen, n)
	return newBool(n, bits, validity, nulls), nil
}

// rowBuffer keeps an aggregate's input rows (some columns, and each row's
// group) until the result is asked for: for array_agg, and for calls that
// must see their rows sorted (ORDER BY, DISTINCT, WITHIN GROUP).
type rowBuffer struct {
	chunks [][]arrow.Array
	groups []int32
	bytes  int64
}

// add keeps cols (retained) for the rows of groups.
func (r *rowBuffer) add(groups []int32, cols []arrow.Array) {
	kept := make([]arrow.Array, len(cols))
	for i, c := range cols {
		c.Retain()
		kept[i] = c
		r.bytes += arrayBytes(c)
	}
	r.chunks = append(r.chunks, kept)
	r.groups = append(r.groups, groups...)
}

func (r *rowBuffer) memBytes() int64 {
	return r.bytes + 4*int64(cap(r.groups)) + 24*int64(cap(r.chunks))
}

// take concatenates the kept rows, column by column, and lets go of the
// chunks; cols gives the column types for an empty buffer.
func (r *rowBuffer) take(types []arrow.DataType) ([]arrow.Array, error) {
	defer r.release()
	out := make([]arrow.Array, len(types))
	for c, dt := range types {
		if len(r.chunks) == 0 {
			out[c] = array.MakeArrayOfNull(memory.DefaultAllocator, dt, 0)
			continue
		}
		parts := make([]arrow.Array, len(r.chunks))
		for i, ch := range r.chunks {
			parts[i] = ch[c]
		}
		if len(parts) == 1 {
			parts[0].Retain()
			out[c] = parts[0]
			continue
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			for _, o := range out[:c] {
				o.Release()
			}
			return nil, fmt.Errorf("aggregate rows: %w", err)
		}
		out[c] = a
	}
	return out, nil
}

func (r *rowBuffer) release() {
	for _, ch := range r.chunks {
		for _, c := range ch {
			c.Release()
		}
	}
	r.chunks, r.bytes = nil, 0
}

// groupOrder orders row indexes by group, keeping the input order within
// a group (a counting sort). Group g's rows are perm[starts[g]:starts[g+1]].
func groupOrder(groups []int32, n int) (perm []int32, starts []int32) {
	starts = make([]int32, n+1)
	for _, g := range groups {
		starts[g+1]++
	}
	for g := 0; g < n; g++ {
		starts[g+1] += starts[g]
	}
	next := append([]int32(nil), starts[:n]...)
	perm = make([]int32, len(groups))
	for i, g := range groups {
		perm[next[g]] = int32(i)
		next[g]++
	}
	return perm, starts
}

// arrayAggAcc is array_agg: each group's values, NULLs included, in the
// order they arrive.
type arrayAggAcc struct {
	out  types.T
	rows rowBuffer
}

func (a *arrayAggAcc) update(groups []int32, _ int, arg arrow.Array) error {
	a.rows.add(groups, []arrow.Array{arg})
	return nil
}

func (a *arrayAggAcc) memBytes() int64 { return a.rows.memBytes() }

func (a *arrayAggAcc) result(n int) (arrow.Array, error) {
	lt := a.out.Arrow().(*arrow.ListType)
	groups := a.rows.groups
	cols, err := a.rows.take([]arrow.DataType{lt.Elem()})
	if err != nil {
		return nil, err
	}
	defer cols[0].Release()
	perm, starts := groupOrder(groups, n)
	idx := newFixed(arrow.PrimitiveTypes.Int32, perm, nil, 0)
	defer idx.Release()
	vals, err := takeArray(context.Background(), cols[0], idx)
	if err != nil {
		return nil, fmt.Errorf("array_agg: %w", err)
	}
	defer vals.Release()
	seen := make([]bool, n)
	for g := 0; g < n; g++ {
		seen[g] = starts[g+1] > starts[g]
	}
	validity, nulls := seenBitmap(seen, n)
	return newList(lt, starts, vals, validity, nulls), nil
}

// newList builds a list array from its offsets and values.
func newList(lt *arrow.ListType, offsets []int32, vals arrow.Array, validity []byte, nulls int) arrow.Array {
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(validity)
	}
	data := array.NewData(lt, len(offsets)-1,
		[]*memory.Buffer{vb, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))},
		[]arrow.ArrayData{vals.Data()}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// jsonAggAcc is json_agg and jsonb_agg: each group's values rendered as
// to_json renders them, NULLs as null, in arrival order, as a JSON array
// ("[1, 2]"). jsonb_agg's text is then normalised as jsonb prints.
type jsonAggAcc struct {
	in    types.T
	jsonb bool
	parts [][]byte
	bytes int64
}

func (j *jsonAggAcc) update(groups []int32, n int, arg arrow.Array) error {
	j.parts = grow(j.parts, n)
	texts, err := jsonTexts(arg, j.in)
	if err != nil {
		return err
	}
	for i, g := range groups {
		before := len(j.parts[g])
		if before == 0 {
			j.parts[g] = append(j.parts[g], '[')
		} else {
			j.parts[g] = append(j.parts[g], ", "...)
		}
		j.parts[g] = append(j.parts[g], texts[i]...)
		j.bytes += int64(len(j.parts[g]) - before)
	}
	return nil
}

func (j *jsonAggAcc) memBytes() int64 { return 24*int64(cap(j.parts)) + j.bytes }

func (j *jsonAggAcc) result(n int) (arrow.Array, error) {
	j.parts = grow(j.parts, n)
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	for g := 0; g < n; g++ {
		if len(j.parts[g]) == 0 {
			b.AppendNull()
			continue
		}
		s := string(append(j.parts[g], ']'))
		if j.jsonb {
			norm, err := types.NormalizeJSONB(s)
			if err != nil {
				return nil, err
			}
			s = norm
		}
		b.Append(s)
	}
	return b.NewArray(), nil
}

// jsonTexts renders each value of a (of type t) as PostgreSQL's to_json
// does: numbers and booleans bare (non-finite floats quoted), json as it
// is, dates and timestamps in ISO 8601, arrays as JSON arrays, anything
// else as a JSON string of its text. NULL is null.
func jsonTexts(a arrow.Array, t types.T) ([]string, error) {
	out := make([]string, a.Len())
	switch x := a.(type) {
	case *array.Boolean:
		for i := range out {
			switch {
			case x.IsNull(i):
				out[i] = "null"
			case x.Value(i):
				out[i] = "true"
			default:
				out[i] = "false"
			}
		}
		return out, nil
	case *array.List:
		elem, ok := t.Elem()
		if !ok {
			return nil, fmt.Errorf("json of %s", t.Name())
		}
		inner, err := jsonTexts(x.ListValues(), elem)
		if err != nil {
			return nil, err
		}
		for i := range out {
			if x.IsNull(i) {
				out[i] = "null"
				continue
			}
			start, end := x.ValueOffsets(i)
			out[i] = "[" + strings.Join(inner[start:end], ",") + "]"
		}
		return out, nil
	}
	var text *array.String
	if s, ok := a.(*array.String); ok {
		text = s
	} else {
		c, err := castToText(a, types.Text)
		if err != nil {
			return nil, err
		}
		defer c.Release()
		text = c.(*array.String)
	}
	for i := range out {
		if text.IsNull(i) {
			out[i] = "null"
			continue
		}
		v := text.Value(i)
		switch t.Family() {
		case types.FamilyJSON:
			out[i] = v
			continue
		case types.FamilyInt:
			out[i] = v
			continue
		case types.FamilyFloat, types.FamilyNumeric:
			if v != "NaN" && v != "Infinity" && v != "-Infinity" {
				out[i] = v
				continue
			}
		case types.FamilyTimestamp:
			v = isoTimestamp(v)
		}
		out[i] = string(appendJSONString(nil, v))
	}
	return out, nil
}

// isoTimestamp turns a timestamp's text ("2024-01-02 03:04:05+00") into
// the ISO 8601 form json uses ("2024-01-02T03:04:05+00:00").
func isoTimestamp(v string) string {
	if strings.HasSuffix(v, "infinity") {
		return v
	}
	v = strings.Replace(v, " ", "T", 1)
	if n := len(v); n >= 3 && (v[n-3] == '+' || v[n-3] == '-') {
		v += ":00"
	}
	return v
}
