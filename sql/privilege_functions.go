package sql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// PostgreSQL's access privilege inquiry functions (has_table_privilege and
// its kin) answer from gate one. For the session's own user they ask the
// catalog's authorizer the very question enforcement asks (an object the
// caller may not see is absent, as in pg_catalog); for another user, which
// only an administrator may ask about, they evaluate the grants as CHECK
// ACCESS does. Administrators, PostgreSQL's superusers here, hold every
// privilege no deny takes from them: a privilege gate one decides is asked
// of gate one for them too. A catalog that does not authorize itself (a REST catalog,
// where the server behind it decides at each operation) reports every
// privilege on what the caller can see.

// privilegeKind is the object class a has_*_privilege function asks about.
type privilegeKind int

const (
	privTable privilegeKind = iota
	privColumn
	privAnyColumn
	privSchema
	privDatabase
	privFunction
	privSequence
)

// privilegeFunctions maps each function to its object class and the
// privilege names PostgreSQL 15 accepts for it.
var privilegeFunctions = map[string]struct {
	kind  privilegeKind
	names []string
}{
	"has_table_privilege":      {privTable, []string{"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"}},
	"has_column_privilege":     {privColumn, []string{"SELECT", "INSERT", "UPDATE", "REFERENCES"}},
	"has_any_column_privilege": {privAnyColumn, []string{"SELECT", "INSERT", "UPDATE", "REFERENCES"}},
	"has_schema_privilege":     {privSchema, []string{"USAGE", "CREATE"}},
	"has_database_privilege":   {privDatabase, []string{"CONNECT", "CREATE", "TEMPORARY", "TEMP"}},
	"has_function_privilege":   {privFunction, []string{"EXECUTE"}},
	"has_sequence_privilege":   {privSequence, []string{"USAGE", "SELECT", "UPDATE"}},
}

// privilegeFunction resolves a has_*_privilege call; ok is false for
// other names or argument counts.
func (i sessionInfo) privilegeFunction(name string, args []types.T) (*planner.SessionFunction, bool, error) {
	def, ok := privilegeFunctions[name]
	if !ok {
		return nil, false, nil
	}
	objArgs := 1
	if def.kind == privColumn {
		objArgs = 2
	}
	withUser := len(args) == objArgs+2
	if len(args) != objArgs+1 && !withUser {
		return nil, false, nil
	}
	argTypes := slices.Clone(args)
	for k, t := range argTypes {
		if t.OID == types.OIDUnknown {
			argTypes[k] = types.Text
		}
	}
	q := &privilegeQuery{s: i.s, kind: def.kind, names: def.names,
		index: &catalogIndex{s: i.s, ctx: i.s.functionContext()}}
	return &planner.SessionFunction{ArgTypes: argTypes, Result: types.Bool, Eval: func(a []any) (any, error) {
		if slices.Contains(a, nil) {
			return nil, nil
		}
		user := any(i.s.identity.User)
		if withUser {
			user, a = a[0], a[1:]
		}
		return q.eval(user, a[:len(a)-1], a[len(a)-1].(string))
	}}, true, nil
}

// privilegeQuery evaluates one has_*_privilege function.
type privilegeQuery struct {
	s     *Session
	kind  privilegeKind
	names []string
	index *catalogIndex
}

// privilegeTarget is the object a privilege inquiry names.
type privilegeTarget struct {
	ident  storage.Ident
	view   bool
	system bool // a pg_catalog or information_schema object
}

// eval answers for user (a name, or a role OID) whether it holds any of
// the comma-separated privileges on the object named by obj (NULL when an
// OID names nothing, as in PostgreSQL).
func (q *privilegeQuery) eval(user any, obj []any, privileges string) (any, error) {
	privs, err := parsePrivileges(privileges, q.names)
	if err != nil {
		return nil, err
	}
	target, found, err := q.resolve(obj)
	if err != nil || !found {
		return nil, err
	}
	name, err := q.userName(user)
	if err != nil {
		return nil, err
	}
	for _, p := range privs {
		held, err := q.holds(name, target, p)
		if err != nil {
			return nil, err
		}
		if held {
			return true, nil
		}
	}
	return false, nil
}

// requestedPrivilege is one entry of the privilege list.
type requestedPrivilege struct {
	name        string
	grantOption bool
}

// parsePrivileges reads "SELECT, insert WITH GRANT OPTION" as PostgreSQL
// does: comma-separated, case-insensitive, each optionally WITH GRANT
// OPTION; an unknown name is 22023.
func parsePrivileges(text string, known []string) ([]requestedPrivilege, error) {
	var out []requestedPrivilege
	for _, part := range strings.Split(text, ",") {
		p := strings.ToUpper(strings.Join(strings.Fields(part), " "))
		r := requestedPrivilege{}
		if base, ok := strings.CutSuffix(p, " WITH GRANT OPTION"); ok {
			p, r.grantOption = base, true
		}
		if !slices.Contains(known, p) {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "unrecognized privilege type: \"%s\"", strings.TrimSpace(part))
		}
		r.name = p
		out = append(out, r)
	}
	return out, nil
}

