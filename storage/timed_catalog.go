package storage

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// CallObserver is told how long each catalog operation took and how it
// ended, for metrics.
type CallObserver func(catalog, operation string, took time.Duration, err error)

// Timed wraps c so that every Catalog and ViewCatalog operation is
// reported to observe. The wrapper offers exactly the optional interfaces
// (ViewCatalog, AccessProbe) c offers, so callers that look for them find
// the same catalog behind it. Close is not timed.
func Timed(c Catalog, observe CallObserver) Catalog {
	t := &timedCatalog{inner: c, observe: observe}
	views, isViews := c.(ViewCatalog)
	probe, isProbe := c.(AccessProbe)
	switch {
	case isViews && isProbe:
		return timedViewProbeCatalog{timedViewCatalog{t, views}, probe}
	case isViews:
		return timedViewCatalog{t, views}
	case isProbe:
		return timedProbeCatalog{t, probe}
	}
	return t
}

type timedCatalog struct {
	inner   Catalog
	observe CallObserver
}

// timedViewCatalog also times the view operations.
type timedViewCatalog struct {
	*timedCatalog
	views ViewCatalog
}

// timedProbeCatalog forwards the authorization probe untimed: it is a
// decision in memory, not a catalog call.
type timedProbeCatalog struct {
	*timedCatalog
	AccessProbe
}

type timedViewProbeCatalog struct {
	timedViewCatalog
	AccessProbe
}

func (t *timedCatalog) done(op string, start time.Time, err error) {
	t.observe(t.inner.Name(), op, time.Since(start), err)
}

func (t *timedCatalog) Name() string { return t.inner.Name() }
func (t *timedCatalog) Close() error { return t.inner.Close() }

func (t *timedCatalog) ListNamespaces(ctx context.Context) ([]string, error) {
	start := time.Now()
	out, err := t.inner.ListNamespaces(ctx)
	t.done("list_namespaces", start, err)
	return out, err
}

func (t *timedCatalog) NamespaceExists(ctx context.Context, ns string) (bool, error) {
	start := time.Now()
	ok, err := t.inner.NamespaceExists(ctx, ns)
	t.done("namespace_exists", start, err)
	return ok, err
}

func (t *timedCatalog) CreateNamespace(ctx context.Context, ns string) error {
	start := time.Now()
	err := t.inner.CreateNamespace(ctx, ns)
	t.done("create_namespace", start, err)
	return err
}

func (t *timedCatalog) DropNamespace(ctx context.Context, ns string) error {
	start := time.Now()
	err := t.inner.DropNamespace(ctx, ns)
	t.done("drop_namespace", start, err)
	return err
}

func (t *timedCatalog) ListTables(ctx context.Context, ns string) ([]string, error) {
	start := time.Now()
	out, err := t.inner.ListTables(ctx, ns)
	t.done("list_tables", start, err)
	return out, err
}

func (t *timedCatalog) LoadTable(ctx context.Context, ns, name string) (*Table, error) {
	start := time.Now()
	tbl, err := t.inner.LoadTable(ctx, ns, name)
	t.done("load_table", start, err)
	return tbl, err
}

// loadTables times LoadTables over the wrapped catalog as one operation.
func (t *timedCatalog) loadTables(ctx context.Context, ns string) ([]*Table, error) {
	start := time.Now()
	tables, err := LoadTables(ctx, t.inner, ns)
	t.done("load_tables", start, err)
	return tables, err
}

func (t *timedCatalog) CreateTable(ctx context.Context, ns, name string, schema *arrow.Schema, opts CreateTableOptions) (*Table, error) {
	start := time.Now()
	tbl, err := t.inner.CreateTable(ctx, ns, name, schema, opts)
	t.done("create_table", start, err)
	return tbl, err
}

func (t *timedCatalog) DropTable(ctx context.Context, ns, name string) error {
	start := time.Now()
	err := t.inner.DropTable(ctx, ns, name)
	t.done("drop_table", start, err)
	return err
}

func (t *timedCatalog) RenameTable(ctx context.Context, ns, from, to string) (*Table, error) {
	start := time.Now()
	tbl, err := t.inner.RenameTable(ctx, ns, from, to)
	t.done("rename_table", start, err)
	return tbl, err
}

func (t timedViewCatalog) ListViews(ctx context.Context, ns string) ([]string, error) {
	start := time.Now()
	out, err := t.views.ListViews(ctx, ns)
	t.done("list_views", start, err)
	return out, err
}

func (t timedViewCatalog) LoadView(ctx context.Context, ns, name string) (*View, error) {
	start := time.Now()
	v, err := t.views.LoadView(ctx, ns, name)
	t.done("load_view", start, err)
	return v, err
}

func (t timedViewCatalog) CreateView(ctx context.Context, ns, name string, def ViewDefinition, replace bool) error {
	start := time.Now()
	err := t.views.CreateView(ctx, ns, name, def, replace)
	t.done("create_view", start, err)
	return err
}

func (t timedViewCatalog) DropView(ctx context.Context, ns, name string) error {
	start := time.Now()
	err := t.views.DropView(ctx, ns, name)
	t.done("drop_view", start, err)
	return err
}

func (t timedViewCatalog) SetViewProperties(ctx context.Context, ns, name string, props map[string]string) error {
	start := time.Now()
	err := t.views.SetViewProperties(ctx, ns, name, props)
	t.done("set_view_properties", start, err)
	return err
}
