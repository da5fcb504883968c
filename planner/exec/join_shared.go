package exec

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// sharedBuilds holds the build sides of the joins whose probe side a
// Gather's workers run: each join's right input is built once, by the
// first worker to need it, and every worker probes that one table (it is
// only read once built). The Gather closes them when its workers have
// returned.
type sharedBuilds struct {
	// joins are the joins on the workers' pipeline: between the Gather and
	// its scan, each reached through left inputs.
	joins map[*planner.Join]bool

	mu     sync.Mutex
	builds map[*planner.Join]*joinBuild
	// started: startAll has started every build; running counts the
	// builds it runs that have not returned.
	started bool
	running sync.WaitGroup
}

type sharedBuildsKey struct{}

// newSharedBuilds finds the joins on pipeline (a Gather's input, or the
// input of the aggregate it runs) and returns ctx for building the
// workers' operators, with which those joins share their builds.
func newSharedBuilds(ctx context.Context, pipeline planner.Node) (context.Context, *sharedBuilds) {
	s := &sharedBuilds{joins: map[*planner.Join]bool{}, builds: map[*planner.Join]*joinBuild{}}
	for n := pipeline; n != nil; {
		switch x := n.(type) {
		case *planner.Filter:
			n = x.Input
		case *planner.Project:
			n = x.Input
		case *planner.Join:
			if x.HashLeft {
				// Its left input is its build side (the planner never
				// puts such a join in workers' pipelines).
				n = nil
				continue
			}
			s.joins[x] = true
			n = x.Left
		default:
			n = nil
		}
	}
	return context.WithValue(ctx, sharedBuildsKey{}, s), s
}

func sharedBuildsFrom(ctx context.Context) *sharedBuilds {
	s, _ := ctx.Value(sharedBuildsKey{}).(*sharedBuilds)
	return s
}

// probesInWorkers reports whether j is one of the joins the workers probe.
func (s *sharedBuilds) probesInWorkers(j *planner.Join) bool {
	return s != nil && s.joins[j]
}

// buildFor returns j's shared build, starting its right input on the
// first call. The right input is a plan of its own: it is built without
// the workers' morsel feed and shared builds (a Gather inside it runs
// workers of its own).
func (s *sharedBuilds) buildFor(ctx context.Context, j *planner.Join, rightKeys []planner.Expr) (*joinBuild, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.builds[j]; b != nil {
		return b, nil
	}
	ctx = context.WithValue(ctx, sharedBuildsKey{}, (*sharedBuilds)(nil))
	ctx = withMorselFeed(ctx, nil)
	right, err := Build(ctx, j.Right)
	if err != nil {
		return nil, err
	}
	// Workers probe it at once: it cannot turn into partitions on disk
	// halfway (join_spill.go), so past the budget it fails with 53200.
	b, err := newJoinBuild(ctx, j, right, rightKeys, false, 0)
	if err != nil {
		return nil, err
	}
	b.peers = s
	s.builds[j] = b
	return b, nil
}

// startAll starts every build not yet started, each on a goroutine of its
// own, when the first worker needs one. The workers need them one after
// another, outermost join first, and each build's hashing runs on one
// goroutine: TPC-H Q5's builds of customer, supplier and the year's
// orders went by one at a time before the first lineitem row was probed.
// Started together, their inputs and hashing overlap. A build that fails
// keeps its error for the join that needs it.
func (s *sharedBuilds) startAll(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return
	}
	s.started = true
	for _, b := range s.builds {
		s.running.Add(1)
		go func() {
			defer s.running.Done()
			b.once.Do(func() { b.err = b.buildRecovering(ctx) })
		}()
	}
}

// buildRecovering is build on a goroutine beyond the recovery of the
// connection that started the query: a panic is the build's error.
func (b *joinBuild) buildRecovering(ctx context.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = pgerror.Wrap(fmt.Errorf("panic in a join build: %v\n%s", r, debug.Stack()), pgerror.InternalError, "internal error")
		}
	}()
	return b.build(ctx)
}

// close releases every build; no worker may be probing.
func (s *sharedBuilds) close() {
	if s == nil {
		return
	}
	// A build startAll started may still run (a query cancelled, or
	// ended by a LIMIT before it needed every build).
	s.running.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	for j, b := range s.builds {
		b.close()
		delete(s.builds, j)
	}
}
