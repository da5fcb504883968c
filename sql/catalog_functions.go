package sql

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// This file holds the catalog functions clients call in their
// introspection queries (psql's \d family, JDBC, SQLAlchemy). They answer
// from the caller's view of the catalog, like the pg_catalog relations.

// catalogIndex maps the caller's visible tables by OID, built once per
// statement at first use.
type catalogIndex struct {
	s      *Session
	ctx    context.Context
	tables map[uint32]pgcatalog.TableInfo
	byName map[[2]string]uint32 // namespace, name
	err    error
}

// table finds a visible table by OID (loading the index on first use).
func (ci *catalogIndex) table(oid uint32) (pgcatalog.TableInfo, bool, error) {
	if ci.tables == nil && ci.err == nil {
		ci.tables, ci.byName = map[uint32]pgcatalog.TableInfo{}, map[[2]string]uint32{}
		src := catalogSource{ci.s}
		nss, err := src.Namespaces(ci.ctx)
		if err != nil {
			ci.err = err
		}
		for _, ns := range nss {
			tabs, err := src.Tables(ci.ctx, ns)
			if err != nil {
				ci.err = err
				break
			}
			for _, t := range tabs {
				ci.tables[t.OID] = t
				ci.byName[[2]string{t.Namespace, t.Name}] = t.OID
			}
		}
	}
	t, ok := ci.tables[oid]
	return t, ok, ci.err
}

// tableOf finds the visible table whose OID is the argument v; found is
// false for NULL and for an OID naming nothing the caller can see.
func (ci *catalogIndex) tableOf(v any) (pgcatalog.TableInfo, bool, error) {
	if v == nil {
		return pgcatalog.TableInfo{}, false, nil
	}
	return ci.table(uint32(v.(int64)))
}

