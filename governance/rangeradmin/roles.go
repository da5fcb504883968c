package rangeradmin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Roles live in Ranger's role store, where Polaris's authorizer resolves
// a user's roles. Changing them needs an administrator role, as GRANT
// does in admin-role mode.

// storedRole is a RangerRole as Ranger returned it, kept whole so that a
// write-back keeps its groups, options and description.
type storedRole struct {
	ID    int64        `json:"id"`
	Name  string       `json:"name"`
	Users []roleMember `json:"users"`
	Roles []roleMember `json:"roles"`
	raw   map[string]json.RawMessage
}

// roleMember is RangerRole.RoleMember.
type roleMember struct {
	Name    string `json:"name"`
	IsAdmin bool   `json:"isAdmin"`
}

// roles lists every role.
func (s *Service) roles(ctx context.Context) ([]storedRole, error) {
	var raw []json.RawMessage
	if err := s.client.get(ctx, rolesPath, nil, &raw); err != nil {
		return nil, userError(err, "list roles")
	}
	out := make([]storedRole, 0, len(raw))
	for _, data := range raw {
		var r storedRole
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("ranger backend: decode role: %w", err)
		}
		if err := json.Unmarshal(data, &r.raw); err != nil {
			return nil, fmt.Errorf("ranger backend: decode role: %w", err)
		}
		out = append(out, r)
	}
	return out, nil
}

func findRole(roles []storedRole, name string) *storedRole {
	for i := range roles {
		if roles[i].Name == name {
			return &roles[i]
		}
	}
	return nil
}

func (s *Service) requireAdmin(caller access.Caller, what string) error {
	if s.isAdmin(caller.Roles) {
		return nil
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to %s", what).
		WithDetail("Only roles listed in [auth] admin_roles may %s.", what)
}

// CreateRole defines a role in Ranger.
func (s *Service) CreateRole(ctx context.Context, caller access.Caller, name string) error {
	if err := s.requireAdmin(caller, "create role"); err != nil {
		return err
	}
	roles, err := s.roles(ctx)
	if err != nil {
		return err
	}
	if findRole(roles, name) != nil {
		return pgerror.New(pgerror.DuplicateObject, "role \"%s\" already exists", name)
	}
	body := map[string]any{"name": name, "description": "", "users": []any{}, "groups": []any{}, "roles": []any{}}
	if err := s.client.do(ctx, http.MethodPost, rolesPath, nil, body, nil); err != nil {
		return userError(err, "create role "+name)
	}
	return nil
}

// DropRole removes roles; a missing one is an error unless ifExists. It
// reports the names that did not exist (for a notice).
func (s *Service) DropRole(ctx context.Context, caller access.Caller, names []string, ifExists bool) ([]string, error) {
	if err := s.requireAdmin(caller, "drop role"); err != nil {
		return nil, err
	}
	roles, err := s.roles(ctx)
	if err != nil {
		return nil, err
	}
	var missing []string
	var ids []int64
	for _, n := range names {
		r := findRole(roles, n)
		if r == nil {
			if !ifExists {
				return nil, pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", n)
			}
			missing = append(missing, n)
			continue
		}
		ids = append(ids, r.ID)
	}
	for i, id := range ids {
		if err := s.client.do(ctx, http.MethodDelete, rolesPath+"/"+strconv.FormatInt(id, 10), nil, nil, nil); err != nil {
			return nil, userError(err, "drop role "+names[i])
		}
	}
	return missing, nil
}

// GrantRoles makes each member a member of each role (GRANT r TO ...).
func (s *Service) GrantRoles(ctx context.Context, caller access.Caller, roles []string, members []access.RoleMember) error {
	return s.changeMemberships(ctx, caller, "grant roles", roles, members, true)
}

// RevokeRoles ends the memberships (REVOKE r FROM ...).
func (s *Service) RevokeRoles(ctx context.Context, caller access.Caller, roles []string, members []access.RoleMember) error {
	return s.changeMemberships(ctx, caller, "revoke roles", roles, members, false)
}

// changeMemberships adds or removes the members of each role and writes
// each changed role back whole.
func (s *Service) changeMemberships(ctx context.Context, caller access.Caller, what string, roles []string, members []access.RoleMember, add bool) error {
	if err := s.requireAdmin(caller, what); err != nil {
		return err
	}
	all, err := s.roles(ctx)
	if err != nil {
		return err
	}
	for _, name := range roles {
		if findRole(all, name) == nil {
			return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", name)
		}
	}
	if add {
		for _, m := range members {
			if m.Role && findRole(all, m.Name) == nil {
				return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", m.Name)
			}
		}
	}
	for _, name := range roles {
		r := findRole(all, name)
		users, nested := slices.Clone(r.Users), slices.Clone(r.Roles)
		for _, m := range members {
			list := &users
			if m.Role {
				list = &nested
				if add && m.Name == name {
					return pgerror.New(pgerror.InvalidGrantOperation, "role \"%s\" is a member of role \"%s\"", name, name)
				}
			}
			has := slices.ContainsFunc(*list, func(x roleMember) bool { return x.Name == m.Name })
			switch {
			case add && !has:
				*list = append(*list, roleMember{Name: m.Name})
			case !add && has:
				*list = slices.DeleteFunc(*list, func(x roleMember) bool { return x.Name == m.Name })
			}
		}
		if slices.Equal(users, r.Users) && slices.Equal(nested, r.Roles) {
			continue
		}
		body := map[string]json.RawMessage{}
		for k, v := range r.raw {
			body[k] = v
		}
		body["users"], _ = json.Marshal(nonNilMembers(users))
		body["roles"], _ = json.Marshal(nonNilMembers(nested))
		if err := s.client.do(ctx, http.MethodPut, rolesPath+"/"+strconv.FormatInt(r.ID, 10), nil, body, nil); err != nil {
			return userError(err, what+" on role "+name)
		}
	}
	return nil
}

func nonNilMembers(m []roleMember) []roleMember {
	if m == nil {
		return []roleMember{}
	}
	return m
}

// effectiveRoles is every role the user holds: those naming the user,
// then those naming one of them as a member role, followed with a
// seen-set because Ranger lets an operator make a cycle. Groups are not
// resolved: Ranger knows a user's groups only where usersync runs.
func effectiveRoles(roles []storedRole, user string) []string {
	var direct []string
	for _, r := range roles {
		if slices.ContainsFunc(r.Users, func(m roleMember) bool { return m.Name == user }) {
			direct = append(direct, r.Name)
		}
	}
	return rolesWithParents(roles, direct)
}

// rolesWithParents is held and every role that has one of them as a
// member, nested roles followed once each.
func rolesWithParents(roles []storedRole, held []string) []string {
	seen := map[string]bool{}
	var out, queue []string
	for _, r := range held {
		if !seen[r] {
			seen[r] = true
			queue = append(queue, r)
		}
	}
	for len(queue) > 0 {
		held := queue[0]
		queue = queue[1:]
		out = append(out, held)
		for _, r := range roles {
			if !seen[r.Name] && slices.ContainsFunc(r.Roles, func(m roleMember) bool { return m.Name == held }) {
				seen[r.Name] = true
				queue = append(queue, r.Name)
			}
		}
	}
	return out
}
