package sql

import (
	"context"
	"errors"
	"strings"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/extgrammar"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// AccessControl carries out gate one's statements (governance/access's
// Service for the embedded backend).
type AccessControl interface {
	MayChange(caller access.Caller, action grants.Action) error
	Change(ctx context.Context, caller access.Caller, action grants.Action, st grants.Statement) (grants.Plan, error)
	CreateRole(ctx context.Context, caller access.Caller, name string) error
	DropRole(ctx context.Context, caller access.Caller, names []string, ifExists bool) ([]string, error)
	GrantRoles(ctx context.Context, caller access.Caller, roles []string, members []access.RoleMember) error
	RevokeRoles(ctx context.Context, caller access.Caller, roles []string, members []access.RoleMember) error
	ShowGrants(ctx context.Context, caller access.Caller, f access.GrantFilter) ([]access.GrantRow, error)
	CheckAccess(ctx context.Context, caller access.Caller, privilege string, obj grants.Object, user string) (access.Decision, error)
	// CheckRoleAccess is CheckAccess for a member of role who holds
	// nothing else; administrators only.
	CheckRoleAccess(ctx context.Context, caller access.Caller, privilege string, obj grants.Object, role string) (access.Decision, error)
	EffectiveGrants(ctx context.Context, caller access.Caller, user string) ([]access.GrantRow, error)
}

// grantColumns and checkColumns are the result shapes of SHOW GRANTS and
// CHECK ACCESS.
var (
	grantColumns = []string{"privilege", "object", "grantee_type", "grantee", "effect", "grantable", "granted_by"}
	checkColumns = []string{"allowed", "reason"}
)

// accessColumns is the row shape of an access-control statement, nil for
// those that return none.
func accessColumns(st extgrammar.Statement) []Column {
	switch st.(type) {
	case *extgrammar.ShowGrants, *extgrammar.ShowEffectiveGrants:
		return textColumns(grantColumns...)
	case *extgrammar.CheckAccess:
		return textColumns(checkColumns...)
	case *extgrammar.ShowAccess:
		return textColumns(showAccessColumns...)
	}
	if c := policyStatementColumns(st); c != nil {
		return c
	}
	return showObjectsColumns(st)
}

func (s *Session) caller() access.Caller {
	return access.Caller{User: s.identity.User, Roles: s.identity.Roles, Groups: s.identity.Groups}
}

// runAccess runs an access-control statement. Changes are not part of a
// transaction block: a policy written cannot be rolled back, so inside a
// block they are refused, as PostgreSQL refuses CREATE DATABASE there.
func (s *Session) runAccess(ctx context.Context, st extgrammar.Statement) (Result, error) {
	if x, ok := st.(*extgrammar.ShowAccess); ok {
		return s.runShowAccess(ctx, x)
	}
	if res, ok, err := s.runShowObjects(ctx, st); ok {
		return res, err
	}
	if res, ok, err := s.runPolicyStatement(ctx, st); ok {
		return res, err
	}
	if x, ok := st.(*extgrammar.SetSortOrder); ok {
		return s.runSetSortOrder(ctx, x)
	}
	ac := s.engine.cfg.Access
	if ac == nil {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "access control statements are not available").
			WithDetail("[access_control] backend is \"none\": SQE writes no grants.")
	}
	switch st.(type) {
	case *extgrammar.ShowGrants, *extgrammar.ShowEffectiveGrants, *extgrammar.CheckAccess,
		*extgrammar.ShowPolicies, *extgrammar.ShowTags:
	default:
		if s.tx != nil {
			return nil, pgerror.New(pgerror.ActiveSQLTransaction, "%s cannot run inside a transaction block", statementVerb(st))
		}
	}
	caller := s.caller()
	switch x := st.(type) {
	case *extgrammar.GrantPrivileges:
		if x.RowFilter != "" || len(x.Masks) > 0 {
			// The filter and masks are written first: if they cannot be,
			// SELECT is not granted, which would show more than the
			// statement allows.
			if err := s.requirePolicyAdmin("GRANT", true); err != nil {
				return nil, err
			}
			obj, err := s.resolveGrantObject(ctx, x.Objects[0], false)
			if err != nil {
				return nil, err
			}
			if err := s.grantPolicies(ctx, x, obj); err != nil {
				return nil, err
			}
		}
		return s.runGrantPrivileges(ctx, ac, caller, x)
	case *extgrammar.GrantRoles:
		return s.runGrantRoles(ctx, ac, caller, x)
	case *extgrammar.CreateRole:
		err := ac.CreateRole(ctx, caller, x.Name)
		s.auditChange("CREATE ROLE", nil, "role "+x.Name, nil, err)
		return commandResult("CREATE ROLE"), err
	case *extgrammar.DropRole:
		_, err := ac.DropRole(ctx, caller, x.Names, x.IfExists)
		for _, n := range x.Names {
			s.auditChange("DROP ROLE", nil, "role "+n, nil, err)
		}
		return commandResult("DROP ROLE"), err
	case *extgrammar.ShowGrants:
		f := access.GrantFilter{}
		if x.On != nil {
			obj, err := s.resolveGrantObject(ctx, *x.On, true)
			if err != nil {
				return nil, err
			}
			f.Object = objectPath(obj)
		}
		if x.To != nil {
			g := grantee(*x.To)
			f.Grantee = &g
		}
		return s.grantRows(ctx, ac, caller, f)
	case *extgrammar.ShowEffectiveGrants:
		rows, err := ac.EffectiveGrants(ctx, caller, x.User)
		if err != nil {
			return nil, err
		}
		return grantResult(rows)
	case *extgrammar.CheckAccess:
		obj, err := s.resolveGrantObject(ctx, x.Object, false)
		if err != nil {
			return nil, err
		}
		d, err := ac.CheckAccess(ctx, caller, privilegeName(x.Privilege), obj, x.User)
		if err != nil {
			return nil, err
		}
		v := "false"
		if d.Allowed {
			v = "true"
		}
		return newTextResult(checkColumns, [][]string{{v, d.Reason}}, "SHOW")
	}
	return nil, pgerror.Unsupported("%s is not supported yet", statementVerb(st))
}

