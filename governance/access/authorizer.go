package access

import (
	"context"
	"fmt"
	"strings"

	"github.com/sqe-db/sqe/governance/audit"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/storage"
)

// Authorize decides a catalog operation for p (storage.Authorizer). It
// fails closed: an operation it does not know, a policy store it cannot
// read or policies it cannot compile all refuse. An administrator is
// allowed by default, but a deny naming it or one of its roles still
// refuses it, as it refuses anyone (deny beats allow).
func (s *Service) Authorize(ctx context.Context, p storage.Principal, a storage.Action, target storage.Ident) error {
	op, ok := s.ops[a]
	if !ok {
		return fmt.Errorf("gate one does not know the operation %s", a)
	}
	res, err := resourceOf(s.cfg.Realm, target, op)
	if err != nil {
		return fmt.Errorf("%s: %w", a, err)
	}
	c, err := s.current(ctx)
	if err != nil {
		return fmt.Errorf("gate one unavailable: %w", err)
	}
	req := &ranger.Request{
		Resource: res, AccessType: op.accesses[0], AccessTypes: op.accesses,
		User: p.User, Roles: p.Roles, Groups: p.Groups, ClientIPAddress: p.ClientAddr,
	}
	note := func(allowed bool, policy int64, reason string) {
		audit.Note(ctx, audit.Decision{Gate: audit.GateOne, Access: op.accesses[0], Resource: auditResource(target),
			ResourceType: auditResourceType(target), Allowed: allowed, PolicyID: policy, Enforcer: "ranger-acl", Reason: reason})
	}
	if s.isAdmin(p.Roles) {
		if id, denied := deniedBy(c.eval, req); denied {
			note(false, id, "")
			return fmt.Errorf("%s is denied by policy %s", a, policyName(c.ranger, id))
		}
		note(true, -1, "administrator")
		return nil
	}
	r := c.eval.IsAccessAllowed(req)
	note(r.Allowed, r.PolicyID, "")
	if !r.Allowed {
		return fmt.Errorf("%s needs %v", a, op.accesses)
	}
	return nil
}

// auditResource names target as Ranger's hive audit does: its parts
// joined by slashes.
func auditResource(target storage.Ident) string {
	parts := make([]string, 0, 3)
	for _, p := range []string{target.Catalog, target.Namespace, target.Table} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "/")
}

// auditResourceType is the kind of object target names.
func auditResourceType(target storage.Ident) string {
	switch {
	case target.Table != "":
		return "@table"
	case target.Namespace != "":
		return "@schema"
	}
	return "@catalog"
}

// DecisionsVersion is the version of the policies Authorize decides under
// for the statement in ctx (storage.VersionedAuthorizer); not ok while any
// policy is conditional.
func (s *Service) DecisionsVersion(ctx context.Context) (int64, bool, error) {
	c, err := s.current(ctx)
	if err != nil {
		return 0, false, fmt.Errorf("gate one unavailable: %w", err)
	}
	return c.version, !ranger.Conditional(c.ranger), nil
}
