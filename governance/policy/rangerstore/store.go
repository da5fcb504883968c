package rangerstore

import (
	"context"
	"sync"
	"time"

	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/governance/rangerrest"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Store keeps gate two's policies in Ranger Admin.
type Store struct {
	cfg    Config
	client *rangerrest.Client

	mu sync.Mutex
	// snap is the last snapshot downloaded, nil until the first; known
	// are the Ranger versions it was built from, activated when.
	snap      *policy.Snapshot
	known     versions
	activated time.Time
	// expires ends the snapshot's TTL; the zero time means it must be
	// revalidated now.
	expires time.Time
	// gen counts Flush calls: a refresh that began before the latest
	// flush may predate a write, so it does not make the cache fresh.
	gen uint64
	// version is the last Snapshot.Version handed out.
	version int64
	// inflight is the refresh under way, which callers share.
	inflight *refresh
}

var _ policy.Store = (*Store)(nil)

// refresh is one download, shared by every caller waiting for it.
type refresh struct {
	gen  uint64
	done chan struct{}
	snap *policy.Snapshot
	err  error
}

// New is the store of cfg. It makes no request: Ranger Admin may be down
// at start, and the first Snapshot says so.
func New(cfg Config) (*Store, error) {
	cfg, err := cfg.check()
	if err != nil {
		return nil, err
	}
	rest := rangerrest.New(rangerrest.Config{URL: cfg.URL, User: cfg.AdminUser, Password: cfg.AdminPassword,
		HTTPClient: cfg.HTTPClient, MaxAnswer: maxAnswer})
	return &Store{
		cfg:    cfg,
		client: rest,
		known:  unknownVersions,
	}, nil
}

// Snapshot returns the cached snapshot within its TTL and revalidates it
// after. An error means the policies are unknown.
func (s *Store) Snapshot(ctx context.Context) (*policy.Snapshot, error) {
	s.mu.Lock()
	arrived := s.gen
	for first := true; ; first = false {
		hit := s.snap != nil && s.cfg.Now().Before(s.expires)
		if first && s.cfg.OnCache != nil {
			s.cfg.OnCache(hit)
		}
		if hit {
			snap := s.snap
			s.mu.Unlock()
			return snap, nil
		}
		r := s.inflight
		if r == nil {
			r = s.startRefresh(ctx)
		}
		s.mu.Unlock()
		select {
		case <-r.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		// A refresh begun before a flush this caller saw may miss the
		// write flushed for; wait for one begun after.
		if r.gen >= arrived {
			return r.snap, r.err
		}
		s.mu.Lock()
	}
}

// startRefresh begins a download; s.mu is held. It runs apart from the
// caller's context, so that a caller giving up does not fail the others
// waiting; the HTTP client's timeout bounds it.
func (s *Store) startRefresh(ctx context.Context) *refresh {
	r := &refresh{gen: s.gen, done: make(chan struct{})}
	s.inflight = r
	known, activated := s.known, s.activated
	go func() {
		d, err := s.fetch(context.WithoutCancel(ctx), known, activated)
		s.mu.Lock()
		if err == nil {
			r.snap, err = s.apply(d, r.gen)
		}
		r.err = err
		s.inflight = nil
		s.mu.Unlock()
		close(r.done)
	}()
	return r
}

// apply makes the snapshot of a download over the cached one, keeping
// the parts answered 304; s.mu is held. The version changes only when
// Ranger's policy, tag policy or role version does.
func (s *Store) apply(d download, gen uint64) (*policy.Snapshot, error) {
	if s.snap == nil && (d.policies == nil || d.roles == nil) {
		return nil, pgerror.New(codeSystemError, "Ranger Admin answered a first download of service %q with 304 Not Modified", s.cfg.ServiceName)
	}
	next := policy.Snapshot{}
	if s.snap != nil {
		next = *s.snap
	}
	known := s.known
	changed := s.snap == nil
	if pd := d.policies; pd != nil {
		if err := s.checkDownload(pd); err != nil {
			return nil, err
		}
		known.policies, known.tagPolicies = versionOf(pd.PolicyVersion), -1
		next.ServiceDef, next.Policies = pd.ServiceDef, gateTwoPolicies(pd.Policies)
		next.TagServiceDef, next.TagPolicies = nil, nil
		if tp := pd.TagPolicies; tp != nil {
			known.tagPolicies = versionOf(tp.PolicyVersion)
			next.TagServiceDef, next.TagPolicies = tp.ServiceDef, gateTwoPolicies(tp.Policies)
		}
		// Without a version there is nothing to compare: a change.
		changed = changed || known.policies < 0 || known.policies != s.known.policies || known.tagPolicies != s.known.tagPolicies
	}
	if d.roles != nil {
		known.roles = d.roles.RoleVersion
		next.Roles = d.roles
		changed = changed || known.roles != s.known.roles
	}
	now := s.cfg.Now()
	if changed {
		s.version++
		next.Version = s.version
		s.snap = &next
	}
	s.known, s.activated = known, now
	if gen == s.gen {
		s.expires = now.Add(s.cfg.CacheTTL)
	}
	return s.snap, nil
}

// Engine is policy.EngineRanger.
func (s *Store) Engine() string { return policy.EngineRanger }

// Flush makes the next Snapshot download again: SQE's own writes are
// seen at once rather than after the TTL.
func (s *Store) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	s.expires = time.Time{}
}
