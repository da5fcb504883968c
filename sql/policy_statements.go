package sql

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/masks"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/extgrammar"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Gate two's statements: CREATE / DROP / SHOW POLICIES, DENY and REVOKE
// SELECT (columns) (column_deny.go) and the older GRANT ... ROWS WHERE /
// MASKED WITH forms write policies to the configured store ([policy]
// engine); every change needs an administrator role and, as a policy
// written cannot be rolled back, is refused inside a transaction block.

// policyColumns is SHOW POLICIES' row shape.
var policyColumns = []string{"name", "target", "kind", "column_name", "mask_type", "expression", "grantees"}

// policyStatementColumns is the row shape of a gate-two statement, nil
// for those that return none or for other statements.
func policyStatementColumns(st extgrammar.Statement) []Column {
	switch st.(type) {
	case *extgrammar.ShowPolicies:
		return textColumns(policyColumns...)
	case *extgrammar.ShowTags:
		return textColumns(tagColumns...)
	}
	return nil
}

// runPolicyStatement runs a gate-two statement; ok is false for others.
func (s *Session) runPolicyStatement(ctx context.Context, st extgrammar.Statement) (res Result, ok bool, err error) {
	switch x := st.(type) {
	case *extgrammar.CreatePolicy:
		res, err = s.runCreatePolicy(ctx, x)
	case *extgrammar.DropPolicy:
		res, err = s.runDropPolicy(ctx, x)
	case *extgrammar.ColumnDeny:
		res, err = s.runColumnDeny(ctx, x)
	case *extgrammar.ShowPolicies:
		res, err = s.runShowPolicies(ctx, x)
	case *extgrammar.SetTags:
		res, err = s.runSetTags(ctx, x.Table, x.Columns, nil)
	case *extgrammar.UnsetTags:
		res, err = s.runSetTags(ctx, x.Table, nil, x.Columns)
	case *extgrammar.ShowTags:
		res, err = s.runShowTags(ctx, x)
	default:
		return nil, false, nil
	}
	return res, true, err
}

// policyStore is the configured store, or the error a statement gets
// without one.
func (s *Session) policyStore(verb string) (policy.Store, error) {
	if st := s.engine.cfg.Policies; st != nil {
		return st, nil
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "%s is not available", verb).
		WithDetail("[policy] engine is \"passthrough\": SQE enforces no row filters or column masks.")
}

// requirePolicyAdmin refuses callers without an administrator role, and
// changes inside a transaction block.
func (s *Session) requirePolicyAdmin(verb string, change bool) error {
	if !s.superuser {
		return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to %s", strings.ToLower(verb)).
			WithDetail("%s requires an administrator role ([auth] admin_roles).", verb)
	}
	if change && s.tx != nil {
		return pgerror.New(pgerror.ActiveSQLTransaction, "%s cannot run inside a transaction block", verb)
	}
	return nil
}

// policyTable resolves a policy's table (the session's database and
// search path fill in missing parts) and returns it with its columns. A
// view has no policies of its own: they apply at its base tables.
func (s *Session) policyTable(ctx context.Context, parts []string) (grants.Object, *tableAdapter, error) {
	obj, err := s.resolveGrantObject(ctx, extgrammar.Object{Kind: extgrammar.ObjectTable, Name: parts}, false)
	if err != nil {
		return grants.Object{}, nil, err
	}
	if obj.Kind == grants.ObjectView {
		return grants.Object{}, nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" is a view", obj.Name).
			WithHint("Policies and tags apply at a view's base tables.")
	}
	cat, err := s.engine.catalog(obj.Catalog)
	if err != nil {
		return grants.Object{}, nil, pgerror.New(pgerror.InvalidCatalogName, "database \"%s\" does not exist", obj.Catalog)
	}
	t, err := cat.LoadTable(s.callerContext(ctx), obj.Namespace, obj.Name)
	if err != nil {
		return grants.Object{}, nil, err
	}
	a, err := newTableAdapter(t)
	if err != nil {
		return grants.Object{}, nil, err
	}
	return obj, a, nil
}

// policyDatabase is the Ranger database of a namespace: its last part,
// as Ranger's hive model names it.
func policyDatabase(namespace string) string {
	if i := strings.LastIndexByte(namespace, '.'); i >= 0 {
		return namespace[i+1:]
	}
	return namespace
}

