package exec

import (
	"context"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// contextKernel is a kernel that waits, and so must stop when the query
// is cancelled or times out.
type contextKernel func(ctx context.Context, args []arrow.Array, res types.T) (arrow.Array, error)

// lookupContextKernel returns the kernel of a function that waits.
func lookupContextKernel(name string) (contextKernel, bool) {
	if name == "pg_sleep" {
		return sleepKernel, true
	}
	return nil, false
}

// sleepKernel is pg_sleep(seconds): it waits the given time for each row
// (a NULL, negative or NaN time waits nothing) and returns void, an empty
// value, or NULL for a NULL argument. A cancellation or timeout ends the
// wait at once with the context's error.
func sleepKernel(ctx context.Context, args []arrow.Array, _ types.T) (arrow.Array, error) {
	secs := values[float64](args[0])
	validity, _ := validity1(args[0])
	var total time.Duration
	for i, s := range secs {
		if validAt(validity, i) && s > 0 {
			total += min(sleepDuration(s), math.MaxInt64-total)
		}
	}
	if total > 0 {
		t := time.NewTimer(total)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	for i := range secs {
		if validAt(validity, i) {
			b.Append("")
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray(), nil
}

// sleepDuration converts seconds to a duration, saturating where the
// duration type ends.
func sleepDuration(secs float64) time.Duration {
	if secs >= float64(math.MaxInt64)/float64(time.Second) {
		return math.MaxInt64
	}
	return time.Duration(secs * float64(time.Second))
}
