package access

import (
	"context"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// GrantRow is one line of SHOW GRANTS: one access type held (or denied)
// by one grantee on one resource.
type GrantRow struct {
	AccessType string
	Object     string // catalog[.namespace[.table]]
	// Resource is the policy's resource Object renders, with its
	// patterns, for matching it against objects.
	Resource    grants.Resource
	GranteeKind string // USER, ROLE or GROUP
	Grantee     string
	Effect      string // ALLOW or DENY
	Grantable   bool
	GrantedBy   string
}

// GrantFilter narrows SHOW GRANTS: Object keeps resources equal to it or
// under it at a dot boundary ("wh" matches wh and wh.sales.orders, never
// wharf); Grantee keeps rows of that grantee.
type GrantFilter struct {
	Object  string
	Grantee *grants.Grantee
}

// ShowGrants lists the stored grants, filtered. Anyone may read grants on
// what they can see; an administrator sees all, others only rows naming
// themselves or their roles, so that SHOW GRANTS never lists who else
// holds access.
func (s *Service) ShowGrants(ctx context.Context, caller Caller, f GrantFilter) ([]GrantRow, error) {
	policies, _, err := s.store.AccessPolicies(ctx)
	if err != nil {
		return nil, err
	}
	return GrantRows(policies, caller, s.isAdmin(caller.Roles), f), nil
}

// GrantRows flattens policies into SHOW GRANTS rows, filtered, sorted and
// deduplicated: admin sees every row, others only those naming the
// caller, its roles or its groups. Every gate-one backend lists grants
// this way.
func GrantRows(policies []grants.Policy, caller Caller, admin bool, f GrantFilter) []GrantRow {
	var out []GrantRow
	for _, p := range policies {
		obj := p.Resource.String()
		if f.Object != "" && obj != f.Object && !strings.HasPrefix(obj, f.Object+".") {
			continue
		}
		grantor := grantorOf(p.Labels)
		add := func(items []grants.Item, effect string) {
			for _, it := range items {
				for _, g := range itemGrantees(it) {
					if f.Grantee != nil && g != *f.Grantee {
						continue
					}
					if !admin && !names(caller, g) {
						continue
					}
					for _, a := range it.Accesses {
						out = append(out, GrantRow{AccessType: a, Object: obj, Resource: p.Resource, GranteeKind: string(g.Kind), Grantee: g.Name,
							Effect: effect, Grantable: it.DelegateAdmin, GrantedBy: grantor})
					}
				}
			}
		}
		add(p.Allow, "ALLOW")
		add(p.Deny, "DENY")
	}
	slices.SortStableFunc(out, func(a, b GrantRow) int {
		return strings.Compare(a.Object+"\x00"+a.GranteeKind+a.Grantee+"\x00"+a.AccessType+a.Effect,
			b.Object+"\x00"+b.GranteeKind+b.Grantee+"\x00"+b.AccessType+b.Effect)
	})
	return slices.CompactFunc(out, func(a, b GrantRow) bool { return a == b })
}

// EffectiveGrants lists what user holds: the rows naming the user or any
// role the governance store gives it (nested roles followed), and, when
// users ask about themselves, also their session's token roles and
// groups. An administrator may ask about anyone, others only about
// themselves.
func (s *Service) EffectiveGrants(ctx context.Context, caller Caller, user string) ([]GrantRow, error) {
	if err := MayAskAbout(caller, s.isAdmin(caller.Roles), user); err != nil {
		return nil, err
	}
	roles, err := s.store.EffectiveRoles(ctx, user, nil)
	if err != nil {
		return nil, err
	}
	policies, _, err := s.store.AccessPolicies(ctx)
	if err != nil {
		return nil, err
	}
	return EffectiveGrantRows(policies, caller, user, roles), nil
}

// MayAskAbout refuses a caller who is not an administrator asking what
// another user holds (SHOW EFFECTIVE GRANTS, CHECK ACCESS).
func MayAskAbout(caller Caller, callerIsAdmin bool, user string) error {
	if user == caller.User || callerIsAdmin {
		return nil
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to inspect the access of another user").
		WithDetail("Only roles listed in [auth] admin_roles may inspect another user's grants or access.")
}

// MayAskAboutRole refuses anyone but an administrator a question about
// the access a role gives.
func MayAskAboutRole(callerIsAdmin bool) error {
	if callerIsAdmin {
		return nil
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to inspect the access of a role").
		WithDetail("Only roles listed in [auth] admin_roles may inspect the access a role gives.")
}

// EffectiveGrantRows is the rows of policies that reach user through
// itself or roles (and, when the caller is that user, the caller's own
// roles and groups too): SHOW EFFECTIVE GRANTS for every backend.
func EffectiveGrantRows(policies []grants.Policy, caller Caller, user string, roles []string) []GrantRow {
	as := Caller{User: user, Roles: roles}
	if caller.User == user {
		as.Roles = append(slices.Clone(roles), caller.Roles...)
		as.Groups = caller.Groups
	}
	return GrantRows(policies, as, false, GrantFilter{})
}

// names reports whether the grantee is the caller or one of its roles or
// groups.
func names(c Caller, g grants.Grantee) bool {
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

// grantorOf reads the grantor label the profile stamps on a policy.
func grantorOf(labels []string) string {
	const prefix = "chm-grantor:"
	for i := len(labels) - 1; i >= 0; i-- {
		if g, ok := strings.CutPrefix(labels[i], prefix); ok {
			return g
		}
	}
	return ""
}

// CheckAccess answers whether user holds privilege on obj at the level the
// privilege names, with the user's roles as the governance store gives
// them (nested roles followed) and, when users ask about themselves, their
// session's token roles too, as enforcement sees them; evaluated exactly
// as enforcement evaluates it (an administrator is allowed unless a deny
// names it or one of its roles), and why: the grantee through which it is
// allowed or denied, and the policy. An administrator may ask about
// anyone, others only about themselves.
func (s *Service) CheckAccess(ctx context.Context, caller Caller, privilege string, obj grants.Object, user string) (Decision, error) {
	named, err := CheckTarget(s.profile, caller, s.isAdmin(caller.Roles), privilege, obj, user, s.cfg.Realm)
	if err != nil {
		return Decision{}, err
	}
	var tokenRoles []string
	if caller.User == user {
		tokenRoles = caller.Roles
	}
	return s.decideFor(ctx, named, user, tokenRoles)
}

// CheckRoleAccess is CheckAccess for a member of role who holds nothing
// else: the role's own grants, and those of the roles it is a member of.
// Only an administrator may ask.
func (s *Service) CheckRoleAccess(ctx context.Context, caller Caller, privilege string, obj grants.Object, role string) (Decision, error) {
	named, err := RoleCheckTarget(s.profile, caller, s.isAdmin(caller.Roles), privilege, obj, s.cfg.Realm)
	if err != nil {
		return Decision{}, err
	}
	return s.decideFor(ctx, named, "", []string{role})
}

// decideFor decides named for user (none: "") holding roles and the roles
// the store nests them in; without a user, roles' first stays first, as
// the decision names it.
func (s *Service) decideFor(ctx context.Context, named grants.Write, user string, roles []string) (Decision, error) {
	all, err := s.store.EffectiveRoles(ctx, user, roles)
	if err != nil {
		return Decision{}, err
	}
	if user == "" && len(roles) > 0 {
		all = append([]string{roles[0]}, slices.DeleteFunc(all, func(r string) bool { return r == roles[0] })...)
	}
	roles = all
	c, err := s.current(ctx)
	if err != nil {
		return Decision{}, err
	}
	decide := Decide
	if s.isAdmin(roles) {
		decide = decideAdmin
	}
	d := decide(c.eval, c.ranger, named, user, roles)
	d.Store = StoreEmbedded
	return d, nil
}
