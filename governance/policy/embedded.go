package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Embedded keeps gate two's policies in the governance database
// ([policy] engine = "embedded"). Roles come from the session's identity
// (token roles and the governance store's, resolved at login), so its
// snapshots carry none.
type Embedded struct {
	gov          *governance.Store
	hive, tagDef *ranger.ServiceDef
	// levels matches the hive service's resource values one level at a
	// time, for following renames.
	levels *ranger.LevelValues

	mu     sync.Mutex
	cached *Snapshot
	// onCache, when set, is told whether each Snapshot reused the cached
	// snapshot (hit) or read the policies again (miss).
	onCache CacheObserver
}

var (
	_ Store                  = (*Embedded)(nil)
	_ governance.RenameGuard = (*Embedded)(nil)
)

// NewEmbedded is the embedded store over gov.
func NewEmbedded(gov *governance.Store) (*Embedded, error) {
	hive, tag, err := serviceDefs()
	if err != nil {
		return nil, err
	}
	levels, err := ranger.NewLevelValues(hive)
	if err != nil {
		return nil, err
	}
	return &Embedded{gov: gov, hive: hive, tagDef: tag, levels: levels}, nil
}

// ObserveCache makes the store tell fn, at each Snapshot, whether the
// cached snapshot was reused. Call it before the store is used.
func (e *Embedded) ObserveCache(fn CacheObserver) { e.onCache = fn }

