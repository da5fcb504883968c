package pgcatalog

// rowFuncs says how each relation with contents is filled; every other
// relation of pg15Shapes has no rows.
var rowFuncs = map[string]rowFunc{
	"pg_catalog.pg_namespace":               namespaceRows,
	"pg_catalog.pg_class":                   classRows,
	"pg_catalog.pg_attribute":               attributeRows,
	"pg_catalog.pg_attrdef":                 attrdefRows,
	"pg_catalog.pg_type":                    fixedRows(builtinTypes),
	"pg_catalog.pg_proc":                    fixedRows(builtinProcs),
	"pg_catalog.pg_am":                      fixedRows(builtinAccessMethods),
	"pg_catalog.pg_collation":               fixedRows(builtinCollations),
	"pg_catalog.pg_tablespace":              fixedRows(builtinTablespaces),
	"pg_catalog.pg_database":                databaseRows,
	"pg_catalog.pg_roles":                   roleRows,
	"pg_catalog.pg_auth_members":            authMembersRows,
	"pg_catalog.pg_user":                    userRows,
	"pg_catalog.pg_settings":                settingsRows,
	"pg_catalog.pg_tables":                  pgTablesRows,
	"pg_catalog.pg_stat_user_tables":        statUserTablesRows,
	"pg_catalog.pg_stat_activity":           activityRows,
	"pg_catalog.pg_prepared_statements":     preparedStatementRows,
	"pg_catalog.pg_stats":                   statsRows,
	"pg_catalog.pg_description":             descriptionRows,
	"information_schema.schemata":           schemataRows,
	"information_schema.tables":             infoTablesRows,
	"information_schema.columns":            infoColumnsRows,
	"information_schema.views":              infoViewsRows,
	"pg_catalog.pg_views":                   pgViewsRows,
	"information_schema.table_privileges":   tablePrivilegeRows,
	"information_schema.role_table_grants":  roleTableGrantRows,
	"information_schema.column_privileges":  columnPrivilegeRows,
	"information_schema.role_column_grants": roleColumnGrantRows,
}

// objectRelations are the relations whose rows come from nothing but
// the caller's database, namespaces and tables and the grants on them
// (or from nothing at all), which the view's versions follow:
// an ObjectBatches source may remember their batches.
var objectRelations = map[string]bool{
	"pg_catalog.pg_namespace": true, "pg_catalog.pg_class": true,
	"pg_catalog.pg_attribute": true, "pg_catalog.pg_attrdef": true,
	"pg_catalog.pg_type": true, "pg_catalog.pg_proc": true,
	"pg_catalog.pg_am": true, "pg_catalog.pg_collation": true,
	"pg_catalog.pg_tablespace": true, "pg_catalog.pg_tables": true,
	"pg_catalog.pg_stat_user_tables": true, "pg_catalog.pg_stats": true,
	"pg_catalog.pg_description": true, "pg_catalog.pg_views": true,
	"information_schema.schemata": true, "information_schema.tables": true,
	"information_schema.columns": true, "information_schema.views": true,
	"information_schema.table_privileges": true, "information_schema.role_table_grants": true,
	"information_schema.column_privileges": true, "information_schema.role_column_grants": true,
}

// registry holds every relation by "schema.name". It is built once and
// only read afterwards.
var registry = buildRegistry()

func buildRegistry() map[string]*relation {
	m := make(map[string]*relation, len(pg15Shapes))
	for _, s := range pg15Shapes {
		key := s.schema + "." + s.name
		rows, ok := rowFuncs[key]
		if !ok {
			rows = noRows
		}
		m[key] = &relation{shape: s, rows: rows, fromObjects: objectRelations[key] || !ok}
	}
	return m
}

// RelationOID is the OID of a catalog relation (pg_class, ...).
func RelationOID(schema, name string) (uint32, bool) {
	r, ok := registry[schema+"."+name]
	if !ok {
		return 0, false
	}
	return r.oid, true
}

// RelationByOID names the catalog relation with the given OID.
func RelationByOID(oid uint32) (schema, name string, ok bool) {
	for _, r := range registry {
		if r.oid == oid {
			return r.schema, r.name, true
		}
	}
	return "", "", false
}

// TypeOIDByName is the OID of a built-in type by its pg_type.typname.
func TypeOIDByName(name string) (uint32, bool) {
	for _, r := range builtinTypes {
		if r["typname"] == name {
			return r["oid"].(uint32), true
		}
	}
	return 0, false
}
