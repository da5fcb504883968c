package storage

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// ErrNoSuchView is a view that is not in the catalog.
var ErrNoSuchView = errors.New("no such view")

// Gate-one actions on views, named as Apache Polaris names them.
const (
	ActionListViews   Action = "LIST_VIEWS"
	ActionLoadView    Action = "LOAD_VIEW"
	ActionCreateView  Action = "CREATE_VIEW"
	ActionReplaceView Action = "REPLACE_VIEW"
	ActionDropView    Action = "DROP_VIEW"
)

// ViewDefinition is what a view stores: its query and the shape of its
// result. It is kept as an Iceberg view: the query as the version's SQL
// representation, the columns as the view schema, the rest as view
// properties.
type ViewDefinition struct {
	// SQL is the view's SELECT statement as text.
	SQL string
	// Schema names the view's columns, in order. A column whose Arrow type
	// Iceberg cannot hold is stored as an Iceberg string; callers keep the
	// exact types in Properties.
	Schema *arrow.Schema
	// Properties are stored as Iceberg view properties.
	Properties map[string]string
}

// View is a view as loaded from the catalog.
type View struct {
	Ident      Ident
	SQL        string
	Columns    []string
	Properties map[string]string
}

// ViewCatalog is the part of a catalog that stores views. The embedded
// catalog implements it.
type ViewCatalog interface {
	// ListViews returns the view names in ns, sorted.
	ListViews(ctx context.Context, ns string) ([]string, error)
	// LoadView fails with ErrNoSuchNamespace or ErrNoSuchView.
	LoadView(ctx context.Context, ns, name string) (*View, error)
	// CreateView stores a new view; ErrAlreadyExists if a table or view
	// has the name. With replace, an existing view of the name is
	// replaced instead.
	CreateView(ctx context.Context, ns, name string, def ViewDefinition, replace bool) error
	// DropView removes a view; ErrNoSuchView if absent.
	DropView(ctx context.Context, ns, name string) error
	// SetViewProperties sets (non-empty value) or removes (empty value)
	// view properties, keeping the query and columns.
	SetViewProperties(ctx context.Context, ns, name string, props map[string]string) error
}

var _ ViewCatalog = (*embeddedCatalog)(nil)

func (c *embeddedCatalog) ListViews(ctx context.Context, ns string) ([]string, error) {
	if err := checkName("schema", ns); err != nil {
		return nil, err
	}
	if ok, err := c.namespaceVisible(ctx, ns); err != nil {
		return nil, err
	} else if !ok {
		return nil, noSuchNamespace(ns, ErrNoSuchNamespace)
	}
	var names []string
	for id, err := range c.cat.ListViews(ctx, table.Identifier{ns}) {
		if errors.Is(err, catalog.ErrNoSuchNamespace) {
			return nil, noSuchNamespace(ns, err)
		}
		if err != nil {
			return nil, fmt.Errorf("list views of %s.%s: %w", c.name, ns, err)
		}
		names = append(names, id[len(id)-1])
	}
	slices.Sort(names)
	return c.visibleMembers(ctx, ns, names, ActionListViews, ActionLoadView)
}

// LoadView, like LoadTable, finds the view before it authorizes the load.
func (c *embeddedCatalog) LoadView(ctx context.Context, ns, name string) (*View, error) {
	id := Ident{Catalog: c.name, Namespace: ns, Table: name}
	if err := checkIdent(id); err != nil {
		return nil, err
	}
	if ok, err := c.namespaceVisible(ctx, ns); err != nil {
		return nil, err
	} else if !ok {
		return nil, noSuchView(id, ErrNoSuchTable)
	}
	md, err := c.cat.LoadView(ctx, table.Identifier{ns, name})
	switch {
	case err == nil:
		if err := authorize(ctx, c.authz, ActionLoadView, id); err != nil {
			return nil, err
		}
	case errors.Is(err, catalog.ErrNoSuchNamespace):
		return nil, noSuchNamespace(ns, err)
	case errors.Is(err, catalog.ErrNoSuchView):
		if ok, nsErr := c.cat.CheckNamespaceExists(ctx, table.Identifier{ns}); nsErr == nil && !ok {
			return nil, noSuchNamespace(ns, err)
		}
		return nil, noSuchView(id, err)
	default:
		return nil, fmt.Errorf("load view %s: %w", id, err)
	}
	v := &View{Ident: id, Properties: maps.Clone(map[string]string(md.Properties()))}
	ver := md.CurrentVersion()
	if ver == nil || len(ver.Representations) == 0 {
		return nil, fmt.Errorf("load view %s: no SQL representation", id)
	}
	v.SQL = ver.Representations[0].Sql
	if sc := md.CurrentSchema(); sc != nil {
		for _, f := range sc.Fields() {
			v.Columns = append(v.Columns, f.Name)
		}
	}
	return v, nil
}

