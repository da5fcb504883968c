package storage

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/iceberg-go"
)

// ColumnProperty is the table property key of prefix for the column with
// the given Iceberg field id: "<prefix>.<field id>".
func ColumnProperty(prefix string, fieldID int) string {
	return prefix + "." + strconv.Itoa(fieldID)
}

// FieldID is the Iceberg field id an Arrow field of Table.Schema carries,
// or -1 when it carries none.
func FieldID(meta map[string]string) int {
	id, err := strconv.Atoi(meta["PARQUET:field_id"])
	if err != nil {
		return -1
	}
	return id
}

// addColumnProperties stores cols (column name → prefix → value) into
// props under the ids sc gives the columns.
func addColumnProperties(props iceberg.Properties, sc *iceberg.Schema, cols map[string]map[string]string) error {
	for name, byPrefix := range cols {
		f, ok := sc.FindFieldByName(name)
		if !ok {
			return fmt.Errorf("column property for unknown column %q", name)
		}
		for prefix, v := range byPrefix {
			if strings.ContainsRune(prefix, '.') && strings.HasSuffix(prefix, ".") {
				return fmt.Errorf("bad column property prefix %q", prefix)
			}
			props[ColumnProperty(prefix, f.ID)] = v
		}
	}
	return nil
}

// sameFieldIDs reports whether both schemas give every top-level column
// the same id.
func sameFieldIDs(a, b *iceberg.Schema) bool {
	if len(a.Fields()) != len(b.Fields()) {
		return false
	}
	for i, f := range a.Fields() {
		if g := b.Field(i); g.ID != f.ID || g.Name != f.Name {
			return false
		}
	}
	return true
}

// DeclaredTypeKey is the ColumnProperty prefix holding a column's declared
// PostgreSQL type (format_type's name, "smallint", "character varying(20)")
// when Iceberg stores it as another type: smallint as int, varchar(n) as
// string. The SQL layer presents the column as declared.
const DeclaredTypeKey = "sqe.pgtype"

// DefaultKey is the ColumnProperty prefix holding a column's DEFAULT: the
// SQL text of a constant expression, which INSERT and COPY evaluate for a
// column they are not given.
const DefaultKey = "sqe.default"