// userName is the user a call asks about: a name, or a role OID, which
// only the session user's is known.
func (q *privilegeQuery) userName(user any) (string, error) {
	switch u := user.(type) {
	case string:
		return u, nil
	case int64:
		if uint32(u) == pgcatalog.RoleOID(q.s.identity.User) {
			return q.s.identity.User, nil
		}
		return "", pgerror.New(pgerror.UndefinedObject, "role with OID %d does not exist", u)
	}
	return "", fmt.Errorf("has_*_privilege: user argument of type %T", user)
}

// resolve finds the object named by obj: a name looked up in the caller's
// view (an unknown name is an error) or an OID (unknown: not found).
func (q *privilegeQuery) resolve(obj []any) (privilegeTarget, bool, error) {
	switch q.kind {
	case privTable, privColumn, privAnyColumn, privSequence:
		return q.resolveRelation(obj)
	case privSchema:
		return q.resolveSchema(obj[0])
	case privDatabase:
		return q.resolveDatabase(obj[0])
	}
	// Functions: every function SQE has may be executed by anyone, as
	// PUBLIC holds EXECUTE on PostgreSQL's built-in functions.
	return privilegeTarget{system: true}, true, nil
}

func (q *privilegeQuery) resolveRelation(obj []any) (privilegeTarget, bool, error) {
	var oid uint32
	byName := false
	switch v := obj[0].(type) {
	case string:
		n, err := q.index.relationOID(v)
		if err != nil {
			return privilegeTarget{}, false, err
		}
		oid, byName = n, true
	case int64:
		oid = uint32(v)
	}
	var target privilegeTarget
	var columns []planner.TableColumn
	if ns, rel, ok := pgcatalog.RelationByOID(oid); ok {
		target = privilegeTarget{ident: storage.Ident{Namespace: ns, Table: rel}, system: true}
	} else {
		t, found, err := q.index.table(oid)
		if err != nil || !found {
			return privilegeTarget{}, false, err
		}
		target = privilegeTarget{ident: storage.Ident{Catalog: q.s.database, Namespace: t.Namespace, Table: t.Name}, view: t.View}
		columns = t.Columns
	}
	if q.kind == privSequence {
		// SQE has no sequences.
		if byName {
			return privilegeTarget{}, false, pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a sequence", obj[0])
		}
		return privilegeTarget{}, false, nil
	}
	if q.kind == privColumn && !target.system {
		if !namesColumn(columns, obj[1]) {
			if name, ok := obj[1].(string); ok {
				return privilegeTarget{}, false, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, target.ident.Table)
			}
			return privilegeTarget{}, false, nil
		}
	}
	return target, true, nil
}

// namesColumn reports whether col (a name, or an attribute number) names
// one of columns.
func namesColumn(columns []planner.TableColumn, col any) bool {
	switch c := col.(type) {
	case string:
		return slices.ContainsFunc(columns, func(tc planner.TableColumn) bool { return tc.Name == c })
	case int64:
		return c >= 1 && int(c) <= len(columns)
	}
	return false
}

func (q *privilegeQuery) resolveSchema(obj any) (privilegeTarget, bool, error) {
	nss, err := catalogSource{q.s}.Namespaces(q.index.ctx)
	if err != nil {
		return privilegeTarget{}, false, err
	}
	for _, sys := range []string{"pg_catalog", "information_schema"} {
		if !slices.Contains(nss, sys) {
			nss = append(nss, sys)
		}
	}
	for _, ns := range nss {
		match := false
		switch v := obj.(type) {
		case string:
			match = ns == v
		case int64:
			match = pgcatalog.NamespaceOID(q.s.database, ns) == uint32(v)
		}
		if match {
			return privilegeTarget{ident: storage.Ident{Catalog: q.s.database, Namespace: ns},
				system: ns == "pg_catalog" || ns == "information_schema"}, true, nil
		}
	}
	if name, ok := obj.(string); ok {
		return privilegeTarget{}, false, pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", name)
	}
	return privilegeTarget{}, false, nil
}

func (q *privilegeQuery) resolveDatabase(obj any) (privilegeTarget, bool, error) {
	for _, db := range q.s.engine.CatalogNames() {
		match := false
		switch v := obj.(type) {
		case string:
			match = db == v
		case int64:
			match = pgcatalog.DatabaseOID(db) == uint32(v)
		}
		if match {
			return privilegeTarget{ident: storage.Ident{Catalog: db}}, true, nil
		}
	}
	if name, ok := obj.(string); ok {
		return privilegeTarget{}, false, pgerror.New(pgerror.InvalidCatalogName, "database \"%s\" does not exist", name)
	}
	return privilegeTarget{}, false, nil
}

