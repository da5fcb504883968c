package sqlwrite

import (
	"fmt"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// Dialect is the SQL dialect of the engine the statement is written for.
type Dialect uint8

const (
	// PostgreSQL is PostgreSQL 15's dialect.
	PostgreSQL Dialect = iota
	// Trino is Trino's dialect.
	Trino
)

func (d Dialect) String() string { return [...]string{"PostgreSQL", "Trino"}[d] }

// quoteIdent quotes an identifier: both dialects double the double quote.
func quoteIdent(s string) (string, error) {
	if strings.ContainsRune(s, 0) {
		return "", pgerror.Unsupported("identifier holding a NUL character")
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`, nil
}

// quoteString writes a string literal. PostgreSQL reads backslashes in a
// plain literal when standard_conforming_strings is off, so a string
// holding one is written as an escape string, whose meaning does not
// depend on that setting; Trino never reads backslashes.
func (d Dialect) quoteString(s string) (string, error) {
	if strings.ContainsRune(s, 0) {
		return "", pgerror.Unsupported("string literal holding a NUL character")
	}
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if d == PostgreSQL && strings.Contains(s, `\`) {
		q = "E'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", "''") + "'"
	}
	return q, nil
}

// typeName is t's name in the dialect, when it has an exact equivalent.
func (d Dialect) typeName(t types.T) (string, error) {
	switch t.OID {
	case types.OIDBool:
		return "boolean", nil
	case types.OIDInt2:
		return "smallint", nil
	case types.OIDInt4:
		return "integer", nil
	case types.OIDInt8:
		return "bigint", nil
	case types.OIDFloat4:
		return "real", nil
	case types.OIDFloat8:
		if d == Trino {
			return "double", nil
		}
		return "double precision", nil
	case types.OIDNumeric:
		// A general numeric keeps a scale per value and may be NaN: Trino's
		// decimal has neither, and its values are not held as decimal128.
		if t.General || t.Precision == 0 {
			// SQE's general numeric is PostgreSQL's numeric.
			if d == PostgreSQL {
				return "numeric", nil
			}
			break
		}
		if d == Trino {
			return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale), nil
		}
		return fmt.Sprintf("numeric(%d,%d)", t.Precision, t.Scale), nil
	case types.OIDText:
		if d == Trino {
			return "varchar", nil
		}
		return "text", nil
	case types.OIDVarchar:
		if t.Precision > 0 {
			return fmt.Sprintf("varchar(%d)", t.Precision), nil
		}
		return "varchar", nil
	case types.OIDDate:
		return "date", nil
	case types.OIDTimestamp:
		return "timestamp(6)", nil
	case types.OIDUUID:
		return "uuid", nil
	case types.OIDTime:
		if d == PostgreSQL {
			return "time", nil
		}
	case types.OIDJSON, types.OIDJSONB:
		// PostgreSQL's json keeps its text and its jsonb normalises it, as
		// SQE's do; Trino's json is neither.
		if d == PostgreSQL {
			return map[uint32]string{types.OIDJSON: "json", types.OIDJSONB: "jsonb"}[t.OID], nil
		}
	case types.OIDInterval:
		// Its text under IntervalStyle postgres, which the engine's
		// connection fixes, is what SQE reads back.
		if d == PostgreSQL {
			return "interval", nil
		}
	case types.OIDBytea:
		// Trino answers varbinary in base64, which is not read back yet.
		if d == PostgreSQL {
			return "bytea", nil
		}
	case types.OIDTimestampTZ:
		// An instant: PostgreSQL's text of it names its offset, so the
		// engine's time zone does not change what is read back. What
		// depends on a zone (a cast to date or text, date_trunc) is
		// refused where it is written.
		if d == PostgreSQL {
			return "timestamp with time zone", nil
		}
	}
	if elem, isArray := t.Elem(); isArray && d == PostgreSQL && t.OID != types.OIDInt2Vector && t.OID != types.OIDOidVector {
		// int2vector and oidvector number their elements from 0 and print
		// them apart by spaces: they are not arrays of their elements.
		// A PostgreSQL array's text is read back by SQE's array input.
		if name, err := d.typeName(elem); err == nil {
			return name + "[]", nil
		}
	}
	return "", pgerror.Unsupported("type %s cannot be written for %s", t.Name(), d)
}
