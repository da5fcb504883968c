package types

import (
	"cmp"
	"math/big"
	"strings"
)

// CompareJSONB orders two jsonb values (in their stored text form) as
// PostgreSQL's jsonb btree operators do: object > array > boolean >
// number > string > null; arrays and objects with more elements or pairs
// sort higher, equal sizes compare element by element (objects key, then
// value, in stored key order); numbers by value, so 1.0 equals 1. A top
// level scalar is held as a one-element array: for that historical reason
// an empty top-level array sorts below any scalar.
func CompareJSONB(a, b string) (int, error) {
	va, err := parseJSONB(a)
	if err != nil {
		return 0, err
	}
	vb, err := parseJSONB(b)
	if err != nil {
		return 0, err
	}
	return compareJSONBTop(&va, &vb), nil
}

// JSONBValue is a parsed jsonb value, for ordering many rows without
// parsing each again on every comparison.
type JSONBValue struct{ v jsonValue }

// ParseJSONBValue parses a jsonb value's text.
func ParseJSONBValue(s string) (JSONBValue, error) {
	v, err := parseJSONB(s)
	return JSONBValue{v}, err
}

// Compare orders a and b as CompareJSONB does.
func (a *JSONBValue) Compare(b *JSONBValue) int { return compareJSONBTop(&a.v, &b.v) }

func isJSONScalar(v *jsonValue) bool { return v.kind < jsonArray }

func compareJSONBTop(a, b *jsonValue) int {
	as, bs := isJSONScalar(a), isJSONScalar(b)
	switch {
	case as && bs:
		return compareJSONBValue(a, b)
	case as && b.kind == jsonArray:
		// One-element pseudo-array against a real array.
		if len(b.elems) != 1 {
			return cmp.Compare(1, len(b.elems))
		}
		return -1
	case bs && a.kind == jsonArray:
		if len(a.elems) != 1 {
			return cmp.Compare(len(a.elems), 1)
		}
		return 1
	case as:
		return -1 // scalar (an array) below an object
	case bs:
		return 1
	}
	return compareJSONBValue(a, b)
}

func compareJSONBValue(a, b *jsonValue) int {
	if a.kind != b.kind {
		return cmp.Compare(a.kind, b.kind)
	}
	switch a.kind {
	case jsonNull:
		return 0
	case jsonString:
		return strings.Compare(a.text, b.text)
	case jsonNumber:
		x, _ := new(big.Rat).SetString(a.text)
		y, _ := new(big.Rat).SetString(b.text)
		if x == nil || y == nil {
			return strings.Compare(a.text, b.text)
		}
		return x.Cmp(y)
	case jsonBool:
		return strings.Compare(a.text, b.text) // "false" < "true"
	}
	if len(a.elems) != len(b.elems) {
		return cmp.Compare(len(a.elems), len(b.elems))
	}
	for i := range a.elems {
		if a.kind == jsonObject {
			if c := strings.Compare(a.keys[i], b.keys[i]); c != 0 {
				return c
			}
		}
		if c := compareJSONBValue(&a.elems[i], &b.elems[i]); c != 0 {
			return c
		}
	}
	return 0
}
