package exec

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// Kernels that build a longer string: lpad and rpad, repeat and
// concat_ws, within PostgreSQL's limit on one text value.

// maxStringBytes is PostgreSQL's limit on one text value (1 GB): a
// longer result is refused with 54000 rather than allocated.
const maxStringBytes = 1 << 30

func errStringTooLong() error {
	return pgerror.New(pgerror.ProgramLimitExceeded, "requested length too large")
}

// padKernel is lpad (left) or rpad: fill defaults to a space.
func padKernel(left bool) scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		fill := " "
		if len(v) == 3 {
			fill = v[2].(string)
		}
		return pad(v[0].(string), v[1].(int64), fill, left)
	})
}

// pad is lpad/rpad: s cut or filled with fill to n characters.
func pad(s string, n int64, fill string, left bool) (any, error) {
	if n <= 0 {
		return "", nil
	}
	if n*4 > maxStringBytes {
		return nil, errStringTooLong()
	}
	r := []rune(s)
	if int64(len(r)) >= n {
		return string(r[:n]), nil
	}
	f := []rune(fill)
	if len(f) == 0 {
		return s, nil
	}
	need := int(n) - len(r)
	filler := make([]rune, need)
	for i := range filler {
		filler[i] = f[i%len(f)]
	}
	if left {
		return string(filler) + s, nil
	}
	return s + string(filler), nil
}

// repeatKernel is repeat(s, n), refusing a result past maxStringBytes.
func repeatKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		s, n := v[0].(string), v[1].(int64)
		if n <= 0 {
			return "", nil
		}
		if int64(len(s))*n > maxStringBytes {
			return nil, errStringTooLong()
		}
		return strings.Repeat(s, int(n)), nil
	})
}

// concatWS is concat_ws(separator, values...): NULL values are skipped,
// a NULL separator gives NULL.
func concatWS(args []arrow.Array, res types.T) (arrow.Array, error) {
	n := args[0].Len()
	out := make([]any, n)
	for r := 0; r < n; r++ {
		if args[0].IsNull(r) {
			continue
		}
		sep := valueAt(args[0], r).(string)
		var parts []string
		for _, a := range args[1:] {
			if a.IsNull(r) {
				continue
			}
			parts = append(parts, a.(*array.String).Value(r))
		}
		out[r] = strings.Join(parts, sep)
	}
	return valuesArray(res, out)
}
