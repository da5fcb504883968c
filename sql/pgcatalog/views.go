package pgcatalog

import "context"

// pg_views and information_schema.views: the caller's views. SQE views
// cannot be written through, so none is updatable or insertable.

func pgViewsRows(ctx context.Context, src Source) ([]row, error) {
	tables, err := userTables(ctx, src)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, t := range tables {
		if t.kind != 'v' {
			continue
		}
		out = append(out, row{
			"schemaname": t.namespace.name, "viewname": t.name, "viewowner": ownerName,
			"definition": t.definition,
		})
	}
	return out, nil
}

func infoViewsRows(ctx context.Context, src Source) ([]row, error) {
	tables, err := userTables(ctx, src)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, t := range tables {
		if t.kind != 'v' {
			continue
		}
		out = append(out, row{
			"table_catalog": src.Database(), "table_schema": t.namespace.name, "table_name": t.name,
			"view_definition": t.definition, "check_option": "NONE",
			"is_updatable": "NO", "is_insertable_into": "NO", "is_trigger_updatable": "NO",
			"is_trigger_deletable": "NO", "is_trigger_insertable_into": "NO",
		})
	}
	return out, nil
}
