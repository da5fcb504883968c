package exec

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
)

// morselFeed is what one worker's scan reads: the morsel the worker is
// working on. The worker sets it between morsels; its pipeline's scan
// reads that morsel and then reports the end of its input, which ends the
// pipeline's output for the morsel (filters and projections keep no state
// from one batch to the next, so the same pipeline then runs the next
// morsel). Only the worker's goroutine touches it.
type morselFeed struct {
	scan    *planner.Scan
	morsels planner.Morsels
	index   int  // the morsel to read
	pending bool // index is set and not opened yet
}

func (f *morselFeed) start(morsels planner.Morsels, i int) {
	f.morsels, f.index, f.pending = morsels, i, true
}

type morselFeedKey struct{}

// withMorselFeed makes Build read scan n through f.
func withMorselFeed(ctx context.Context, f *morselFeed) context.Context {
	return context.WithValue(ctx, morselFeedKey{}, f)
}

func morselFeedFor(ctx context.Context, n *planner.Scan) *morselFeed {
	f, _ := ctx.Value(morselFeedKey{}).(*morselFeed)
	if f == nil || f.scan != n {
		return nil
	}
	return f
}

// morselScan is a scan in a worker: it streams the feed's current morsel.
type morselScan struct {
	feed   *morselFeed
	stream planner.RecordStream
	batch  *batchAssembler
}

func newMorselScan(n *planner.Scan, f *morselFeed) *morselScan {
	return &morselScan{feed: f, batch: newBatchAssembler(schemaOf(n.Cols), scanColumnsOf(n))}
}

func (s *morselScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.feed.pending {
		s.feed.pending = false
		s.closeStream()
		st, err := s.feed.morsels.Open(ctx, s.feed.index)
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", s.feed.scan.Table.QualifiedName().Name, err)
		}
		s.stream = st
	}
	for s.stream != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := s.stream.Next()
		if errors.Is(err, io.EOF) {
			s.closeStream()
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		return s.batch.assemble(b), nil
	}
	return nil, nil
}

func (s *morselScan) closeStream() {
	if s.stream != nil {
		_ = s.stream.Close()
		s.stream = nil
	}
}

func (s *morselScan) Close() {
	s.closeStream()
	s.batch.release()
}
