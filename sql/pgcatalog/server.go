package pgcatalog

import (
	"context"
	"strings"
)

// pg_database, pg_roles, pg_auth_members, pg_user and pg_settings: the
// server as the caller sees it (pg_stat_activity: activity.go).

func databaseRows(ctx context.Context, src Source) ([]row, error) {
	grants, err := sourceGrants(ctx, src)
	if err != nil {
		return nil, err
	}
	dbs := src.Databases()
	out := make([]row, len(dbs))
	for i, db := range dbs {
		var acl any
		if grants != nil {
			acl = objectACL('d', grants.Database(db))
		}
		out[i] = row{
			"datacl": acl,
			"oid":    DatabaseOID(db), "datname": db, "datdba": oidBootstrapOwner,
			"encoding":       int32(6), // UTF8
			"datlocprovider": "c", "datistemplate": false, "datallowconn": true,
			"datconnlimit": int32(-1), "datfrozenxid": uint32(0), "datminmxid": uint32(1),
			"dattablespace": oidDefaultTblspc, "datcollate": "C", "datctype": "C",
		}
	}
	return out, nil
}

// roleRows lists the caller (a login role), then its effective roles,
// then the owner of every object (PostgreSQL's bootstrap superuser,
// whose OID the catalogs' owner columns hold), then the other grantees
// and grantors of the grants it sees (relacl and the like name them by
// OID, and clients such as pgAdmin join them to pg_roles).
func roleRows(ctx context.Context, src Source) ([]row, error) {
	out := []row{roleRow(src.User(), true, src.Superuser())}
	seen := map[string]bool{src.User(): true}
	for _, r := range src.Roles() {
		if !seen[r] {
			seen[r] = true
			out = append(out, roleRow(r, false, false))
		}
	}
	if !seen[ownerName] {
		seen[ownerName] = true
		owner := roleRow(ownerName, false, true)
		owner["oid"] = oidBootstrapOwner
		out = append(out, owner)
	}
	grants, err := sourceGrants(ctx, src)
	if err != nil || grants == nil {
		return out, err
	}
	for _, g := range grants.Grantees() {
		if !seen[g.Name] {
			seen[g.Name] = true
			out = append(out, roleRow(g.Name, g.Login, false))
		}
	}
	return out, nil
}

// authMembersRows records the caller as a member of each of its effective
// roles, granted by the bootstrap owner: the identity provider, not SQE,
// decides memberships, and other callers' memberships are not shown.
func authMembersRows(_ context.Context, src Source) ([]row, error) {
	var out []row
	seen := map[string]bool{src.User(): true}
	member := RoleOID(src.User())
	for _, r := range src.Roles() {
		if !seen[r] {
			seen[r] = true
			out = append(out, row{"roleid": RoleOID(r), "member": member, "grantor": oidBootstrapOwner, "admin_option": false})
		}
	}
	return out, nil
}

func roleRow(name string, login, super bool) row {
	return row{
		"rolname": name, "rolsuper": super, "rolinherit": true, "rolcreaterole": super,
		"rolcreatedb": super, "rolcanlogin": login, "rolreplication": false,
		"rolconnlimit": int32(-1), "rolpassword": "********", "rolbypassrls": false,
		"oid": RoleOID(name),
	}
}

// userRows lists the login roles the caller sees: itself.
func userRows(_ context.Context, src Source) ([]row, error) {
	return []row{{
		"usename": src.User(), "usesysid": RoleOID(src.User()), "usecreatedb": src.Superuser(),
		"usesuper": src.Superuser(), "userepl": false, "usebypassrls": false, "passwd": "********",
	}}, nil
}

func settingsRows(_ context.Context, src Source) ([]row, error) {
	all := src.Settings()
	out := make([]row, len(all))
	for i, s := range all {
		out[i] = row{
			"name": s[0], "setting": s[1], "category": "Ungrouped", "short_desc": "",
			"context": "user", "vartype": settingType(s[1]), "source": "default",
			"boot_val": s[1], "reset_val": s[1], "pending_restart": false,
		}
	}
	return out, nil
}

// settingType guesses pg_settings.vartype from a value, as SQE keeps no
// declared types for its settings.
func settingType(v string) string {
	switch strings.ToLower(v) {
	case "on", "off":
		return "bool"
	}
	if v == "" {
		return "string"
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return "string"
		}
	}
	return "integer"
}
