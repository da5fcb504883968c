package access

import (
	"context"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Roles of the embedded backend live in the governance store; changing
// them needs an administrator role, as GRANT does.

func (s *Service) requireAdmin(caller Caller, what string) error {
	if s.isAdmin(caller.Roles) {
		return nil
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to %s", what).
		WithDetail("Only roles listed in [auth] admin_roles may %s.", what)
}

// CreateRole defines a role.
func (s *Service) CreateRole(ctx context.Context, caller Caller, name string) error {
	if err := s.requireAdmin(caller, "create role"); err != nil {
		return err
	}
	exists, err := s.store.RoleExists(ctx, name)
	if err != nil {
		return err
	}
	if exists {
		return pgerror.New(pgerror.DuplicateObject, "role \"%s\" already exists", name)
	}
	return s.store.CreateRole(ctx, name, false)
}

// DropRole removes roles; a missing one is an error unless ifExists.
// It reports the names that did not exist (for a notice).
func (s *Service) DropRole(ctx context.Context, caller Caller, names []string, ifExists bool) (missing []string, err error) {
	if err := s.requireAdmin(caller, "drop role"); err != nil {
		return nil, err
	}
	for _, n := range names {
		exists, err := s.store.RoleExists(ctx, n)
		if err != nil {
			return nil, err
		}
		if !exists {
			if !ifExists {
				return nil, pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", n)
			}
			missing = append(missing, n)
		}
	}
	for _, n := range names {
		if _, err := s.store.DropRole(ctx, n); err != nil {
			return nil, err
		}
	}
	return missing, nil
}

// RoleMember is a user or a role that is made, or stops being, a member
// of a role.
type RoleMember struct {
	Role bool // a role, not a user
	Name string
}

// GrantRoles makes each member a member of each role (GRANT r TO ...).
func (s *Service) GrantRoles(ctx context.Context, caller Caller, roles []string, members []RoleMember) error {
	return s.changeMemberships(ctx, caller, "grant roles", roles, members, func(role string, kind governance.MemberKind, m RoleMember) error {
		if m.Role {
			if err := s.requireRoles(ctx, []string{m.Name}); err != nil {
				return err
			}
			if m.Name == role {
				return pgerror.New(pgerror.InvalidGrantOperation, "role \"%s\" is a member of role \"%s\"", role, role)
			}
		}
		return s.store.GrantRole(ctx, role, kind, m.Name)
	})
}

// RevokeRoles ends the memberships (REVOKE r FROM ...).
func (s *Service) RevokeRoles(ctx context.Context, caller Caller, roles []string, members []RoleMember) error {
	return s.changeMemberships(ctx, caller, "revoke roles", roles, members, func(role string, kind governance.MemberKind, m RoleMember) error {
		_, err := s.store.RevokeRole(ctx, role, kind, m.Name)
		return err
	})
}

// changeMemberships checks the caller and the roles, then applies change
// to every (role, member) pair.
func (s *Service) changeMemberships(ctx context.Context, caller Caller, what string, roles []string, members []RoleMember,
	change func(role string, kind governance.MemberKind, m RoleMember) error) error {
	if err := s.requireAdmin(caller, what); err != nil {
		return err
	}
	if err := s.requireRoles(ctx, roles); err != nil {
		return err
	}
	for _, r := range roles {
		for _, m := range members {
			kind := governance.MemberUser
			if m.Role {
				kind = governance.MemberRole
			}
			if err := change(r, kind, m); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Service) requireRoles(ctx context.Context, roles []string) error {
	for _, r := range roles {
		ok, err := s.store.RoleExists(ctx, r)
		if err != nil {
			return err
		}
		if !ok {
			return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", r)
		}
	}
	return nil
}
