package polarisadmin

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
)

// heldGrant is one grant of a catalog role, read back: the securable as a
// gate-one resource, the Polaris privilege, and the grantee the catalog
// role stands for.
type heldGrant struct {
	resource  grants.Resource
	privilege string
	grantee   grants.Grantee
	role      string // the catalog role
}

// catalogRoles lists the catalog roles of Polaris catalog cat.
func (s *Service) catalogRoles(ctx context.Context, cat string) ([]role, error) {
	var answer struct {
		Roles []role `json:"roles"`
	}
	if err := s.client.do(ctx, http.MethodGet, "/catalogs/"+seg(cat)+"/catalog-roles", nil, &answer); err != nil {
		return nil, userError(err, "list the catalog roles of "+cat)
	}
	return answer.Roles, nil
}

// roleGrants reads the grants of catalog role r of SQE catalog sqeCat.
func (s *Service) roleGrants(ctx context.Context, sqeCat string, r role) ([]heldGrant, error) {
	cat := s.cfg.Catalogs[sqeCat]
	var answer struct {
		Grants []grantResource `json:"grants"`
	}
	if err := s.client.do(ctx, http.MethodGet, "/catalogs/"+seg(cat)+"/catalog-roles/"+seg(r.Name)+"/grants", nil, &answer); err != nil {
		return nil, userError(err, "list the grants of catalog role "+r.Name+" in "+cat)
	}
	g := grants.Grantee{Kind: grants.GranteeRole, Name: r.Name}
	if u := r.Properties[userProperty]; u != "" {
		g = grants.Grantee{Kind: grants.GranteeUser, Name: u}
	}
	out := make([]heldGrant, 0, len(answer.Grants))
	for _, gr := range answer.Grants {
		res := grants.Resource{Root: grants.DefaultRealm, Catalog: sqeCat}
		switch gr.Type {
		case "catalog":
		case "namespace":
			res.Namespace = strings.Join(gr.Namespace, ".")
			if s.mapping.IsTableLevel(gr.Privilege) {
				res.Table = grants.Wildcard
			}
		case "table":
			res.Namespace, res.Table = strings.Join(gr.Namespace, "."), gr.TableName
		case "view":
			res.Namespace, res.Table = strings.Join(gr.Namespace, "."), gr.ViewName
		default:
			continue // policy grants are not gate one's
		}
		out = append(out, heldGrant{resource: res, privilege: gr.Privilege, grantee: g, role: r.Name})
	}
	return out, nil
}

// allGrants reads every grant of every catalog role of the mapped
// catalogs under object (a dotted prefix; empty for all).
func (s *Service) allGrants(ctx context.Context, object string) ([]heldGrant, error) {
	var out []heldGrant
	for _, c := range s.sqeCatalogs() {
		if object != "" && c != object && !strings.HasPrefix(object, c+".") {
			continue
		}
		roles, err := s.catalogRoles(ctx, s.cfg.Catalogs[c])
		if err != nil {
			return nil, err
		}
		for _, r := range roles {
			held, err := s.roleGrants(ctx, c, r)
			if err != nil {
				return nil, err
			}
			out = append(out, held...)
		}
	}
	return out, nil
}

// principalRoles lists the principal roles granted to the principal
// user; none when Polaris has no such principal.
func (s *Service) principalRoles(ctx context.Context, user string) ([]string, error) {
	var answer struct {
		Roles []role `json:"roles"`
	}
	err := s.client.do(ctx, http.MethodGet, "/principals/"+seg(user)+"/principal-roles", nil, &answer)
	if statusOf(err) == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, userError(err, "list the principal roles of "+user)
	}
	out := make([]string, 0, len(answer.Roles))
	for _, r := range answer.Roles {
		out = append(out, r.Name)
	}
	slices.Sort(out)
	return out, nil
}

// reachableGrants follows user → principal roles → catalog roles (in each
// mapped catalog) → grants, and returns the grants with the catalog role
// names reached.
func (s *Service) reachableGrants(ctx context.Context, user string) ([]heldGrant, []string, error) {
	prs, err := s.principalRoles(ctx, user)
	if err != nil {
		return nil, nil, err
	}
	return s.principalRoleGrants(ctx, prs)
}

