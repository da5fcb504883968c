package rangeradmin

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
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

// CheckAccess answers whether user holds privilege on obj at the level
// the privilege names, evaluating every policy of the service with
// Ranger's semantics (deny over allow, wildcards, disabled policies), and
// why. The user's roles come from Ranger's role store, nested roles
// followed; groups are not resolved, so a grant held only through a group
// is not seen. It is introspection: Polaris's decision is the one that
// counts. An administrator may ask about anyone, others only about
// themselves.
func (s *Service) CheckAccess(ctx context.Context, caller access.Caller, privilege string, obj grants.Object, user string) (bool, string, error) {
	if user != caller.User && !s.isAdmin(caller.Roles) {
		return false, "", pgerror.New(pgerror.InsufficientPrivilege, "permission denied to check the access of another user").
			WithDetail("Only roles listed in [auth] admin_roles may check another user's access.")
	}
	plan, err := s.profile.PlanGrant(grants.Statement{Privileges: []string{privilege}, Object: obj,
		Grantees: []grants.Grantee{{Kind: grants.GranteeUser, Name: user}}, Realm: s.cfg.Realm})
	if err != nil {
		return false, "", err
	}
	named, ok := findWrite(plan)
	if !ok || len(named.Accesses) == 0 {
		return false, "", fmt.Errorf("check access: %s on %s names no access type", privilege, obj)
	}
	snap, err := s.policies(ctx)
	if err != nil {
		return false, "", err
	}
	var roleNote string
	var roles []string
	if all, err := s.roles(ctx); err != nil {
		roleNote = fmt.Sprintf(" (roles could not be read from Ranger Admin, so grants through roles were not considered: %v)", err)
	} else {
		roles = effectiveRoles(all, user)
	}
	policies := make([]ranger.Policy, 0, len(snap.raw))
	for _, data := range snap.raw {
		var p ranger.Policy
		if err := json.Unmarshal(data, &p); err != nil {
			return false, "", fmt.Errorf("check access: decode policy: %w", err)
		}
		if p.PolicyType == ranger.PolicyTypeAccess {
			policies = append(policies, p)
		}
	}
	eval, err := ranger.New(ranger.Config{ServiceDef: s.sd, Policies: policies})
	if err != nil {
		return false, "", fmt.Errorf("check access: compile policies: %w", err)
	}
	res := eval.IsAccessAllowed(&ranger.Request{
		Resource:   requestResource(named.Resource),
		AccessType: named.Accesses[0], AccessTypes: named.Accesses,
		User: user, Roles: roles,
	})
	via := viaOf(policies, res.PolicyID, res.Allowed, user, roles)
	switch {
	case res.Allowed:
		return true, "Allowed via " + via, nil
	case res.PolicyID > 0:
		return false, "Denied via " + via + roleNote, nil
	default:
		return false, fmt.Sprintf("No matching grant for %s %s on %s%s", user, strings.Join(named.Accesses, ", "), named.Resource, roleNote), nil
	}
}

func requestResource(r grants.Resource) ranger.Resource {
	out := ranger.Resource{"root": {r.Root}, "catalog": {r.Catalog}}
	if r.Namespace != "" {
		out["namespace"] = []string{r.Namespace}
	}
	if r.Table != "" {
		out["table"] = []string{r.Table}
	}
	return out
}

// viaOf names the grantee of the deciding policy's items that matches the
// user: the user itself first, then its roles in order.
func viaOf(policies []ranger.Policy, id int64, allowed bool, user string, roles []string) string {
	i := slices.IndexFunc(policies, func(p ranger.Policy) bool { return p.ID == id })
	if i < 0 {
		return "a policy"
	}
	p := policies[i]
	items := p.DenyPolicyItems
	if allowed {
		items = p.PolicyItems
	}
	for _, it := range items {
		if slices.Contains(it.Users, user) {
			return fmt.Sprintf("USER '%s'", user)
		}
	}
	for _, r := range roles {
		for _, it := range items {
			if slices.Contains(it.Roles, r) {
				return fmt.Sprintf("ROLE '%s'", r)
			}
		}
	}
	return fmt.Sprintf("policy %q", p.Name)
}
