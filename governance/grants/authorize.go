package grants

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// AuthorityMode is [access_control] grant_authority: who may issue GRANT
// and REVOKE.
type AuthorityMode string

// The two modes.
const (
	// AuthorityAdminRole requires one of [auth] admin_roles.
	AuthorityAdminRole AuthorityMode = "admin-role"
	// AuthorityRangerDelegate requires delegate admin on each resource
	// written, as Ranger's grant API checks it for the named grantor, and
	// nothing else. It widens who may grant to everyone holding delegate
	// admin anywhere, wildcard policies included.
	AuthorityRangerDelegate AuthorityMode = "ranger-delegate"
)

// Authority is the grant authority configuration.
type Authority struct {
	Mode       AuthorityMode `json:"mode"`
	AdminRoles []string      `json:"adminRoles,omitempty"`
}

// Grantor is the caller issuing the statement, with its effective roles
// and groups.
type Grantor struct {
	User   string   `json:"user"`
	Roles  []string `json:"roles,omitempty"`
	Groups []string `json:"groups,omitempty"`
}

// Authorize decides whether the grantor may carry out the plan and
// returns the plan to carry out.
//
// DENY always requires an administrator role: a denial goes through
// Ranger's policy API, which authorizes the REST user and takes no
// grantor, so there is no delegate authority to scope it to. In
// admin-role mode so do GRANT and REVOKE, and the plan is returned as it
// is.
//
// In ranger-delegate mode every write needs delegate admin on its
// resource for its access types (implied grants counted, wildcard
// policies matched as Ranger matches them). Delegate admin does not reach
// upward, so a table owner could never write the catalog and namespace
// levels of a table grant; a traversal level that every grantee already
// holds at that exact resource is therefore left out of the returned
// plan, since writing it again would change nothing. The named level is
// never left out: it may add access types or delegate admin. Holding is
// checked literally, without implied grants, because Polaris's
// authorizer does not follow them; and on the exact resource only, since
// deciding that a wildcard covers it needs Ranger's own matcher and a
// wrong "already held" would report a grant that confers nothing. A
// disabled policy holds nothing.
func (p *Profile) Authorize(g Grantor, plan Plan, existing []Policy, a Authority) (Plan, error) {
	if a.Mode != AuthorityAdminRole && a.Mode != AuthorityRangerDelegate {
		return Plan{}, fmt.Errorf("authorize %s: unknown grant authority %q", plan.Action, a.Mode)
	}
	if plan.Action == ActionDeny || a.Mode == AuthorityAdminRole {
		if !slices.ContainsFunc(g.Roles, func(r string) bool { return slices.Contains(a.AdminRoles, r) }) {
			return Plan{}, errNotAdmin(plan.Action, a.Mode)
		}
		return plan, nil
	}
	named, err := plan.named()
	if err != nil {
		return Plan{}, fmt.Errorf("authorize: %w", err)
	}
	if missing := p.notDelegated(existing, g, named); len(missing) > 0 {
		return Plan{}, errNoDelegate(plan, g, missing)
	}
	out := plan
	out.Writes = nil
	var failed []Write
	for _, w := range plan.Writes {
		if !w.Named && len(unheld(existing, w, plan.Grantees)) == 0 {
			continue
		}
		if !w.Named && len(p.notDelegated(existing, g, w)) > 0 {
			failed = append(failed, w)
		}
		out.Writes = append(out.Writes, w)
	}
	if len(failed) > 0 {
		return Plan{}, errTraversal(plan, g, failed, existing)
	}
	return out, nil
}

// notDelegated returns the write's access types that the grantor holds no
// delegate admin for on its resource, in any enabled policy that covers
// it.
func (p *Profile) notDelegated(existing []Policy, g Grantor, w Write) []string {
	held := accessSet{}
	for _, pol := range existing {
		if pol.Disabled || !covers(pol.Resource, w.Resource) {
			continue
		}
		for _, it := range pol.Allow {
			if !it.DelegateAdmin || !grantorMatches(it, g) {
				continue
			}
			closed, err := p.sd.closure(it.Accesses)
			if err != nil {
				// An access type this service definition does not
				// declare implies nothing that could be checked.
				closed = it.Accesses
			}
			held.add(closed)
		}
	}
	var missing []string
	for _, at := range w.Accesses {
		if !held[at] {
			missing = append(missing, at)
		}
	}
	return missing
}

