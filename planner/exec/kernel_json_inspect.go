package exec

import (
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// json_typeof and json_array_length (and their jsonb forms): what a
// json document's top-level value is.

func jsonTypeofKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return jsonTypeof(v[0].(string)), nil })
}

func jsonArrayLengthKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return jsonArrayLength(v[0].(string)) })
}

// jsonTypeof is json_typeof / jsonb_typeof.
func jsonTypeof(doc string) string {
	s := strings.TrimSpace(doc)
	switch {
	case s == "":
		return ""
	case s[0] == '{':
		return "object"
	case s[0] == '[':
		return "array"
	case s[0] == '"':
		return "string"
	case s == "true" || s == "false":
		return "boolean"
	case s == "null":
		return "null"
	}
	return "number"
}

// jsonArrayLength is json_array_length / jsonb_array_length.
func jsonArrayLength(doc string) (any, error) {
	s := strings.TrimSpace(doc)
	if !strings.HasPrefix(s, "[") {
		what := "a scalar"
		if strings.HasPrefix(s, "{") {
			what = "an object"
		}
		return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot get array length of %s", what)
	}
	n := 0
	for {
		if _, ok := types.JSONElement(s, n); !ok {
			return int64(n), nil
		}
		n++
	}
}
