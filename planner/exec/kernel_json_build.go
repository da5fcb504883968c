package exec

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// The json functions that render values of any type (json_build_object,
// json_build_array, to_json and their jsonb forms). Their arguments are
// rendered by SQL type (jsonTexts), which the Arrow type alone does not
// give: json and text are both held as strings but render differently.
// So they are looked up with their argument types (jsonTypedKernel).

// jsonTypedKernel returns the kernel of a json function that depends on
// its arguments' SQL types; ok is false for other functions.
func jsonTypedKernel(name string, argTypes []types.T) (scalarKernel, bool) {
	switch name {
	case "json_build_object", "jsonb_build_object":
		return buildObjectKernel(name, argTypes), true
	case "json_build_array", "jsonb_build_array":
		return buildArrayKernel(name == "jsonb_build_array", argTypes), true
	case "to_json", "to_jsonb":
		return toJSONKernel(name == "to_jsonb", argTypes), true
	}
	return nil, false
}

// renderColumns renders every argument column as to_json does; with no
// arguments the executor passes one NULL-typed column that only carries
// the row count.
func renderColumns(args []arrow.Array, argTypes []types.T) ([][]string, int, error) {
	n := args[0].Len()
	if len(argTypes) == 0 {
		return nil, n, nil
	}
	cols := make([][]string, len(args))
	for i, a := range args {
		texts, err := jsonTexts(a, argTypes[i])
		if err != nil {
			return nil, 0, fmt.Errorf("rendering argument %d as json: %w", i+1, err)
		}
		cols[i] = texts
	}
	return cols, n, nil
}

// finishJSON appends one built value, normalised when the result is
// jsonb.
func finishJSON(b *array.StringBuilder, buf []byte, jsonb bool) error {
	if !jsonb {
		b.BinaryBuilder.Append(buf)
		return nil
	}
	norm, err := types.NormalizeJSONB(string(buf))
	if err != nil {
		return err
	}
	b.Append(norm)
	return nil
}

// buildObjectKernel is json_build_object(k1, v1, ...): {"k1" : v1, ...}
// (json's spacing; jsonb's is its normal form, the last of equal keys
// kept). A key is rendered as a JSON string; it must not be NULL, an
// array or json.
func buildObjectKernel(name string, argTypes []types.T) scalarKernel {
	jsonb := name == "jsonb_build_object"
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		cols, n, err := renderColumns(args, argTypes)
		if err != nil {
			return nil, err
		}
		if len(argTypes)%2 != 0 && n > 0 {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "argument list must have even number of elements").
				WithHint("The arguments of %s() must consist of alternating keys and values.", name)
		}
		b := array.NewStringBuilder(memory.DefaultAllocator)
		defer b.Release()
		buf := make([]byte, 0, 64)
		for i := 0; i < n; i++ {
			buf = append(buf[:0], '{')
			for k := 0; k+1 < len(cols); k += 2 {
				if args[k].IsNull(i) {
					if jsonb {
						return nil, pgerror.New(pgerror.InvalidParameterValue, "argument %d: key must not be null", k+1)
					}
					return nil, pgerror.New(pgerror.InvalidParameterValue, "argument %d cannot be null", k+1).
						WithHint("Object keys should be text.")
				}
				if k > 0 {
					buf = append(buf, ", "...)
				}
				if buf, err = appendJSONKey(buf, cols[k][i], argTypes[k]); err != nil {
					return nil, err
				}
				buf = append(buf, " : "...)
				buf = append(buf, cols[k+1][i]...)
			}
			buf = append(buf, '}')
			if err := finishJSON(b, buf, jsonb); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

// appendJSONKey appends a rendered key as an object key: PostgreSQL
// quotes a number's or boolean's text, and refuses containers.
func appendJSONKey(dst []byte, rendered string, t types.T) ([]byte, error) {
	if t.Family() == types.FamilyArray || t.Family() == types.FamilyJSON {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "key value must be scalar, not array, composite, or json")
	}
	if strings.HasPrefix(rendered, `"`) {
		return append(dst, rendered...), nil
	}
	return appendJSONString(dst, rendered), nil
}

// buildArrayKernel is json_build_array(v1, ...): [v1, ...].
func buildArrayKernel(jsonb bool, argTypes []types.T) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		cols, n, err := renderColumns(args, argTypes)
		if err != nil {
			return nil, err
		}
		b := array.NewStringBuilder(memory.DefaultAllocator)
		defer b.Release()
		buf := make([]byte, 0, 64)
		for i := 0; i < n; i++ {
			buf = append(buf[:0], '[')
			for k := range cols {
				if k > 0 {
					buf = append(buf, ", "...)
				}
				buf = append(buf, cols[k][i]...)
			}
			buf = append(buf, ']')
			if err := finishJSON(b, buf, jsonb); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

// toJSONKernel is to_json / to_jsonb: the value rendered as json (NULL
// stays NULL: the functions are strict).
func toJSONKernel(jsonb bool, argTypes []types.T) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		cols, n, err := renderColumns(args, argTypes)
		if err != nil {
			return nil, err
		}
		b := array.NewStringBuilder(memory.DefaultAllocator)
		defer b.Release()
		for i := 0; i < n; i++ {
			if args[0].IsNull(i) {
				b.AppendNull()
				continue
			}
			if err := finishJSON(b, []byte(cols[0][i]), jsonb); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

// appendJSONString appends s as a JSON string, escaped as PostgreSQL's
// escape_json does.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			dst = append(dst, `\"`...)
		case c == '\\':
			dst = append(dst, `\\`...)
		case c == '\b':
			dst = append(dst, `\b`...)
		case c == '\f':
			dst = append(dst, `\f`...)
		case c == '\n':
			dst = append(dst, `\n`...)
		case c == '\r':
			dst = append(dst, `\r`...)
		case c == '\t':
			dst = append(dst, `\t`...)
		case c < 0x20:
			dst = append(dst, `\u00`...)
			dst = append(dst, hex[c>>4], hex[c&15])
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			dst = append(dst, s[i:i+size]...)
			i += size
			continue
		}
		i++
	}
	return append(dst, '"')
}
