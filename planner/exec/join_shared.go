package exec

import (
	"context"
	"sync"

	"github.com/sqe-db/sqe/planner"
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
	s.builds[j] = b
	return b, nil
}

// close releases every build; no worker may be probing.
func (s *sharedBuilds) close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for j, b := range s.builds {
		b.close()
		delete(s.builds, j)
	}
}
