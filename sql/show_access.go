package sql

import (
	"context"
	"fmt"
	"strings"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/extgrammar"
)

// SHOW ACCESS ON t FOR USER u answers the auditor's question, "what does
// this user see in that table, and which policy decided", in one
// statement: a row per column (raw, masked or hidden, with the deciding
// policy), a row per row filter, a row for gate one (may the user open
// the table at all), and notes on what the answer was computed from.
// Gate two's rows come from the evaluation queries run, not a second
// reading of the policies.

// showAccessColumns is SHOW ACCESS's row shape.
var showAccessColumns = []string{"column_name", "access", "mask_type", "expression", "policy", "source", "store", "detail"}

// The column_name of the rows that are not a column's.
const (
	accessRowsName  = "(rows)"
	accessTableName = "(table)"
	accessNoteName  = "(note)"
)

// RoleSource gives a user the roles a session of theirs holds besides
// its token's (governance.Store): what gate two evaluates another user
// with.
type RoleSource interface {
	EffectiveRoles(ctx context.Context, user string, tokenRoles []string) ([]string, error)
	// RolesVersion moves with every change of a role or a membership;
	// a session takes up a change at its next statement.
	RolesVersion(ctx context.Context) (int64, error)
}

// accessExplainer is a gate-two provider that can say why a caller sees
// what it sees (policy.Enforcer).
type accessExplainer interface {
	Explain(ctx context.Context, id auth.Identity, t planner.Table) *policy.Explanation
}

// runShowAccess answers SHOW ACCESS. Only an administrator may ask about
// another user; the question is refused before the table is looked up,
// so that a refusal says nothing about the table.
func (s *Session) runShowAccess(ctx context.Context, x *extgrammar.ShowAccess) (Result, error) {
	caller := s.caller()
	if err := access.MayAskAbout(caller, s.superuser, x.User); err != nil {
		return nil, err
	}
	obj, t, err := s.policyTable(ctx, x.Table)
	if err != nil {
		return nil, err
	}
	id, err := s.accessIdentity(ctx, x.User)
	if err != nil {
		return nil, err
	}
	rows, roles, notes := s.gateTwoRows(ctx, id, t)
	gateOne, err := s.gateOneRow(ctx, caller, obj, x.User)
	if err != nil {
		return nil, err
	}
	rows = append(rows, gateOne)
	if x.User == s.identity.User {
		notes = append(notes, "roles: "+listOrNone(roles)+" (this session's)",
			"groups: "+listOrNone(id.Groups)+" (this session's)")
	} else {
		notes = append(notes, "roles: "+listOrNone(roles)+" ("+s.roleOrigin()+"; a login token may add more)",
			"groups: unknown for another user, as only a login token carries them: policies naming groups are not applied")
	}
	for _, n := range notes {
		rows = append(rows, []string{accessNoteName, "note", "", "", "", "", "", n})
	}
	return newTextResult(showAccessColumns, rows, "SHOW")
}

// accessIdentity is who gate two evaluates: the session's own identity
// when users ask about themselves; otherwise the user with the roles a
// session of theirs would hold besides its token's, and no groups, which
// only a token carries.
func (s *Session) accessIdentity(ctx context.Context, user string) (auth.Identity, error) {
	if user == s.identity.User {
		return s.identity, nil
	}
	id := auth.Identity{User: user}
	src := s.engine.cfg.Roles
	if src == nil {
		return id, nil
	}
	roles, err := src.EffectiveRoles(ctx, user, nil)
	if err != nil {
		return id, fmt.Errorf("roles of user %s: %w", user, err)
	}
	id.Roles = roles
	return id, nil
}

// roleOrigin says where another user's roles came from.
func (s *Session) roleOrigin() string {
	origin := "from the governance store"
	if s.engine.cfg.Roles == nil {
		origin = "no role store"
	}
	if p := s.engine.cfg.Policies; p != nil && p.Engine() == policy.EngineRanger {
		origin += " and Ranger's role store"
	}
	return origin
}

// gateTwoRows are the rows of the columns and the row filters, the roles
// the policies were evaluated with, and notes on the evaluation.
func (s *Session) gateTwoRows(ctx context.Context, id auth.Identity, t planner.Table) (rows [][]string, roles, notes []string) {
	ex, ok := s.engine.security.(accessExplainer)
	if !ok {
		for _, c := range t.Columns() {
			rows = append(rows, []string{c.Name, policy.AccessRaw, "", "", "", "", "", ""})
		}
		return rows, id.Roles, []string{`[policy] engine is "passthrough": SQE enforces no row filters or column masks`}
	}
	x := ex.Explain(ctx, id, t)
	for _, c := range x.Columns {
		detail := ""
		if c.Failure != "" {
			detail = "the mask cannot be built, so the column is NULL: " + c.Failure
		}
		rows = append(rows, append([]string{c.Name, c.Access, c.MaskType, c.Expression}, decidedBy(c.Decider, x.Store, detail)...))
	}
	for _, f := range x.RowFilters {
		detail := ""
		if f.Expression == "" {
			detail = "a filter without an expression admits every row"
		}
		rows = append(rows, append([]string{accessRowsName, "filtered", "", f.Expression}, decidedBy(f.Decider, x.Store, detail)...))
	}
	if x.NoRows != "" {
		rows = append(rows, []string{accessRowsName, "no rows", "", "false", "", "", x.Store, "fail closed: " + x.NoRows})
	}
	return rows, x.Roles, nil
}

// listOrNone is names joined, or "none".
func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// decidedBy is the policy, source, store and detail cells of a row
// decided by d; a row no policy decided has none but the detail.
func decidedBy(d policy.Decider, store, detail string) []string {
	if d.Policy == "" {
		return []string{"", "", "", detail}
	}
	source := "resource"
	if d.Tag != "" {
		source = "tag " + d.Tag
	}
	return []string{d.Policy, source, store, detail}
}

// gateOneRow is gate one's decision on SELECT from the table for user,
// as CHECK ACCESS words it.
func (s *Session) gateOneRow(ctx context.Context, caller access.Caller, obj grants.Object, user string) ([]string, error) {
	ac := s.engine.cfg.Access
	if ac == nil {
		return []string{accessTableName, "allowed", "", "", "", "", "", `[access_control] backend is "none": every authenticated user opens every table`}, nil
	}
	d, err := ac.CheckAccess(ctx, caller, privilegeName(extgrammar.Privilege{Kind: extgrammar.PrivilegeSelect}), obj, user)
	if err != nil {
		return nil, err
	}
	verdict := "denied"
	if d.Allowed {
		verdict = "allowed"
	}
	source := ""
	if d.Policy != "" {
		source = "resource"
	}
	return []string{accessTableName, verdict, "", "", d.Policy, source, d.Store, d.Reason}, nil
}