// runGrantRoles grants roles to, or revokes them from, users and roles.
func (s *Session) runGrantRoles(ctx context.Context, ac AccessControl, caller access.Caller, x *extgrammar.GrantRoles) (Result, error) {
	tag := "GRANT ROLE"
	if x.Action == extgrammar.ActionRevoke {
		tag = "REVOKE ROLE"
	}
	members := make([]access.RoleMember, len(x.Grantees))
	var err error
	for i, g := range x.Grantees {
		if g.Kind == extgrammar.GranteeGroup {
			err = pgerror.New(pgerror.FeatureNotSupported, "roles cannot be granted to groups")
		}
		members[i] = access.RoleMember{Role: g.Kind == extgrammar.GranteeRole, Name: g.Name}
	}
	if err == nil {
		if x.Action == extgrammar.ActionRevoke {
			err = ac.RevokeRoles(ctx, caller, x.Roles, members)
		} else {
			err = ac.GrantRoles(ctx, caller, x.Roles, members)
		}
	}
	if s.auditor() != nil {
		to := granteeNames(x.Grantees)
		for _, r := range x.Roles {
			s.auditChange(tag, nil, "role "+r, to, err)
		}
	}
	if err != nil {
		return nil, err
	}
	return commandResult(tag), nil
}

func (s *Session) runGrantPrivileges(ctx context.Context, ac AccessControl, caller access.Caller, x *extgrammar.GrantPrivileges) (Result, error) {
	action := grants.Action(x.Action.String())
	privileges := make([]string, len(x.Privileges))
	for i, p := range x.Privileges {
		privileges[i] = privilegeName(p)
	}
	grantees := make([]grants.Grantee, len(x.Grantees))
	for i, g := range x.Grantees {
		grantees[i] = grantee(g)
	}
	if err := ac.MayChange(caller, action); err != nil {
		for _, o := range x.Objects {
			s.auditChange(string(action), privileges, o.String(), granteeNames(x.Grantees), err)
		}
		return nil, err
	}
	for _, o := range x.Objects {
		obj, err := s.resolveGrantObject(ctx, o, false)
		if err != nil {
			s.auditChange(string(action), privileges, o.String(), granteeNames(x.Grantees), err)
			return nil, err
		}
		st := grants.Statement{Privileges: privileges, Object: obj, Grantees: grantees, WithGrantOption: x.WithGrantOption}
		_, err = ac.Change(ctx, caller, action, st)
		s.auditChange(string(action), privileges, obj.String(), granteeNames(x.Grantees), err)
		if err != nil {
			return nil, err
		}
	}
	return commandResult(string(action)), nil
}