// Snapshot returns the policies at the current version, read again only
// when the version moved (another statement or node wrote).
func (e *Embedded) Snapshot(ctx context.Context) (*Snapshot, error) {
	version, err := e.gov.FinePoliciesVersion(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	cached := e.cached
	e.mu.Unlock()
	// Versions only grow: a statement pinned to an older version than
	// the cached snapshot is served the newer one.
	hit := cached != nil && cached.Version >= version
	if e.onCache != nil {
		e.onCache(hit)
	}
	if hit {
		return cached, nil
	}
	snap, err := e.read(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	if e.cached == nil || snap.Version >= e.cached.Version {
		e.cached = snap
	}
	e.mu.Unlock()
	return snap, nil
}

// read loads every policy at one version.
func (e *Embedded) read(ctx context.Context) (*Snapshot, error) {
	stored, version, err := e.gov.FinePolicies(ctx)
	if err != nil {
		return nil, err
	}
	snap := &Snapshot{Version: version, ServiceDef: e.hive, TagServiceDef: e.tagDef}
	for i, sp := range stored {
		var p ranger.Policy
		if err := json.Unmarshal([]byte(sp.Body), &p); err != nil {
			return nil, fmt.Errorf("policy %s is unreadable: %w", sp.Name, err)
		}
		// Ids are positions in this snapshot: the evaluator reports the
		// deciding policy by id.
		p.ID = int64(i + 1)
		if sp.Service == governance.FinePolicyTag {
			snap.TagPolicies = append(snap.TagPolicies, p)
		} else {
			snap.Policies = append(snap.Policies, p)
		}
	}
	return snap, nil
}

// PutPolicy stores p under its name.
func (e *Embedded) PutPolicy(ctx context.Context, p ranger.Policy, replace bool) error {
	service := governance.FinePolicyHive
	if IsTagPolicy(&p) {
		service = governance.FinePolicyTag
	}
	p.ID = 0
	body, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode policy %s: %w", p.Name, err)
	}
	written, err := e.gov.PutFinePolicy(ctx, governance.StoredFinePolicy{Name: p.Name, Service: service, Body: string(body)}, replace)
	if err != nil {
		return err
	}
	if !written {
		return pgerror.New(pgerror.DuplicateObject, "policy \"%s\" already exists", p.Name).
			WithHint("Use CREATE OR REPLACE POLICY to change it.")
	}
	return nil
}

// Engine is EngineEmbedded.
func (e *Embedded) Engine() string { return EngineEmbedded }

// DropPolicy removes the policy named name.
func (e *Embedded) DropPolicy(ctx context.Context, name string) (bool, error) {
	return e.gov.DropFinePolicy(ctx, name)
}

// maxRenameAttempts bounds how often BeforeRename plans again when
// another statement changed a policy between its read and its write.
const maxRenameAttempts = 20

// BeforeRename makes the policies that cover the renamed object cover its
// new name too (governance.RenameGuard), in one transaction, and returns
// what narrows them once the catalog has renamed.
func (e *Embedded) BeforeRename(ctx context.Context, r governance.ObjectRename) (governance.RenameFollowUp, error) {
	for attempt := 0; attempt < maxRenameAttempts; attempt++ {
		stored, _, err := e.gov.FinePolicies(ctx)
		if err != nil {
			return nil, err
		}
		policies := make([]ranger.Policy, len(stored))
		for i, sp := range stored {
			if err := json.Unmarshal([]byte(sp.Body), &policies[i]); err != nil {
				return nil, fmt.Errorf("policy %s is unreadable: %w", sp.Name, err)
			}
		}
		edits, err := planRename(e.levels, policies, r)
		if err != nil {
			return nil, err
		}
		if len(edits) == 0 {
			return governance.NoFollowUp{}, nil
		}
		f := &embeddedRename{gov: e.gov}
		var widen []governance.FinePolicySwap
		for _, ed := range edits {
			var body [3]string
			for i, p := range []ranger.Policy{ed.original, ed.widened, ed.final} {
				b, err := json.Marshal(p)
				if err != nil {
					return nil, fmt.Errorf("encode policy %s: %w", p.Name, err)
				}
				body[i] = string(b)
			}
			for _, sp := range stored {
				if sp.Name == ed.original.Name {
					body[0] = sp.Body // swap from the text as stored
				}
			}
			widen = append(widen, governance.FinePolicySwap{Name: ed.original.Name, From: body[0], To: body[1]})
			f.narrow = append(f.narrow, governance.FinePolicySwap{Name: ed.original.Name, From: body[1], To: body[2], NewName: ed.final.Name})
			f.undo = append(f.undo, governance.FinePolicySwap{Name: ed.original.Name, From: body[1], To: body[0]})
		}
		n, err := e.gov.SwapFinePolicies(ctx, dropNoOps(widen), true)
		if err != nil {
			return nil, err
		}
		if n > 0 || len(dropNoOps(widen)) == 0 {
			return f, nil
		}
	}
	return nil, pgerror.New(pgerror.SerializationFailure, "could not follow the rename: the policies kept changing under the statement")
}

// dropNoOps leaves out the swaps that write what is already there (a
// policy whose only change comes after the rename).
func dropNoOps(swaps []governance.FinePolicySwap) []governance.FinePolicySwap {
	var out []governance.FinePolicySwap
	for _, s := range swaps {
		if s.From != s.To || (s.NewName != "" && s.NewName != s.Name) {
			out = append(out, s)
		}
	}
	return out
}

// embeddedRename finishes a rename the embedded store widened. A policy
// that someone changed in between is left as it is: it still covers both
// names, which hides more, never less.
type embeddedRename struct {
	gov          *governance.Store
	narrow, undo []governance.FinePolicySwap
}

func (f *embeddedRename) Renamed(ctx context.Context) error {
	_, err := f.gov.SwapFinePolicies(ctx, dropNoOps(f.narrow), false)
	return err
}

func (f *embeddedRename) Abandoned(ctx context.Context) error {
	_, err := f.gov.SwapFinePolicies(ctx, dropNoOps(f.undo), false)
	return err
}

// EditPolicy edits the policy named name in one transaction of the
// governance database.
func (e *Embedded) EditPolicy(ctx context.Context, name string, edit PolicyEdit) error {
	_, err := e.gov.EditFinePolicy(ctx, name, func(stored *governance.StoredFinePolicy) (*governance.StoredFinePolicy, error) {
		var current *ranger.Policy
		if stored != nil {
			current = &ranger.Policy{}
			if err := json.Unmarshal([]byte(stored.Body), current); err != nil {
				return nil, fmt.Errorf("policy %s is unreadable: %w", name, err)
			}
		}
		next, err := edit(current)
		if err != nil || next == nil {
			return nil, err
		}
		if next.Name != name {
			return nil, fmt.Errorf("edit of policy %s renames it to %s", name, next.Name)
		}
		service := governance.FinePolicyHive
		if IsTagPolicy(next) {
			service = governance.FinePolicyTag
		}
		next.ID = 0
		body, err := json.Marshal(next)
		if err != nil {
			return nil, fmt.Errorf("encode policy %s: %w", name, err)
		}
		return &governance.StoredFinePolicy{Name: name, Service: service, Body: string(body)}, nil
	})
	return err
}
