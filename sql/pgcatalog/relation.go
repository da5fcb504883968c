package pgcatalog

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
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
type row = map[string]any

// rowFunc computes a relation's rows for one caller.
type rowFunc func(ctx context.Context, src Source) ([]row, error)

// relation is a shape with the function that fills it.
type relation struct {
	shape
	rows rowFunc
	// fromObjects says that rows reads nothing of the Source but its
	// database, namespaces and tables, so that an ObjectBatches source
	// may remember the batch.
	fromObjects bool
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
	if memo, ok := t.src.(ObjectBatches); ok && t.rel.fromObjects {
		full, remembered, err := memo.ObjectBatch(ctx, t.rel.schema+"."+t.rel.name, func() (arrow.RecordBatch, error) {
			return t.build(ctx, allColumns(len(t.rel.columns)))
		})
		if err != nil {
			return nil, wrapScanError(t.rel, err)
		}
		if remembered {
			return &OneBatch{Batch: projectBatch(full, columns)}, nil
		}
	}
	batch, err := t.build(ctx, columns)
	if err != nil {
		return nil, wrapScanError(t.rel, err)
	}
	return &OneBatch{Batch: batch}, nil
}

// build computes the rows and builds the batch of the given columns.
func (t *table) build(ctx context.Context, columns []int) (arrow.RecordBatch, error) {
	rows, err := t.rel.rows(ctx, t.src)
	if err != nil {
		return nil, err
	}
	batch, err := BuildBatch(t.rel.columns, columns, rows)
	if err != nil {
		return nil, err
	}
	// Settle Arrow's lazily computed null counts now: a remembered
	// batch is read by many statements at once.
	for _, c := range batch.Columns() {
		c.NullN()
	}
	return batch, nil
}

// allColumns is 0, 1, ..., n-1.
func allColumns(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// projectBatch is a new batch of full's columns at the given indices,
// sharing their arrays.
func projectBatch(full arrow.RecordBatch, columns []int) arrow.RecordBatch {
	fields := make([]arrow.Field, len(columns))
	arrays := make([]arrow.Array, len(columns))
	for i, c := range columns {
		fields[i], arrays[i] = full.Schema().Field(c), full.Column(c)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrays, full.NumRows())
}
