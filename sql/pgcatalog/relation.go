package pgcatalog

import (
	"context"

	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/planner"
)

// Relation is one virtual catalog relation.
type Relation interface {
	Name() string
	Schema() string
	Columns() []planner.TableColumn
	// Open binds the relation to a caller. The returned table computes its
	// rows from src each time it is scanned.
	Open(ctx context.Context, src Source) (planner.Table, error)
}

// shape is a relation's definition as PostgreSQL 15 has it.
type shape struct {
	schema, name string
	oid          uint32
	kind         byte // pg_class.relkind: 'r' table, 'v' view
	columns      []planner.TableColumn
}

// row is one row of a relation by column name. A column a row does not
// name is NULL, so a relation fills in only the columns it knows.
type row map[string]any

// rowFunc computes a relation's rows for one caller.
type rowFunc func(ctx context.Context, src Source) ([]row, error)

// relation is a shape with the function that fills it.
type relation struct {
	shape
	rows rowFunc
}

func (r *relation) Name() string                   { return r.name }
func (r *relation) Schema() string                 { return r.schema }
func (r *relation) Columns() []planner.TableColumn { return r.columns }

func (r *relation) Open(_ context.Context, src Source) (planner.Table, error) {
	return &table{rel: r, src: src}, nil
}

// Lookup finds a virtual relation by schema ("pg_catalog",
// "information_schema") and name.
func Lookup(schema, name string) (Relation, bool) {
	r, ok := registry[schema+"."+name]
	return r, ok
}

// table is a relation opened for one caller.
type table struct {
	rel *relation
	src Source
}

func (t *table) QualifiedName() planner.TableName {
	return planner.TableName{Catalog: t.src.Database(), Schema: t.rel.schema, Name: t.rel.name}
}
func (t *table) OID() uint32                    { return t.rel.oid }
func (t *table) Columns() []planner.TableColumn { return t.rel.columns }

// RowEstimate is unknown: the rows depend on the caller and are computed
// only when scanned.
func (t *table) RowEstimate() int64 { return -1 }

// Scan computes the rows now, from the caller's Source. The filter is not
// used: the engine applies its filters to the rows returned.
func (t *table) Scan(ctx context.Context, columns []int, _ iceberg.BooleanExpression) (planner.RecordStream, error) {
	rows, err := t.rel.rows(ctx, t.src)
	if err != nil {
		return nil, wrapScanError(t.rel, err)
	}
	batch, err := buildBatch(t.rel.columns, columns, rows)
	if err != nil {
		return nil, wrapScanError(t.rel, err)
	}
	return &oneBatch{batch: batch}, nil
}
