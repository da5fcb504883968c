package types

// Splitting a json or jsonb value into its elements or members, for the
// set-returning functions (json_each, json_array_elements,
// json_object_keys and their jsonb forms). Like the extraction operators
// they slice the value's text, which is valid JSON: json's parts come out
// exactly as written, jsonb's already normalised.

// JSONKind is the kind of a json value's top level, as the set-returning
// functions tell them apart in their errors.
type JSONKind uint8

const (
	JSONScalarKind JSONKind = iota
	JSONArrayKind
	JSONObjectKind
)

// JSONKindOf returns the kind of doc's top-level value.
func JSONKindOf(doc string) JSONKind {
	i := skipJSONSpace(doc, 0)
	if i < len(doc) {
		switch doc[i] {
		case '[':
			return JSONArrayKind
		case '{':
			return JSONObjectKind
		}
	}
	return JSONScalarKind
}

// JSONArrayElements returns the text of each element of the array doc,
// in order; ok is false when doc is not an array.
func JSONArrayElements(doc string) (elems []string, ok bool) {
	i := skipJSONSpace(doc, 0)
	if i >= len(doc) || doc[i] != '[' {
		return nil, false
	}
	i = skipJSONSpace(doc, i+1)
	for i < len(doc) && doc[i] != ']' {
		end := skipJSONValue(doc, i)
		elems = append(elems, doc[i:end])
		i = skipJSONSpace(doc, end)
		if i < len(doc) && doc[i] == ',' {
			i = skipJSONSpace(doc, i+1)
		}
	}
	return elems, true
}

// JSONObjectMembers returns the decoded key and the value's text of each
// member of the object doc, in order (duplicates and all, for json); ok
// is false when doc is not an object.
func JSONObjectMembers(doc string) (keys, vals []string, ok bool) {
	i := skipJSONSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return nil, nil, false
	}
	i = skipJSONSpace(doc, i+1)
	for i < len(doc) && doc[i] != '}' {
		kEnd := skipJSONValue(doc, i)
		k, _ := unquoteJSON(doc[i:kEnd])
		i = skipJSONSpace(doc, kEnd)
		i = skipJSONSpace(doc, i+1) // ':'
		vEnd := skipJSONValue(doc, i)
		keys = append(keys, k)
		vals = append(vals, doc[i:vEnd])
		i = skipJSONSpace(doc, vEnd)
		if i < len(doc) && doc[i] == ',' {
			i = skipJSONSpace(doc, i+1)
		}
	}
	return keys, vals, true
}