func policyGrantees(gs []extgrammar.Grantee) []policy.Grantee {
	out := make([]policy.Grantee, len(gs))
	for i, g := range gs {
		switch g.Kind {
		case extgrammar.GranteeUser:
			out[i] = policy.Grantee{Kind: grants.GranteeUser, Name: g.Name}
		case extgrammar.GranteeGroup:
			out[i] = policy.Grantee{Kind: grants.GranteeGroup, Name: g.Name}
		default:
			out[i] = policy.Grantee{Kind: grants.GranteeRole, Name: g.Name}
		}
	}
	return out
}

func (s *Session) runCreatePolicy(ctx context.Context, x *extgrammar.CreatePolicy) (_ Result, err error) {
	const verb = "CREATE POLICY"
	// Refusals are audited too, with the target as written until it is
	// resolved.
	object := x.On.String()
	defer func() { s.auditChange(verb, []string{x.Kind.String()}, object, granteeNames(x.Grantees), err) }()
	store, err := s.policyStore(verb)
	if err != nil {
		return nil, err
	}
	if err := s.requirePolicyAdmin(verb, true); err != nil {
		return nil, err
	}
	target := policy.Target{Tag: x.On.Tag}
	if x.On.Table != nil {
		obj, a, err := s.policyTable(ctx, x.On.Table)
		if err != nil {
			return nil, err
		}
		target.Database, target.Table = policyDatabase(obj.Namespace), obj.Name
		object = obj.String()
		if x.Kind == extgrammar.PolicyColumnMask {
			if !slices.ContainsFunc(a.Columns(), func(c planner.TableColumn) bool { return c.Name == x.Column }) {
				return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", x.Column, obj.Name)
			}
			target.Column = x.Column
		}
	} else {
		object = "tag " + x.On.Tag
	}
	var p ranger.Policy
	if x.Kind == extgrammar.PolicyRowFilter {
		p, err = policy.RowFilter(x.Name, target, policyGrantees(x.Grantees), x.Filter)
	} else {
		maskType := x.Mask.Name
		if x.Mask.Component != "" {
			maskType = x.Mask.Component + ":" + x.Mask.Name
		}
		// A mask SQE could not build would null the column at every
		// read; refuse it now instead, naming the vocabulary.
		if _, merr := masks.Expression(maskType, x.MaskExpr, "c"); merr != nil {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "unsupported mask type %s", maskType).
				WithDetail("%s", pgerror.From(merr).Message).
				WithHint("Use MASK_NULL, MASK_SHOW_LAST_4, MASK_SHOW_FIRST_4, MASK, MASK_HASH, MASK_DATE_SHOW_YEAR, MASK_NONE or CUSTOM USING ('expression with {col}').")
		}
		p, err = policy.ColumnMask(x.Name, target, policyGrantees(x.Grantees), maskType, x.MaskExpr)
	}
	if err != nil {
		return nil, err
	}
	if err := store.PutPolicy(ctx, p, x.OrReplace); err != nil {
		return nil, err
	}
	return commandResult(verb), nil
}

func (s *Session) runDropPolicy(ctx context.Context, x *extgrammar.DropPolicy) (_ Result, err error) {
	const verb = "DROP POLICY"
	defer func() { s.auditChange(verb, nil, "policy "+x.Name, nil, err) }()
	store, err := s.policyStore(verb)
	if err != nil {
		return nil, err
	}
	if err := s.requirePolicyAdmin(verb, true); err != nil {
		return nil, err
	}
	existed, err := store.DropPolicy(ctx, x.Name)
	if err == nil && !existed && !x.IfExists {
		err = pgerror.New(pgerror.UndefinedObject, "policy \"%s\" does not exist", x.Name)
	}
	if err != nil {
		return nil, err
	}
	if !existed {
		s.notice(pgerror.SuccessfulCompletion, "", "policy \"%s\" does not exist, skipping", x.Name)
	}
	return commandResult(verb), nil
}

func (s *Session) runShowPolicies(ctx context.Context, x *extgrammar.ShowPolicies) (Result, error) {
	store, err := s.policyStore("SHOW POLICIES")
	if err != nil {
		return nil, err
	}
	if err := s.requirePolicyAdmin("SHOW POLICIES", false); err != nil {
		return nil, err
	}
	var want policy.Target
	if x.On != nil {
		want.Tag = x.On.Tag
		if x.On.Table != nil {
			obj, _, err := s.policyTable(ctx, x.On.Table)
			if err != nil {
				return nil, err
			}
			want.Database, want.Table = policyDatabase(obj.Namespace), obj.Name
		}
	}
	snap, err := store.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, p := range append(slices.Clone(snap.Policies), snap.TagPolicies...) {
		if x.On != nil && !policyOn(p, want) {
			continue
		}
		rows = append(rows, policyRows(p)...)
	}
	slices.SortFunc(rows, func(a, b []string) int { return slices.Compare(a, b) })
	return newTextResult(policyColumns, rows, "SHOW")
}

