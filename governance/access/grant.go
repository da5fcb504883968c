package access

import (
	"context"
	"fmt"

	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Caller is who issues a statement: the session's user with its
// effective roles and groups.
type Caller struct {
	User   string
	Roles  []string
	Groups []string
}

// maxWriteAttempts bounds how often a statement is re-planned when
// another node changed the policies between the read and the write.
const maxWriteAttempts = 20

// Change carries out a GRANT, REVOKE or DENY for caller: plan it with the
// grant profile, check the caller's authority, apply it to the stored
// policies and write the difference in one transaction. It returns the
// plan carried out (the levels written).
func (s *Service) Change(ctx context.Context, caller Caller, action grants.Action, st grants.Statement) (grants.Plan, error) {
	plan, err := PlanChange(s.profile, caller, action, st, s.cfg.Realm)
	if err != nil {
		return grants.Plan{}, err
	}
	authority := grants.Authority{Mode: s.cfg.Authority, AdminRoles: s.cfg.AdminRoles}
	grantor := grants.Grantor{User: caller.User, Roles: caller.Roles, Groups: caller.Groups}
	for attempt := 1; attempt <= maxWriteAttempts; attempt++ {
		existing, version, err := s.store.AccessPolicies(ctx)
		if err != nil {
			return grants.Plan{}, err
		}
		allowed, err := s.profile.Authorize(grantor, plan, existing, authority)
		if err != nil {
			return grants.Plan{}, err
		}
		var next []grants.Policy
		switch action {
		case grants.ActionGrant:
			next, err = s.profile.ApplyGrant(existing, allowed)
		case grants.ActionRevoke:
			next, err = s.profile.ApplyRevoke(existing, allowed)
		case grants.ActionDeny:
			next, err = s.profile.ApplyDeny(existing, allowed)
		}
		if err != nil {
			return grants.Plan{}, err
		}
		ok, err := s.store.WriteAccessPolicies(ctx, version, grants.Diff(existing, next))
		if err != nil {
			return grants.Plan{}, err
		}
		if ok {
			return allowed, nil
		}
	}
	return grants.Plan{}, pgerror.New(pgerror.SerializationFailure, "could not %s: the policies kept changing under the statement", action)
}

// MayChange refuses, before the statement's names are resolved, a GRANT,
// REVOKE or DENY the caller could never carry out (grants.RequireAdmin).
func (s *Service) MayChange(caller Caller, action grants.Action) error {
	return grants.RequireAdmin(grants.Grantor{User: caller.User, Roles: caller.Roles, Groups: caller.Groups}, action,
		grants.Authority{Mode: s.cfg.Authority, AdminRoles: s.cfg.AdminRoles})
}

// PlanChange plans a GRANT, REVOKE or DENY of caller with the grant
// profile, writing policies under realm. A grant or denial to a group is
// refused: no backend can confirm that a group exists (Polaris passes no
// groups to Ranger unless Ranger's usersync runs), so such a grant could
// reach nobody; REVOKE may still remove one written elsewhere. Every
// gate-one backend plans this way.
func PlanChange(profile *grants.Profile, caller Caller, action grants.Action, st grants.Statement, realm string) (grants.Plan, error) {
	st.Grantor = caller.User
	st.Realm = realm
	for _, g := range st.Grantees {
		if g.Kind == grants.GranteeGroup && action != grants.ActionRevoke {
			return grants.Plan{}, pgerror.New(pgerror.FeatureNotSupported, "%s to a group is not supported", action).
				WithDetail("Groups come from the identity provider's token and cannot be confirmed to exist, so grants go to users and roles only.").
				WithHint("Grant to a role and make the group's members members of the role.")
		}
	}
	switch action {
	case grants.ActionGrant:
		return profile.PlanGrant(st)
	case grants.ActionRevoke:
		return profile.PlanRevoke(st)
	case grants.ActionDeny:
		return profile.PlanDeny(st)
	}
	return grants.Plan{}, fmt.Errorf("unknown grant action %q", action)
}
