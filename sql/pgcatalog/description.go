package pgcatalog

import "context"

// oidPgClass is pg_class's OID, the classoid of a table's descriptions.
const oidPgClass uint32 = 1259

// descriptionRows are the comments of the tables the caller sees
// (objsubid 0) and of their columns (objsubid = column number).
func descriptionRows(ctx context.Context, src Source) ([]row, error) {
	nss, err := visibleNamespaces(ctx, src)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, ns := range nss {
		if ns.oid == oidPgCatalog || ns.oid == oidInformationSchema {
			continue
		}
		tables, err := src.Tables(ctx, ns.name)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			if t.Comment != "" {
				out = append(out, row{"objoid": t.OID, "classoid": oidPgClass, "objsubid": int32(0), "description": t.Comment})
			}
			for i, c := range t.ColumnComments {
				if c != "" {
					out = append(out, row{"objoid": t.OID, "classoid": oidPgClass, "objsubid": int32(i + 1), "description": c})
				}
			}
		}
	}
	return out, nil
}
