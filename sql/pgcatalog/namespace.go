package pgcatalog

import "context"

// pg_namespace and information_schema.schemata: the namespaces the caller
// sees. A namespace gate one hides is absent, as if it did not exist.

func namespaceRows(ctx context.Context, src Source) ([]row, error) {
	nss, err := visibleNamespaces(ctx, src)
	if err != nil {
		return nil, err
	}
	grants, err := sourceGrants(ctx, src)
	if err != nil {
		return nil, err
	}
	out := make([]row, len(nss))
	for i, ns := range nss {
		out[i] = row{"oid": ns.oid, "nspname": ns.name, "nspowner": oidBootstrapOwner,
			"nspacl": namespaceACL(grants, ns.name)}
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

// namespaceACL is a schema's nspacl: PostgreSQL's for pg_catalog and
// information_schema, otherwise built from the grants on it.
func namespaceACL(grants Grants, name string) any {
	if name == "pg_catalog" || name == "information_schema" {
		return systemACL('n')
	}
	if grants == nil {
		return nil
	}
	return objectACL('n', grants.Namespace(name))
}