// granteeNames renders grantees for audit records (USER alice, ROLE r).
func granteeNames(gs []extgrammar.Grantee) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.String()
	}
	return out
}

func (s *Session) grantRows(ctx context.Context, ac AccessControl, caller access.Caller, f access.GrantFilter) (Result, error) {
	rows, err := ac.ShowGrants(ctx, caller, f)
	if err != nil {
		return nil, err
	}
	return grantResult(rows)
}

// grantResult is SHOW GRANTS' result shape.
func grantResult(rows []access.GrantRow) (Result, error) {
	out := make([][]string, len(rows))
	for i, r := range rows {
		grantable := "NO"
		if r.Grantable {
			grantable = "YES"
		}
		out[i] = []string{r.AccessType, r.Object, r.GranteeKind, r.Grantee, r.Effect, grantable, r.GrantedBy}
	}
	return newTextResult(grantColumns, out, "SHOW")
}

func privilegeName(p extgrammar.Privilege) string {
	if p.Kind == extgrammar.PrivilegeNative {
		return p.Native
	}
	return p.Kind.String()
}

func grantee(g extgrammar.Grantee) grants.Grantee {
	switch g.Kind {
	case extgrammar.GranteeUser:
		return grants.Grantee{Kind: grants.GranteeUser, Name: g.Name}
	case extgrammar.GranteeGroup:
		return grants.Grantee{Kind: grants.GranteeGroup, Name: g.Name}
	}
	return grants.Grantee{Kind: grants.GranteeRole, Name: g.Name}
}

// statementVerb is the first words of a statement, for messages; CREATE
// OR REPLACE POLICY is named CREATE POLICY.
func statementVerb(st extgrammar.Statement) string {
	words := strings.Fields(strings.Replace(st.String(), "CREATE OR REPLACE ", "CREATE ", 1))
	if len(words) > 2 {
		words = words[:2]
	}
	return strings.Join(words, " ")
}

// objectPath is the dotted resource path SHOW GRANTS filters on.
func objectPath(o grants.Object) string {
	parts := []string{o.Catalog}
	if o.Namespace != "" {
		parts = append(parts, o.Namespace)
	}
	if o.Name != "" && o.Name != grants.Wildcard {
		parts = append(parts, o.Name)
	}
	return strings.Join(parts, ".")
}

