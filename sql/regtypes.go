package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// The object-identifier alias types (regclass, regtype, regnamespace,
// regrole, regproc) are oids that are read from and printed as names.
// Their input and output functions (regclassin, regclassout, ...) look
// the names up in the caller's view of the catalog, as pg_catalog does.

// typeAliases are the SQL spellings of built-in type names.
var typeAliases = map[string]string{
	"integer": "int4", "int": "int4", "bigint": "int8", "smallint": "int2", "boolean": "bool",
	"double precision": "float8", "real": "float4", "character varying": "varchar", "decimal": "numeric",
	"timestamp without time zone": "timestamp", "timestamp with time zone": "timestamptz",
}

// splitQualified splits "schema.name" (either part possibly quoted).
func splitQualified(s string) (schema, name string) {
	parts := []string{}
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' && quoted && i+1 < len(s) && s[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			quoted = !quoted
		case c == '.' && !quoted:
			parts = append(parts, cur.String())
			cur.Reset()
		case !quoted:
			cur.WriteString(strings.ToLower(string(c)))
		default:
			cur.WriteByte(c)
		}
	}
	parts = append(parts, cur.String())
	if len(parts) >= 2 {
		return parts[len(parts)-2], parts[len(parts)-1]
	}
	return "", parts[0]
}

// relationOID looks a relation name up as regclass input does: a system
// catalog relation, else a visible table or view on the search path.
func (ci *catalogIndex) relationOID(v string) (uint32, error) {
	schema, rel := splitQualified(v)
	if oid, ok := pgcatalog.RelationOID(orDefault(schema, "pg_catalog"), rel); ok && (schema == "" || schema == "pg_catalog" || schema == "information_schema") {
		return oid, nil
	}
	if schema == "information_schema" {
		if oid, ok := pgcatalog.RelationOID(schema, rel); ok {
			return oid, nil
		}
	}
	if _, _, err := ci.table(0); err != nil {
		return 0, err
	}
	search := []string{schema}
	if schema == "" {
		search = ci.s.settings.searchPath(ci.s.identity.User)
	}
	for _, ns := range search {
		if oid, ok := ci.byName[[2]string{ns, rel}]; ok {
			return oid, nil
		}
	}
	return 0, pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", v)
}

func (i sessionInfo) regFunction(name string, args []types.T) (*planner.SessionFunction, bool, error) {
	s := i.s
	index := &catalogIndex{s: s, ctx: s.functionContext()}
	in := func(result types.T, lookup func(string) (uint32, error)) (*planner.SessionFunction, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		return &planner.SessionFunction{ArgTypes: []types.T{types.Text}, Result: result, Eval: func(a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			// Like PostgreSQL's input functions, a number is taken as the
			// OID itself, without a lookup ('16386'::regclass).
			if n, err := strconv.ParseUint(strings.TrimSpace(a[0].(string)), 10, 32); err == nil {
				return int64(n), nil
			}
			oid, err := lookup(a[0].(string))
			if err != nil {
				return nil, err
			}
			return int64(oid), nil
		}}, true, nil
	}
	out := func(arg types.T, show func(uint32) (string, bool)) (*planner.SessionFunction, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		return &planner.SessionFunction{ArgTypes: []types.T{arg}, Result: types.Text, Leakproof: true, Eval: func(a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			oid := uint32(a[0].(int64))
			if oid == 0 {
				return "-", nil
			}
			if name, ok := show(oid); ok {
				return name, nil
			}
			return fmt.Sprint(oid), nil
		}}, true, nil
	}
	switch name {
	case "regclassin":
		return in(types.Regclass, index.relationOID)
	case "regclassout":
		return out(types.Regclass, func(oid uint32) (string, bool) {
			if _, rel, ok := pgcatalog.RelationByOID(oid); ok {
				return rel, true
			}
			t, ok, _ := index.table(oid)
			if !ok {
				return "", false
			}
			for _, ns := range s.settings.searchPath(s.identity.User) {
				if ns == t.Namespace {
					return quoteIdent(t.Name), true
				}
			}
			return quoteIdent(t.Namespace) + "." + quoteIdent(t.Name), true
		})
	case "regtypein":
		return in(types.Regtype, func(v string) (uint32, error) {
			_, name := splitQualified(strings.TrimSpace(v))
			if alias, ok := typeAliases[name]; ok {
				name = alias
			}
			if oid, ok := pgcatalog.TypeOIDByName(name); ok {
				return oid, nil
			}
			return 0, pgerror.New(pgerror.UndefinedObject, "type \"%s\" does not exist", v)
		})
	case "regtypeout":
		return out(types.Regtype, func(oid uint32) (string, bool) {
			name := formatType(oid, -1)
			return name, name != "???"
		})
	case "regnamespacein":
		return in(types.Regnamespace, func(v string) (uint32, error) {
			_, ns := splitQualified(v)
			nss, err := catalogSource{s}.Namespaces(index.ctx)
			if err != nil {
				return 0, err
			}
			for _, n := range append(nss, "pg_catalog", "information_schema", "public") {
				if n == ns {
					return pgcatalog.NamespaceOID(s.database, ns), nil
				}
			}
			return 0, pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", v)
		})
	case "regnamespaceout":
		return out(types.Regnamespace, func(oid uint32) (string, bool) {
			nss, _ := catalogSource{s}.Namespaces(index.ctx)
			for _, n := range append(nss, "pg_catalog", "information_schema", "public") {
				if pgcatalog.NamespaceOID(s.database, n) == oid {
					return quoteIdent(n), true
				}
			}
			return "", false
		})
	case "regprocin":
		return in(types.Regproc, func(v string) (uint32, error) {
			schema, fn := splitQualified(strings.TrimSpace(v))
			oids := pgcatalog.BuiltinFunctionOIDs(fn)
			switch {
			case len(oids) == 0 || (schema != "" && schema != "pg_catalog"):
				return 0, pgerror.New(pgerror.UndefinedFunction, "function \"%s\" does not exist", v)
			case len(oids) > 1:
				return 0, pgerror.New(pgerror.AmbiguousFunction, "more than one function named \"%s\"", v)
			}
			return oids[0], nil
		})
	case "regprocout":
		return out(types.Regproc, func(oid uint32) (string, bool) {
			f, ok := pgcatalog.BuiltinFunction(oid)
			return f.Name, ok
		})
	case "regrolein":
		return in(types.Regrole, func(v string) (uint32, error) {
			_, r := splitQualified(v)
			return pgcatalog.RoleOID(r), nil
		})
	case "regroleout":
		return out(types.Regrole, func(oid uint32) (string, bool) {
			if oid == pgcatalog.OwnerOID {
				return pgcatalog.OwnerName, true
			}
			for _, r := range append([]string{s.identity.User}, s.identity.Roles...) {
				if pgcatalog.RoleOID(r) == oid {
					return r, true
				}
			}
			return "", false
		})
	}
	return nil, false, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
