package sql

import (
	"context"
	"errors"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// renameGuards are the policy stores that keep policies by name and so
// must follow or refuse a rename: gate two's store, then gate one's.
func (s *Session) renameGuards() []governance.RenameGuard {
	var out []governance.RenameGuard
	if g, ok := s.engine.cfg.Policies.(governance.RenameGuard); ok {
		out = append(out, g)
	}
	if g, ok := s.engine.cfg.Access.(governance.RenameGuard); ok {
		out = append(out, g)
	}
	return out
}

// followRename makes the catalog change rename (which renames r's object)
// with every policy store following it: each store widens its policies
// to the new name first (or refuses, and nothing is renamed), and
// narrows them once the rename is made, or undoes the widening when it
// failed. No policy stops applying at any moment: between the steps a
// policy names both the old and the new name.
func (s *Session) followRename(ctx context.Context, r governance.ObjectRename, rename func(context.Context) error) error {
	var followUps []governance.RenameFollowUp
	abandon := func() error {
		var errs []error
		for _, f := range followUps {
			errs = append(errs, f.Abandoned(ctx))
		}
		return errors.Join(errs...)
	}
	for _, g := range s.renameGuards() {
		f, err := g.BeforeRename(ctx, r)
		if err != nil {
			return errors.Join(err, abandon())
		}
		followUps = append(followUps, f)
	}
	if err := rename(ctx); err != nil {
		if undoErr := abandon(); undoErr != nil {
			s.queueNotice(severityWarning, pgerror.Warning, "", "policies naming %s also name %q until they are changed: %v", r, r.To, undoErr)
		}
		return err
	}
	for _, f := range followUps {
		if err := f.Renamed(ctx); err != nil {
			// The rename is made and every policy still covers the
			// object (under both names); only the old name lingers.
			s.queueNotice(severityWarning, pgerror.Warning, "", "policies that named %s name both its old and new name: %v", r, err)
		}
	}
	return nil
}
