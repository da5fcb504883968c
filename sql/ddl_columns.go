package sql

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// Per-column table properties SQE keeps beside the Iceberg schema, each
// stored as "<prefix>.<field id>" so that it follows the column's id
// across renames (storage.ColumnProperty):
//
//   - sqe.pgtype.<id>: the column's declared PostgreSQL type as
//     format_type prints it ("character varying(20)", "smallint", "json"),
//     kept only where Iceberg's own type would read back as another
//     PostgreSQL type. Readers present that type; other engines see the
//     Iceberg type.
//   - sqe.default.<id>: the column's DEFAULT as PostgreSQL SQL text (an
//     expression without column references or subqueries, already
//     checked to convert to the column's type). INSERT evaluates it and
//     casts the value to the column's type for each row that omits the
//     column.
//
// The table's comment is the Iceberg table property "comment"; a
// column's comment is its Iceberg field doc.
const (
	propDeclaredType = storage.DeclaredTypeKey
	propDefault      = storage.DefaultKey
	propComment      = "comment"
)

// storedType is the Arrow type a column of PostgreSQL type t is stored as,
// refusing types Iceberg cannot hold faithfully.
func storedType(t types.T) (arrow.DataType, error) {
	check := t
	if elem, ok := t.Elem(); ok {
		check = elem
	}
	switch check.OID {
	case types.OIDInterval:
		return nil, pgerror.Unsupported("columns of type %s are not supported: Iceberg has no interval type", t.Name())
	case types.OIDOid, types.OIDXid, types.OIDRegclass, types.OIDRegtype, types.OIDRegproc,
		types.OIDRegnamespace, types.OIDRegrole, types.OIDPgNodeTree, types.OIDAclitem,
		types.OIDInet, types.OIDInt2Vector, types.OIDOidVector, types.OIDAnyArray, types.OIDUnknown:
		return nil, pgerror.Unsupported("columns of type %s are not supported in tables", t.Name())
	case types.OIDNumeric:
		if check.Precision == 0 {
			return nil, pgerror.Unsupported("numeric columns need a declared precision: Iceberg decimals have a fixed precision and scale").
				WithHint("Declare the column as numeric(p,s) with p at most %d.", types.MaxNumericPrecision)
		}
	}
	return t.Arrow(), nil
}

// needsDeclaredType reports whether a column of type t reads back from
// Iceberg as another PostgreSQL type, so its declaration must be kept.
func needsDeclaredType(t types.T) bool {
	if t.OID == types.OIDInt2 || t.OID == types.OIDInt2Array {
		// Iceberg's smallest integer is int (32 bits).
		return true
	}
	got, err := types.FromArrow(t.Arrow())
	return err != nil || got != t
}

// declaredTypeNames are the format_type names of the types a declaration
// may name, without modifiers.
var declaredTypeNames = func() map[string]types.T {
	m := map[string]types.T{}
	for _, t := range []types.T{types.Bool, types.Int2, types.Int4, types.Int8, types.Float4, types.Float8,
		types.Text, types.Varchar, types.Bpchar, types.Date, types.Timestamp, types.TimestampTZ, types.Time,
		types.UUID, types.Bytea, types.JSON, types.JSONB, types.Name, types.Char, {OID: types.OIDNumeric}} {
		m[t.Name()] = t
	}
	return m
}()

// parseDeclaredType reads back a declaration written by T.Name().
func parseDeclaredType(s string) (types.T, bool) {
	if elemName, ok := strings.CutSuffix(s, "[]"); ok {
		elem, ok := parseDeclaredType(elemName)
		if !ok {
			return types.T{}, false
		}
		return types.ArrayOf(elem)
	}
	if t, ok := declaredTypeNames[s]; ok {
		return t, true
	}
	base, mods, ok := strings.Cut(s, "(")
	mods, closed := strings.CutSuffix(mods, ")")
	if !ok || !closed {
		return types.T{}, false
	}
	nums := strings.Split(mods, ",")
	vals := make([]int32, len(nums))
	for i, n := range nums {
		v, err := strconv.ParseInt(strings.TrimSpace(n), 10, 32)
		if err != nil || v < 0 {
			return types.T{}, false
		}
		vals[i] = int32(v)
	}
	switch {
	case base == "character varying" && len(vals) == 1:
		return types.VarcharN(vals[0]), true
	case base == "character" && len(vals) == 1:
		return types.BpcharN(vals[0]), true
	case base == "numeric" && len(vals) == 2:
		return types.Numeric(vals[0], vals[1]), true
	}
	return types.T{}, false
}

// presentedType is the type a stored column is presented as: its declared
// type when one is kept and fits what is stored, else the type of its
// Arrow data. cast says that the stored data must be cast to the
// presented type's Arrow form when read (smallint kept as int).
func presentedType(props map[string]string, f arrow.Field, stored types.T) (t types.T, cast bool) {
	id := storage.FieldID(f.Metadata.ToMap())
	decl, ok := props[storage.ColumnProperty(propDeclaredType, id)]
	if !ok || id < 0 {
		return stored, false
	}
	want, ok := parseDeclaredType(decl)
	if !ok {
		return stored, false
	}
	switch {
	case want.OID == types.OIDNumeric && want.Precision == 0 && stored.OID == types.OIDNumeric:
		// A computed numeric (CREATE TABLE AS) keeps its stored scale.
		want.Scale = stored.Scale
		return want, false
	case arrow.TypeEqual(want.Arrow(), f.Type):
		return want, false
	case want == types.Int2 && stored == types.Int4, want == types.Int2Array && stored == types.Int4Array:
		return want, true
	}
	return stored, false
}
