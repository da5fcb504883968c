package types

import (
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The jsonb operators beyond extraction: containment (@>, <@), key
// existence (?, ?|, ?&), concatenation (||) and deletion (- text,
// - text[], - integer). They work on the parsed value of jsonb's stored
// text and print results as jsonb_out does. As in PostgreSQL, a scalar at
// the top level behaves as a one-element array (a "raw scalar") except
// where the operators single it out.

func jsonbParamError(format string, args ...any) error {
	return pgerror.New(pgerror.InvalidParameterValue, format, args...)
}

func jsonbText(v *jsonValue) string {
	var b strings.Builder
	writeJSONB(&b, v)
	return b.String()
}

// topElems is the array view of a top-level value: an array's elements,
// or a raw scalar as its one element.
func topElems(v *jsonValue) []jsonValue {
	if v.kind == jsonArray {
		return v.elems
	}
	return []jsonValue{*v}
}

// JSONBContains reports a @> b as jsonb_contains does.
func JSONBContains(a, b string) (bool, error) {
	va, err := parseJSONB(a)
	if err != nil {
		return false, err
	}
	vb, err := parseJSONB(b)
	if err != nil {
		return false, err
	}
	if (va.kind == jsonObject) != (vb.kind == jsonObject) {
		return false, nil
	}
	if va.kind == jsonObject {
		return jsonbContains(&va, &vb), nil
	}
	// A raw scalar contains only a raw scalar; an array may contain one.
	if isJSONScalar(&va) && !isJSONScalar(&vb) {
		return false, nil
	}
	return jsonbArrayContains(topElems(&va), topElems(&vb)), nil
}

// jsonbContains is JsonbDeepContains for two containers of one kind.
func jsonbContains(a, b *jsonValue) bool {
	if a.kind != b.kind {
		return false
	}
	if a.kind == jsonArray {
		return jsonbArrayContains(a.elems, b.elems)
	}
	if len(a.elems) < len(b.elems) {
		return false
	}
	for i, k := range b.keys {
		av, ok := objectMember(a, k)
		if !ok {
			return false
		}
		bv := &b.elems[i]
		if av.kind != bv.kind {
			return false
		}
		if isJSONScalar(bv) {
			if compareJSONBValue(av, bv) != 0 {
				return false
			}
		} else if !jsonbContains(av, bv) {
			return false
		}
	}
	return true
}

// jsonbArrayContains reports whether every element of b is in a: a
// scalar as an equal scalar element of a, a container as contained in
// some container element of a of its kind.
func jsonbArrayContains(a, b []jsonValue) bool {
	for i := range b {
		found := false
		for j := range a {
			if a[j].kind != b[i].kind {
				continue
			}
			if isJSONScalar(&b[i]) {
				found = compareJSONBValue(&a[j], &b[i]) == 0
			} else {
				found = jsonbContains(&a[j], &b[i])
			}
			if found {
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// objectMember finds key in a normalised object (keys sorted as jsonb
// stores them).
func objectMember(v *jsonValue, key string) (*jsonValue, bool) {
	lo, hi := 0, len(v.keys)
	for lo < hi {
		m := (lo + hi) / 2
		switch c := jsonbKeyCmp(v.keys[m], key); {
		case c == 0:
			return &v.elems[m], true
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return nil, false
}

// JSONBExists reports, for each key, whether doc has it as ? does: an
// object member's key, or a string element of an array (or the raw
// scalar string). NULL keys (nil) are skipped; all says whether every
// remaining key must exist (?&) or any one (?|, ?).
func JSONBExists(doc string, keys []any, all bool) (bool, error) {
	v, err := parseJSONB(doc)
	if err != nil {
		return false, err
	}
	has := func(key string) bool {
		if v.kind == jsonObject {
			_, ok := objectMember(&v, key)
			return ok
		}
		for _, e := range topElems(&v) {
			if e.kind == jsonString && e.text == key {
				return true
			}
		}
		return false
	}
	for _, k := range keys {
		s, ok := k.(string)
		if !ok {
			continue
		}
		if has(s) != all {
			return !all, nil
		}
	}
	return all, nil
}

// JSONBConcat is a || b: two objects merge, the right one's members
// winning; otherwise both sides are read as arrays (an object or scalar
// as a one-element array) and appended.
func JSONBConcat(a, b string) (string, error) {
	va, err := parseJSONB(a)
	if err != nil {
		return "", err
	}
	vb, err := parseJSONB(b)
	if err != nil {
		return "", err
	}
	if va.kind == jsonObject && vb.kind == jsonObject {
		out := jsonValue{kind: jsonObject}
		out.keys = append(append(out.keys, va.keys...), vb.keys...)
		out.elems = append(append(out.elems, va.elems...), vb.elems...)
		normalizeObject(&out)
		return jsonbText(&out), nil
	}
	wrap := func(v *jsonValue) []jsonValue {
		if v.kind == jsonArray {
			return v.elems
		}
		return []jsonValue{*v}
	}
	out := jsonValue{kind: jsonArray}
	out.elems = append(append(out.elems, wrap(&va)...), wrap(&vb)...)
	return jsonbText(&out), nil
}

// JSONBDeleteKeys is doc - text and doc - text[]: an object loses the
// members with those keys, an array the string elements equal to one;
// NULL keys (nil) are skipped. A scalar is an error.
func JSONBDeleteKeys(doc string, keys []any) (string, error) {
	v, err := parseJSONB(doc)
	if err != nil {
		return "", err
	}
	if isJSONScalar(&v) {
		return "", jsonbParamError("cannot delete from scalar")
	}
	drop := func(s string) bool {
		for _, k := range keys {
			if ks, ok := k.(string); ok && ks == s {
				return true
			}
		}
		return false
	}
	out := jsonValue{kind: v.kind}
	for i := range v.elems {
		switch {
		case v.kind == jsonObject && drop(v.keys[i]):
		case v.kind == jsonArray && v.elems[i].kind == jsonString && drop(v.elems[i].text):
		default:
			if v.kind == jsonObject {
				out.keys = append(out.keys, v.keys[i])
			}
			out.elems = append(out.elems, v.elems[i])
		}
	}
	return jsonbText(&out), nil
}

// JSONBDeleteIndex is doc - integer: an array without its element idx
// (negative counts from the end; out of range deletes nothing).
func JSONBDeleteIndex(doc string, idx int64) (string, error) {
	v, err := parseJSONB(doc)
	if err != nil {
		return "", err
	}
	switch v.kind {
	case jsonObject:
		return "", jsonbParamError("cannot delete from object using integer index")
	case jsonArray:
	default:
		return "", jsonbParamError("cannot delete from scalar")
	}
	n := int64(len(v.elems))
	if idx < 0 {
		idx += n
	}
	if idx < 0 || idx >= n {
		return doc, nil
	}
	out := jsonValue{kind: jsonArray}
	out.elems = append(append(out.elems, v.elems[:idx]...), v.elems[idx+1:]...)
	return jsonbText(&out), nil
}
