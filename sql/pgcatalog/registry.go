package pgcatalog

// rowFuncs says how each relation with contents is filled; every other
// relation of pg15Shapes has no rows.
var rowFuncs = map[string]rowFunc{
	"pg_catalog.pg_namespace":        namespaceRows,
	"pg_catalog.pg_class":            classRows,
	"pg_catalog.pg_attribute":        attributeRows,
	"pg_catalog.pg_type":             fixedRows(builtinTypes),
	"pg_catalog.pg_proc":             fixedRows(builtinProcs),
	"pg_catalog.pg_am":               fixedRows(builtinAccessMethods),
	"pg_catalog.pg_collation":        fixedRows(builtinCollations),
	"pg_catalog.pg_tablespace":       fixedRows(builtinTablespaces),
	"pg_catalog.pg_database":         databaseRows,
	"pg_catalog.pg_roles":            roleRows,
	"pg_catalog.pg_user":             userRows,
	"pg_catalog.pg_settings":         settingsRows,
	"pg_catalog.pg_tables":           pgTablesRows,
	"pg_catalog.pg_stat_user_tables": statUserTablesRows,
	"pg_catalog.pg_stat_activity":    activityRows,
	"information_schema.schemata":    schemataRows,
	"information_schema.tables":      infoTablesRows,
	"information_schema.columns":     infoColumnsRows,
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
		m[key] = &relation{shape: s, rows: rows}
	}
	return m
}
