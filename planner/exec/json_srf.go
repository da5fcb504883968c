package exec

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// jsonSRFValues lists the rows of a json set-returning function for one
// non-NULL argument value: json_array_elements, json_object_keys and
// json_each's key and value columns ("json_each.key", "json_each.value"),
// each with its jsonb and _text forms. ok is false for other functions.
// Values come out as written in json, normalised in jsonb (the slices of
// its stored text); the _text forms give strings unquoted and null as
// NULL.
func jsonSRFValues(name string, args []arrow.Array, r int) (vals []any, ok bool, err error) {
	base, field, _ := strings.Cut(name, ".")
	asText := strings.HasSuffix(base, "_text")
	jsonb := strings.HasPrefix(base, "jsonb")
	var doc string
	switch base {
	case "json_array_elements", "json_array_elements_text", "jsonb_array_elements", "jsonb_array_elements_text",
		"json_object_keys", "jsonb_object_keys", "json_each", "json_each_text", "jsonb_each", "jsonb_each_text":
		doc = args[0].(*array.String).Value(r)
	default:
		return nil, false, nil
	}
	kind := types.JSONKindOf(doc)
	if strings.Contains(base, "array_elements") {
		elems, isArray := types.JSONArrayElements(doc)
		if !isArray {
			return nil, true, jsonSRFKindError(base, kind, jsonb)
		}
		return jsonSRFOut(elems, asText), true, nil
	}
	keys, members, isObject := types.JSONObjectMembers(doc)
	if !isObject {
		return nil, true, jsonSRFKindError(base, kind, jsonb)
	}
	if field == "value" {
		return jsonSRFOut(members, asText), true, nil
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out, true, nil
}

func jsonSRFOut(raw []string, asText bool) []any {
	out := make([]any, len(raw))
	for i, s := range raw {
		if !asText {
			out[i] = s
			continue
		}
		if t, ok := types.JSONAsText(s); ok {
			out[i] = t
		}
	}
	return out
}

// jsonSRFKindError is PostgreSQL's error for a value of the wrong kind;
// the json and jsonb implementations word it differently.
func jsonSRFKindError(name string, kind types.JSONKind, jsonb bool) error {
	var msg string
	switch {
	case strings.Contains(name, "object_keys"):
		msg = "cannot call " + name + " on an array"
		if kind == types.JSONScalarKind {
			msg = "cannot call " + name + " on a scalar"
		}
	case strings.Contains(name, "array_elements") && jsonb:
		msg = "cannot extract elements from an object"
		if kind == types.JSONScalarKind {
			msg = "cannot extract elements from a scalar"
		}
	case strings.Contains(name, "array_elements"):
		msg = "cannot call " + name + " on a non-array"
		if kind == types.JSONScalarKind {
			msg = "cannot call " + name + " on a scalar"
		}
	case jsonb:
		msg = "cannot call " + name + " on a non-object"
	default:
		msg = "cannot deconstruct an array as an object"
		if kind == types.JSONScalarKind {
			msg = "cannot deconstruct a scalar"
		}
	}
	return pgerror.New(pgerror.InvalidParameterValue, "%s", msg)
}
