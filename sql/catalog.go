package sql

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// sessionCatalog resolves table names for one session, through storage as
// the session's caller.
type sessionCatalog struct {
	s *Session
	// searchPath, when set, replaces the session's search_path: a view's
	// query resolves names with the path recorded when it was created.
	searchPath []string
}

// callerContext carries the session's identity to storage, where gate one
// authorizes each catalog call.
func (s *Session) callerContext(ctx context.Context) context.Context {
	// Queries evaluate timestamptz in the session's TimeZone, and
	// mask_hash with the server's key.
	ctx = exec.WithTimeZone(ctx, s.settings.timeZone())
	ctx = exec.WithMaskKey(ctx, s.engine.cfg.MaskKey)
	return storage.WithPrincipal(ctx, storage.Principal{
		User: s.identity.User, Roles: s.identity.Roles, Groups: s.identity.Groups, Token: s.identity.Token,
		ClientAddr: s.identity.ClientAddr,
	})
}

func (c *sessionCatalog) ResolveTable(ctx context.Context, name planner.TableName) (planner.Table, error) {
	t, v, err := c.ResolveRelation(ctx, name)
	if err != nil {
		return nil, err
	}
	if v != nil {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot change view \"%s\"", v.Name.Name).
			WithDetail("SQE views are not updatable.")
	}
	return t, nil
}

// ResolveRelation resolves a name to a table or a view: per schema of
// search_path, a table and then a view, as both share one name space.
func (c *sessionCatalog) ResolveRelation(ctx context.Context, name planner.TableName) (planner.Table, *planner.View, error) {
	s := c.s
	if t, ok, err := c.resolveVirtual(ctx, name); ok || err != nil {
		if err == nil && writtenVersion(name) {
			return nil, nil, pgerror.New(pgerror.FeatureNotSupported, "catalog relation \"%s\" has no versions to read", name.Name)
		}
		return t, nil, err
	}
	if base, kind, ok := splitMetadataTableName(name.Name); ok {
		return c.resolveMetadataTable(ctx, name, base, kind)
	}
	ctx = s.callerContext(ctx)
	catName := name.Catalog
	if catName == "" {
		catName = s.database
	}
	cat, err := s.engine.catalog(catName)
	if err != nil {
		return nil, nil, pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", displayTableName(name))
	}
	schemas := []string{name.Schema}
	if name.Schema == "" {
		schemas = c.schemas()
	}
	for _, ns := range schemas {
		if name.Schema == "" && (ns == pgCatalogSchema || ns == informationSchema) {
			// search_path may name the catalog schemas too.
			if t, found, err := c.openVirtual(ctx, ns, name.Name); found || err != nil {
				if err == nil && writtenVersion(name) {
					return nil, nil, pgerror.New(pgerror.FeatureNotSupported, "catalog relation \"%s\" has no versions to read", name.Name)
				}
				return t, nil, err
			}
			continue
		}
		t, err := cat.LoadTable(ctx, ns, name.Name)
		switch {
		case err == nil:
			if name.Version != nil {
				// A past version reads what was committed then; the
				// transaction's own writes are of the present.
				t, err = t.AtVersion(storageVersion(name.Version))
			} else {
				t, err = s.withStaged(t)
			}
			if err != nil {
				return nil, nil, err
			}
			a, err := newTableAdapter(t)
			return a, nil, err
		case errors.Is(err, storage.ErrNoSuchTable):
			v, found, err := c.loadView(ctx, cat, ns, name.Name)
			if found && err == nil && writtenVersion(name) {
				return nil, nil, pgerror.New(pgerror.FeatureNotSupported, "view \"%s\" has no versions to read", name.Name).
					WithHint("Set sqe.read_as_of to read the tables of a view as of a version.")
			}
			if found || err != nil {
				return nil, v, err
			}
			continue
		case errors.Is(err, storage.ErrNoSuchNamespace):
			continue
		case errors.Is(err, storage.ErrForbidden):
			return nil, nil, pgerror.Wrap(err, pgerror.InsufficientPrivilege, "permission denied for table %s", name.Name)
		default:
			return nil, nil, fmt.Errorf("load table %s: %w", displayTableName(name), err)
		}
	}
	return nil, nil, pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", displayTableName(name))
}

