package storage

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// batchShaper checks incoming batches against a table's Arrow schema and
// rebuilds them under it. iceberg-go accepts NULLs in required columns and
// writes mismatched types, so nothing reaches it without passing here.
type batchShaper struct {
	target    *arrow.Schema
	source    *arrow.Schema
	positions []int  // for each target field, its column in the source batch
	casts     []bool // whether that column needs a lossless cast
}

func newBatchShaper(target, source *arrow.Schema) (*batchShaper, error) {
	for i, f := range source.Fields() {
		if len(target.FieldIndices(f.Name)) == 0 {
			return nil, pgerror.Wrap(fmt.Errorf("%w: batch column %q is not in the table", ErrConstraint, f.Name),
				pgerror.UndefinedColumn, "column %q does not exist", f.Name)
		}
		if slices.IndexFunc(source.Fields()[:i], func(g arrow.Field) bool { return g.Name == f.Name }) >= 0 {
			return nil, pgerror.Wrap(fmt.Errorf("%w: batch column %q appears twice", ErrConstraint, f.Name),
				pgerror.DuplicateColumn, "column %q specified more than once", f.Name)
		}
	}
	s := &batchShaper{
		target:    target,
		source:    source,
		positions: make([]int, target.NumFields()),
		casts:     make([]bool, target.NumFields()),
	}
	for i, f := range target.Fields() {
		idx := source.FieldIndices(f.Name)
		if len(idx) == 0 {
			return nil, missingColumn(f.Name)
		}
		from := source.Field(idx[0]).Type
		switch {
		case arrow.TypeEqual(from, f.Type):
		case losslessCast(from, f.Type):
			s.casts[i] = true
		default:
			return nil, columnTypeMismatch(f.Name, f.Type.String(), from.String())
		}
		s.positions[i] = idx[0]
	}
	return s, nil
}

// shape returns rec as a new batch under the target schema, or an error
// wrapping ErrConstraint if a NOT NULL column holds a NULL.
func (s *batchShaper) shape(ctx context.Context, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(s.positions))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, f := range s.target.Fields() {
		col := rec.Column(s.positions[i])
		if !f.Nullable && col.NullN() > 0 {
			return nil, notNullViolation(f.Name)
		}
		if !s.casts[i] {
			col.Retain()
			cols[i] = col
			continue
		}
		var cast arrow.Array
		var err error
		if col.DataType().ID() == arrow.DECIMAL64 && f.Type.ID() == arrow.DECIMAL128 {
			cast, err = widenDecimals(col, f.Type)
		} else {
			cast, err = compute.CastToType(ctx, col, f.Type)
		}
		if err != nil {
			return nil, fmt.Errorf("cast column %q to %s: %w", f.Name, f.Type, err)
		}
		cols[i] = cast
	}
	return array.NewRecordBatch(s.target, cols, rec.NumRows()), nil
}

// utcZones are the time zone names Iceberg's Arrow conversion treats as UTC.
var utcZones = []string{"UTC", "+00:00", "Etc/UTC", "Z"}

// losslessCast reports whether every value of type from has the same value
// in type to, so the batch can be widened instead of refused.
func losslessCast(from, to arrow.DataType) bool {
	switch to.ID() {
	case arrow.INT32:
		return slices.Contains([]arrow.Type{arrow.INT8, arrow.INT16, arrow.UINT8, arrow.UINT16}, from.ID())
	case arrow.INT64:
		return slices.Contains([]arrow.Type{arrow.INT8, arrow.INT16, arrow.INT32, arrow.UINT8, arrow.UINT16, arrow.UINT32}, from.ID())
	case arrow.FLOAT64:
		return from.ID() == arrow.FLOAT32
	case arrow.STRING:
		return from.ID() == arrow.LARGE_STRING
	case arrow.BINARY:
		return from.ID() == arrow.LARGE_BINARY
	case arrow.DECIMAL128:
		f, ok := from.(arrow.DecimalType)
		t := to.(arrow.DecimalType)
		return ok && f.GetScale() == t.GetScale() && f.GetPrecision() <= t.GetPrecision()
	case arrow.TIMESTAMP:
		f, ok := from.(*arrow.TimestampType)
		t := to.(*arrow.TimestampType)
		if !ok || f.Unit != t.Unit {
			return false
		}
		if t.TimeZone == "" {
			return f.TimeZone == ""
		}
		return slices.Contains(utcZones, t.TimeZone) && slices.Contains(utcZones, f.TimeZone)
	}
	return false
}
