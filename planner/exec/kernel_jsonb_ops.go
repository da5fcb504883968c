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

func jsonbDeleteKernel() scalarKernel {
	return jsonTextMap2(func(doc, key string) (string, error) { return types.JSONBDeleteKeys(doc, []any{key}) })
}

func jsonbDeleteKeysKernel() scalarKernel {
	return jsonTextWith(func(doc string, arg arrow.Array, i int) (string, error) {
		return types.JSONBDeleteKeys(doc, valueAt(arg, i).([]any))
	})
}

func jsonbDeleteIndexKernel() scalarKernel {
	return jsonTextWith(func(doc string, arg arrow.Array, i int) (string, error) {
		return types.JSONBDeleteIndex(doc, valueAt(arg, i).(int64))
	})
}

func jsonbContainsKernel() scalarKernel {
	return jsonPredicate(func(doc string, arg arrow.Array, i int) (bool, error) {
		return types.JSONBContains(doc, strArg(arg).Value(i))
	})
}

func jsonbExistsKernel() scalarKernel {
	return jsonPredicate(func(doc string, arg arrow.Array, i int) (bool, error) {
		return types.JSONBExists(doc, []any{strArg(arg).Value(i)}, false)
	})
}

// jsonbExistsAnyKernel is jsonb_exists_any (?|), or jsonb_exists_all (?&)
// when all.
func jsonbExistsAnyKernel(all bool) scalarKernel {
	return jsonPredicate(func(doc string, arg arrow.Array, i int) (bool, error) {
		return types.JSONBExists(doc, valueAt(arg, i).([]any), all)
	})
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
