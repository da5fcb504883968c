package policy

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/audit"
	"github.com/sqe-db/sqe/governance/masks"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/planner"
)

// Config configures an Enforcer.
type Config struct {
	Store Store
	// MaskPrecedence is "tag" (a tag mask beats a resource mask of equal
	// priority, as Ranger's plugins order them) or "resource".
	MaskPrecedence string
	Logger         *slog.Logger
	// OnRefused, when set, is told how many policies of each policy
	// version compiled were refused (ranger.RefusedPolicy).
	OnRefused func(n int)
}

// Enforcer is gate two: it turns a table into what a caller may see of
// it, from the store's policies.
type Enforcer struct {
	cfg Config

	mu       sync.Mutex
	compiled *compiledSnapshot
}

// compiledSnapshot is a snapshot's evaluator, kept until the store's
// version changes.
type compiledSnapshot struct {
	version int64
	snap    *Snapshot
	eval    *ranger.Evaluator
	// restricts says whether any access policy exists, which could deny
	// a column: without one no column is asked about.
	restricts bool
	// conditional says whether any policy has a condition or a validity
	// schedule (ranger.Conditional).
	conditional bool
}

// NewEnforcer is gate two over cfg.Store.
func NewEnforcer(cfg Config) *Enforcer {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Enforcer{cfg: cfg}
}

// SecurityFor is the caller's view of every table.
func (e *Enforcer) SecurityFor(id auth.Identity) planner.Security {
	return &callerSecurity{e: e, id: id}
}

// current returns the compiled form of the store's current snapshot; on
// failure, why the policies are unknown.
func (e *Enforcer) current(ctx context.Context) (*compiledSnapshot, string, error) {
	snap, err := e.cfg.Store.Snapshot(ctx)
	if err != nil {
		return nil, closedStoreUnreachable, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if c := e.compiled; c != nil && c.version == snap.Version {
		return c, "", nil
	}
	eval, err := ranger.New(ranger.Config{
		ServiceDef: snap.ServiceDef, Policies: snap.Policies,
		TagServiceDef: snap.TagServiceDef, TagPolicies: snap.TagPolicies,
		Roles: snap.Roles, MaskPrecedence: e.cfg.MaskPrecedence,
	})
	if err != nil {
		return nil, closedUncompilable, err
	}
	e.reportRefused(snap.Version, eval.Refused())
	e.compiled = &compiledSnapshot{version: snap.Version, snap: snap, eval: eval,
		restricts:   hasAccessPolicy(snap.Policies) || hasAccessPolicy(snap.TagPolicies),
		conditional: ranger.Conditional(snap.Policies) || ranger.Conditional(snap.TagPolicies)}
	return e.compiled, "", nil
}

// reportRefused logs and counts the policies of a version the evaluator
// refused: they cannot be evaluated, so they admit no row where they
// apply. The log names each policy and why, never a value of the data.
func (e *Enforcer) reportRefused(version int64, refused []ranger.RefusedPolicy) {
	for _, r := range refused {
		e.cfg.Logger.Error("policy refused: SQE cannot evaluate it, so the tables it applies to admit no row",
			"policy_id", r.ID, "policy", r.Name, "tag_policy", r.ByTag, "policy_version", version, "reason", r.Reason)
	}
	if e.cfg.OnRefused != nil && len(refused) > 0 {
		e.cfg.OnRefused(len(refused))
	}
}

// callerSecurity is one caller's planner.Security.
type callerSecurity struct {
	e  *Enforcer
	id auth.Identity
}

// Secure builds the caller's relation of t. It never fails: whatever
// keeps it from knowing the policies (the store, the table's name, its
// tags) gives a relation that admits no row.
func (s *callerSecurity) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	ev := s.e.evaluate(ctx, s.id, t)
	if ev.closed != "" {
		name := t.QualifiedName()
		s.e.cfg.Logger.Warn("gate two admits no row", "table", fmt.Sprintf("%s.%s", name.Schema, name.Name), "user", s.id.User, "reason", ev.closed, "error", ev.err)
	}
	ev.noteDecisions(ctx)
	return ev.rel, nil
}

// noteDecisions records, for the audit log, what gate two applied to the
// table: each row filter, each mask and each restricted column with its
// policy, or the relation admitting no row when the policies could not
// be evaluated.
func (ev *evaluation) noteDecisions(ctx context.Context) {
	name := ev.rel.Table.QualifiedName()
	table := name.Catalog + "/" + name.Schema + "/" + name.Name
	note := func(access, resource, resType string, allowed bool, policy int64, reason string) {
		audit.Note(ctx, audit.Decision{Gate: audit.GateTwo, Access: access, Resource: resource, ResourceType: resType,
			Allowed: allowed, PolicyID: policy, Enforcer: "ranger-acl", Reason: reason})
	}
	if ev.closed != "" {
		note("ROW_FILTER", table, "@table", false, -1, "fails closed: "+ev.closed)
		return
	}
	for _, f := range ev.filters {
		note("ROW_FILTER", table, "@table", true, f.PolicyID, "")
	}
	cols := ev.rel.Table.Columns()
	for i, m := range ev.masks {
		if m.PolicyID >= 0 && m.MaskType != "" && i < len(cols) {
			note(m.MaskType, table+"/"+cols[i].Name, "@column", true, m.PolicyID, "")
		}
	}
	for _, i := range slices.Sorted(maps.Keys(ev.restrictions)) {
		if i < len(cols) {
			note("select", table+"/"+cols[i].Name, "@column", false, ev.restrictions[i].PolicyID, "column restricted")
		}
	}
}

