package sql

import (
	"strconv"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// PostgreSQL's aclitem functions: aclexplode (a composite set-returning
// function: the planner unnests the arrays of its fields computed here),
// acldefault and makeaclitem. Role names become OIDs as pg_roles gives
// them: the owner is OwnerOID, PUBLIC 0, any other name RoleOID.

// aclFunction resolves the aclitem functions; ok is false for other
// names or argument counts.
func (i sessionInfo) aclFunction(name string, args []types.T) (*planner.SessionFunction, bool, error) {
	fn := func(argTypes []types.T, result types.T, eval planner.RowFunc) (*planner.SessionFunction, bool, error) {
		if len(args) != len(argTypes) {
			return nil, false, nil
		}
		return &planner.SessionFunction{ArgTypes: argTypes, Result: result, Eval: eval, Leakproof: true}, true, nil
	}
	boolArray, _ := types.ArrayOf(types.Bool)
	explode := func(result types.T, field func(pgcatalog.ACLItem, byte) any) (*planner.SessionFunction, bool, error) {
		return fn([]types.T{types.AclitemArray}, result, func(a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			out := []any{}
			for _, v := range a[0].([]any) {
				if v == nil {
					continue
				}
				item, err := pgcatalog.ParseACLItem(v.(string))
				if err != nil {
					return nil, pgerror.New(pgerror.InvalidTextRepresentation, "%s", err.Error())
				}
				for k := 0; k < len(item.Privileges); k++ {
					out = append(out, field(item, item.Privileges[k]))
				}
			}
			return out, nil
		})
	}
	switch name {
	case "aclexplode_grantors":
		return explode(types.OIDArray, func(it pgcatalog.ACLItem, _ byte) any { return roleOIDOf(it.Grantor) })
	case "aclexplode_grantees":
		return explode(types.OIDArray, func(it pgcatalog.ACLItem, _ byte) any { return roleOIDOf(it.Grantee) })
	case "aclexplode_privilege_types":
		return explode(types.TextArray, func(_ pgcatalog.ACLItem, p byte) any { return pgcatalog.PrivilegeName(p) })
	case "aclexplode_grantable":
		return explode(boolArray, func(it pgcatalog.ACLItem, p byte) any {
			for k := 0; k < len(it.GrantOptions); k++ {
				if it.GrantOptions[k] == p {
					return true
				}
			}
			return false
		})
	case "acldefault":
		return fn([]types.T{types.Char, types.OID}, types.AclitemArray, func(a []any) (any, error) {
			if a[0] == nil || a[1] == nil {
				return nil, nil
			}
			kind := a[0].(string)
			items, ok := pgcatalog.ACLDefault(kind[0], i.roleNameOf(uint32(a[1].(int64))))
			if !ok || len(kind) != 1 {
				return nil, pgerror.New(pgerror.InternalError, "unrecognized object type abbreviation: %s", kind)
			}
			return aclArray(items), nil
		})
	case "makeaclitem":
		return fn([]types.T{types.OID, types.OID, types.Text, types.Bool}, types.Aclitem, func(a []any) (any, error) {
			if a[0] == nil || a[1] == nil || a[2] == nil || a[3] == nil {
				return nil, nil
			}
			privs, err := parsePrivileges(a[2].(string), aclPrivilegeNames)
			if err != nil {
				return nil, err
			}
			item := pgcatalog.ACLItem{Grantor: i.roleNameOf(uint32(a[1].(int64)))}
			if grantee := uint32(a[0].(int64)); grantee != 0 {
				item.Grantee = i.roleNameOf(grantee)
			}
			for _, p := range privs {
				letter := aclLetterOf(p.name)
				item.Privileges += string(letter)
				if a[3].(bool) {
					item.GrantOptions += string(letter)
				}
			}
			return item.String(), nil
		})
	}
	return nil, false, nil
}

// aclPrivilegeNames are the privilege names makeaclitem accepts.
var aclPrivilegeNames = []string{"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER",
	"EXECUTE", "USAGE", "CREATE", "TEMPORARY", "TEMP", "CONNECT", "SET", "ALTER SYSTEM"}

// aclLetterOf is the aclitem letter of a privilege name.
func aclLetterOf(name string) byte {
	if name == "TEMP" {
		name = "TEMPORARY"
	}
	for c := byte('A'); c <= 'z'; c++ {
		if pgcatalog.PrivilegeName(c) == name {
			return c
		}
	}
	return 0
}

// aclArray is items as an aclitem[] value.
func aclArray(items []pgcatalog.ACLItem) []any {
	out := make([]any, len(items))
	for k, it := range items {
		out[k] = it.String()
	}
	return out
}

// roleOIDOf is the OID pg_roles gives a role name; PUBLIC ("") is 0.
func roleOIDOf(name string) int64 {
	switch name {
	case "":
		return 0
	case pgcatalog.OwnerName:
		return int64(pgcatalog.OwnerOID)
	}
	return int64(pgcatalog.RoleOID(name))
}

// roleNameOf names a role OID the session knows (the owner, the caller
// and its roles); another prints as its number, as aclitemout prints a
// dropped role.
func (i sessionInfo) roleNameOf(oid uint32) string {
	if oid == pgcatalog.OwnerOID {
		return pgcatalog.OwnerName
	}
	for _, r := range append([]string{i.s.identity.User}, i.s.identity.Roles...) {
		if pgcatalog.RoleOID(r) == oid {
			return r
		}
	}
	return strconv.FormatUint(uint64(oid), 10)
}