// principalRoleGrants are the grants the principal roles prs reach, and
// the names of the catalog roles that hold them.
func (s *Service) principalRoleGrants(ctx context.Context, prs []string) ([]heldGrant, []string, error) {
	var held []heldGrant
	var names []string
	for _, c := range s.sqeCatalogs() {
		cat := s.cfg.Catalogs[c]
		seen := map[string]bool{}
		for _, pr := range prs {
			var answer struct {
				Roles []role `json:"roles"`
			}
			err := s.client.do(ctx, http.MethodGet, "/principal-roles/"+seg(pr)+"/catalog-roles/"+seg(cat), nil, &answer)
			if statusOf(err) == http.StatusNotFound {
				continue
			}
			if err != nil {
				return nil, nil, userError(err, "list the catalog roles of principal role "+pr)
			}
			for _, r := range answer.Roles {
				if seen[r.Name] {
					continue
				}
				seen[r.Name] = true
				names = append(names, r.Name)
				g, err := s.roleGrants(ctx, c, r)
				if err != nil {
					return nil, nil, err
				}
				held = append(held, g...)
			}
		}
	}
	slices.Sort(names)
	return held, slices.Compact(names), nil
}

// policiesOf groups grants into the gate-one model that access.GrantRows
// lists, so that SHOW GRANTS has the same shape for every backend.
func policiesOf(held []heldGrant) []grants.Policy {
	var out []grants.Policy
	for _, h := range held {
		it := grants.Item{Accesses: []string{h.privilege}}
		if h.grantee.Kind == grants.GranteeUser {
			it.Users = []string{h.grantee.Name}
		} else {
			it.Roles = []string{h.grantee.Name}
		}
		out = append(out, grants.Policy{Resource: h.resource, Allow: []grants.Item{it}})
	}
	return out
}

// ShowGrants lists the grants held in Polaris on the mapped catalogs,
// filtered. An administrator sees all; others only rows naming
// themselves or a role Polaris gives them (or their session's roles).
func (s *Service) ShowGrants(ctx context.Context, caller access.Caller, f access.GrantFilter) ([]access.GrantRow, error) {
	held, err := s.allGrants(ctx, f.Object)
	if err != nil {
		return nil, err
	}
	as, admin := caller, s.isAdmin(caller.Roles)
	if !admin {
		_, names, err := s.reachableGrants(ctx, caller.User)
		if err != nil {
			return nil, err
		}
		as.Roles = append(slices.Clone(caller.Roles), names...)
	}
	return access.GrantRows(policiesOf(held), as, admin, f), nil
}

// EffectiveGrants lists what user holds in Polaris: the grants of every
// catalog role its principal roles reach. Roles of the session's token
// are not Polaris roles and add nothing.
func (s *Service) EffectiveGrants(ctx context.Context, caller access.Caller, user string) ([]access.GrantRow, error) {
	if err := access.MayAskAbout(caller, s.isAdmin(caller.Roles), user); err != nil {
		return nil, err
	}
	held, names, err := s.reachableGrants(ctx, user)
	if err != nil {
		return nil, err
	}
	return access.GrantRows(policiesOf(held), access.Caller{User: user, Roles: names}, true, access.GrantFilter{}), nil
}

// CheckAccess answers whether user holds privilege on obj at the level
// the privilege names, as Polaris decides it: the privilege's Polaris
// privileges at that level, each held through any catalog role the
// user's principal roles reach, on the securable or one above it, by
// itself or by a privilege Polaris takes to include it. The reason names
// the roles that grant it. A failure to read Polaris is an error, never
// an answer.
func (s *Service) CheckAccess(ctx context.Context, caller access.Caller, privilege string, obj grants.Object, user string) (access.Decision, error) {
	if err := access.MayAskAbout(caller, s.isAdmin(caller.Roles), user); err != nil {
		return access.Decision{}, err
	}
	return s.decideFor(ctx, privilege, obj, grants.Grantee{Kind: grants.GranteeUser, Name: user}, func() ([]heldGrant, error) {
		held, _, err := s.reachableGrants(ctx, user)
		return held, err
	})
}

// CheckRoleAccess is CheckAccess for a member of role who holds nothing
// else: what principal role role reaches (administrators only).
func (s *Service) CheckRoleAccess(ctx context.Context, caller access.Caller, privilege string, obj grants.Object, role string) (access.Decision, error) {
	if err := access.MayAskAboutRole(s.isAdmin(caller.Roles)); err != nil {
		return access.Decision{}, err
	}
	return s.decideFor(ctx, privilege, obj, grants.Grantee{Kind: grants.GranteeRole, Name: role}, func() ([]heldGrant, error) {
		held, _, err := s.principalRoleGrants(ctx, []string{role})
		return held, err
	})
}

