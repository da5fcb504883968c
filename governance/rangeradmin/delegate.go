package rangeradmin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/rangerrest"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// grantRevokeRequest is Ranger's GrantRevokeRequest, with its exact field
// names. Audit is on; replacing existing permissions and recursion are
// off, so a grant merges into the policy on the exact resource.
type grantRevokeRequest struct {
	Grantor                    string            `json:"grantor"`
	GrantorGroups              []string          `json:"grantorGroups"`
	Resource                   map[string]string `json:"resource"`
	Users                      []string          `json:"users"`
	Groups                     []string          `json:"groups"`
	Roles                      []string          `json:"roles"`
	AccessTypes                []string          `json:"accessTypes"`
	DelegateAdmin              bool              `json:"delegateAdmin"`
	EnableAudit                bool              `json:"enableAudit"`
	ReplaceExistingPermissions bool              `json:"replaceExistingPermissions"`
	IsRecursive                bool              `json:"isRecursive"`
	ClientType                 string            `json:"clientType"`
}

// changeDelegated carries out GRANT or REVOKE through the plugin grant
// API with the caller as grantor: in ranger-delegate mode Ranger's check
// of the grantor's delegate admin on each resource is the authority, and
// only that endpoint makes it. Authorize has already left out the
// traversal levels the grantees hold. The provenance labels, which the
// grant API cannot write, are then merged into the named level's policy
// through the policy API, as are the denials a REVOKE clears.
func (s *Service) changeDelegated(ctx context.Context, g grants.Grantor, plan grants.Plan) (grants.Plan, error) {
	snap, err := s.policies(ctx)
	if err != nil {
		return grants.Plan{}, err
	}
	existing := snap.models()
	allowed, next, err := s.applyPlan(g, plan, existing)
	if err != nil {
		return grants.Plan{}, err
	}
	var written []string
	for _, req := range s.delegatedRequests(g, allowed, existing, next) {
		path := grantPath
		if plan.Action == grants.ActionRevoke {
			path = revokePath
		}
		err := s.client.do(ctx, http.MethodPost, path+s.cfg.ServiceName, nil, req.body, nil)
		if err != nil {
			return grants.Plan{}, partialWriteError(delegatedError(err, plan, g, req.write), written)
		}
		written = append(written, req.write.Resource.String())
	}
	named, ok := findWrite(allowed)
	if !ok {
		return allowed, nil
	}
	if err := s.patchNamed(ctx, policyAt(existing, named.Resource), policyAt(next, named.Resource)); err != nil {
		return grants.Plan{}, partialWriteError(userError(err, "record the grant's provenance on "+named.Resource.String()), written)
	}
	return allowed, nil
}

// delegatedRequest is one call of the grant or revoke API.
type delegatedRequest struct {
	write grants.Write
	body  grantRevokeRequest
}

// delegatedRequests are the calls a delegated plan makes, outermost
// first. A GRANT sends each write's access types; a REVOKE sends, per
// grantee, the access types its allow items lose on the named level, so
// that those another labelled privilege still needs stay.
func (s *Service) delegatedRequests(g grants.Grantor, plan grants.Plan, before, after []grants.Policy) []delegatedRequest {
	request := func(w grants.Write, grantees []grants.Grantee, accesses []string, delegate bool) delegatedRequest {
		body := grantRevokeRequest{Grantor: g.User, GrantorGroups: nonNil(g.Groups), Resource: map[string]string{},
			Users: []string{}, Groups: []string{}, Roles: []string{}, AccessTypes: accesses, DelegateAdmin: delegate,
			EnableAudit: true, ClientType: "sqe"}
		for name, r := range resourcesJSON(w.Resource) {
			body.Resource[name] = r.Values[0]
		}
		for _, gr := range grantees {
			if gr.Kind == grants.GranteeUser {
				body.Users = append(body.Users, gr.Name)
			} else {
				body.Roles = append(body.Roles, gr.Name)
			}
		}
		return delegatedRequest{write: w, body: body}
	}
	var out []delegatedRequest
	if plan.Action == grants.ActionGrant {
		for _, w := range plan.Writes {
			out = append(out, request(w, plan.Grantees, w.Accesses, w.Named && plan.WithGrantOption))
		}
		return out
	}
	w, ok := findWrite(plan)
	if !ok {
		return nil
	}
	was, is := policyAt(before, w.Resource), policyAt(after, w.Resource)
	for _, gr := range plan.Grantees {
		var lost []string
		for _, at := range allowedTo(was, gr) {
			if !slices.Contains(allowedTo(is, gr), at) {
				lost = append(lost, at)
			}
		}
		if len(lost) > 0 {
			out = append(out, request(w, []grants.Grantee{gr}, lost, false))
		}
	}
	return out
}

