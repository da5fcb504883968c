package sql

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/extgrammar"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// DENY SELECT (column, ...) ON TABLE t TO grantee restricts columns in
// gate two: the grantees do not see them at all (SELECT * leaves them
// out, naming one is 42703). REVOKE SELECT (column, ...) takes the denial
// back. Each column's denials are one access policy in the configured
// store (policy.DenyColumn), so SHOW POLICIES lists them and SHOW ACCESS
// names the policy that hid a column. Like every gate-two change they
// need an administrator role and are refused inside a transaction block.

func (s *Session) runColumnDeny(ctx context.Context, x *extgrammar.ColumnDeny) (_ Result, err error) {
	verb := x.Action.String()
	what := verb + " SELECT on columns"
	privileges := []string{"SELECT (" + strings.Join(x.Columns, ", ") + ")"}
	object := extgrammar.Object{Kind: extgrammar.ObjectTable, Name: x.Table}.String()
	defer func() { s.auditChange(verb, privileges, object, granteeNames(x.Grantees), err) }()
	store, err := s.policyStore(what)
	if err != nil {
		return nil, err
	}
	if err := s.requirePolicyAdmin(what, true); err != nil {
		return nil, err
	}
	if x.Action == extgrammar.ActionDeny && slices.ContainsFunc(x.Grantees, func(g extgrammar.Grantee) bool { return g.Kind == extgrammar.GranteeGroup }) {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "DENY to a group is not supported").
			WithDetail("Groups come from the identity provider's token and cannot be confirmed to exist, so denials go to users and roles only.").
			WithHint("Deny a role and make the group's members members of the role.")
	}
	obj, err := s.resolveGrantObject(ctx, extgrammar.Object{Kind: extgrammar.ObjectTable, Name: x.Table}, false)
	if err != nil {
		return nil, err
	}
	object = obj.String()
	if obj.Kind == grants.ObjectView {
		return nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" is a view", obj.Name).
			WithHint("Columns are restricted at a view's base tables.")
	}
	if x.Action == extgrammar.ActionDeny {
		if err := s.checkDeniedColumns(ctx, obj, x.Columns); err != nil {
			return nil, err
		}
	}
	grantees := policyGrantees(x.Grantees)
	for _, col := range x.Columns {
		target := policy.Target{Database: policyDatabase(obj.Namespace), Table: obj.Name, Column: col}
		if x.Action == extgrammar.ActionDeny {
			err = policy.DenyColumn(ctx, store, target, grantees)
		} else {
			var revoked bool
			revoked, err = policy.RevokeColumnDeny(ctx, store, target, grantees)
			if err == nil && !revoked {
				s.notice(pgerror.SuccessfulCompletion, "", "column \"%s\" of relation \"%s\" was not denied to %s, skipping",
					col, obj.Name, strings.Join(granteeNames(x.Grantees), ", "))
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return commandResult(verb), nil
}

// checkDeniedColumns refuses a DENY naming a column the table does not
// have (42703). A table the administrator may not load itself (a deny
// binds administrators too) is not read: its denial is written as named,
// since a deny can only hide more.
func (s *Session) checkDeniedColumns(ctx context.Context, obj grants.Object, columns []string) error {
	cat, err := s.engine.catalog(obj.Catalog)
	if err != nil {
		return pgerror.New(pgerror.InvalidCatalogName, "database \"%s\" does not exist", obj.Catalog)
	}
	t, err := cat.LoadTable(s.callerContext(ctx), obj.Namespace, obj.Name)
	if errors.Is(err, storage.ErrForbidden) {
		return nil
	}
	if err != nil {
		return err
	}
	a, err := newTableAdapter(t)
	if err != nil {
		return err
	}
	for _, col := range columns {
		if !slices.ContainsFunc(a.Columns(), func(c planner.TableColumn) bool { return c.Name == col }) {
			return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", col, obj.Name)
		}
	}
	return nil
}
