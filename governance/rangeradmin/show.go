package rangeradmin

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
)

// ShowGrants lists the grants held in Ranger on policies of the polaris
// shape, filtered, denials included. An administrator sees all, others
// only rows naming themselves or their roles.
func (s *Service) ShowGrants(ctx context.Context, caller access.Caller, f access.GrantFilter) ([]access.GrantRow, error) {
	snap, err := s.policies(ctx)
	if err != nil {
		return nil, err
	}
	return access.GrantRows(snap.models(), caller, s.isAdmin(caller.Roles), f), nil
}

// EffectiveGrants lists what user holds in Ranger: rows naming the user
// or a role Ranger's role store gives it, nested roles followed. A role
// store that cannot be read is an error rather than a shorter list.
func (s *Service) EffectiveGrants(ctx context.Context, caller access.Caller, user string) ([]access.GrantRow, error) {
	if err := access.MayAskAbout(caller, s.isAdmin(caller.Roles), user); err != nil {
		return nil, err
	}
	snap, err := s.policies(ctx)
	if err != nil {
		return nil, err
	}
	all, err := s.roles(ctx)
	if err != nil {
		return nil, err
	}
	return access.EffectiveGrantRows(snap.models(), caller, user, effectiveRoles(all, user)), nil
}

// CheckAccess answers whether user holds privilege on obj at the level
// the privilege names, evaluating every policy of the service with
// Ranger's semantics (deny over allow, wildcards, disabled policies), and
// why. The user's roles come from Ranger's role store, nested roles
// followed; groups are not resolved, so a grant held only through a group
// is not seen. It is introspection: Polaris's decision is the one that
// counts. An administrator may ask about anyone, others only about
// themselves.
func (s *Service) CheckAccess(ctx context.Context, caller access.Caller, privilege string, obj grants.Object, user string) (access.Decision, error) {
	named, err := access.CheckTarget(s.profile, caller, s.isAdmin(caller.Roles), privilege, obj, user, s.cfg.Realm)
	if err != nil {
		return access.Decision{}, err
	}
	return s.decideFor(ctx, named, user, func(all []storedRole) []string { return effectiveRoles(all, user) })
}

// CheckRoleAccess is CheckAccess for a member of role who holds nothing
// else (administrators only).
func (s *Service) CheckRoleAccess(ctx context.Context, caller access.Caller, privilege string, obj grants.Object, role string) (access.Decision, error) {
	named, err := access.RoleCheckTarget(s.profile, caller, s.isAdmin(caller.Roles), privilege, obj, s.cfg.Realm)
	if err != nil {
		return access.Decision{}, err
	}
	return s.decideFor(ctx, named, "", func(all []storedRole) []string { return rolesWithParents(all, []string{role}) })
}

// decideFor decides named for user (none: "") with the roles rolesOf
// finds in Ranger's role store.
func (s *Service) decideFor(ctx context.Context, named grants.Write, user string, rolesOf func([]storedRole) []string) (access.Decision, error) {
	snap, err := s.policies(ctx)
	if err != nil {
		return access.Decision{}, err
	}
	var roleNote string
	var roles []string
	all, err := s.roles(ctx)
	if err != nil {
		roleNote = fmt.Sprintf(" (roles could not be read from Ranger Admin, so grants through nested roles were not considered: %v)", err)
		all = nil
	}
	roles = rolesOf(all)
	policies := make([]ranger.Policy, 0, len(snap.raw))
	for _, data := range snap.raw {
		var p ranger.Policy
		if err := json.Unmarshal(data, &p); err != nil {
			return access.Decision{}, fmt.Errorf("check access: decode policy: %w", err)
		}
		if p.PolicyType == ranger.PolicyTypeAccess {
			policies = append(policies, p)
		}
	}
	eval, err := ranger.New(ranger.Config{ServiceDef: s.sd, Policies: policies})
	if err != nil {
		return access.Decision{}, fmt.Errorf("check access: compile policies: %w", err)
	}
	d := access.Decide(eval, policies, named, user, roles)
	if !d.Allowed {
		d.Reason += roleNote
	}
	d.Store = access.StoreRanger
	return d, nil
}