// patchNamed carries the labels and denials that changed between before
// and after over to the policy as Ranger holds it now, which the grant
// API has just changed.
func (s *Service) patchNamed(ctx context.Context, before, after *grants.Policy) error {
	if after == nil && before == nil {
		return nil
	}
	var b, a grants.Policy
	if before != nil {
		b = *before
	}
	if after != nil {
		a = *after
	}
	snap, err := s.policies(ctx)
	if err != nil {
		return err
	}
	r := a.Resource
	if after == nil {
		r = b.Resource
	}
	stored := snap.byResource[r]
	if stored == nil {
		return nil
	}
	cur := stored.model
	labels := applyDelta(cur.Labels, b.Labels, a.Labels, func(l string) string { return l })
	deny := applyDelta(cur.Deny, b.Deny, a.Deny, itemKey)
	keys := func(items []grants.Item) []string {
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = itemKey(it)
		}
		return out
	}
	if slices.Equal(labels, cur.Labels) && slices.Equal(keys(deny), keys(cur.Deny)) {
		return nil
	}
	cur.Labels, cur.Deny = labels, deny
	if len(cur.Allow)+len(cur.Deny) == 0 {
		return s.client.do(ctx, http.MethodDelete, policyPath+"/"+strconv.FormatInt(stored.id, 10), nil, nil, nil)
	}
	body, err := writeBody(stored, cur, s.cfg.ServiceName, "")
	if err != nil {
		return err
	}
	return s.client.do(ctx, http.MethodPut, policyPath+"/"+strconv.FormatInt(stored.id, 10), nil, body, nil)
}

// applyDelta removes from cur what before had and after has not, and adds
// what after has and before had not, comparing on key.
func applyDelta[T any](cur, before, after []T, key func(T) string) []T {
	has := func(list []T, k string) bool { return slices.ContainsFunc(list, func(x T) bool { return key(x) == k }) }
	var out []T
	for _, x := range cur {
		if has(before, key(x)) && !has(after, key(x)) {
			continue
		}
		out = append(out, x)
	}
	for _, x := range after {
		if !has(before, key(x)) && !has(out, key(x)) {
			out = append(out, x)
		}
	}
	return out
}

// delegatedError reports a refused grant API call: a 403 is Ranger
// refusing the grantor at that level.
func delegatedError(err error, plan grants.Plan, g grants.Grantor, w grants.Write) error {
	var he *rangerrest.HTTPError
	if errors.As(err, &he) && he.Status == http.StatusForbidden {
		e := pgerror.Wrap(err, pgerror.InsufficientPrivilege, "permission denied to %s access on %s",
			lower(plan.Action), w.Resource).
			WithDetail("Ranger refused grantor %s at the %s level (%s): %s", g.User, w.Level, w.Resource, he.Reason())
		if !w.Named {
			return e.WithHint("Delegate admin on an object does not reach the levels above it; an administrator can give the grantee discovery first: GRANT USAGE ON %s ...", w.Resource)
		}
		return e.WithHint("The grantor needs delegate admin (WITH GRANT OPTION) on %s.", w.Resource)
	}
	return userError(err, fmt.Sprintf("%s access on %s", lower(plan.Action), w.Resource))
}

func lower(a grants.Action) string {
	switch a {
	case grants.ActionGrant:
		return "grant"
	case grants.ActionRevoke:
		return "revoke"
	}
	return "deny"
}

// findWrite returns the plan's write at the level it names.
func findWrite(p grants.Plan) (grants.Write, bool) {
	for _, w := range p.Writes {
		if w.Named {
			return w, true
		}
	}
	return grants.Write{}, false
}

// policyAt returns the policy on the exact resource, or nil.
func policyAt(policies []grants.Policy, r grants.Resource) *grants.Policy {
	for i := range policies {
		if policies[i].Resource == r {
			return &policies[i]
		}
	}
	return nil
}

// allowedTo lists the access types the policy's allow items give the
// grantee by name.
func allowedTo(p *grants.Policy, g grants.Grantee) []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, it := range p.Allow {
		list := it.Users
		if g.Kind == grants.GranteeRole {
			list = it.Roles
		}
		if slices.Contains(list, g.Name) {
			out = append(out, it.Accesses...)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
