package pgcatalog

import (
	"context"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/sql/types"
)

// pg_attribute and information_schema.columns: the columns of the
// relations the caller sees, numbered from 1 in table order. Columns gate
// two restricts are still listed: the table's shape is what gate one
// admits; hiding restricted columns here is left to gate two's catalog
// work.

func attributeRows(ctx context.Context, src Source) ([]row, error) {
	rels, err := allRelations(ctx, src)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, r := range rels {
		for i, c := range r.columns {
			tr := typeRow(c.Type.OID)
			ndims := int32(0)
			if strings.HasSuffix(c.Type.Name(), "[]") { // a declared array, not a vector
				ndims = 1
			}
			out = append(out, row{
				"attrelid": r.oid, "attname": c.Name, "atttypid": c.Type.OID,
				"attstattarget": int32(-1), "attlen": c.Type.Len(), "attnum": int16(i + 1),
				"attndims": ndims, "attcacheoff": int32(-1), "atttypmod": c.Type.Typmod(),
				"attbyval": tr["typbyval"], "attalign": tr["typalign"], "attstorage": tr["typstorage"],
				"attcompression": "", "attnotnull": !c.Nullable, "atthasdef": r.defaultOf(i) != "",
				"atthasmissing": false, "attidentity": "", "attgenerated": "",
				"attisdropped": false, "attislocal": true, "attinhcount": int32(0),
				"attcollation": collationOf(tr),
			})
		}
	}
	return out, nil
}

// collationOf is a column's collation: its type's, or 0 when the type is
// not collatable.
func collationOf(typeRow row) uint32 {
	if c, ok := typeRow["typcollation"].(uint32); ok {
		return c
	}
	return 0
}

func infoColumnsRows(ctx context.Context, src Source) ([]row, error) {
	rels, err := allRelations(ctx, src)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, r := range rels {
		updatable := "YES"
		if !r.user || r.kind == 'v' {
			updatable = "NO"
		}
		for i, c := range r.columns {
			nullable := "YES"
			if !c.Nullable {
				nullable = "NO"
			}
			udt := c.Type.Name()
			if tr := typeRow(c.Type.OID); tr != nil {
				udt, _ = tr["typname"].(string)
			}
			ro := row{
				"table_catalog": src.Database(), "table_schema": r.namespace.name,
				"table_name": r.name, "column_name": c.Name, "ordinal_position": int32(i + 1),
				"is_nullable": nullable, "data_type": dataType(c.Type),
				"udt_catalog": src.Database(), "udt_schema": "pg_catalog", "udt_name": udt,
				"dtd_identifier": strconv.Itoa(i + 1), "is_self_referencing": "NO",
				"is_identity": "NO", "identity_cycle": "NO", "is_generated": "NEVER",
				"is_updatable": updatable,
			}
			for k, v := range typeFacts(c.Type) {
				ro[k] = v
			}
			if ro["column_default"], err = columnDefault(r.defaultOf(i)); err != nil {
				return nil, err
			}
			out = append(out, ro)
		}
	}
	return out, nil
}

// dataType is information_schema's data_type: the type's name without
// modifiers, or ARRAY for an array type.
func dataType(t types.T) string {
	if _, ok := t.Elem(); ok {
		return "ARRAY"
	}
	return types.T{OID: t.OID}.Name()
}

// maxOctetLength is character_octet_length of an unbounded string:
// PostgreSQL's largest field, 1 GB.
const maxOctetLength = 1073741824

// typeFacts are information_schema's length, precision and scale columns
// for t, as PostgreSQL's _pg_char_max_length and friends compute them.
func typeFacts(t types.T) row {
	switch t.OID {
	case types.OIDVarchar:
		if t.Precision > 0 {
			return row{"character_maximum_length": t.Precision, "character_octet_length": t.Precision * 4}
		}
		return row{"character_octet_length": int32(maxOctetLength)}
	case types.OIDText:
		return row{"character_octet_length": int32(maxOctetLength)}
	case types.OIDInt2:
		return binaryPrecision(16)
	case types.OIDInt4:
		return binaryPrecision(32)
	case types.OIDInt8:
		return binaryPrecision(64)
	case types.OIDFloat4:
		return row{"numeric_precision": int32(24), "numeric_precision_radix": int32(2)}
	case types.OIDFloat8:
		return row{"numeric_precision": int32(53), "numeric_precision_radix": int32(2)}
	case types.OIDNumeric:
		if t.Precision > 0 {
			return row{"numeric_precision": t.Precision, "numeric_precision_radix": int32(10), "numeric_scale": t.Scale}
		}
		return row{"numeric_precision_radix": int32(10)}
	case types.OIDDate:
		return row{"datetime_precision": int32(0)}
	case types.OIDTimestamp, types.OIDTimestampTZ, types.OIDTime, types.OIDInterval:
		return row{"datetime_precision": int32(6)}
	}
	return nil
}

func binaryPrecision(bits int32) row {
	return row{"numeric_precision": bits, "numeric_precision_radix": int32(2), "numeric_scale": int32(0)}
}
