package types

import (
	"strings"
)

// Functions that reprint a json or jsonb value: the strip_nulls pair and
// jsonb_pretty.

// JSONBStripNulls is jsonb_strip_nulls: doc without the object members
// whose value is null, at any depth (array elements stay).
func JSONBStripNulls(doc string) (string, error) {
	v, err := parseJSONB(doc)
	if err != nil {
		return "", err
	}
	stripNulls(&v)
	return jsonbText(&v), nil
}

// JSONStripNulls is json_strip_nulls. PostgreSQL reprints the json token
// by token, so the result keeps numbers as written and members in their
// order, duplicates included, but has no whitespace and strings
// re-escaped from their decoded text.
func JSONStripNulls(doc string) (string, error) {
	p := &jsonParser{in: doc, decode: true, asWritten: true}
	v, err := p.document()
	if err != nil {
		return "", err
	}
	stripNulls(&v)
	var b strings.Builder
	b.Grow(len(doc))
	writeJSONCompact(&b, &v)
	return b.String(), nil
}

func stripNulls(v *jsonValue) {
	if v.kind != jsonObject && v.kind != jsonArray {
		return
	}
	keep := 0
	for i := range v.elems {
		if v.kind == jsonObject && v.elems[i].kind == jsonNull {
			continue
		}
		stripNulls(&v.elems[i])
		if v.kind == jsonObject {
			v.keys[keep] = v.keys[i]
		}
		v.elems[keep] = v.elems[i]
		keep++
	}
	v.elems = v.elems[:keep]
	if v.kind == jsonObject {
		v.keys = v.keys[:keep]
	}
}

// writeJSONCompact prints v without any whitespace.
func writeJSONCompact(b *strings.Builder, v *jsonValue) { writeJSONSeparated(b, v, ",", ":") }

// JSONBPretty is jsonb_pretty: each element and member on its own line,
// indented four spaces a level; an empty container still spans two
// lines ("[" and "]"), as PostgreSQL prints it.
func JSONBPretty(doc string) (string, error) {
	v, err := parseJSONB(doc)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(2 * len(doc))
	writeJSONBPretty(&b, &v, 0)
	return b.String(), nil
}

func writeJSONBPretty(b *strings.Builder, v *jsonValue, level int) {
	var open, close byte
	switch v.kind {
	case jsonArray:
		open, close = '[', ']'
	case jsonObject:
		open, close = '{', '}'
	default:
		writeJSONB(b, v)
		return
	}
	b.WriteByte(open)
	for i := range v.elems {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		writeIndent(b, level+1)
		if v.kind == jsonObject {
			writeJSONString(b, v.keys[i])
			b.WriteString(": ")
		}
		writeJSONBPretty(b, &v.elems[i], level+1)
	}
	b.WriteByte('\n')
	writeIndent(b, level)
	b.WriteByte(close)
}

func writeIndent(b *strings.Builder, level int) {
	for i := 0; i < level; i++ {
		b.WriteString("    ")
	}
}