// holds answers one privilege for user on target.
func (q *privilegeQuery) holds(user string, target privilegeTarget, p requestedPrivilege) (bool, error) {
	if user != q.s.identity.User {
		return q.holdsFor(user, target, p)
	}
	if p.grantOption {
		// Granting is for administrators ([auth] admin_roles), whatever
		// a deny keeps them from reading or writing.
		return q.s.superuser, nil
	}
	if target.system && q.s.superuser {
		return true, nil
	}
	if target.system {
		// The system catalogs are readable by all and writable by none.
		switch q.kind {
		case privSchema:
			return p.name == "USAGE", nil
		case privFunction:
			return true, nil
		}
		return p.name == "SELECT", nil
	}
	action, visible, ok := q.action(target, p.name)
	if !ok {
		// Nothing in gate one decides it: an administrator holds it.
		return visible || q.s.superuser, nil
	}
	cat, err := q.s.engine.catalog(target.ident.Catalog)
	if err != nil {
		return false, err
	}
	probe, ok := cat.(storage.AccessProbe)
	if !ok {
		return true, nil
	}
	return probe.MayPerform(q.index.ctx, action, target.ident), nil
}

// action is the catalog action a privilege needs on target. When ok is
// false no action applies and visible is the answer: being able to see the
// object is the privilege (SELECT on a listed table, USAGE on a listed
// schema, CONNECT), or SQE has nothing that grants it (false).
func (q *privilegeQuery) action(target privilegeTarget, name string) (a storage.Action, visible, ok bool) {
	switch q.kind {
	case privTable, privColumn, privAnyColumn:
		switch name {
		case "SELECT":
			return "", true, false
		case "INSERT", "UPDATE", "DELETE", "TRUNCATE":
			if target.view {
				return "", false, false
			}
			return storage.ActionUpdateTable, false, true
		}
		// REFERENCES and TRIGGER: SQE has no foreign keys or triggers.
		return "", false, false
	case privSchema:
		if name == "CREATE" {
			return storage.ActionCreateTable, false, true
		}
		return "", true, false
	case privDatabase:
		switch name {
		case "CREATE":
			return storage.ActionCreateNamespace, false, true
		case "CONNECT":
			return "", true, false
		}
		// TEMPORARY: SQE has no temporary tables.
		return "", false, false
	}
	return "", true, false
}

// holdsFor answers for another user, which only an administrator may ask
// about: the grant privileges the inquiry corresponds to, evaluated as
// CHECK ACCESS evaluates them.
func (q *privilegeQuery) holdsFor(user string, target privilegeTarget, p requestedPrivilege) (bool, error) {
	caller := q.s.caller()
	if err := access.MayAskAbout(caller, q.s.superuser, user); err != nil {
		return false, err
	}
	if q.kind == privDatabase && p.name == "CONNECT" {
		return !p.grantOption, nil
	}
	ac := q.s.engine.cfg.Access
	if ac == nil || target.system {
		return !p.grantOption || ac == nil, nil
	}
	privilege, obj, ok := grantQuestion(q.kind, target, p.name)
	if !ok {
		return false, nil
	}
	d, err := ac.CheckAccess(q.index.ctx, caller, privilege, obj, user)
	return d.Allowed && !p.grantOption, err
}

// grantQuestion is the GRANT privilege and object an inquiry corresponds
// to; ok is false for privileges SQE has no grant for.
func grantQuestion(kind privilegeKind, target privilegeTarget, name string) (string, grants.Object, bool) {
	id := target.ident
	switch kind {
	case privTable, privColumn, privAnyColumn:
		obj := grants.Object{Kind: grants.ObjectTable, Catalog: id.Catalog, Namespace: id.Namespace, Name: id.Table}
		if target.view {
			obj.Kind = grants.ObjectView
			return "SELECT", obj, name == "SELECT"
		}
		switch name {
		case "SELECT", "INSERT", "UPDATE", "DELETE":
			return name, obj, true
		case "TRUNCATE":
			return "DELETE", obj, true
		}
	case privSchema:
		obj := grants.Object{Kind: grants.ObjectSchema, Catalog: id.Catalog, Namespace: id.Namespace}
		if name == "CREATE" {
			return "CREATE TABLE", obj, true
		}
		return "USAGE", obj, true
	case privDatabase:
		obj := grants.Object{Kind: grants.ObjectCatalog, Catalog: id.Catalog}
		if name == "CREATE" {
			return "CREATE SCHEMA", obj, true
		}
	}
	return "", grants.Object{}, false
}