// grantorMatches reports whether a policy item applies to the grantor, as
// Ranger matches users, roles and groups ({USER} is every user, public
// every group).
func grantorMatches(it Item, g Grantor) bool {
	if slices.Contains(it.Users, g.User) || slices.Contains(it.Users, "{USER}") || slices.Contains(it.Groups, "public") {
		return true
	}
	return slices.ContainsFunc(g.Roles, func(r string) bool { return slices.Contains(it.Roles, r) }) ||
		slices.ContainsFunc(g.Groups, func(gr string) bool { return slices.Contains(it.Groups, gr) })
}

// unheld returns the grantees that do not hold every access type of the
// write, literally, in allow items naming them on the enabled policy for
// its exact resource.
func unheld(existing []Policy, w Write, grantees []Grantee) []Grantee {
	var pol *Policy
	for i := range existing {
		if existing[i].Resource == w.Resource && !existing[i].Disabled {
			pol = &existing[i]
		}
	}
	var out []Grantee
	for _, gr := range grantees {
		held := accessSet{}
		if pol != nil {
			for _, it := range pol.Allow {
				if it.names(gr) {
					held.add(it.Accesses)
				}
			}
		}
		if !held.covers(w.Accesses) {
			out = append(out, gr)
		}
	}
	return out
}

// errNotAdmin refuses a statement from a caller without an administrator
// role.
func errNotAdmin(a Action, mode AuthorityMode) *pgerror.Error {
	e := pgerror.New(pgerror.InsufficientPrivilege, "permission denied to %s privileges", strings.ToLower(string(a)))
	if a == ActionDeny && mode == AuthorityRangerDelegate {
		return e.WithDetail("DENY requires an administrator role ([auth] admin_roles) even when grant_authority is ranger-delegate: a denial cannot be scoped to delegate admin.")
	}
	return e.WithDetail("%s requires an administrator role ([auth] admin_roles).", a)
}

// errNoDelegate refuses a delegated statement whose grantor holds no
// delegate admin on the object it names.
func errNoDelegate(plan Plan, g Grantor, missing []string) *pgerror.Error {
	return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to %s access on %s",
		strings.ToLower(string(plan.Action)), plan.Object).
		WithDetail("User %s does not hold delegate admin (WITH GRANT OPTION) there for: %s.",
			quoteIdent(g.User), strings.Join(missing, ", "))
}

// errTraversal refuses a delegated grant that would have to write a level
// above the named object which the grantor cannot write and a grantee does
// not hold yet. It names the outermost such level and the statements that
// give the grantees discovery.
func errTraversal(plan Plan, g Grantor, failed []Write, existing []Policy) *pgerror.Error {
	first := failed[0]
	var fixes []string
	for _, w := range failed {
		for _, gr := range unheld(existing, w, plan.Grantees) {
			fixes = append(fixes, fmt.Sprintf("GRANT USAGE ON %s TO %s;", scopeSQL(w.Resource), gr))
		}
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to grant access on %s", scopeName(first.Resource)).
		WithDetail("Reaching the %s needs the %s level above it, where user %s holds no delegate admin and the grantee has no discovery yet. Delegate admin on an object does not reach the levels above it.",
			plan.Object.Kind, first.Level, quoteIdent(g.User)).
		WithHint("An administrator can give the grantee discovery first: %s", strings.Join(fixes, " "))
}

// RequireAdmin refuses, before any name is resolved, a statement the
// grantor could never carry out: any statement in admin-role mode, and
// DENY in every mode, without an administrator role. In ranger-delegate
// mode GRANT and REVOKE are decided per resource by Authorize.
func RequireAdmin(g Grantor, a Action, auth Authority) error {
	if auth.Mode == AuthorityRangerDelegate && a != ActionDeny {
		return nil
	}
	for _, r := range g.Roles {
		if slices.Contains(auth.AdminRoles, r) {
			return nil
		}
	}
	return errNotAdmin(a, auth.Mode)
}
