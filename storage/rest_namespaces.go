package storage

import (
	"context"
	"slices"

	"github.com/apache/iceberg-go/table"
)

func (c *restCatalog) ListNamespaces(ctx context.Context) ([]string, error) {
	target := Ident{Catalog: c.cfg.Name}
	cat, err := c.begin(ctx, ActionListNamespaces, target)
	if err != nil {
		return nil, err
	}
	idents, err := cat.ListNamespaces(ctx, nil)
	if err != nil {
		return nil, c.restError(ctx, "list namespaces of", target, err)
	}
	names := make([]string, 0, len(idents))
	for _, id := range idents {
		if len(id) > 0 {
			names = append(names, id[0])
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

func (c *restCatalog) NamespaceExists(ctx context.Context, ns string) (bool, error) {
	if err := checkName("schema", ns); err != nil {
		return false, err
	}
	target := Ident{Catalog: c.cfg.Name, Namespace: ns}
	cat, err := c.begin(ctx, ActionLoadNamespace, target)
	if err != nil {
		return false, err
	}
	ok, err := cat.CheckNamespaceExists(ctx, table.Identifier{ns})
	if err != nil {
		return false, c.restError(ctx, "check namespace", target, err)
	}
	return ok, nil
}

func (c *restCatalog) CreateNamespace(ctx context.Context, ns string) error {
	if err := checkName("schema", ns); err != nil {
		return err
	}
	target := Ident{Catalog: c.cfg.Name, Namespace: ns}
	cat, err := c.begin(ctx, ActionCreateNamespace, target)
	if err != nil {
		return err
	}
	return c.restError(ctx, "create namespace", target, cat.CreateNamespace(ctx, table.Identifier{ns}, nil))
}

func (c *restCatalog) DropNamespace(ctx context.Context, ns string) error {
	if err := checkName("schema", ns); err != nil {
		return err
	}
	target := Ident{Catalog: c.cfg.Name, Namespace: ns}
	cat, err := c.begin(ctx, ActionDropNamespace, target)
	if err != nil {
		return err
	}
	return c.restError(ctx, "drop namespace", target, cat.DropNamespace(ctx, table.Identifier{ns}))
}

func (c *restCatalog) ListTables(ctx context.Context, ns string) ([]string, error) {
	if err := checkName("schema", ns); err != nil {
		return nil, err
	}
	target := Ident{Catalog: c.cfg.Name, Namespace: ns}
	cat, err := c.begin(ctx, ActionListTables, target)
	if err != nil {
		return nil, err
	}
	var names []string
	for id, err := range cat.ListTables(ctx, table.Identifier{ns}) {
		if err != nil {
			return nil, c.restError(ctx, "list tables of", target, err)
		}
		names = append(names, id[len(id)-1])
	}
	slices.Sort(names)
	return names, nil
}