// resolveGrantObject turns an object as written into a fully qualified
// one: a missing catalog is the session's database; a one-part table or
// view name is looked up on the search_path. A named table or view must
// exist (42P01); TABLE on a view is taken as the view, as PostgreSQL's
// GRANT ON TABLE applies to views. loose (SHOW GRANTS) accepts any name.
func (s *Session) resolveGrantObject(ctx context.Context, o extgrammar.Object, loose bool) (grants.Object, error) {
	name := o.Name
	switch o.Kind {
	case extgrammar.ObjectCatalog:
		if len(name) != 1 {
			return grants.Object{}, pgerror.New(pgerror.SyntaxError, "a database is named by one part")
		}
		if _, err := s.engine.catalog(name[0]); err != nil && !loose {
			return grants.Object{}, pgerror.New(pgerror.InvalidCatalogName, "database \"%s\" does not exist", name[0])
		}
		return grants.Object{Kind: grants.ObjectCatalog, Catalog: name[0]}, nil
	case extgrammar.ObjectSchema, extgrammar.ObjectAllTablesInSchema, extgrammar.ObjectFutureTablesInSchema,
		extgrammar.ObjectAllViewsInSchema, extgrammar.ObjectFutureViewsInSchema:
		cat, ns := s.database, ""
		switch len(name) {
		case 1:
			ns = name[0]
		case 2:
			cat, ns = name[0], name[1]
		default:
			return grants.Object{}, pgerror.New(pgerror.SyntaxError, "a schema is named by one or two parts")
		}
		obj := grants.Object{Kind: grants.ObjectSchema, Catalog: cat, Namespace: ns}
		switch o.Kind {
		case extgrammar.ObjectAllTablesInSchema, extgrammar.ObjectFutureTablesInSchema:
			obj.Kind, obj.Name = grants.ObjectTable, grants.Wildcard
		case extgrammar.ObjectAllViewsInSchema, extgrammar.ObjectFutureViewsInSchema:
			obj.Kind, obj.Name = grants.ObjectView, grants.Wildcard
		}
		return obj, nil
	}
	// A table, a view, or (SHOW GRANTS ON name) any of them.
	if o.Kind == extgrammar.ObjectAny && len(name) < 3 && loose {
		switch len(name) {
		case 1:
			return grants.Object{Kind: grants.ObjectCatalog, Catalog: name[0]}, nil
		case 2:
			return grants.Object{Kind: grants.ObjectSchema, Catalog: name[0], Namespace: name[1]}, nil
		}
	}
	tn := planner.TableName{}
	switch len(name) {
	case 1:
		tn.Name = name[0]
	case 2:
		tn.Schema, tn.Name = name[0], name[1]
	case 3:
		tn.Catalog, tn.Schema, tn.Name = name[0], name[1], name[2]
	default:
		return grants.Object{}, pgerror.New(pgerror.SyntaxError, "a table is named by one to three parts")
	}
	kind := grants.ObjectTable
	if o.Kind == extgrammar.ObjectView {
		kind = grants.ObjectView
	}
	if loose && len(name) == 3 {
		return grants.Object{Kind: kind, Catalog: name[0], Namespace: name[1], Name: name[2]}, nil
	}
	t, v, err := s.catalog.ResolveRelation(ctx, tn)
	if err != nil {
		if errors.Is(err, storage.ErrForbidden) && len(name) >= 2 {
			// Grant authority is not data access: an administrator may
			// grant on, or revoke a deny of, a table it cannot load. Only
			// a name that says its schema places the table without
			// loading it.
			cat := s.database
			if len(name) == 3 {
				cat, name = name[0], name[1:]
			}
			return grants.Object{Kind: kind, Catalog: cat, Namespace: name[0], Name: name[1]}, nil
		}
		var pe *pgerror.Error
		if errors.Is(err, storage.ErrForbidden) && errors.As(err, &pe) {
			return grants.Object{}, pe.WithHint("Name the table with its schema (schema.table): a table named so need not be readable by the caller.")
		}
		return grants.Object{}, err
	}
	if v != nil {
		return grants.Object{Kind: grants.ObjectView, Catalog: orDefault(v.Name.Catalog, s.database), Namespace: v.Name.Schema, Name: v.Name.Name}, nil
	}
	if m, ok := t.(*metadataTable); ok {
		return grants.Object{}, pgerror.New(pgerror.WrongObjectType, "\"%s\" is a metadata table", m.QualifiedName().Name).
			WithHint("Grants and policies on its table decide what it shows.")
	}
	a, ok := t.(*tableAdapter)
	if !ok {
		return grants.Object{}, pgerror.New(pgerror.FeatureNotSupported, "cannot grant on a system catalog relation")
	}
	if kind == grants.ObjectView {
		return grants.Object{}, pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a view", a.t.Ident().Table)
	}
	id := a.t.Ident()
	return grants.Object{Kind: grants.ObjectTable, Catalog: id.Catalog, Namespace: id.Namespace, Name: id.Table}, nil
}
