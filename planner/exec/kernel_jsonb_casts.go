package exec

import (
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Kernels of the casts from jsonb to boolean and the numeric types
// (planner's jsonbCast). The second argument is the target type's name,
// for PostgreSQL's error: "cannot cast jsonb string to type integer".

// jsonbBoolKernel is the cast of jsonb to boolean.
func jsonbBoolKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		doc := strings.TrimSpace(v[0].(string))
		switch kind := jsonbKind(doc); kind {
		case "boolean":
			return doc == "true", nil
		default:
			return nil, cannotCastJSONB(kind, v[1].(string))
		}
	})
}

// jsonbNumberTextKernel is the first step of the casts of jsonb to the
// numeric types: a number's text.
func jsonbNumberTextKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		doc := strings.TrimSpace(v[0].(string))
		if kind := jsonbKind(doc); kind != "numeric" {
			return nil, cannotCastJSONB(kind, v[1].(string))
		}
		return doc, nil
	})
}

// jsonbKind names the kind of a jsonb document's top-level value as
// PostgreSQL's cast errors do.
func jsonbKind(doc string) string {
	if doc == "" {
		return "null"
	}
	switch doc[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "numeric"
}

func cannotCastJSONB(kind, target string) error {
	return pgerror.New(pgerror.InvalidParameterValue, "cannot cast jsonb %s to type %s", kind, target)
}