// resolveVirtual resolves a name to a pg_catalog relation when it is
// qualified with pg_catalog or information_schema, or unqualified and a
// pg_catalog relation (pg_catalog is searched first, as in PostgreSQL).
// ok is false when the name is left to search_path.
func (c *sessionCatalog) resolveVirtual(ctx context.Context, name planner.TableName) (planner.Table, bool, error) {
	s := c.s
	if name.Catalog != "" && name.Catalog != s.database {
		return nil, false, nil
	}
	switch name.Schema {
	case pgCatalogSchema, informationSchema:
		t, found, err := c.openVirtual(ctx, name.Schema, name.Name)
		if err == nil && !found {
			err = pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", displayTableName(name))
		}
		return t, true, err
	case "":
		return c.openVirtual(ctx, pgCatalogSchema, name.Name)
	}
	return nil, false, nil
}

// openVirtual opens the catalog relation schema.name for the session, if
// there is one.
func (c *sessionCatalog) openVirtual(ctx context.Context, schema, name string) (planner.Table, bool, error) {
	rel, ok := pgcatalog.Lookup(schema, name)
	if !ok {
		return nil, false, nil
	}
	t, err := rel.Open(ctx, catalogSource{c.s})
	if err != nil {
		return nil, true, fmt.Errorf("open %s.%s: %w", schema, name, err)
	}
	return t, true, nil
}

// The schemas whose relations package pgcatalog computes.
const (
	pgCatalogSchema   = "pg_catalog"
	informationSchema = "information_schema"
)

// writtenVersion reports whether name carries a version written on the
// reference itself, which a relation without versions refuses (the
// session's default passes it by).
func writtenVersion(name planner.TableName) bool {
	return name.Version != nil && !name.Version.FromSetting
}

func displayTableName(n planner.TableName) string {
	out := n.Name
	if n.Schema != "" {
		out = n.Schema + "." + out
	}
	if n.Catalog != "" {
		out = n.Catalog + "." + out
	}
	return out
}

// tableAdapter presents a storage table to the planner.
type tableAdapter struct {
	t    *storage.Table
	cols []planner.TableColumn
	oid  uint32
	// casts marks the columns whose stored data is cast to the presented
	// type on read (see presentedType).
	casts []bool
	// distinct are ANALYZE's distinct counts by column index, read from
	// the table's metadata once (DistinctValues).
	distinctOnce sync.Once
	distinct     map[int]float64
}

func newTableAdapter(t *storage.Table) (*tableAdapter, error) {
	a := &tableAdapter{t: t, oid: TableOID(t.Ident())}
	props := t.Properties()
	for _, f := range t.Schema().Fields() {
		typ, err := types.FromArrow(f.Type)
		if err != nil {
			return nil, pgerror.Wrap(err, pgerror.FeatureNotSupported, "column \"%s\" of table %s has a type SQE cannot read yet", f.Name, t.Ident())
		}
		typ, cast := presentedType(props, f, typ)
		a.cols = append(a.cols, planner.TableColumn{Name: f.Name, Type: typ, Nullable: f.Nullable})
		a.casts = append(a.casts, cast)
	}
	return a, nil
}

// TableOID is a table's stable object id: a hash of its full name placed
// above PostgreSQL's first user OID (16384), so it survives restarts.
func TableOID(id storage.Ident) uint32 {
	h := fnv.New32a()
	_, _ = io.WriteString(h, id.String())
	return 16384 + h.Sum32()%(1<<31-16384)
}

