package sql

import (
	"context"
	"slices"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// A session's roles are its token's roles and the roles the governance
// store gives its user. The store's part can change while the session is
// open (GRANT engineer TO USER alice, REVOKE analyst FROM USER bob): a
// session that kept the roles of its login would keep access a REVOKE
// took away, or escape a row filter or mask a new role brings. So every
// statement first checks the store's roles version, read under the
// statement's pinned versions (one query with the policies' versions),
// and computes the roles again when it moved; both gates then decide with
// the new roles.

// refreshRoles brings the session's roles up to the store's current
// version. It fails closed: when the store cannot be read the statement
// fails rather than run with roles that may be stale.
func (s *Session) refreshRoles(ctx context.Context) error {
	if s.engine == nil || s.engine.cfg.Roles == nil {
		return nil
	}
	src := s.engine.cfg.Roles
	v, err := src.RolesVersion(ctx)
	if err != nil {
		return pgerror.Wrap(err, pgerror.InternalError, "role memberships cannot be read")
	}
	if v == s.rolesVersion {
		return nil
	}
	roles, err := src.EffectiveRoles(ctx, s.identity.User, s.tokenRoles)
	if err != nil {
		return pgerror.Wrap(err, pgerror.InternalError, "role memberships cannot be read")
	}
	s.rolesVersion = v
	if !slices.Equal(roles, s.identity.Roles) {
		s.takeRoles(roles)
	}
	return nil
}

// takeRoles makes roles the session's: who it is to both gates, and
// whether it is a superuser.
func (s *Session) takeRoles(roles []string) {
	e := s.engine
	s.identity.Roles = roles
	s.superuser = false
	for _, r := range roles {
		if slices.Contains(e.cfg.AdminRoles, r) {
			s.superuser = true
		}
	}
	if e.security != nil {
		s.security = withMetadataTables(e.security.SecurityFor(s.identity))
	} else {
		s.security = withMetadataTables(planner.OpenRelation{})
	}
}
