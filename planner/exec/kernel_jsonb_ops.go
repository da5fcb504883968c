package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// Kernels of the jsonb operators (containment, existence, concatenation,
// deletion) and of the functions that reprint a json value. All are
// strict: a NULL argument gives NULL.

// jsonFuncKernel returns the kernel of those functions; ok is false for
// other names.
func jsonFuncKernel(name string) (scalarKernel, bool) {
	switch name {
	case "jsonb_strip_nulls":
		return jsonTextMap(types.JSONBStripNulls), true
	case "json_strip_nulls":
		return jsonTextMap(types.JSONStripNulls), true
	case "jsonb_pretty":
		return jsonTextMap(types.JSONBPretty), true
	case "jsonb_concat":
		return jsonTextMap2(types.JSONBConcat), true
	case "jsonb_delete":
		return jsonTextMap2(func(doc, key string) (string, error) { return types.JSONBDeleteKeys(doc, []any{key}) }), true
	case "jsonb_delete_keys":
		return jsonTextWith(func(doc string, arg arrow.Array, i int) (string, error) {
			return types.JSONBDeleteKeys(doc, valueAt(arg, i).([]any))
		}), true
	case "jsonb_delete_index":
		return jsonTextWith(func(doc string, arg arrow.Array, i int) (string, error) {
			return types.JSONBDeleteIndex(doc, valueAt(arg, i).(int64))
		}), true
	case "jsonb_contains":
		return jsonPredicate(func(doc string, arg arrow.Array, i int) (bool, error) {
			return types.JSONBContains(doc, strArg(arg).Value(i))
		}), true
	case "jsonb_exists":
		return jsonPredicate(func(doc string, arg arrow.Array, i int) (bool, error) {
			return types.JSONBExists(doc, []any{strArg(arg).Value(i)}, false)
		}), true
	case "jsonb_exists_any", "jsonb_exists_all":
		all := name == "jsonb_exists_all"
		return jsonPredicate(func(doc string, arg arrow.Array, i int) (bool, error) {
			return types.JSONBExists(doc, valueAt(arg, i).([]any), all)
		}), true
	}
	return nil, false
}

// jsonTextMap applies f to each value of a json column.
func jsonTextMap(f func(string) (string, error)) scalarKernel {
	return jsonTextWith(func(doc string, _ arrow.Array, _ int) (string, error) { return f(doc) })
}

// jsonTextMap2 applies f to each pair of string values.
func jsonTextMap2(f func(a, b string) (string, error)) scalarKernel {
	return jsonTextWith(func(doc string, arg arrow.Array, i int) (string, error) { return f(doc, strArg(arg).Value(i)) })
}

// jsonTextWith computes a json result from a json value and row i of an
// optional second argument.
func jsonTextWith(f func(doc string, arg arrow.Array, i int) (string, error)) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		docs, ok := args[0].(*array.String)
		if !ok {
			return nil, fmt.Errorf("json function over %s", args[0].DataType())
		}
		var arg arrow.Array
		if len(args) > 1 {
			arg = args[1]
		}
		b := array.NewStringBuilder(memory.DefaultAllocator)
		defer b.Release()
		b.Reserve(docs.Len())
		for i := 0; i < docs.Len(); i++ {
			if anyNull(args, i) {
				b.AppendNull()
				continue
			}
			s, err := f(docs.Value(i), arg, i)
			if err != nil {
				return nil, err
			}
			b.Append(s)
		}
		return b.NewArray(), nil
	}
}

// jsonPredicate computes a boolean from a jsonb value and row i of the
// second argument.
func jsonPredicate(f func(doc string, arg arrow.Array, i int) (bool, error)) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		docs, ok := args[0].(*array.String)
		if !ok {
			return nil, fmt.Errorf("jsonb operator over %s", args[0].DataType())
		}
		n := docs.Len()
		bits := make([]byte, bitutil.BytesForBits(int64(n)))
		validity, nulls := validity2(args[0], args[1])
		for i := 0; i < n; i++ {
			if anyNull(args, i) {
				continue
			}
			ok, err := f(docs.Value(i), args[1], i)
			if err != nil {
				return nil, err
			}
			if ok {
				bitutil.SetBit(bits, i)
			}
		}
		return newBool(n, bits, validity, nulls), nil
	}
}
