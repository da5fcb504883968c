package exec

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// remoteOp streams the answer of a statement another engine runs. The
// query lives from the first Next to Close; a Next whose context ends
// cancels it on the engine.
type remoteOp struct {
	r      *planner.Remote
	stream planner.RecordStream
	cancel context.CancelFunc
	done   bool
}

func newRemoteOp(r *planner.Remote) *remoteOp { return &remoteOp{r: r} }

func (o *remoteOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, pgerror.From(err)
	}
	if o.stream == nil {
		// The query outlives this call (the caller's context for one
		// Next may end when it returns) but keeps its values: the
		// caller's identity rides on them.
		qctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		stop := context.AfterFunc(ctx, cancel)
		s, err := o.r.Runner.RunRemote(qctx, o.r.SQL, o.r.Columns())
		stop()
		if err != nil {
			cancel()
			return nil, o.cancelled(ctx, err)
		}
		o.stream, o.cancel = s, cancel
	}
	stop := context.AfterFunc(ctx, o.cancel)
	b, err := o.stream.Next()
	stop()
	if errors.Is(err, planner.EOF) {
		o.done = true
		return nil, nil
	}
	if err != nil {
		return nil, o.cancelled(ctx, err)
	}
	return b, nil
}

// cancelled reports the caller's cancellation or timeout, when that is
// why the engine's answer ended, rather than the engine's account of it.
func (o *remoteOp) cancelled(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return pgerror.From(ctx.Err())
	}
	return err
}

// Close cancels the query first, so that an engine still sending rows
// stops rather than being read to its end (after the end it cancels
// nothing).
func (o *remoteOp) Close() {
	if o.cancel != nil {
		o.cancel()
	}
	if o.stream != nil {
		_ = o.stream.Close()
		o.stream = nil
	}
}
