package rangeradmin

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// maxMergeAttempts bounds how often a statement is re-read and re-applied
// after Ranger refused a new policy because another appeared on the same
// resource meanwhile (error 3010).
const maxMergeAttempts = 3

// Change carries out a GRANT, REVOKE or DENY for caller and returns the
// plan carried out. GRANT and REVOKE go through the grant API in
// ranger-delegate mode; everything else is a read-merge-write of the
// policy API.
func (s *Service) Change(ctx context.Context, caller access.Caller, action grants.Action, st grants.Statement) (grants.Plan, error) {
	plan, err := access.PlanChange(s.profile, caller, action, st, s.cfg.Realm)
	if err != nil {
		return grants.Plan{}, err
	}
	grantor := grants.Grantor{User: caller.User, Roles: caller.Roles, Groups: caller.Groups}
	if s.cfg.Authority == grants.AuthorityRangerDelegate && action != grants.ActionDeny {
		return s.changeDelegated(ctx, grantor, plan)
	}
	for attempt := 1; ; attempt++ {
		snap, err := s.policies(ctx)
		if err != nil {
			return grants.Plan{}, err
		}
		existing := snap.models()
		allowed, next, err := s.applyPlan(grantor, plan, existing)
		if err != nil {
			return grants.Plan{}, err
		}
		err = s.writeChanges(ctx, snap, grants.Diff(existing, next), plan)
		if err == nil {
			return allowed, nil
		}
		if !isDuplicateResource(err) || attempt == maxMergeAttempts {
			return grants.Plan{}, userError(err, strings.ToLower(string(action))+" on "+plan.Object.String())
		}
	}
}

// applyPlan authorizes the plan against the policies and applies it.
func (s *Service) applyPlan(g grants.Grantor, plan grants.Plan, existing []grants.Policy) (grants.Plan, []grants.Policy, error) {
	authority := grants.Authority{Mode: s.cfg.Authority, AdminRoles: s.cfg.AdminRoles}
	allowed, err := s.profile.Authorize(g, plan, existing, authority)
	if err != nil {
		return grants.Plan{}, nil, err
	}
	var next []grants.Policy
	switch plan.Action {
	case grants.ActionGrant:
		next, err = s.profile.ApplyGrant(existing, allowed)
	case grants.ActionRevoke:
		next, err = s.profile.ApplyRevoke(existing, allowed)
	case grants.ActionDeny:
		next, err = s.profile.ApplyDeny(existing, allowed)
	}
	return allowed, next, err
}

// writeChanges writes each changed policy, outermost first, and stops at
// the first failure. Error 3010 is returned as it is, for the caller to
// merge again; any other failure after a level was written says which
// levels were left in place, since Ranger cannot undo them with it.
func (s *Service) writeChanges(ctx context.Context, snap *policySnapshot, changes []grants.Change, plan grants.Plan) error {
	var written []string
	for _, ch := range changes {
		err := s.writeChange(ctx, snap.byResource[ch.Resource], ch)
		if err == nil {
			written = append(written, ch.Resource.String())
			continue
		}
		if isDuplicateResource(err) {
			return err
		}
		return partialWriteError(userError(err, fmt.Sprintf("write the %s policy on %s", ch.Resource.Level(), ch.Resource)), written)
	}
	return nil
}

// writeChange writes one policy: DELETE when it is left empty, PUT over
// the stored one, POST for a new one.
func (s *Service) writeChange(ctx context.Context, stored *storedPolicy, ch grants.Change) error {
	switch {
	case ch.Policy == nil && stored == nil:
		return nil
	case ch.Policy == nil:
		return s.client.do(ctx, http.MethodDelete, policyPath+"/"+strconv.FormatInt(stored.id, 10), nil, nil, nil)
	}
	body, err := writeBody(stored, *ch.Policy, s.cfg.ServiceName, policyName(ch.Resource))
	if err != nil {
		return err
	}
	if stored == nil {
		return s.client.do(ctx, http.MethodPost, policyPath, nil, body, nil)
	}
	return s.client.do(ctx, http.MethodPut, policyPath+"/"+strconv.FormatInt(stored.id, 10), nil, body, nil)
}

// partialWriteError adds to err that the outer levels already written
// stay, when there are any.
func partialWriteError(err error, written []string) error {
	if len(written) == 0 {
		return err
	}
	pe, ok := err.(*pgerror.Error)
	if !ok {
		return fmt.Errorf("%w (the outer levels %s were written and left in place)", err, strings.Join(written, ", "))
	}
	detail := fmt.Sprintf("The outer levels on %s were written and left in place; they let the grantee discover the objects but not read them. Re-issue the statement to complete it.",
		strings.Join(written, ", "))
	if pe.Detail != "" {
		detail = pe.Detail + "\n" + detail
	}
	out := *pe
	out.Detail = detail
	return &out
}

// MayChange refuses, before the statement's names are resolved, a GRANT,
// REVOKE or DENY the caller could never carry out (grants.RequireAdmin).
func (s *Service) MayChange(caller access.Caller, action grants.Action) error {
	return grants.RequireAdmin(grants.Grantor{User: caller.User, Roles: caller.Roles, Groups: caller.Groups}, action,
		grants.Authority{Mode: s.cfg.Authority, AdminRoles: s.cfg.AdminRoles})
}