// PoliciesVersion is the version of the snapshot Secure decides under
// (planner.VersionedSecurity); not ok while any policy is conditional or
// the policies are unknown.
func (s *callerSecurity) PoliciesVersion(ctx context.Context) (int64, bool, error) {
	c, _, err := s.e.current(ctx)
	if err != nil {
		return 0, false, nil
	}
	return c.version, !c.conditional, nil
}

// evaluation is gate two's answer for one caller and table and what it
// was decided from: Secure hands out the relation, Explain describes it.
type evaluation struct {
	rel  *planner.SecuredRelation
	snap *Snapshot // nil when the policies are unknown
	// masks are the evaluator's answers in column order; filters the row
	// filters that apply, with filterExprs their SQL for the caller (""
	// for an item without an expression, which admits every row).
	masks       []ranger.DataMaskResult
	filters     []ranger.RowFilterResult
	filterExprs []string
	// maskFailures are the masks that could not be built, by column: the
	// column is NULL.
	maskFailures map[int]error
	// restrictions are the access decisions that removed columns, by
	// column.
	restrictions map[int]ranger.AccessResult
	// roles are the caller's roles as the session functions see them.
	roles []string
	// closed is why the relation admits no row, "" when the policies were
	// evaluated; err is what caused it, when anything did.
	closed string
	err    error
}

// Reasons the relation admits no row.
const (
	closedStoreUnreachable = "policy store unreachable"
	closedUncompilable     = "policies cannot be compiled"
	closedNoPolicyKey      = "table has no policy key"
	closedTagsUnknown      = "column tags unknown"
	closedMaskFailed       = "mask evaluation failed"
	closedFilterFailed     = "row filter evaluation failed"
	closedRefusedPolicy    = "policy cannot be evaluated"
)

// evaluate decides what id sees of t.
func (e *Enforcer) evaluate(ctx context.Context, id auth.Identity, t planner.Table) *evaluation {
	cols := t.Columns()
	ev := &evaluation{rel: &planner.SecuredRelation{Table: t, Visible: make([]int, len(cols))}, roles: id.Roles}
	for i := range cols {
		ev.rel.Visible[i] = i
	}
	closed := func(why string, err error) *evaluation {
		ev.rel.Masks, ev.rel.RowFilters = nil, []string{"false"}
		ev.masks, ev.filters, ev.filterExprs, ev.maskFailures, ev.restrictions = nil, nil, nil, nil, nil
		ev.closed, ev.err = why, err
		return ev
	}
	c, why, err := e.current(ctx)
	if err != nil {
		return closed(why, err)
	}
	ev.snap = c.snap
	name := t.QualifiedName()
	database := name.Schema
	if i := strings.LastIndexByte(database, '.'); i >= 0 {
		database = database[i+1:]
	}
	if database == "" || name.Name == "" {
		return closed(closedNoPolicyKey, nil)
	}
	var tags map[int][]string
	if tt, ok := t.(planner.TaggedTable); ok {
		if tags, err = tt.ColumnTags(); err != nil {
			return closed(closedTagsUnknown, err)
		}
	}
	treq := ranger.Request{Resource: ranger.Resource{"database": {database}, "table": {name.Name}}, Tags: tableTags(tags), TagsGiven: true}
	if r, refused := c.eval.RefusedFor(&treq); refused {
		return closed(closedRefusedPolicy, fmt.Errorf("policy %d (%s) cannot be evaluated: %s", r.ID, r.Name, r.Reason))
	}
	ev.roles = sessionRoles(id, c.snap)
	values := sessionValues{user: id.User, roles: ev.roles}
	base := ranger.Request{AccessType: "select", User: id.User, Groups: id.Groups, Roles: id.Roles, TagsGiven: true,
		ClientIPAddress: id.ClientAddr}
	if ot, ok := t.(planner.OwnedTable); ok {
		// Items granting {OWNER}, and {OWNER} in resources, name the
		// table's owner.
		base.Owner = ot.Owner()
	}

	mreq := base
	mreq.Resource = ranger.Resource{"database": {database}, "table": {name.Name}}
	mcols := make([]ranger.MaskColumn, len(cols))
	for i, col := range cols {
		mcols[i] = ranger.MaskColumn{Name: col.Name, Tags: resourceTags(tags[i])}
	}
	if ev.masks, err = c.eval.EvalDataMasks(&mreq, mcols); err != nil {
		return closed(closedMaskFailed, err)
	}
	for i, res := range ev.masks {
		if res.PolicyID < 0 || res.MaskType == "" {
			continue
		}
		expr, ok, buildErr := maskExpression(res, cols[i].Name, values)
		if !ok {
			continue // MASK_NONE
		}
		if ev.rel.Masks == nil {
			ev.rel.Masks = map[int]string{}
		}
		ev.rel.Masks[i] = expr
		if buildErr != nil {
			if ev.maskFailures == nil {
				ev.maskFailures = map[int]error{}
			}
			ev.maskFailures[i] = buildErr
		}
	}

	if c.restricts {
		ev.restrict(c.eval, base, database, name.Name, tags)
	}

	req := base
	req.Resource = ranger.Resource{"database": {database}, "table": {name.Name}}
	req.Tags = tableTags(tags)
	if ev.filters, err = c.eval.EvalRowFilters(&req); err != nil {
		return closed(closedFilterFailed, err)
	}
	ev.filterExprs = make([]string, len(ev.filters))
	for i, f := range ev.filters {
		if strings.TrimSpace(f.FilterExpr) == "" {
			continue // a policy item without an expression admits every row
		}
		ev.filterExprs[i] = foldSessionFunctions(f.FilterExpr, values)
		ev.rel.RowFilters = append(ev.rel.RowFilters, ev.filterExprs[i])
	}
	return ev
}

