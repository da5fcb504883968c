package types

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestCatalogTypes(t *testing.T) {
	tests := []struct {
		t      T
		name   string
		len    int16
		arrow  string
		family Family
		elem   uint32 // 0: not an array
	}{
		{OID, "oid", 4, "uint32", FamilyOID, 0},
		{Regproc, "regproc", 4, "uint32", FamilyOID, 0},
		{Xid, "xid", 4, "uint32", FamilyOID, 0},
		{Name, "name", 64, "utf8", FamilyString, 0},
		{Char, `"char"`, 1, "utf8", FamilyString, 0},
		{PgNodeTree, "pg_node_tree", -1, "utf8", FamilyString, 0},
		{Inet, "inet", -1, "utf8", FamilyString, 0},
		{Aclitem, "aclitem", 12, "utf8", FamilyString, 0},
		{Bytea, "bytea", -1, "binary", FamilyBytes, 0},
		{TextArray, "text[]", -1, "list<item: utf8, nullable>", FamilyArray, OIDText},
		{NameArray, "name[]", -1, "list<item: utf8, nullable>", FamilyArray, OIDName},
		{OIDArray, "oid[]", -1, "list<item: uint32, nullable>", FamilyArray, OIDOid},
		{Int2Array, "smallint[]", -1, "list<item: int16, nullable>", FamilyArray, OIDInt2},
		{Int4Array, "integer[]", -1, "list<item: int32, nullable>", FamilyArray, OIDInt4},
		{CharArray, `"char"[]`, -1, "list<item: utf8, nullable>", FamilyArray, OIDChar},
		{AclitemArray, "aclitem[]", -1, "list<item: utf8, nullable>", FamilyArray, OIDAclitem},
		{Int2Vector, "int2vector", -1, "list<item: int16, nullable>", FamilyArray, OIDInt2},
		{OIDVector, "oidvector", -1, "list<item: uint32, nullable>", FamilyArray, OIDOid},
		{AnyArray, "anyarray", -1, "list<item: utf8, nullable>", FamilyArray, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.t.Name(); got != tt.name {
				t.Errorf("Name %q, want %q", got, tt.name)
			}
			if got := tt.t.Len(); got != tt.len {
				t.Errorf("Len %d, want %d", got, tt.len)
			}
			if got := tt.t.Arrow().String(); got != tt.arrow {
				t.Errorf("Arrow %s, want %s", got, tt.arrow)
			}
			if got := tt.t.Family(); got != tt.family {
				t.Errorf("Family %d, want %d", got, tt.family)
			}
			elem, ok := tt.t.Elem()
			if ok != (tt.elem != 0) || elem.OID != tt.elem {
				t.Errorf("Elem %v %v, want %d", elem, ok, tt.elem)
			}
			if got := tt.t.Typmod(); got != -1 {
				t.Errorf("Typmod %d, want -1", got)
			}
		})
	}
}

func TestFromArrowCatalogTypes(t *testing.T) {
	tests := []struct {
		dt   arrow.DataType
		want T
	}{
		{arrow.PrimitiveTypes.Uint32, OID},
		{arrow.BinaryTypes.String, Text},
		{arrow.BinaryTypes.Binary, Bytea},
		{arrow.ListOf(arrow.BinaryTypes.String), TextArray},
		{arrow.ListOf(arrow.PrimitiveTypes.Uint32), OIDArray},
		{arrow.ListOf(arrow.PrimitiveTypes.Int16), Int2Array},
		{arrow.ListOf(arrow.PrimitiveTypes.Int32), Int4Array},
	}
	for _, tt := range tests {
		got, err := FromArrow(tt.dt)
		if err != nil || got != tt.want {
			t.Errorf("FromArrow(%s) = %v, %v; want %v", tt.dt, got, err, tt.want)
		}
	}
	if _, err := FromArrow(arrow.ListOf(arrow.PrimitiveTypes.Float64)); err == nil {
		t.Error("FromArrow(list<float64>) succeeded")
	}
}