func (a *tableAdapter) QualifiedName() planner.TableName {
	id := a.t.Ident()
	return planner.TableName{Catalog: id.Catalog, Schema: id.Namespace, Name: id.Table}
}
func (a *tableAdapter) OID() uint32                    { return a.oid }
func (a *tableAdapter) Columns() []planner.TableColumn { return a.cols }
func (a *tableAdapter) RowEstimate() int64             { return a.t.RowCountEstimate() }

func (a *tableAdapter) Scan(ctx context.Context, columns []int, filter iceberg.BooleanExpression) (planner.RecordStream, error) {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = a.cols[c].Name
	}
	st, err := a.t.Scan(ctx, storage.ScanRequest{Columns: names, Filter: filter, PruneOnly: true, Decimal64: true})
	if err != nil {
		return nil, err
	}
	if cast := a.castColumns(columns); cast != nil {
		return &castStream{ctx: ctx, st: st, cast: cast}, nil
	}
	return recordStream{st}, nil
}

type recordStream struct{ st storage.RecordStream }

func (r recordStream) Next() (arrow.RecordBatch, error) { return r.st.Next() }
func (r recordStream) Close() error                     { return r.st.Close() }

// ScanMorsels splits the scan into morsels (row groups or files) that
// parallel workers read independently.
func (a *tableAdapter) ScanMorsels(ctx context.Context, columns []int, filter iceberg.BooleanExpression) (planner.Morsels, error) {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = a.cols[c].Name
	}
	m, err := a.t.Morsels(ctx, storage.ScanRequest{Columns: names, Filter: filter, PruneOnly: true, Decimal64: true})
	if err != nil {
		return nil, err
	}
	return morsels{m}, nil
}

type morsels struct{ m *storage.Morsels }

func (m morsels) Len() int     { return m.m.Len() }
func (m morsels) Close() error { return m.m.Close() }
func (m morsels) Open(ctx context.Context, i int) (planner.RecordStream, error) {
	st, err := m.m.Open(ctx, i)
	if err != nil {
		return nil, err
	}
	return recordStream{st}, nil
}

// DistinctValues is ANALYZE's estimate of column col's distinct values
// (planner.DistinctEstimator), from the statistics the table's metadata
// registers for its current snapshot or the newest before it.
func (a *tableAdapter) DistinctValues(col int) (float64, bool) {
	a.distinctOnce.Do(func() {
		st, ok := a.t.Statistics()
		if !ok {
			return
		}
		a.distinct = map[int]float64{}
		for i, f := range a.t.Schema().Fields() {
			if cs, ok := st.Columns[storage.FieldID(f.Metadata.ToMap())]; ok {
				a.distinct[i] = cs.Distinct
			}
		}
	})
	n, ok := a.distinct[col]
	return n, ok
}

// ExactRowCount counts the rows a scan with filter returns from the
// table's file record counts. An error is doubt, as for AdmitsEveryRow:
// a scan counts, and reports the failure.
// Shared reports whether another engine reading the catalog holds the
// same rows under the table's name (planner.SharedTable).
func (a *tableAdapter) Shared() bool { return a.t.Shared() }

// ScanBytes sizes a scan from the manifests (planner.ScanSizer).
func (a *tableAdapter) ScanBytes(ctx context.Context, filter iceberg.BooleanExpression) (int64, bool) {
	n, err := a.t.ScanBytes(ctx, filter)
	return n, err == nil
}

func (a *tableAdapter) ExactRowCount(ctx context.Context, filter iceberg.BooleanExpression) (int64, bool) {
	n, ok, err := a.t.ExactRowCount(ctx, filter)
	return n, err == nil && ok
}

// AdmitsEveryRow reports whether the table's file statistics prove that
// filter admits every row of this snapshot. An error (a manifest that
// cannot be read) is doubt, so the filter runs, and the scan that follows
// reports the failure.
func (a *tableAdapter) AdmitsEveryRow(ctx context.Context, filter iceberg.BooleanExpression) bool {
	ok, err := a.t.AdmitsEveryRow(ctx, filter)
	return err == nil && ok
}