// catalogFunction resolves the catalog functions; ok is false for other
// names.
func (i sessionInfo) catalogFunction(name string, args []types.T) (*planner.SessionFunction, bool, error) {
	s := i.s
	fn := func(argTypes []types.T, result types.T, eval planner.RowFunc) (*planner.SessionFunction, bool, error) {
		if len(args) != len(argTypes) {
			return nil, false, nil
		}
		return &planner.SessionFunction{ArgTypes: argTypes, Result: result, Eval: eval, Leakproof: true}, true, nil
	}
	oidArg := func(a []any) (uint32, bool) {
		if a[0] == nil {
			return 0, false
		}
		return uint32(a[0].(int64)), true
	}
	index := &catalogIndex{s: s, ctx: s.functionContext()}
	switch name {
	case "current_schemas":
		// The search path's existing schemas, with pg_catalog first when
		// implicit ones are asked for.
		return fn([]types.T{types.Bool}, types.NameArray, func(a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			out := []any{}
			if a[0].(bool) {
				out = append(out, "pg_catalog")
			}
			nss, err := catalogSource{s}.Namespaces(index.ctx)
			if err != nil {
				return nil, err
			}
			for _, ns := range s.settings.searchPath(s.identity.User) {
				if ns == "public" || slices.Contains(nss, ns) {
					out = append(out, ns)
				}
			}
			return out, nil
		})
	case "pg_get_serial_sequence":
		// SQE has no sequences.
		return fn([]types.T{types.Text, types.Text}, types.Text, func([]any) (any, error) { return nil, nil })
	case "pg_get_userbyid":
		return fn([]types.T{types.OID}, types.Name, func(a []any) (any, error) {
			oid, ok := oidArg(a)
			if !ok {
				return nil, nil
			}
			if oid == pgcatalog.OwnerOID {
				return pgcatalog.OwnerName, nil
			}
			for _, r := range append([]string{s.identity.User}, s.identity.Roles...) {
				if pgcatalog.RoleOID(r) == oid {
					return r, nil
				}
			}
			return fmt.Sprintf("unknown (OID=%d)", oid), nil
		})
	case "pg_table_is_visible":
		// Visible: in a schema on the search path (pg_catalog always is)
		// and not shadowed by an earlier one of the same name.
		return fn([]types.T{types.OID}, types.Bool, func(a []any) (any, error) {
			oid, ok := oidArg(a)
			if !ok {
				return nil, nil
			}
			if oid < 16384 {
				return true, nil
			}
			t, found, err := index.table(oid)
			if err != nil || !found {
				return false, err
			}
			for _, ns := range s.settings.searchPath(s.identity.User) {
				if ns == t.Namespace {
					return true, nil
				}
				for _, other := range index.tables {
					if other.Namespace == ns && other.Name == t.Name {
						return false, nil
					}
				}
			}
			return false, nil
		})
	case "pg_relation_size":
		if len(args) == 2 {
			return fn([]types.T{types.Regclass, types.Text}, types.Int8, func(a []any) (any, error) {
				if a[1] == nil {
					return nil, nil
				}
				switch a[1].(string) {
				case "main":
					return relationSize(index, a)
				case "fsm", "vm", "init":
					// SQE's tables have no such forks.
					return relationSizeOf(index, a, 0)
				}
				return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid fork name").
					WithHint(`Valid fork names are "main", "fsm", "vm", and "init".`)
			})
		}
		return fn([]types.T{types.Regclass}, types.Int8, func(a []any) (any, error) { return relationSize(index, a) })
	case "pg_table_size", "pg_total_relation_size":
		// No TOAST, no indexes: the data files are all there is.
		return fn([]types.T{types.Regclass}, types.Int8, func(a []any) (any, error) { return relationSize(index, a) })
	case "pg_indexes_size":
		return fn([]types.T{types.Regclass}, types.Int8, func(a []any) (any, error) { return relationSizeOf(index, a, 0) })
	case "pg_database_size":
		arg := types.Name
		if len(args) == 1 && (args[0].Family() == types.FamilyInt || args[0].OID == types.OIDOid) {
			arg = types.OID
		}
		return fn([]types.T{arg}, types.Int8, func(a []any) (any, error) { return databaseSize(s, index, a[0]) })
	case "pg_type_is_visible", "pg_function_is_visible":
		return fn([]types.T{types.OID}, types.Bool, func(a []any) (any, error) {
			if _, ok := oidArg(a); !ok {
				return nil, nil
			}
			return true, nil
		})
	case "shobj_description":
		return fn([]types.T{types.OID, types.Name}, types.Text, func([]any) (any, error) { return nil, nil })
	case "obj_description":
		if len(args) == 1 {
			return fn([]types.T{types.OID}, types.Text, func(a []any) (any, error) { return tableComment(index, a, 0) })
		}
		return fn([]types.T{types.OID, types.Name}, types.Text, func(a []any) (any, error) {
			if a[1] == nil || a[1].(string) != "pg_class" {
				return nil, nil
			}
			return tableComment(index, a, 0)
		})
	case "col_description":
		return fn([]types.T{types.OID, types.Int4}, types.Text, func(a []any) (any, error) {
			if a[1] == nil {
				return nil, nil
			}
			return tableComment(index, a, int(a[1].(int64)))
		})
	case "pg_get_expr":
		// The stored expressions are column defaults (pg_attrdef.adbin).
		if len(args) == 3 {
			return fn([]types.T{types.PgNodeTree, types.OID, types.Bool}, types.Text, func(a []any) (any, error) {
				if a[2] == nil {
					return nil, nil
				}
				return storedExprText(a, a[2].(bool))
			})
		}
		return fn([]types.T{types.PgNodeTree, types.OID}, types.Text, func(a []any) (any, error) { return storedExprText(a, false) })
	case "pg_get_function_result":
		return fn([]types.T{types.OID}, types.Text, func(a []any) (any, error) {
			oid, ok := oidArg(a)
			if !ok {
				return nil, nil
			}
			f, found := pgcatalog.BuiltinFunction(oid)
			if !found {
				return nil, nil
			}
			result := functionTypeName(f.ResultType)
			if f.ReturnsSet {
				result = "SETOF " + result
			}
			return result, nil
		})
	case "pg_get_function_arguments", "pg_get_function_identity_arguments":
		// Built-in functions have no argument names, modes or defaults, so
		// both spellings are the argument types in order.
		return fn([]types.T{types.OID}, types.Text, func(a []any) (any, error) {
			oid, ok := oidArg(a)
			if !ok {
				return nil, nil
			}
			f, found := pgcatalog.BuiltinFunction(oid)
			if !found {
				return nil, nil
			}
			names := make([]string, len(f.ArgTypes))
			for k, t := range f.ArgTypes {
				names[k] = functionTypeName(t)
			}
			return strings.Join(names, ", "), nil
		})
	case "pg_get_statisticsobjdef_columns":
		// SQE has no extended statistics objects.
		return fn([]types.T{types.OID}, types.Text, func([]any) (any, error) { return nil, nil })
	case "pg_relation_is_publishable":
		// A stored table could be published; the catalog relations cannot.
		// Like PostgreSQL, an OID naming no relation gives NULL.
		return fn([]types.T{types.OID}, types.Bool, func(a []any) (any, error) {
			oid, ok := oidArg(a)
			if !ok {
				return nil, nil
			}
			if _, _, isCatalog := pgcatalog.RelationByOID(oid); isCatalog {
				return false, nil
			}
			_, found, err := index.table(oid)
			if err != nil || !found {
				return nil, err
			}
			return true, nil
		})
	case "pg_get_viewdef":
		return viewDefFunction(fn, args, index)
	case "pg_get_indexdef", "pg_get_constraintdef", "pg_get_triggerdef", "pg_get_ruledef":
		// SQE has none of these objects, so no OID names one.
		argTypes := []types.T{types.OID}
		for range args[1:] {
			argTypes = append(argTypes, types.Int4)
		}
		if len(args) >= 2 && args[len(args)-1].OID == types.OIDBool {
			argTypes[len(argTypes)-1] = types.Bool
		}
		return fn(argTypes, types.Text, func([]any) (any, error) { return nil, nil })
	case "has_table_privilege", "has_schema_privilege", "has_database_privilege", "has_column_privilege",
		"has_any_column_privilege", "has_function_privilege", "has_sequence_privilege":
		return i.privilegeFunction(name, args)
	case "aclexplode_grantors", "aclexplode_grantees", "aclexplode_privilege_types", "aclexplode_grantable",
		"acldefault", "makeaclitem":
		return i.aclFunction(name, args)
	}
	return i.regFunction(name, args)
}

