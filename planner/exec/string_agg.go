package exec

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// delimitedAccumulator is an accumulator whose rows also carry a
// delimiter (string_agg).
type delimitedAccumulator interface {
	accumulator
	updateDelimited(groups []int32, ngroups int, arg, delim arrow.Array) error
}

// errDelimiterMissing reports a plan that gives string_agg no delimiter.
var errDelimiterMissing = errors.New("string_agg needs a delimiter")

// stringAggAcc concatenates each group's non-NULL values in input order.
// As in PostgreSQL, every value but a group's first is preceded by the
// delimiter of its own row, and a NULL delimiter adds nothing.
type stringAggAcc struct {
	parts [][]byte
	seen  []bool
	// partBytes is the length of the text gathered in parts.
	partBytes int64
}

func (s *stringAggAcc) update([]int32, int, arrow.Array) error {
	return errDelimiterMissing
}

func (s *stringAggAcc) updateDelimited(groups []int32, n int, arg, delim arrow.Array) error {
	s.parts, s.seen = grow(s.parts, n), grow(s.seen, n)
	vals, delims := arg.(*array.String), delim.(*array.String)
	for i, g := range groups {
		if vals.IsNull(i) {
			continue
		}
		if s.seen[g] && delims.IsValid(i) {
			s.parts[g] = append(s.parts[g], delims.Value(i)...)
			s.partBytes += int64(len(delims.Value(i)))
		}
		s.parts[g] = append(s.parts[g], vals.Value(i)...)
		s.partBytes += int64(len(vals.Value(i)))
		s.seen[g] = true
	}
	return nil
}

func (s *stringAggAcc) memBytes() int64 {
	return 24*int64(cap(s.parts)) + int64(cap(s.seen)) + s.partBytes
}

func (s *stringAggAcc) result(n int) (arrow.Array, error) {
	s.parts, s.seen = grow(s.parts, n), grow(s.seen, n)
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	defer bld.Release()
	for g := 0; g < n; g++ {
		if !s.seen[g] {
			bld.AppendNull()
			continue
		}
		bld.Append(string(s.parts[g]))
	}
	return bld.NewArray(), nil
}
