package pgcatalog

import (
	"context"
	"fmt"
	"strconv"

	"github.com/sqe-db/sqe/sql/pgcatalog/nodetree"
)

// pg_attrdef: one row per column with a DEFAULT, adbin holding the
// analysed expression that pg_get_expr prints. psql's \d, JDBC's
// getColumns and information_schema.columns.column_default read it.

func attrdefRows(ctx context.Context, src Source) ([]row, error) {
	tables, err := userTables(ctx, src)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, r := range tables {
		for i := range r.columns {
			adbin := r.defaultOf(i)
			if adbin == "" {
				continue
			}
			out = append(out, row{
				"oid": attrdefOID(r.oid, i+1), "adrelid": r.oid, "adnum": int16(i + 1), "adbin": adbin,
			})
		}
	}
	return out, nil
}

// attrdefOID is the stable OID of a column's default: the relation and
// the column number name it.
func attrdefOID(rel uint32, attnum int) uint32 {
	return hashOID("attrdef", strconv.FormatUint(uint64(rel), 10)+"."+strconv.Itoa(attnum))
}

// columnDefault is information_schema.columns.column_default, which
// PostgreSQL computes as pg_get_expr(adbin, adrelid): nil without a
// default.
func columnDefault(adbin string) (any, error) {
	if adbin == "" {
		return nil, nil
	}
	n, err := nodetree.Decode(adbin)
	if err != nil {
		return nil, fmt.Errorf("column default: %w", err)
	}
	return nodetree.Text(n, false), nil
}
