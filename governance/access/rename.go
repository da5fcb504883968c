package access

import (
	"context"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Gate one keeps one policy per exact resource (catalog, namespace,
// table), so a renamed table or namespace moves its policies to keys of
// its new name: its grants and denials follow it, as its data does. A
// policy on every table of a namespace (table "*") covers both names and
// stays. Columns are not gate one's: a column rename changes nothing
// here.

var _ governance.RenameGuard = (*Service)(nil)

// BeforeRename copies the denials of every policy on the object (or, for
// a namespace, on it and its tables) to the policy of its new name, so
// that nobody it denies can reach it under the new name while it moves.
// Its grants follow only in Renamed: until then the new name grants
// nothing it did not grant before.
func (s *Service) BeforeRename(ctx context.Context, r governance.ObjectRename) (governance.RenameFollowUp, error) {
	if r.Kind == governance.RenameColumn {
		return governance.NoFollowUp{}, nil
	}
	lv, err := ranger.NewLevelValues(s.sd)
	if err != nil {
		return nil, err
	}
	f := &accessRename{s: s, r: r, lv: lv}
	for attempt := 1; attempt <= maxWriteAttempts; attempt++ {
		existing, version, err := s.store.AccessPolicies(ctx)
		if err != nil {
			return nil, err
		}
		byResource := make(map[grants.Resource]grants.Policy, len(existing))
		for _, p := range existing {
			byResource[p.Resource] = p
		}
		f.before = map[grants.Resource]*grants.Policy{}
		var changes []grants.Change
		for _, p := range f.moving(existing) {
			if len(p.Deny) == 0 {
				continue
			}
			to := f.renamed(p.Resource)
			next := grants.Policy{Resource: to}
			if q, ok := byResource[to]; ok {
				f.before[to] = &q
				next = q.Clone()
			} else {
				f.before[to] = nil
			}
			next.Deny = append(next.Deny, p.Clone().Deny...)
			changes = append(changes, grants.Change{Resource: to, Policy: &next})
		}
		if len(changes) == 0 {
			return f, nil
		}
		ok, err := s.store.WriteAccessPolicies(ctx, version, changes)
		if err != nil {
			return nil, err
		}
		if ok {
			return f, nil
		}
	}
	return nil, pgerror.New(pgerror.SerializationFailure, "could not follow the rename: the policies kept changing under the statement")
}

// accessRename moves gate one's policies of a renamed object.
type accessRename struct {
	s  *Service
	r  governance.ObjectRename
	lv *ranger.LevelValues
	// before are the policies of the new name's resources as they were
	// before BeforeRename added denials to them (nil: there was none).
	before map[grants.Resource]*grants.Policy
}

// Renamed moves each policy of the old name to the new name's resource,
// replacing what BeforeRename put there.
func (f *accessRename) Renamed(ctx context.Context) error {
	return f.write(ctx, func(existing []grants.Policy) []grants.Change {
		var changes []grants.Change
		for _, p := range f.moving(existing) {
			moved := p.Clone()
			moved.Resource = f.renamed(p.Resource)
			changes = append(changes, grants.Change{Resource: moved.Resource, Policy: &moved}, grants.Change{Resource: p.Resource})
		}
		return changes
	})
}

// Abandoned puts back the new name's policies as they were.
func (f *accessRename) Abandoned(ctx context.Context) error {
	return f.write(ctx, func([]grants.Policy) []grants.Change {
		var changes []grants.Change
		for r, p := range f.before {
			changes = append(changes, grants.Change{Resource: r, Policy: p})
		}
		return changes
	})
}

// write applies the changes computed from the stored policies, again on
// newer ones when another statement wrote in between.
func (f *accessRename) write(ctx context.Context, changes func([]grants.Policy) []grants.Change) error {
	for attempt := 1; attempt <= maxWriteAttempts; attempt++ {
		existing, version, err := f.s.store.AccessPolicies(ctx)
		if err != nil {
			return err
		}
		cs := changes(existing)
		if len(cs) == 0 {
			return nil
		}
		ok, err := f.s.store.WriteAccessPolicies(ctx, version, cs)
		if err != nil || ok {
			return err
		}
	}
	return pgerror.New(pgerror.SerializationFailure, "could not follow the rename: the policies kept changing under the statement")
}

// moving are the policies keyed by the object's old name: for a table,
// the one on it; for a namespace, the one on it and those on its tables.
func (f *accessRename) moving(policies []grants.Policy) []grants.Policy {
	var out []grants.Policy
	for _, p := range policies {
		if f.covers(p.Resource) {
			out = append(out, p)
		}
	}
	return out
}

// covers reports whether a policy's resource is keyed by the old name.
func (f *accessRename) covers(res grants.Resource) bool {
	same := func(level, a, b string) bool { return f.lv.SameName(ranger.PolicyTypeAccess, level, a, b) }
	if !same("catalog", res.Catalog, f.r.Catalog) {
		return false
	}
	switch f.r.Kind {
	case governance.RenameNamespace:
		return same("namespace", res.Namespace, f.r.From)
	case governance.RenameTable:
		return same("namespace", res.Namespace, f.r.Namespace) && same("table", res.Table, f.r.From)
	}
	return false
}

// renamed is res keyed by the new name.
func (f *accessRename) renamed(res grants.Resource) grants.Resource {
	if f.r.Kind == governance.RenameNamespace {
		res.Namespace = f.r.To
	} else {
		res.Table = f.r.To
	}
	return res
}

// RefuseRename is gate one's rename check where the policies live in
// Ranger (the polaris service, enforced by Polaris by name): it refuses
// (42501) a rename of a table or namespace that one of policies would
// stop applying to, naming the policy. A policy that covers both names
// (table "*", a pattern matching both) does not stop applying.
func RefuseRename(sd *ranger.ServiceDef, policies []ranger.Policy, r governance.ObjectRename) error {
	var level string
	var parents [][2]string
	switch r.Kind {
	case governance.RenameNamespace:
		level, parents = "namespace", [][2]string{{"catalog", r.Catalog}}
	case governance.RenameTable:
		level, parents = "table", [][2]string{{"catalog", r.Catalog}, {"namespace", r.Namespace}}
	default:
		return nil
	}
	lv, err := ranger.NewLevelValues(sd)
	if err != nil {
		return err
	}
	t := ranger.PolicyTypeAccess
	for _, p := range policies {
		for _, rs := range append([]map[string]ranger.PolicyResource{p.Resources}, p.AdditionalResources...) {
			res, ok := rs[level]
			if !ok || !lv.Matches(t, level, res, r.From) || lv.Matches(t, level, res, r.To) {
				continue
			}
			covered := true
			for _, pv := range parents {
				if pr, ok := rs[pv[0]]; !ok || !lv.Matches(t, pv[0], pr, pv[1]) {
					covered = false
				}
			}
			if covered {
				return pgerror.New(pgerror.InsufficientPrivilege, "cannot rename %s: policy \"%s\" would stop applying to it", r, p.Name).
					WithDetail("The policy is kept in Ranger by name; SQE does not rewrite it.").
					WithHint("Change or drop the policy first, then rename.")
			}
		}
	}
	return nil
}
