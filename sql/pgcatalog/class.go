package pgcatalog

import "context"

// pg_class, pg_tables, pg_stat_user_tables and information_schema.tables:
// the relations the caller sees. Row counts come from table metadata only:
// a count of the rows a row filter admits would be computed per caller and
// could reveal how many rows it hides.

func classRows(ctx context.Context, src Source) ([]row, error) {
	rels, err := allRelations(ctx, src)
	if err != nil {
		return nil, err
	}
	grants, err := sourceGrants(ctx, src)
	if err != nil {
		return nil, err
	}
	out := make([]row, len(rels))
	for i, r := range rels {
		am, replident := oidHeapAM, "d"
		if r.kind != 'r' {
			am, replident = 0, "n"
		}
		// A view is a relation with a rewrite rule (its query).
		hasRules := r.kind == 'v'
		out[i] = row{
			"oid": r.oid, "relname": r.name, "relnamespace": r.namespace.oid,
			"reltype": uint32(0), "reloftype": uint32(0), "relowner": oidBootstrapOwner,
			"relam": am, "relfilenode": uint32(0), "reltablespace": uint32(0),
			"relpages": int32(0), "reltuples": float32(r.rowEstimate), "relallvisible": int32(0),
			"reltoastrelid": uint32(0), "relhasindex": false, "relisshared": false,
			"relpersistence": "p", "relkind": string(r.kind), "relnatts": int16(len(r.columns)),
			"relchecks": int16(0), "relhasrules": hasRules, "relhastriggers": false,
			"relhassubclass": false, "relrowsecurity": false, "relforcerowsecurity": false,
			"relispopulated": true, "relreplident": replident, "relispartition": false,
			"relrewrite": uint32(0), "relfrozenxid": uint32(0), "relminmxid": uint32(0),
			"relacl": relationACL(grants, r),
		}
	}
	return out, nil
}

func pgTablesRows(ctx context.Context, src Source) ([]row, error) {
	rels, err := allRelations(ctx, src)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, r := range rels {
		if r.kind != 'r' {
			continue
		}
		out = append(out, row{
			"schemaname": r.namespace.name, "tablename": r.name, "tableowner": ownerName,
			"hasindexes": false, "hasrules": false, "hastriggers": false, "rowsecurity": false,
		})
	}
	return out, nil
}

func statUserTablesRows(ctx context.Context, src Source) ([]row, error) {
	tables, err := userTables(ctx, src)
	if err != nil {
		return nil, err
	}
	out := make([]row, 0, len(tables))
	zero := int64(0)
	for _, t := range tables {
		if t.kind != 'r' {
			continue
		}
		var live any
		if t.rowEstimate >= 0 {
			live = t.rowEstimate
		}
		out = append(out, row{
			"relid": t.oid, "schemaname": t.namespace.name, "relname": t.name,
			"seq_scan": zero, "seq_tup_read": zero, "n_tup_ins": zero, "n_tup_upd": zero,
			"n_tup_del": zero, "n_tup_hot_upd": zero, "n_live_tup": live, "n_dead_tup": zero,
			"n_mod_since_analyze": zero, "n_ins_since_vacuum": zero, "vacuum_count": zero,
			"autovacuum_count": zero, "analyze_count": zero, "autoanalyze_count": zero,
		})
	}
	return out, nil
}

func infoTablesRows(ctx context.Context, src Source) ([]row, error) {
	rels, err := allRelations(ctx, src)
	if err != nil {
		return nil, err
	}
	out := make([]row, len(rels))
	for i, r := range rels {
		tableType, insertable := "BASE TABLE", "YES"
		if r.kind == 'v' {
			tableType, insertable = "VIEW", "NO"
		}
		if !r.user {
			insertable = "NO"
		}
		out[i] = row{
			"table_catalog": src.Database(), "table_schema": r.namespace.name, "table_name": r.name,
			"table_type": tableType, "is_insertable_into": insertable, "is_typed": "NO",
		}
	}
	return out, nil
}

// relationACL is a relation's relacl: PostgreSQL's for a system catalog,
// otherwise built from the grants on it.
func relationACL(grants Grants, r relInfo) any {
	if !r.user {
		return systemACL('r')
	}
	if grants == nil {
		return nil
	}
	return objectACL('r', grants.Relation(r.namespace.name, r.name, r.kind == 'v'))
}