// pseudoTypeNames are the pseudo-types built-in functions take or return,
// which format_type knows but SQE's type mapping does not.
var pseudoTypeNames = map[uint32]string{
	1263: "cstring[]", 2275: "cstring", 2276: `"any"`, 2277: "anyarray", 2281: "internal", 2283: "anyelement",
}

// functionTypeName prints a type as pg_get_function_result does.
func functionTypeName(oid uint32) string {
	if name, ok := pseudoTypeNames[oid]; ok {
		return name
	}
	return formatType(oid, -1)
}

// relationSize is the bytes of the data files of the table whose OID is
// a[0], as pg_relation_size answers: NULL for an OID that names no
// relation the caller can see, and for a table whose size is withheld
// from the caller (a row filter applies to it), 0 for a view.
func relationSize(index *catalogIndex, a []any) (any, error) {
	return relationSizeOf(index, a, -1)
}

// relationSizeOf is relationSize, answering fixed instead of the files'
// size when fixed is not negative (a fork SQE's tables do not have).
func relationSizeOf(index *catalogIndex, a []any, fixed int64) (any, error) {
	t, found, err := index.tableOf(a[0])
	if err != nil || !found {
		return nil, err
	}
	switch {
	case t.FilesSize < 0:
		return nil, nil
	case fixed >= 0:
		return fixed, nil
	}
	return t.FilesSize, nil
}

// databaseSize is pg_database_size of the current database (by name or
// OID): the bytes of every table the caller can see, NULL when the size
// of any of them is withheld from the caller. Another database does not
// exist (3D000).
func databaseSize(s *Session, index *catalogIndex, db any) (any, error) {
	switch v := db.(type) {
	case nil:
		return nil, nil
	case string:
		if v != s.database {
			return nil, pgerror.New(pgerror.InvalidCatalogName, "database \"%s\" does not exist", v)
		}
	case int64:
		if uint32(v) != pgcatalog.DatabaseOID(s.database) {
			return nil, nil
		}
	}
	if _, _, err := index.table(0); err != nil {
		return nil, err
	}
	var total int64
	for _, t := range index.tables {
		if t.FilesSize < 0 {
			return nil, nil
		}
		total += t.FilesSize
	}
	return total, nil
}
