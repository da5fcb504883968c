package storage

import (
	"context"
	"errors"
)

// What a caller may see of the embedded catalog follows what Polaris lets
// a client reach: a namespace is visible when the caller may list the
// catalog's namespaces and read that namespace's properties; anything in
// a namespace the caller cannot see is absent (42P01), while a table the
// caller can see but may not load is refused (42501). Listings leave out
// what the caller cannot see rather than fail, so pg_catalog and
// information_schema show each caller exactly its own view.

// namespaceVisible reports whether the caller may see ns. A refusal hides
// it; any other failure is returned.
func (c *embeddedCatalog) namespaceVisible(ctx context.Context, ns string) (bool, error) {
	for _, check := range []struct {
		action Action
		target Ident
	}{
		{ActionListNamespaces, Ident{Catalog: c.name}},
		{ActionLoadNamespace, Ident{Catalog: c.name, Namespace: ns}},
	} {
		if err := authorize(ctx, c.authz, check.action, check.target); err != nil {
			if errors.Is(err, ErrForbidden) {
				return false, nil
			}
			return false, err
		}
	}
	return true, nil
}

// allowed reports whether the caller may perform action on target; a
// refusal is false, any other failure an error.
func (c *embeddedCatalog) allowed(ctx context.Context, action Action, target Ident) (bool, error) {
	err := authorize(ctx, c.authz, action, target)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrForbidden):
		return false, nil
	default:
		return false, err
	}
}

// visibleMembers keeps the names of ns's tables (or views) the caller may
// see: all of them when it may list them (list), otherwise those it may
// load (load).
func (c *embeddedCatalog) visibleMembers(ctx context.Context, ns string, names []string, list, load Action) ([]string, error) {
	ok, err := c.allowed(ctx, list, Ident{Catalog: c.name, Namespace: ns})
	if err != nil || ok {
		return names, err
	}
	out := names[:0]
	for _, n := range names {
		ok, err := c.allowed(ctx, load, Ident{Catalog: c.name, Namespace: ns, Table: n})
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, n)
		}
	}
	return out, nil
}