// decideFor decides privilege on obj for who, holding the grants
// reachable finds.
func (s *Service) decideFor(ctx context.Context, privilege string, obj grants.Object, who grants.Grantee, reachable func() ([]heldGrant, error)) (access.Decision, error) {
	plan, err := s.profile.PlanGrant(grants.Statement{Privileges: []string{privilege}, Object: obj,
		Grantees: []grants.Grantee{who}})
	if err != nil {
		return access.Decision{}, err
	}
	writes, err := s.mapping.Writes(plan)
	if err != nil {
		return access.Decision{}, err
	}
	var target grants.PolarisWrite
	for _, w := range writes {
		if w.Named {
			target = w
		}
	}
	if len(target.Privileges) == 0 {
		return access.Decision{}, fmt.Errorf("check access: %s on %s names no Polaris privilege", privilege, obj)
	}
	if _, err := s.polarisCatalog(obj.Catalog); err != nil {
		return access.Decision{}, err
	}
	held, err := reachable()
	if err != nil {
		return access.Decision{}, err
	}
	var via []string
	for _, want := range target.Privileges {
		found := false
		for _, h := range held {
			if covers(h.resource, target.Resource) && slices.Contains(superPrivileges(want), h.privilege) {
				found = true
				name := fmt.Sprintf("%s '%s'", h.grantee.Kind, h.grantee.Name)
				if !slices.Contains(via, name) {
					via = append(via, name)
				}
			}
		}
		if !found {
			name := who.Name
			if who.Kind == grants.GranteeRole {
				name = "a member of role " + name
			}
			return access.Decision{Reason: fmt.Sprintf("No matching grant for %s %s on %s", name,
				strings.Join(target.Privileges, ", "), target.Resource), Store: StorePolaris}, nil
		}
	}
	slices.Sort(via)
	return access.Decision{Allowed: true, Reason: "Allowed via " + strings.Join(via, ", "), Store: StorePolaris}, nil
}

// StorePolaris names this backend in a Decision.
const StorePolaris = "polaris"

// covers reports whether a grant on held applies to target: the same
// securable or one above it (Polaris applies a grant to everything
// beneath its securable). A namespace grant read back as "ns.*" is the
// namespace.
func covers(held, target grants.Resource) bool {
	if held.Catalog != target.Catalog {
		return false
	}
	if held.Namespace == "" {
		return true
	}
	if held.Namespace != target.Namespace {
		return false
	}
	return held.Table == "" || held.Table == grants.Wildcard || held.Table == target.Table
}

// superPrivileges are the privileges that satisfy a check for p,
// including p: Polaris's own table of what each privilege is included in
// (PolarisAuthorizerImpl), for the privileges the mapping writes.
func superPrivileges(p string) []string {
	const manage, meta = "CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA"
	switch p {
	case "NAMESPACE_LIST":
		return []string{manage, meta, "NAMESPACE_CREATE", "NAMESPACE_FULL_METADATA", p, "NAMESPACE_READ_PROPERTIES", "NAMESPACE_WRITE_PROPERTIES"}
	case "NAMESPACE_READ_PROPERTIES":
		return []string{manage, meta, "NAMESPACE_FULL_METADATA", p, "NAMESPACE_WRITE_PROPERTIES"}
	case "NAMESPACE_CREATE", "NAMESPACE_DROP":
		return []string{manage, meta, p, "NAMESPACE_FULL_METADATA"}
	case "TABLE_CREATE", "TABLE_DROP":
		return []string{manage, meta, p, "TABLE_FULL_METADATA"}
	case "VIEW_DROP":
		return []string{manage, meta, p, "VIEW_FULL_METADATA"}
	case "TABLE_LIST":
		return []string{manage, meta, "TABLE_CREATE", "TABLE_FULL_METADATA", p, "TABLE_READ_DATA", "TABLE_READ_PROPERTIES", "TABLE_WRITE_DATA", "TABLE_WRITE_PROPERTIES"}
	case "VIEW_LIST":
		return []string{manage, meta, "VIEW_CREATE", "VIEW_FULL_METADATA", p, "VIEW_READ_PROPERTIES", "VIEW_WRITE_PROPERTIES"}
	case "VIEW_READ_PROPERTIES":
		return []string{manage, meta, "VIEW_FULL_METADATA", p, "VIEW_WRITE_PROPERTIES"}
	case "TABLE_READ_DATA":
		return []string{manage, p, "TABLE_WRITE_DATA"}
	case "TABLE_WRITE_DATA":
		return []string{manage, p}
	}
	return []string{manage, p}
}
