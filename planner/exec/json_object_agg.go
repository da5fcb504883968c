package exec

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// errObjectAggValueMissing reports a plan that gives json_object_agg no
// value column.
var errObjectAggValueMissing = errors.New("json_object_agg needs a value")

// jsonObjectAggAcc is json_object_agg(key, value) and jsonb_object_agg:
// each group's pairs in arrival order as PostgreSQL's json_object_agg
// prints them, { "k" : v, "k2" : v2 } (keys and values rendered as
// to_json renders them, a NULL value as null). The jsonb form is then
// normalised, so the last value of a repeated key wins. A NULL key is an
// error; a group without rows gives NULL.
type jsonObjectAggAcc struct {
	keyType, valType types.T
	jsonb            bool
	parts            [][]byte
	bytes            int64
}

func (j *jsonObjectAggAcc) update([]int32, int, arrow.Array) error {
	return errObjectAggValueMissing
}

func (j *jsonObjectAggAcc) updateDelimited(groups []int32, n int, keys, vals arrow.Array) error {
	j.parts = grow(j.parts, n)
	keyTexts, err := jsonTexts(keys, j.keyType)
	if err != nil {
		return err
	}
	valTexts, err := jsonTexts(vals, j.valType)
	if err != nil {
		return err
	}
	for i, g := range groups {
		if keys.IsNull(i) {
			return pgerror.New(pgerror.InvalidParameterValue, "field name must not be null")
		}
		part := j.parts[g]
		before := len(part)
		if before == 0 {
			part = append(part, "{ "...)
		} else {
			part = append(part, ", "...)
		}
		if part, err = appendJSONKey(part, keyTexts[i], j.keyType); err != nil {
			return err
		}
		part = append(part, " : "...)
		part = append(part, valTexts[i]...)
		j.bytes += int64(len(part) - before)
		j.parts[g] = part
	}
	return nil
}

func (j *jsonObjectAggAcc) memBytes() int64 { return 24*int64(cap(j.parts)) + j.bytes }

func (j *jsonObjectAggAcc) result(n int) (arrow.Array, error) {
	j.parts = grow(j.parts, n)
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	for g := 0; g < n; g++ {
		if len(j.parts[g]) == 0 {
			b.AppendNull()
			continue
		}
		if err := finishJSON(b, append(j.parts[g], " }"...), j.jsonb); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}
