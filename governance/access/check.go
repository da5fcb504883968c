package access

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
)

// CHECK ACCESS is answered the same way by every gate-one backend: the
// question is the privilege's named level (CheckTarget), the answer a
// Ranger evaluation over the backend's policies (Decide).

// CheckTarget plans privilege on obj for user and returns the write at
// the level the privilege names: the resource and access types CHECK
// ACCESS asks about. A caller who is not an administrator may ask only
// about itself.
func CheckTarget(profile *grants.Profile, caller Caller, callerIsAdmin bool, privilege string, obj grants.Object, user, realm string) (grants.Write, error) {
	if err := MayAskAbout(caller, callerIsAdmin, user); err != nil {
		return grants.Write{}, err
	}
	plan, err := profile.PlanGrant(grants.Statement{Privileges: []string{privilege}, Object: obj,
		Grantees: []grants.Grantee{{Kind: grants.GranteeUser, Name: user}}, Realm: realm})
	if err != nil {
		return grants.Write{}, err
	}
	for _, w := range plan.Writes {
		if w.Named && len(w.Accesses) > 0 {
			return w, nil
		}
	}
	return grants.Write{}, fmt.Errorf("check access: %s on %s names no access type", privilege, obj)
}

// RoleCheckTarget is CheckTarget for a role rather than a user: only an
// administrator may ask about a role.
func RoleCheckTarget(profile *grants.Profile, caller Caller, callerIsAdmin bool, privilege string, obj grants.Object, realm string) (grants.Write, error) {
	if err := MayAskAboutRole(callerIsAdmin); err != nil {
		return grants.Write{}, err
	}
	return CheckTarget(profile, caller, true, privilege, obj, caller.User, realm)
}

// Decision is gate one's answer to CHECK ACCESS.
type Decision struct {
	Allowed bool
	// Reason words the answer: allowed or denied via the grantee that
	// decided, or no matching grant.
	Reason string
	// Policy names the policy that decided; empty when none did (no
	// matching grant, or an administrator's default allow).
	Policy string
	// Store is the backend keeping the policies: StoreEmbedded or
	// StoreRanger.
	Store string
}

// The gate-one backends, as [access_control] backend names them.
const (
	StoreEmbedded = "embedded"
	StoreRanger   = "ranger"
)

// Decide evaluates w for user with roles and words the answer: allowed or
// denied via the grantee that decided, or no matching grant. policies are
// the ones eval was compiled from, to name that grantee and the policy.
func Decide(eval *ranger.Evaluator, policies []ranger.Policy, w grants.Write, user string, roles []string) Decision {
	req := checkRequest(w, user, roles)
	res := eval.IsAccessAllowed(req)
	if r, refused := eval.RefusedFor(req); refused && !res.Allowed {
		return Decision{Reason: fmt.Sprintf("Denied: policy %d (%s) cannot be evaluated: %s", r.ID, r.Name, r.Reason)}
	}
	switch {
	case res.Allowed:
		via, policy := viaOf(policies, res.PolicyID, true, user, roles)
		return Decision{Allowed: true, Reason: "Allowed via " + via, Policy: policy}
	case res.PolicyID > 0:
		via, policy := viaOf(policies, res.PolicyID, false, user, roles)
		return Decision{Reason: "Denied via " + via, Policy: policy}
	default:
		return Decision{Reason: fmt.Sprintf("No matching grant for %s %s on %s", subject(user, roles), strings.Join(w.Accesses, ", "), w.Resource)}
	}
}

// subject names who a decision is about: the user, or for a role's
// decision (no user) a member of the role asked about, roles' first.
func subject(user string, roles []string) string {
	if user != "" || len(roles) == 0 {
		return user
	}
	return "a member of role " + roles[0]
}

// decideAdmin is Decide for a user holding an administrator role of the
// embedded backend, whose default access is an allow that a deny still
// beats: denied via the grantee of the deny item that decides any of w's
// access types, allowed otherwise.
func decideAdmin(eval *ranger.Evaluator, policies []ranger.Policy, w grants.Write, user string, roles []string) Decision {
	if id, denied := deniedBy(eval, checkRequest(w, user, roles)); denied {
		via, policy := viaOf(policies, id, false, user, roles)
		return Decision{Reason: "Denied via " + via, Policy: policy}
	}
	return Decision{Allowed: true, Reason: fmt.Sprintf("Allowed: %s holds an administrator role", subject(user, roles))}
}

// checkRequest is the Ranger request CHECK ACCESS evaluates for w.
func checkRequest(w grants.Write, user string, roles []string) *ranger.Request {
	return &ranger.Request{
		Resource:   RequestResource(w.Resource),
		AccessType: w.Accesses[0], AccessTypes: w.Accesses,
		User: user, Roles: roles,
	}
}

// deniedBy reports the policy whose deny decides any one of req's access
// types. Each type is evaluated on its own: evaluating them together
// stops at the first one no policy decides, which would hide a deny of a
// later one from a caller allowed by default.
func deniedBy(eval *ranger.Evaluator, req *ranger.Request) (int64, bool) {
	types := req.AccessTypes
	if len(types) == 0 {
		types = []string{req.AccessType}
	}
	for _, t := range types {
		one := *req
		one.AccessType, one.AccessTypes = t, []string{t}
		// Not allowed with a deciding policy is a deny item (or a
		// deny-all-else policy) deciding; no decision reports -1.
		if r := eval.IsAccessAllowed(&one); !r.Allowed && r.PolicyID >= 0 {
			return r.PolicyID, true
		}
	}
	return -1, false
}

// policyName names the policy numbered id among policies.
func policyName(policies []ranger.Policy, id int64) string {
	if i := slices.IndexFunc(policies, func(p ranger.Policy) bool { return p.ID == id }); i >= 0 {
		return fmt.Sprintf("%q", policies[i].Name)
	}
	return fmt.Sprintf("id %d", id)
}

// RequestResource is a policy resource as a Ranger request names it.
func RequestResource(r grants.Resource) ranger.Resource {
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
// user (the user itself first, then its roles in order) and the policy.
func viaOf(policies []ranger.Policy, id int64, allowed bool, user string, roles []string) (via, policy string) {
	i := slices.IndexFunc(policies, func(p ranger.Policy) bool { return p.ID == id })
	if i < 0 {
		return "a policy", ""
	}
	p := policies[i]
	items := p.DenyPolicyItems
	if allowed {
		items = p.PolicyItems
	}
	for _, it := range items {
		if slices.Contains(it.Users, user) {
			return fmt.Sprintf("USER '%s'", user), p.Name
		}
	}
	for _, r := range roles {
		for _, it := range items {
			if slices.Contains(it.Roles, r) {
				return fmt.Sprintf("ROLE '%s'", r), p.Name
			}
		}
	}
	return fmt.Sprintf("policy %q", p.Name), p.Name
}
