package exec

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// workerGroup is a Gather's running workers: their context, which Close
// and the first failure cancel, and that failure.
type workerGroup struct {
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	once    sync.Once
	err     error         // written once, before failed is closed
	failed  chan struct{} // closed on the first failure
	morsels planner.Morsels
	claimed atomic.Int64 // morsels handed out so far
}

// startWorkers opens the morsels of g's scan and runs work once per
// worker, each on its own goroutine. The workers' context keeps ctx's
// values (the caller, the memory budget, the instrumentation) but not its
// cancellation: the per-call context of Next may end before the query
// does, so the Gather watches it and cancels the workers itself.
func startWorkers(ctx context.Context, g *planner.Gather, n int, work func(g *workerGroup, w int)) (*workerGroup, error) {
	t, ok := g.Scan.Table.(planner.MorselTable)
	if !ok {
		return nil, errNotMorselTable(g.Scan)
	}
	// The columns the workers' morsel scans expect (scanColumnsOf).
	m, err := t.ScanMorsels(ctx, scanColumnsOf(g.Scan).table, g.Scan.PushedFilter())
	if err != nil {
		return nil, wrapScanErr(g.Scan, err)
	}
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	grp := &workerGroup{ctx: wctx, cancel: cancel, failed: make(chan struct{}), morsels: m}
	for w := range n {
		grp.wg.Add(1)
		go func() {
			defer grp.wg.Done()
			defer grp.recoverWorker(w)
			work(grp, w)
		}()
	}
	return grp, nil
}

// claim hands out the next morsel, or reports that none is left.
func (g *workerGroup) claim() (int, bool) {
	i := int(g.claimed.Add(1) - 1)
	return i, i < g.morsels.Len()
}

// fail records the first error and stops every worker.
func (g *workerGroup) fail(err error) {
	g.once.Do(func() {
		g.err = err
		close(g.failed)
		g.cancel()
	})
}

// recoverWorker turns a panic of worker w into the query's error. A
// worker runs on its own goroutine, beyond the recovery of the connection
// that started the query, so an unrecovered panic would end the process.
func (g *workerGroup) recoverWorker(w int) {
	if r := recover(); r != nil {
		g.fail(pgerror.Wrap(fmt.Errorf("panic in parallel worker %d: %v\n%s", w, r, debug.Stack()),
			pgerror.InternalError, "internal error"))
	}
}

// stop cancels the workers, waits for them to return and closes the
// morsels.
func (g *workerGroup) stop() {
	g.cancel()
	g.wg.Wait()
	_ = g.morsels.Close()
}