func (c *embeddedCatalog) CreateView(ctx context.Context, ns, name string, def ViewDefinition, replace bool) error {
	id := Ident{Catalog: c.name, Namespace: ns, Table: name}
	if err := checkIdent(id); err != nil {
		return err
	}
	action := ActionCreateView
	if replace {
		action = ActionReplaceView
	}
	if err := authorize(ctx, c.authz, action, id); err != nil {
		return err
	}
	sc, err := viewSchema(def.Schema)
	if err != nil {
		return fmt.Errorf("create view %s: %w", id, err)
	}
	// The SQL catalog has no view commit: a replacement is a drop and a
	// create under the name's lock, after everything that can fail on
	// the input has been checked above.
	unlock, err := c.lockTable(ctx, id)
	if err != nil {
		return fmt.Errorf("create view %s: wait for lock: %w", id, err)
	}
	defer unlock()
	ident := table.Identifier{ns, name}
	if replace {
		if err := c.cat.DropView(ctx, ident); err != nil && !errors.Is(err, catalog.ErrNoSuchView) {
			return fmt.Errorf("replace view %s: %w", id, err)
		}
	}
	err = c.cat.CreateView(ctx, ident, sc, def.SQL, iceberg.Properties(maps.Clone(def.Properties)))
	switch {
	case err == nil:
		return nil
	case errors.Is(err, catalog.ErrTableAlreadyExists), errors.Is(err, catalog.ErrViewAlreadyExists):
		return tableExists(id, err)
	case errors.Is(err, catalog.ErrNoSuchNamespace):
		return noSuchNamespace(ns, err)
	default:
		return fmt.Errorf("create view %s: %w", id, err)
	}
}

func (c *embeddedCatalog) SetViewProperties(ctx context.Context, ns, name string, props map[string]string) error {
	id := Ident{Catalog: c.name, Namespace: ns, Table: name}
	if err := checkIdent(id); err != nil {
		return err
	}
	if err := authorize(ctx, c.authz, ActionReplaceView, id); err != nil {
		return err
	}
	unlock, err := c.lockTable(ctx, id)
	if err != nil {
		return fmt.Errorf("alter view %s: wait for lock: %w", id, err)
	}
	defer unlock()
	ident := table.Identifier{ns, name}
	md, err := c.cat.LoadView(ctx, ident)
	if errors.Is(err, catalog.ErrNoSuchView) {
		return noSuchView(id, err)
	}
	if err != nil {
		return fmt.Errorf("alter view %s: %w", id, err)
	}
	ver := md.CurrentVersion()
	if ver == nil || len(ver.Representations) == 0 {
		return fmt.Errorf("alter view %s: no SQL representation", id)
	}
	merged := iceberg.Properties(maps.Clone(map[string]string(md.Properties())))
	if merged == nil {
		merged = iceberg.Properties{}
	}
	for k, v := range props {
		if v == "" {
			delete(merged, k)
		} else {
			merged[k] = v
		}
	}
	// The SQL catalog has no view commit: the new version replaces the
	// old one by a drop and a create of the same query and schema.
	if err := c.cat.DropView(ctx, ident); err != nil {
		return fmt.Errorf("alter view %s: %w", id, err)
	}
	if err := c.cat.CreateView(ctx, ident, md.CurrentSchema(), ver.Representations[0].Sql, merged); err != nil {
		return fmt.Errorf("alter view %s: %w", id, err)
	}
	return nil
}

func (c *embeddedCatalog) DropView(ctx context.Context, ns, name string) error {
	id := Ident{Catalog: c.name, Namespace: ns, Table: name}
	if err := checkIdent(id); err != nil {
		return err
	}
	if err := authorize(ctx, c.authz, ActionDropView, id); err != nil {
		return err
	}
	err := c.cat.DropView(ctx, table.Identifier{ns, name})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, catalog.ErrNoSuchView), errors.Is(err, catalog.ErrNoSuchNamespace):
		if ok, nsErr := c.cat.CheckNamespaceExists(ctx, table.Identifier{ns}); nsErr == nil && !ok {
			return noSuchNamespace(ns, err)
		}
		return noSuchView(id, err)
	default:
		return fmt.Errorf("drop view %s: %w", id, err)
	}
}

// viewSchema is the Iceberg schema of a view's columns. Iceberg views
// carry a schema like tables; a column type Iceberg has no counterpart
// for is recorded as a string, since SQE re-derives the real types from
// the query and its own properties.
func viewSchema(sc *arrow.Schema) (*iceberg.Schema, error) {
	if sc == nil || sc.NumFields() == 0 {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "a view must have at least one column")
	}
	fields := make([]iceberg.NestedField, sc.NumFields())
	for i, f := range sc.Fields() {
		typ := iceberg.Type(iceberg.PrimitiveTypes.String)
		one, err := table.ArrowSchemaToIcebergWithFreshIDs(arrow.NewSchema([]arrow.Field{f}, nil), false)
		if err == nil && len(one.Fields()) == 1 {
			if p, ok := one.Fields()[0].Type.(iceberg.PrimitiveType); ok {
				typ = p
			}
		}
		fields[i] = iceberg.NestedField{ID: i + 1, Name: f.Name, Type: typ, Required: false}
	}
	return iceberg.NewSchema(0, fields...), nil
}

func noSuchView(id Ident, cause error) error {
	return pgerror.Wrap(fmt.Errorf("%w: %s: %w", ErrNoSuchView, id, cause),
		pgerror.UndefinedTable, "view \"%s\" does not exist", id.Table)
}