// restrict removes from the relation the columns an access policy
// explicitly denies the caller (a deny item, or a deny-all-else policy,
// decided): restriction beats any mask. A column no access policy decides
// stays: whether the caller may open the table at all is gate one's
// question.
func (ev *evaluation) restrict(eval *ranger.Evaluator, base ranger.Request, database, table string, tags map[int][]string) {
	cols := ev.rel.Table.Columns()
	visible := ev.rel.Visible[:0]
	for _, i := range ev.rel.Visible {
		req := base
		req.Resource = ranger.Resource{"database": {database}, "table": {table}, "column": {cols[i].Name}}
		req.Tags = resourceTags(tags[i])
		if res := eval.IsAccessAllowed(&req); !res.Allowed && res.PolicyID >= 0 {
			delete(ev.rel.Masks, i)
			if ev.restrictions == nil {
				ev.restrictions = map[int]ranger.AccessResult{}
			}
			ev.restrictions[i] = res
			continue
		}
		visible = append(visible, i)
	}
	ev.rel.Visible = visible
}

// hasAccessPolicy reports whether any of policies is an access policy.
func hasAccessPolicy(policies []ranger.Policy) bool {
	for i := range policies {
		if policies[i].PolicyType == ranger.PolicyTypeAccess {
			return true
		}
	}
	return false
}

// maskExpression is the SQL that replaces the column, or ok false for
// MASK_NONE. A mask SQE cannot build is NULL, with the reason in buildErr:
// the column stays, with no value (fail closed).
func maskExpression(res ranger.DataMaskResult, column string, v sessionValues) (expr string, ok bool, buildErr error) {
	// The evaluator strips this component's prefix ("hive:"); another
	// component's MASK_NONE is not an exemption SQE may honour.
	if res.MaskType == "MASK_NONE" {
		return "", false, nil
	}
	expr, err := masks.Expression(res.MaskType, res.ValueExpr, column)
	if err != nil {
		return "NULL", true, err
	}
	if res.ConditionExpr != "" {
		expr = "CASE WHEN (" + foldSessionFunctions(res.ConditionExpr, v) + ") THEN (" + expr + ") ELSE " + quoteIdent(column) + " END"
	}
	return expr, true, nil
}

// quoteIdent is name as a SQL identifier, always quoted.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// resourceTags are a column's tags as a request carries them.
func resourceTags(names []string) []ranger.ResourceTag {
	out := make([]ranger.ResourceTag, len(names))
	for i, n := range names {
		out[i] = ranger.ResourceTag{Type: n, MatchType: ranger.MatchSelf}
	}
	return out
}

// tableTags are the tags of any of the table's columns, which a tag row
// filter applies by.
func tableTags(tags map[int][]string) []ranger.ResourceTag {
	var names []string
	for _, ts := range tags {
		for _, t := range ts {
			if !slices.Contains(names, t) {
				names = append(names, t)
			}
		}
	}
	slices.Sort(names)
	return resourceTags(names)
}

// sessionRoles are the caller's roles for is_role_in_session: the
// session's, and those the store's role download gives the user or its
// groups, nested roles followed.
func sessionRoles(id auth.Identity, snap *Snapshot) []string {
	out := slices.Clone(id.Roles)
	if snap.Roles == nil {
		return out
	}
	for changed := true; changed; {
		changed = false
		for _, r := range snap.Roles.RangerRoles {
			if slices.Contains(out, r.Name) || !roleHas(r, id.User, id.Groups, out) {
				continue
			}
			out = append(out, r.Name)
			changed = true
		}
	}
	return out
}

// roleHas reports whether r lists the user, one of its groups or one of
// the roles already held.
func roleHas(r ranger.Role, user string, groups, roles []string) bool {
	for _, m := range r.Users {
		if m.Name == user {
			return true
		}
	}
	for _, m := range r.Groups {
		if slices.Contains(groups, m.Name) {
			return true
		}
	}
	for _, m := range r.Roles {
		if slices.Contains(roles, m.Name) {
			return true
		}
	}
	return false
}
