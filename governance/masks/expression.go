package masks

import (
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// component is the service whose mask types this package knows; tag
// policies qualify a mask type with it ("hive:MASK_HASH").
const component = "hive"

// Expression returns the SQL expression that replaces column under the
// mask type maskType; customExpr is a CUSTOM mask's expression, in which
// {col} stands for the column. The column is quoted as an identifier.
//
// As Ranger's hive plugin reads them, MASK_NULL, MASK_NONE and CUSTOM are
// matched ignoring case, the other types exactly. An error means no
// expression can be built: the caller must make the column NULL.
func Expression(maskType, customExpr, column string) (string, error) {
	name, err := hiveName(maskType)
	if err != nil {
		return "", err
	}
	col := quoteIdent(column)
	switch {
	case strings.EqualFold(name, "MASK_NULL"):
		return "NULL", nil
	case strings.EqualFold(name, "MASK_NONE"):
		return col, nil
	case strings.EqualFold(name, "CUSTOM"):
		if strings.TrimSpace(customExpr) == "" {
			return "", pgerror.New(pgerror.InvalidParameterValue, "mask type %s has no expression", maskType)
		}
		return strings.ReplaceAll(customExpr, "{col}", col), nil
	}
	if t, ok := transformer(name); ok {
		return strings.ReplaceAll(t, "{col}", col), nil
	}
	return "", pgerror.New(pgerror.UndefinedObject, "mask type %q does not exist", maskType)
}

// hiveName strips the hive component's prefix from a mask type; another
// component's prefix is an error, as its functions are not Hive's.
func hiveName(maskType string) (string, error) {
	prefix, name, qualified := strings.Cut(maskType, ":")
	if !qualified {
		return maskType, nil
	}
	if prefix != component {
		return "", pgerror.New(pgerror.FeatureNotSupported, "mask type %q belongs to component %q; only %s mask types are supported", maskType, prefix, component)
	}
	return name, nil
}

// quoteIdent quotes name as an SQL identifier, so that any column name
// (upper case, spaces, quotes) refers to that column and nothing else.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
