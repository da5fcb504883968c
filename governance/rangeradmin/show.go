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

// grantorLabelPrefix is the provenance label naming who granted: the
// policy API records the REST user as a policy's creator, so the caller
// is kept here and preferred when reporting granted_by.
const grantorLabelPrefix = "chm-grantor:"

// ShowGrants lists the grants held in Ranger on policies of the polaris
// shape, filtered, denials included. An administrator sees all, others
// only rows naming themselves or their roles.
func (s *Service) ShowGrants(ctx context.Context, caller access.Caller, f access.GrantFilter) ([]access.GrantRow, error) {
	snap, err := s.policies(ctx)
	if err != nil {
		return nil, err
	}
	admin := s.isAdmin(caller.Roles)
	var out []access.GrantRow
	for _, p := range snap.models() {
		obj := p.Resource.String()
		if f.Object != "" && obj != f.Object && !strings.HasPrefix(obj, f.Object+".") {
			continue
		}
		grantor := grantorOf(p.Labels)
		add := func(items []grants.Item, effect string) {
			for _, it := range items {
				for _, g := range itemGrantees(it) {
					if f.Grantee != nil && g != *f.Grantee || !admin && !callerIs(caller, g) {
						continue
					}
					for _, a := range it.Accesses {
						out = append(out, access.GrantRow{AccessType: a, Object: obj, GranteeKind: string(g.Kind), Grantee: g.Name,
							Effect: effect, Grantable: it.DelegateAdmin, GrantedBy: grantor})
					}
				}
			}
		}
		add(p.Allow, "ALLOW")
		add(p.Deny, "DENY")
	}
	slices.SortStableFunc(out, func(a, b access.GrantRow) int {
		return strings.Compare(a.Object+"\x00"+a.GranteeKind+a.Grantee+"\x00"+a.AccessType+a.Effect,
			b.Object+"\x00"+b.GranteeKind+b.Grantee+"\x00"+b.AccessType+b.Effect)
	})
	return slices.CompactFunc(out, func(a, b access.GrantRow) bool { return a == b }), nil
}

// callerIs reports whether the grantee is the caller or one of its roles
// or groups.
func callerIs(c access.Caller, g grants.Grantee) bool {
	switch g.Kind {
	case grants.GranteeUser:
		return g.Name == c.User
	case grants.GranteeRole:
		return slices.Contains(c.Roles, g.Name)
	case grants.GranteeGroup:
		return slices.Contains(c.Groups, g.Name)
	}
	return false
}

func itemGrantees(it grants.Item) []grants.Grantee {
	var out []grants.Grantee
	for _, u := range it.Users {
		out = append(out, grants.Grantee{Kind: grants.GranteeUser, Name: u})
	}
	for _, r := range it.Roles {
		out = append(out, grants.Grantee{Kind: grants.GranteeRole, Name: r})
	}
	for _, g := range it.Groups {
		out = append(out, grants.Grantee{Kind: grants.GranteeGroup, Name: g})
	}
	return out
}

func grantorOf(labels []string) string {
	for i := len(labels) - 1; i >= 0; i-- {
		if g, ok := strings.CutPrefix(labels[i], grantorLabelPrefix); ok {
			return g
		}
	}
	return ""
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
