package sql

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// copyAhead is how many parsed batches COPY FROM keeps ready for the
// writer: enough to keep both busy, few enough that memory stays a few
// batches.
const copyAhead = 2

// parsedBatch is one step of a parser: a batch, or the end (nil, nil), or
// an error.
type parsedBatch struct {
	b   arrow.RecordBatch
	err error
}

// parseAhead runs next (a COPY parser producing batches) on its own
// goroutine, a few batches ahead of the caller, so that parsing the input
// and encoding Parquet use two cores. pull returns next's results in
// order; stop ends the parser and waits for it, releasing what it parsed
// that nobody pulled, and must be called before the input is touched
// again.
func parseAhead(next func() (arrow.RecordBatch, error)) (pull func() (arrow.RecordBatch, error), stop func()) {
	out := make(chan parsedBatch, copyAhead)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(out)
		for {
			b, err := safeNext(next)
			select {
			case out <- parsedBatch{b, err}:
			case <-done:
				if b != nil {
					b.Release()
				}
				return
			}
			if b == nil || err != nil {
				return
			}
		}
	}()
	finished := false
	pull = func() (arrow.RecordBatch, error) {
		if finished {
			return nil, nil
		}
		p, ok := <-out
		if !ok || p.b == nil || p.err != nil {
			finished = true
		}
		return p.b, p.err
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			close(done)
			for p := range out {
				if p.b != nil {
					p.b.Release()
				}
			}
			wg.Wait()
		})
	}
	return pull, stop
}

// safeNext calls next, turning a panic of the parser (which runs on its
// own goroutine, beyond the session's recovery) into an error.
func safeNext(next func() (arrow.RecordBatch, error)) (b arrow.RecordBatch, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, pgerror.New(pgerror.InternalError, "COPY input parser failed: %v", r)
		}
	}()
	return next()
}