// policyOn reports whether p protects want (a table, or a tag).
func policyOn(p ranger.Policy, want policy.Target) bool {
	if want.Tag != "" {
		return slices.Contains(p.Resources["tag"].Values, want.Tag)
	}
	return slices.Contains(p.Resources["database"].Values, want.Database) && slices.Contains(p.Resources["table"].Values, want.Table)
}

// policyRows are SHOW POLICIES' rows of p: one per policy item.
func policyRows(p ranger.Policy) [][]string {
	target := "tag " + strings.Join(p.Resources["tag"].Values, ",")
	if _, ok := p.Resources["tag"]; !ok {
		target = "table " + strings.Join(p.Resources["database"].Values, ",") + "." + strings.Join(p.Resources["table"].Values, ",")
	}
	column := strings.Join(p.Resources["column"].Values, ",")
	var rows [][]string
	for _, it := range p.RowFilterPolicyItems {
		rows = append(rows, []string{p.Name, target, "ROW FILTER", column, "", it.RowFilterInfo.FilterExpr, itemGrantees(it.PolicyItem)})
	}
	for _, it := range p.DataMaskPolicyItems {
		rows = append(rows, []string{p.Name, target, "COLUMN MASK", column, it.DataMaskInfo.DataMaskType, it.DataMaskInfo.ValueExpr, itemGrantees(it.PolicyItem)})
	}
	if p.PolicyType == ranger.PolicyTypeAccess {
		// Gate two enforces an access policy's denials of select on
		// columns (restrictions); its other items decide nothing here.
		for _, it := range p.DenyPolicyItems {
			if slices.ContainsFunc(it.Accesses, func(a ranger.PolicyItemAccess) bool { return a.Type == "select" }) {
				rows = append(rows, []string{p.Name, target, "COLUMN DENY", column, "", "", itemGrantees(it)})
			}
		}
	}
	return rows
}

// itemGrantees lists a policy item's grantees as SQL names them.
func itemGrantees(it ranger.PolicyItem) string {
	var out []string
	for _, u := range it.Users {
		out = append(out, "USER "+quoteIdent(u))
	}
	for _, r := range it.Roles {
		out = append(out, "ROLE "+quoteIdent(r))
	}
	for _, g := range it.Groups {
		out = append(out, "GROUP "+quoteIdent(g))
	}
	return strings.Join(out, ", ")
}

// grantPolicies writes the gate-two half of GRANT SELECT ... ROWS WHERE
// / MASKED WITH (spec/003's older forms): a row filter and a CUSTOM mask
// per column for the statement's grantees, named after the table, the
// grantee and what they protect, so that repeating the statement
// replaces them.
func (s *Session) grantPolicies(ctx context.Context, x *extgrammar.GrantPrivileges, obj grants.Object) error {
	if x.RowFilter == "" && len(x.Masks) == 0 {
		return nil
	}
	form := "GRANT ... MASKED WITH"
	if x.RowFilter != "" {
		form = "GRANT ... ROWS WHERE"
	}
	store, err := s.policyStore(form)
	if err != nil {
		return err
	}
	base := policy.Target{Database: policyDatabase(obj.Namespace), Table: obj.Name}
	for _, g := range policyGrantees(x.Grantees) {
		stem := fmt.Sprintf("%s_%s_%s_%s", base.Database, base.Table, strings.ToLower(string(g.Kind)), g.Name)
		if x.RowFilter != "" {
			p, err := policy.RowFilter(stem+"_rows", base, []policy.Grantee{g}, x.RowFilter)
			if err != nil {
				return err
			}
			if err := store.PutPolicy(ctx, p, true); err != nil {
				return err
			}
		}
		for _, m := range x.Masks {
			t := base
			t.Column = m.Column
			p, err := policy.ColumnMask(stem+"_mask_"+m.Column, t, []policy.Grantee{g}, "CUSTOM", m.Expr)
			if err != nil {
				return err
			}
			if err := store.PutPolicy(ctx, p, true); err != nil {
				return err
			}
		}
	}
	return nil
}
