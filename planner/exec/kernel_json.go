package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sqe-db/sqe/sql/types"
)

// jsonb is held as its normalised text, but orders by value (numbers
// numerically, containers by size first), so its comparisons and sort
// keys go through types.CompareJSONB rather than a string comparison.

// compareTyped evaluates l op r for operands of type t.
func compareTyped(op string, l, r arrow.Array, t types.T) (arrow.Array, error) {
	if isGeneralArray(l) || isGeneralArray(r) {
		return compareGeneral(op, l, r)
	}
	if t.OID != types.OIDJSONB {
		return compareArrays(op, l, r)
	}
	test, err := cmpResult(op)
	if err != nil {
		return nil, err
	}
	ls, ok1 := l.(*array.String)
	rs, ok2 := r.(*array.String)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("jsonb comparison of %s and %s", l.DataType(), r.DataType())
	}
	n := l.Len()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	validity, nulls := validity2(l, r)
	for i := 0; i < n; i++ {
		if ls.IsNull(i) || rs.IsNull(i) {
			continue
		}
		c, err := types.CompareJSONB(ls.Value(i), rs.Value(i))
		if err != nil {
			return nil, err
		}
		if test(c) {
			bitutil.SetBit(bits, i)
		}
	}
	return newBool(n, bits, validity, nulls), nil
}

// typedComparator orders rows of a column of type t.
func typedComparator(a arrow.Array, t types.T, desc, nullsFirst bool) (func(i, j int) int, error) {
	return typedPairComparator(a, a, t, desc, nullsFirst)
}

// typedPairComparator is typedComparator between row i of a and row j of
// b (pairComparator).
func typedPairComparator(a, b arrow.Array, t types.T, desc, nullsFirst bool) (func(i, j int) int, error) {
	if t.OID != types.OIDJSONB {
		return pairComparator(a, b, desc, nullsFirst)
	}
	pa, err := parseJSONBColumn(a)
	if err != nil {
		return nil, err
	}
	pb := pa
	if b != a {
		if pb, err = parseJSONBColumn(b); err != nil {
			return nil, err
		}
	}
	return withOrder(a, b, func(i, j int) int { return pa[i].Compare(&pb[j]) }, desc, nullsFirst), nil
}

// parseJSONBColumn parses each value of a jsonb column once, so a sort
// compares parsed values.
func parseJSONBColumn(a arrow.Array) ([]types.JSONBValue, error) {
	s, ok := a.(*array.String)
	if !ok {
		return nil, fmt.Errorf("sorting jsonb held in %s", a.DataType())
	}
	parsed := make([]types.JSONBValue, s.Len())
	for i := range parsed {
		if s.IsNull(i) {
			continue
		}
		v, err := types.ParseJSONBValue(s.Value(i))
		if err != nil {
			return nil, err
		}
		parsed[i] = v
	}
	return parsed, nil
}

// The json extraction operators (planner's jsonOperator): a field by
// key, an element by index, or a value by path, as json, or as text for
// the _text forms.

// jsonExtractKernel extracts with get, as text when asText.
func jsonExtractKernel(get func(doc string, key any) (string, bool), asText bool) scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		raw, ok := get(v[0].(string), v[1])
		if !ok {
			return nil, nil
		}
		if asText {
			s, ok := types.JSONAsText(raw)
			if !ok {
				return nil, nil
			}
			return s, nil
		}
		return raw, nil
	})
}

func jsonFieldOf(doc string, key any) (string, bool) { return types.JSONField(doc, key.(string)) }

func jsonElementOf(doc string, key any) (string, bool) {
	return types.JSONElement(doc, int(key.(int64)))
}

func jsonbElementOf(doc string, key any) (string, bool) {
	return types.JSONBElement(doc, int(key.(int64)))
}

func jsonPathOf(doc string, key any) (string, bool) {
	var path []string
	for _, p := range key.([]any) {
		if p == nil {
			return "", false
		}
		path = append(path, p.(string))
	}
	return types.JSONPath(doc, path)
}
