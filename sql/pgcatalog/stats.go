package pgcatalog

import (
	"context"
	"math"

	"github.com/sqe-db/sqe/sql/types"
)

// statsRows is pg_stats: one row per analyzed column the caller may see,
// with PostgreSQL's conventions for the numbers. Only the columns
// ANALYZE collected appear, as in PostgreSQL. The value-bearing columns
// (most_common_vals, histogram_bounds and the element statistics) are
// NULL: SQE keeps no sample of values, and its least and greatest
// values stay in the statistics file. Withheld statistics (a masked
// column, a table under the caller's row filter) show as NULLs.
func statsRows(ctx context.Context, src Source) ([]row, error) {
	tables, err := userTables(ctx, src)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, t := range tables {
		if t.kind != 'r' {
			continue
		}
		for _, cs := range t.statistics {
			if cs.Column < 0 || cs.Column >= len(t.columns) {
				continue
			}
			col := t.columns[cs.Column]
			r := row{"schemaname": t.namespace.name, "tablename": t.name, "attname": col.Name, "inherited": false}
			if !cs.Withheld && cs.Rows >= 0 {
				nullFrac, width, distinct := pgColumnStatistics(cs, col.Type)
				r["null_frac"], r["avg_width"], r["n_distinct"] = nullFrac, width, distinct
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// pgColumnStatistics turns a column's statistics into pg_stats' numbers
// as PostgreSQL's ANALYZE computes them when it samples every row
// (compute_scalar_stats): null_frac is the fraction of NULLs; avg_width
// is the average width of a non-null value, a fixed-length type's length
// or a variable-length value's bytes with its header (1 byte up to 126
// bytes, else 4), truncated; n_distinct is -(1 - null_frac) when no value
// repeats, else the distinct count, given as minus its fraction of the
// rows when above a tenth of them (distinct values that grow with the
// table), and 0 for a column of NULLs only.
func pgColumnStatistics(cs ColumnStatistics, typ types.T) (nullFrac float32, width int32, distinct float32) {
	if cs.Rows == 0 {
		return 0, 0, 0
	}
	nullFrac = float32(float64(cs.Nulls) / float64(cs.Rows))
	nonNull := cs.Rows - cs.Nulls
	if nonNull == 0 {
		return nullFrac, 0, 0
	}
	switch l := typ.Len(); {
	case l > 0:
		width = int32(l)
	case cs.AvgWidth+1 <= 127:
		width = int32(cs.AvgWidth + 1)
	default:
		width = int32(cs.AvgWidth + 4)
	}
	d := math.Round(cs.Distinct)
	switch {
	case d >= float64(nonNull):
		distinct = float32(-1.0 * (1.0 - float64(nullFrac)))
	case d > 0.1*float64(cs.Rows):
		distinct = float32(-(d / float64(cs.Rows)))
	default:
		distinct = float32(d)
	}
	return nullFrac, width, distinct
}
