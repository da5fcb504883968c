package sql

import (
	"context"
	"fmt"
	"strings"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/access"
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

// runShowAccess answers SHOW ACCESS: TableAccess's answer, a row per
// decision.
func (s *Session) runShowAccess(ctx context.Context, x *extgrammar.ShowAccess) (Result, error) {
	a, err := s.TableAccess(ctx, x.Table, x.User)
	if err != nil {
		return nil, err
	}
	return newTextResult(showAccessColumns, a.showRows(), "SHOW")
}

// TableAccess is what one user sees of one table and what decided it:
// SHOW ACCESS's answer, which the operator's access page shows too.
type TableAccess struct {
	// Catalog, Schema and Table name the table as gate one resolved it.
	Catalog string `json:"catalog"`
	Schema  string `json:"schema"`
	Table   string `json:"table"`
	// User is who the answer is about; empty for a role's answer.
	User string `json:"user"`
	// Role, for a role's answer (RoleAccess), is the role: what a member
	// holding nothing else sees.
	Role string `json:"role,omitempty"`
	// Columns are the table's columns, in table order (Kind column).
	Columns []AccessDecision `json:"columns"`
	// RowFilters all apply (Kind rows); none when every row is seen.
	RowFilters []AccessDecision `json:"row_filters"`
	// GateOne is gate one's decision on SELECT from the table (Kind
	// table): when it is denied the user opens the table not at all,
	// whatever the columns say.
	GateOne AccessDecision `json:"gate_one"`
	// Roles are the roles the policies were evaluated with.
	Roles []string `json:"roles"`
	// Notes say what the answer was computed from.
	Notes []string `json:"notes"`
}

// AccessDecision is one decision of a TableAccess, with the policy and
// store that made it.
type AccessDecision struct {
	// Name is the column's name, or "(rows)" / "(table)".
	Name string `json:"name"`
	// Access is raw, masked or hidden for a column; filtered or "no
	// rows" for the rows; allowed or denied for the table.
	Access     string `json:"access"`
	MaskType   string `json:"mask_type,omitempty"`
	Expression string `json:"expression,omitempty"`
	Policy     string `json:"policy,omitempty"`
	// Source is "resource" or "tag <name>": what the policy names.
	Source string `json:"source,omitempty"`
	Store  string `json:"store,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// TableAccess answers for user and the table named by parts (as SHOW
// ACCESS names it). Only an administrator may ask about another user;
// the question is refused before the table is looked up, so that a
// refusal says nothing about the table, and a table the asker cannot
// see does not exist for it.
func (s *Session) TableAccess(ctx context.Context, parts []string, user string) (*TableAccess, error) {
	caller := s.caller()
	if err := access.MayAskAbout(caller, s.superuser, user); err != nil {
		return nil, err
	}
	obj, t, err := s.policyTable(ctx, parts)
	if err != nil {
		return nil, err
	}
	id, err := s.accessIdentity(ctx, user)
	if err != nil {
		return nil, err
	}
	a := &TableAccess{Catalog: obj.Catalog, Schema: obj.Namespace, Table: obj.Name, User: user}
	check := func(ac AccessControl, privilege string) (access.Decision, error) {
		return ac.CheckAccess(ctx, caller, privilege, obj, user)
	}
	roles, err := s.decideAccess(ctx, a, id, t, check)
	if err != nil {
		return nil, err
	}
	if user == s.identity.User {
		a.Notes = append(a.Notes, "roles: "+listOrNone(roles)+" (this session's)",
			"groups: "+listOrNone(id.Groups)+" (this session's)")
	} else {
		a.Notes = append(a.Notes, "roles: "+listOrNone(roles)+" ("+s.roleOrigin()+"; a login token may add more)",
			"groups: unknown for another user, as only a login token carries them: policies naming groups are not applied")
	}
	return a, nil
}

// RoleAccess is TableAccess for a member of role who holds nothing else:
// the role's grants and policies, and those of the roles it is a member
// of. Only an administrator may ask, before the table is looked up.
func (s *Session) RoleAccess(ctx context.Context, parts []string, role string) (*TableAccess, error) {
	caller := s.caller()
	if err := access.MayAskAboutRole(s.superuser); err != nil {
		return nil, err
	}
	obj, t, err := s.policyTable(ctx, parts)
	if err != nil {
		return nil, err
	}
	id := auth.Identity{Roles: []string{role}}
	if src := s.engine.cfg.Roles; src != nil {
		if id.Roles, err = src.EffectiveRoles(ctx, "", id.Roles); err != nil {
			return nil, fmt.Errorf("roles of role %s: %w", role, err)
		}
	}
	a := &TableAccess{Catalog: obj.Catalog, Schema: obj.Namespace, Table: obj.Name, Role: role}
	check := func(ac AccessControl, privilege string) (access.Decision, error) {
		return ac.CheckRoleAccess(ctx, caller, privilege, obj, role)
	}
	roles, err := s.decideAccess(ctx, a, id, t, check)
	if err != nil {
		return nil, err
	}
	a.Notes = append(a.Notes, "roles: "+listOrNone(roles)+" (the role and the roles it is a member of, "+s.roleOrigin()+")")
	return a, nil
}

// decideAccess fills a's decisions for id: gate two's on t's columns and
// rows, and gate one's on SELECT from it, which check asks. It returns
// the roles gate two evaluated with.
func (s *Session) decideAccess(ctx context.Context, a *TableAccess, id auth.Identity, t planner.Table,
	check func(ac AccessControl, privilege string) (access.Decision, error)) ([]string, error) {
	var roles []string
	a.Columns, a.RowFilters, roles, a.Notes = s.gateTwoDecisions(ctx, id, t)
	a.Roles = roles
	var err error
	a.GateOne, err = s.gateOneDecision(check)
	return roles, err
}

// showRows are SHOW ACCESS's rows: the columns, the row filters, gate
// one's decision, then the notes.
func (a *TableAccess) showRows() [][]string {
	rows := make([][]string, 0, len(a.Columns)+len(a.RowFilters)+1+len(a.Notes))
	for _, d := range a.Columns {
		rows = append(rows, d.cells())
	}
	for _, d := range a.RowFilters {
		rows = append(rows, d.cells())
	}
	rows = append(rows, a.GateOne.cells())
	for _, n := range a.Notes {
		rows = append(rows, []string{accessNoteName, "note", "", "", "", "", "", n})
	}
	return rows
}

// cells is d as a SHOW ACCESS row.
func (d AccessDecision) cells() []string {
	return []string{d.Name, d.Access, d.MaskType, d.Expression, d.Policy, d.Source, d.Store, d.Detail}
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

// gateTwoDecisions are the decisions on the columns and the row
// filters, the roles the policies were evaluated with, and notes on the
// evaluation.
func (s *Session) gateTwoDecisions(ctx context.Context, id auth.Identity, t planner.Table) (columns, rows []AccessDecision, roles, notes []string) {
	ex, ok := s.engine.security.(accessExplainer)
	if !ok {
		for _, c := range t.Columns() {
			columns = append(columns, AccessDecision{Name: c.Name, Access: policy.AccessRaw})
		}
		return columns, nil, id.Roles, []string{`[policy] engine is "passthrough": SQE enforces no row filters or column masks`}
	}
	x := ex.Explain(ctx, id, t)
	for _, c := range x.Columns {
		d := AccessDecision{Name: c.Name, Access: c.Access, MaskType: c.MaskType, Expression: c.Expression}
		if c.Failure != "" {
			d.Detail = "the mask cannot be built, so the column is NULL: " + c.Failure
		}
		columns = append(columns, d.decidedBy(c.Decider, x.Store))
	}
	for _, f := range x.RowFilters {
		d := AccessDecision{Name: accessRowsName, Access: "filtered", Expression: f.Expression}
		if f.Expression == "" {
			d.Detail = "a filter without an expression admits every row"
		}
		rows = append(rows, d.decidedBy(f.Decider, x.Store))
	}
	if x.NoRows != "" {
		rows = append(rows, AccessDecision{Name: accessRowsName, Access: "no rows", Expression: "false", Store: x.Store, Detail: "fail closed: " + x.NoRows})
	}
	return columns, rows, x.Roles, nil
}

// listOrNone is names joined, or "none".
func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// decidedBy is d with the policy, source and store of decider; a
// decision no policy made names none.
func (d AccessDecision) decidedBy(decider policy.Decider, store string) AccessDecision {
	if decider.Policy == "" {
		return d
	}
	d.Policy, d.Source, d.Store = decider.Policy, "resource", store
	if decider.Tag != "" {
		d.Source = "tag " + decider.Tag
	}
	return d
}

// gateOneDecision is gate one's decision on SELECT from the table, as
// CHECK ACCESS words it; check asks the backend.
func (s *Session) gateOneDecision(check func(ac AccessControl, privilege string) (access.Decision, error)) (AccessDecision, error) {
	ac := s.engine.cfg.Access
	if ac == nil {
		return AccessDecision{Name: accessTableName, Access: "allowed", Detail: `[access_control] backend is "none": every authenticated user opens every table`}, nil
	}
	d, err := check(ac, privilegeName(extgrammar.Privilege{Kind: extgrammar.PrivilegeSelect}))
	if err != nil {
		return AccessDecision{}, err
	}
	out := AccessDecision{Name: accessTableName, Access: "denied", Policy: d.Policy, Store: d.Store, Detail: d.Reason}
	if d.Allowed {
		out.Access = "allowed"
	}
	if d.Policy != "" {
		out.Source = "resource"
	}
	return out, nil
}
