package polarisadmin

import (
	"context"
	"net/http"
	"strings"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// refuseUserRoleName refuses a role named like the roles that stand for
// users, which SHOW GRANTS would show as the user.
func refuseUserRoleName(name string) error {
	if strings.HasPrefix(name, userRolePrefix) {
		return pgerror.New(pgerror.InvalidName, "role name \"%s\" is reserved", name).
			WithDetail("Role names starting with %q stand for the grants made to one user.", userRolePrefix)
	}
	return nil
}

// roleExists reports whether the principal role name exists.
func (s *Service) roleExists(ctx context.Context, name string) (bool, error) {
	err := s.client.do(ctx, http.MethodGet, "/principal-roles/"+seg(name), nil, nil)
	switch {
	case err == nil:
		return true, nil
	case statusOf(err) == http.StatusNotFound:
		return false, nil
	}
	return false, userError(err, "look up role "+name)
}

// CreateRole creates the principal role name and, in every mapped
// catalog, the catalog role of the same name granted to it.
func (s *Service) CreateRole(ctx context.Context, caller access.Caller, name string) error {
	if err := s.requireAdmin(caller, "create role"); err != nil {
		return err
	}
	if err := refuseUserRoleName(name); err != nil {
		return err
	}
	err := s.client.do(ctx, http.MethodPost, "/principal-roles", map[string]any{"principalRole": role{Name: name}}, nil)
	if statusOf(err) == http.StatusConflict {
		return pgerror.New(pgerror.DuplicateObject, "role \"%s\" already exists", name)
	}
	if err != nil {
		return userError(err, "create role "+name)
	}
	for _, c := range s.sqeCatalogs() {
		if err := s.linkCatalogRole(ctx, s.cfg.Catalogs[c], name, name, nil); err != nil {
			return err
		}
	}
	return nil
}

// DropRole deletes the principal roles and their catalog roles (and with
// them the catalog roles' grants); a missing one is an error unless
// ifExists. It reports the names that did not exist.
func (s *Service) DropRole(ctx context.Context, caller access.Caller, names []string, ifExists bool) ([]string, error) {
	if err := s.requireAdmin(caller, "drop role"); err != nil {
		return nil, err
	}
	var missing, present []string
	for _, n := range names {
		ok, err := s.roleExists(ctx, n)
		if err != nil {
			return nil, err
		}
		if !ok {
			if !ifExists {
				return nil, pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", n)
			}
			missing = append(missing, n)
			continue
		}
		present = append(present, n)
	}
	for _, n := range present {
		for _, c := range s.sqeCatalogs() {
			err := s.client.do(ctx, http.MethodDelete, "/catalogs/"+seg(s.cfg.Catalogs[c])+"/catalog-roles/"+seg(n), nil, nil)
			if err != nil && statusOf(err) != http.StatusNotFound {
				return nil, userError(err, "drop catalog role "+n)
			}
		}
		err := s.client.do(ctx, http.MethodDelete, "/principal-roles/"+seg(n), nil, nil)
		if err != nil && statusOf(err) != http.StatusNotFound {
			return nil, userError(err, "drop role "+n)
		}
	}
	return missing, nil
}

// GrantRoles grants each role to each member: to a user, the principal
// role to the principal; to a role, the role's catalog roles to the
// member's principal role.
func (s *Service) GrantRoles(ctx context.Context, caller access.Caller, roles []string, members []access.RoleMember) error {
	if err := s.requireAdmin(caller, "grant roles"); err != nil {
		return err
	}
	for _, r := range roles {
		if err := s.requireRole(ctx, r); err != nil {
			return err
		}
	}
	for _, m := range members {
		if m.Role {
			if err := s.requireRole(ctx, m.Name); err != nil {
				return err
			}
		}
	}
	for _, r := range roles {
		for _, m := range members {
			if !m.Role {
				err := s.client.do(ctx, http.MethodPut, "/principals/"+seg(m.Name)+"/principal-roles",
					map[string]any{"principalRole": role{Name: r}}, nil)
				if statusOf(err) == http.StatusNotFound {
					return pgerror.New(pgerror.UndefinedObject, "user \"%s\" is not a Polaris principal", m.Name).
						WithHint("Create the principal in Polaris first; SQE does not create principals.")
				}
				if err != nil {
					return userError(err, "grant role "+r+" to "+m.Name)
				}
				continue
			}
			if m.Name == r {
				return pgerror.New(pgerror.InvalidGrantOperation, "role \"%s\" is a member of role \"%s\"", r, r)
			}
			for _, c := range s.sqeCatalogs() {
				if err := s.linkCatalogRole(ctx, s.cfg.Catalogs[c], r, m.Name, nil); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// RevokeRoles ends the memberships GrantRoles makes; one that does not
// exist is not an error.
func (s *Service) RevokeRoles(ctx context.Context, caller access.Caller, roles []string, members []access.RoleMember) error {
	if err := s.requireAdmin(caller, "revoke roles"); err != nil {
		return err
	}
	for _, r := range roles {
		if err := s.requireRole(ctx, r); err != nil {
			return err
		}
	}
	for _, r := range roles {
		for _, m := range members {
			var paths []string
			if m.Role {
				for _, c := range s.sqeCatalogs() {
					paths = append(paths, "/principal-roles/"+seg(m.Name)+"/catalog-roles/"+seg(s.cfg.Catalogs[c])+"/"+seg(r))
				}
			} else {
				paths = append(paths, "/principals/"+seg(m.Name)+"/principal-roles/"+seg(r))
			}
			for _, p := range paths {
				err := s.client.do(ctx, http.MethodDelete, p, nil, nil)
				if err != nil && statusOf(err) != http.StatusNotFound {
					return userError(err, "revoke role "+r+" from "+m.Name)
				}
			}
		}
	}
	return nil
}

func (s *Service) requireRole(ctx context.Context, name string) error {
	ok, err := s.roleExists(ctx, name)
	if err != nil {
		return err
	}
	if !ok {
		return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", name)
	}
	return nil
}
