package pgcatalog

import "context"

// pg_namespace and information_schema.schemata: the namespaces the caller
// sees. A namespace gate one hides is absent, as if it did not exist.

func namespaceRows(ctx context.Context, src Source) ([]row, error) {
	nss, err := visibleNamespaces(ctx, src)
	if err != nil {
		return nil, err
	}
	out := make([]row, len(nss))
	for i, ns := range nss {
		out[i] = row{"oid": ns.oid, "nspname": ns.name, "nspowner": oidBootstrapOwner}
	}
	return out, nil
}

func schemataRows(ctx context.Context, src Source) ([]row, error) {
	nss, err := visibleNamespaces(ctx, src)
	if err != nil {
		return nil, err
	}
	out := make([]row, len(nss))
	for i, ns := range nss {
		out[i] = row{
			"catalog_name": src.Database(), "schema_name": ns.name, "schema_owner": ownerName,
		}
	}
	return out, nil
}
