package types

import (
	"strconv"
	"strings"
)

// Extraction for the json operators (->, ->>, #>, #>>). They work on the
// value's text: a json value keeps its text as written (PostgreSQL's json
// returns sub-values exactly as they appear in the input) and a jsonb
// value is already normalised, so slicing the text gives PostgreSQL's
// answer for both. The input is valid JSON (checked when it was made).

// JSONField returns the raw text of member key of an object; ok is false
// when doc is not an object or has no such member (the last one wins
// for duplicate keys, as json's -> does).
func JSONField(doc, key string) (string, bool) {
	i := skipJSONSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return "", false
	}
	i = skipJSONSpace(doc, i+1)
	found, out := false, ""
	for i < len(doc) && doc[i] != '}' {
		kEnd := skipJSONValue(doc, i)
		k, _ := unquoteJSON(doc[i:kEnd])
		i = skipJSONSpace(doc, kEnd)
		i = skipJSONSpace(doc, i+1) // ':'
		vEnd := skipJSONValue(doc, i)
		if k == key {
			found, out = true, doc[i:vEnd]
		}
		i = skipJSONSpace(doc, vEnd)
		if i < len(doc) && doc[i] == ',' {
			i = skipJSONSpace(doc, i+1)
		}
	}
	return out, found
}

// JSONElement returns the raw text of element idx of an array, counting
// from the end when idx is negative.
func JSONElement(doc string, idx int) (string, bool) {
	i := skipJSONSpace(doc, 0)
	if i >= len(doc) || doc[i] != '[' {
		return "", false
	}
	i = skipJSONSpace(doc, i+1)
	var elems [][2]int
	for i < len(doc) && doc[i] != ']' {
		end := skipJSONValue(doc, i)
		elems = append(elems, [2]int{i, end})
		i = skipJSONSpace(doc, end)
		if i < len(doc) && doc[i] == ',' {
			i = skipJSONSpace(doc, i+1)
		}
	}
	if idx < 0 {
		idx += len(elems)
	}
	if idx < 0 || idx >= len(elems) {
		return "", false
	}
	return doc[elems[idx][0]:elems[idx][1]], true
}

// JSONBElement is jsonb's -> integer: as JSONElement, except that a
// scalar document is read as a one-element array (PostgreSQL stores a
// jsonb scalar as a raw-scalar array, so '"s"'::jsonb -> 0 is "s").
func JSONBElement(doc string, idx int) (string, bool) {
	i := skipJSONSpace(doc, 0)
	if i < len(doc) && doc[i] != '[' && doc[i] != '{' {
		if idx == 0 || idx == -1 {
			return strings.TrimSpace(doc), true
		}
		return "", false
	}
	return JSONElement(doc, idx)
}

// JSONPath follows a #> path: object keys, or array indexes for arrays.
func JSONPath(doc string, path []string) (string, bool) {
	cur := strings.TrimSpace(doc)
	for _, p := range path {
		var ok bool
		if strings.HasPrefix(cur, "[") {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return "", false
			}
			cur, ok = JSONElement(cur, n)
		} else {
			cur, ok = JSONField(cur, p)
		}
		if !ok {
			return "", false
		}
	}
	return cur, true
}

// JSONAsText is ->>'s text of a raw value: a string unescaped, null as
// SQL NULL (ok false), anything else as written.
func JSONAsText(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "null":
		return "", false
	case strings.HasPrefix(raw, `"`):
		s, _ := unquoteJSON(raw)
		return s, true
	}
	return raw, true
}

func skipJSONSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipJSONValue returns the index just past the value starting at i.
func skipJSONValue(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(s)
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				j = skipJSONValue(s, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	}
	j := i
	for j < len(s) && !strings.ContainsRune(",}] \t\n\r", rune(s[j])) {
		j++
	}
	return j
}

// unquoteJSON decodes a JSON string literal.
func unquoteJSON(lit string) (string, bool) {
	p := &jsonParser{in: lit, decode: true}
	v, err := p.str()
	if err != nil {
		return "", false
	}
	return v, true
}
