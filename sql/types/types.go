package types

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Family groups types that share a representation and operators.
type Family uint8

const (
	FamilyUnknown Family = iota // an untyped literal or NULL not yet resolved
	FamilyBool
	FamilyInt
	FamilyFloat
	FamilyNumeric
	FamilyString
	FamilyDate
	FamilyTimestamp
	// FamilyOID holds the unsigned 32-bit identifier types (oid, regproc,
	// xid) that PostgreSQL's system catalogs use.
	FamilyOID
	// FamilyArray holds one-dimensional arrays and the int2vector and
	// oidvector catalog types; Elem gives the element type.
	FamilyArray
	// FamilyBytes holds bytea.
	FamilyBytes
	// FamilyUUID holds uuid.
	FamilyUUID
	// FamilyJSON holds json and jsonb, held as text.
	FamilyJSON
	// FamilyTime holds time without time zone.
	FamilyTime
	// FamilyInterval holds interval.
	FamilyInterval
)

// PostgreSQL type OIDs (pg_type.oid), as in src/include/catalog/pg_type.dat.
const (
	OIDBool        uint32 = 16
	OIDInt8        uint32 = 20
	OIDInt2        uint32 = 21
	OIDInt4        uint32 = 23
	OIDText        uint32 = 25
	OIDFloat4      uint32 = 700
	OIDFloat8      uint32 = 701
	OIDUnknown     uint32 = 705
	OIDVarchar     uint32 = 1043
	OIDDate        uint32 = 1082
	OIDTimestamp   uint32 = 1114
	OIDTimestampTZ uint32 = 1184
	OIDNumeric     uint32 = 1700

	// Types of the system catalogs (pg_catalog, information_schema).
	OIDBytea      uint32 = 17
	OIDChar       uint32 = 18 // "char", one byte
	OIDName       uint32 = 19
	OIDInt2Vector uint32 = 22
	OIDRegproc    uint32 = 24
	OIDOid        uint32 = 26
	OIDXid        uint32 = 28
	OIDOidVector  uint32 = 30
	OIDPgNodeTree uint32 = 194
	OIDInet       uint32 = 869
	OIDCharArray  uint32 = 1002
	OIDNameArray  uint32 = 1003
	OIDInt2Array  uint32 = 1005
	OIDInt4Array  uint32 = 1007
	OIDTextArray  uint32 = 1009
	OIDFloat4Arr  uint32 = 1021
	OIDOidArray   uint32 = 1028
	OIDAclitem    uint32 = 1033
	OIDAclitemArr uint32 = 1034
	OIDAnyArray   uint32 = 2277
	OIDVoid       uint32 = 2278 // what a function returns when it returns nothing (pg_sleep)

	// The object-identifier alias types: an oid that prints as a name.
	OIDRegclass     uint32 = 2205
	OIDRegtype      uint32 = 2206
	OIDRegtypeArray uint32 = 2211
	OIDRegnamespace uint32 = 4089
	OIDRegrole      uint32 = 4096

	OIDJSON uint32 = 114

	OIDUUID       uint32 = 2950
	OIDUUIDArray  uint32 = 2951
	OIDByteaArray uint32 = 1001
	OIDJSONB      uint32 = 3802
	OIDJSONArray  uint32 = 199
	OIDJSONBArray uint32 = 3807

	OIDBpchar        uint32 = 1042
	OIDTime          uint32 = 1083
	OIDInterval      uint32 = 1186
	OIDBpcharArray   uint32 = 1014
	OIDTimeArray     uint32 = 1183
	OIDIntervalArray uint32 = 1187
)

// T is a PostgreSQL type with its modifiers. The zero value is invalid.
type T struct {
	OID uint32
	// Precision is numeric's declared precision or varchar's length; 0
	// means none was declared (no typmod is reported).
	Precision int32
	// Scale is numeric's scale. PostgreSQL's numeric carries a scale per
	// value; Arrow's decimal128 has one per column, so a computed numeric
	// gets the scale the binder decides for it (with Precision 0).
	Scale int32
	// General marks a numeric whose values each keep their own scale, as
	// PostgreSQL's do, and may be NaN, ±Infinity or wider than 38 digits:
	// it is held in the sqe.numeric Arrow extension (NumericArrowType).
	// Scale is then the scale a stored column of it gets.
	General bool
}

// Ready-made types without modifiers.
var (
	Bool        = T{OID: OIDBool}
	Int2        = T{OID: OIDInt2}
	Int4        = T{OID: OIDInt4}
	Int8        = T{OID: OIDInt8}
	Float4      = T{OID: OIDFloat4}
	Float8      = T{OID: OIDFloat8}
	Text        = T{OID: OIDText}
	Varchar     = T{OID: OIDVarchar}
	Date        = T{OID: OIDDate}
	Timestamp   = T{OID: OIDTimestamp}
	TimestampTZ = T{OID: OIDTimestampTZ}
	Unknown     = T{OID: OIDUnknown}

	Bytea        = T{OID: OIDBytea}
	Char         = T{OID: OIDChar}
	Name         = T{OID: OIDName}
	Int2Vector   = T{OID: OIDInt2Vector}
	Regproc      = T{OID: OIDRegproc}
	OID          = T{OID: OIDOid}
	Xid          = T{OID: OIDXid}
	OIDVector    = T{OID: OIDOidVector}
	PgNodeTree   = T{OID: OIDPgNodeTree}
	Inet         = T{OID: OIDInet}
	Aclitem      = T{OID: OIDAclitem}
	CharArray    = T{OID: OIDCharArray}
	NameArray    = T{OID: OIDNameArray}
	Int2Array    = T{OID: OIDInt2Array}
	Int4Array    = T{OID: OIDInt4Array}
	TextArray    = T{OID: OIDTextArray}
	Float4Array  = T{OID: OIDFloat4Arr}
	OIDArray     = T{OID: OIDOidArray}
	AclitemArray = T{OID: OIDAclitemArr}
	AnyArray     = T{OID: OIDAnyArray}
	Void         = T{OID: OIDVoid}

	Regclass     = T{OID: OIDRegclass}
	Regtype      = T{OID: OIDRegtype}
	Regnamespace = T{OID: OIDRegnamespace}
	Regrole      = T{OID: OIDRegrole}
	JSON         = T{OID: OIDJSON}
	UUID         = T{OID: OIDUUID}
	JSONB        = T{OID: OIDJSONB}
	Bpchar       = T{OID: OIDBpchar}
	Time         = T{OID: OIDTime}
	Interval     = T{OID: OIDInterval}
)

// MaxNumericPrecision is the widest numeric SQE computes exactly (Arrow
// decimal128).
const MaxNumericPrecision = 38

// Numeric returns numeric(p,s).
func Numeric(precision, scale int32) T {
	return T{OID: OIDNumeric, Precision: precision, Scale: scale}
}

// VarcharN returns varchar(n).
func VarcharN(n int32) T { return T{OID: OIDVarchar, Precision: n} }

// BpcharN returns character(n), blank-padded to n characters.
func BpcharN(n int32) T { return T{OID: OIDBpchar, Precision: n} }

// Family reports t's family.
func (t T) Family() Family {
	switch t.OID {
	case OIDBool:
		return FamilyBool
	case OIDInt2, OIDInt4, OIDInt8:
		return FamilyInt
	case OIDFloat4, OIDFloat8:
		return FamilyFloat
	case OIDNumeric:
		return FamilyNumeric
	case OIDText, OIDVarchar, OIDBpchar, OIDName, OIDChar, OIDPgNodeTree, OIDInet, OIDAclitem, OIDVoid:
		// void is held as an empty string: its text form, and its binary
		// form, are empty.
		return FamilyString
	case OIDTime:
		return FamilyTime
	case OIDInterval:
		return FamilyInterval
	case OIDDate:
		return FamilyDate
	case OIDTimestamp, OIDTimestampTZ:
		return FamilyTimestamp
	case OIDOid, OIDRegproc, OIDXid, OIDRegclass, OIDRegtype, OIDRegnamespace, OIDRegrole:
		return FamilyOID
	case OIDBytea:
		return FamilyBytes
	case OIDUUID:
		return FamilyUUID
	case OIDJSON, OIDJSONB:
		return FamilyJSON
	}
	if _, ok := arrayElems[t.OID]; ok || t.OID == OIDAnyArray {
		return FamilyArray
	}
	return FamilyUnknown
}

// IsNumeric reports whether t takes part in arithmetic.
func (t T) IsNumeric() bool {
	f := t.Family()
	return f == FamilyInt || f == FamilyFloat || f == FamilyNumeric
}

// Len is pg_type.typlen: the fixed size in bytes, or -1 for varlena.
func (t T) Len() int16 {
	switch t.OID {
	case OIDBool:
		return 1
	case OIDInt2:
		return 2
	case OIDInt4, OIDFloat4, OIDDate, OIDOid, OIDRegproc, OIDXid, OIDRegclass, OIDRegtype, OIDRegnamespace, OIDRegrole, OIDVoid:
		return 4
	case OIDInt8, OIDFloat8, OIDTimestamp, OIDTimestampTZ, OIDTime:
		return 8
	case OIDInterval:
		return 16
	case OIDUnknown:
		return -2
	case OIDChar:
		return 1
	case OIDName:
		return 64
	case OIDUUID:
		return 16
	case OIDAclitem:
		return 12
	}
	return -1
}

// Typmod is the type modifier PostgreSQL reports in RowDescription and
// pg_attribute.atttypmod: -1 when there is none.
func (t T) Typmod() int32 {
	switch t.OID {
	case OIDNumeric:
		if t.Precision > 0 {
			return (t.Precision<<16 | t.Scale) + 4
		}
	case OIDVarchar, OIDBpchar:
		if t.Precision > 0 {
			return t.Precision + 4
		}
	}
	return -1
}

// Name is the type's name as format_type(oid, typmod) prints it.
func (t T) Name() string {
	switch t.OID {
	case OIDBool:
		return "boolean"
	case OIDInt2:
		return "smallint"
	case OIDInt4:
		return "integer"
	case OIDInt8:
		return "bigint"
	case OIDFloat4:
		return "real"
	case OIDFloat8:
		return "double precision"
	case OIDNumeric:
		if t.Precision > 0 {
			return fmt.Sprintf("numeric(%d,%d)", t.Precision, t.Scale)
		}
		return "numeric"
	case OIDText:
		return "text"
	case OIDVarchar:
		if t.Precision > 0 {
			return fmt.Sprintf("character varying(%d)", t.Precision)
		}
		return "character varying"
	case OIDBpchar:
		if t.Precision > 0 {
			return fmt.Sprintf("character(%d)", t.Precision)
		}
		return "bpchar"
	case OIDTime:
		return "time without time zone"
	case OIDInterval:
		return "interval"
	case OIDDate:
		return "date"
	case OIDTimestamp:
		return "timestamp without time zone"
	case OIDTimestampTZ:
		return "timestamp with time zone"
	case OIDUnknown:
		return "unknown"
	case OIDBytea:
		return "bytea"
	case OIDUUID:
		return "uuid"
	case OIDChar:
		return `"char"`
	case OIDName:
		return "name"
	case OIDInt2Vector:
		return "int2vector"
	case OIDRegproc:
		return "regproc"
	case OIDRegclass:
		return "regclass"
	case OIDJSON:
		return "json"
	case OIDJSONB:
		return "jsonb"
	case OIDRegtype:
		return "regtype"
	case OIDRegnamespace:
		return "regnamespace"
	case OIDRegrole:
		return "regrole"
	case OIDVoid:
		return "void"
	case OIDOid:
		return "oid"
	case OIDXid:
		return "xid"
	case OIDOidVector:
		return "oidvector"
	case OIDPgNodeTree:
		return "pg_node_tree"
	case OIDInet:
		return "inet"
	case OIDAclitem:
		return "aclitem"
	case OIDAnyArray:
		return "anyarray"
	}
	if elem, ok := arrayElems[t.OID]; ok {
		return elem.Name() + "[]"
	}
	return fmt.Sprintf("oid %d", t.OID)
}

func (t T) String() string { return t.Name() }

// Arrow is the Arrow data type values of t are held in.
func (t T) Arrow() arrow.DataType {
	switch t.OID {
	case OIDBool:
		return arrow.FixedWidthTypes.Boolean
	case OIDInt2:
		return arrow.PrimitiveTypes.Int16
	case OIDInt4:
		return arrow.PrimitiveTypes.Int32
	case OIDInt8:
		return arrow.PrimitiveTypes.Int64
	case OIDFloat4:
		return arrow.PrimitiveTypes.Float32
	case OIDFloat8:
		return arrow.PrimitiveTypes.Float64
	case OIDNumeric:
		if t.General {
			return NumericArrowType
		}
		// A numeric without a declared precision (a computed value) is held
		// at the widest precision and the scale the binder decided for it.
		p := t.Precision
		if p == 0 {
			p = MaxNumericPrecision
		}
		return DecimalArrowType(p, t.Scale)
	case OIDText, OIDVarchar, OIDBpchar, OIDUnknown, OIDJSON, OIDJSONB:
		return arrow.BinaryTypes.String
	case OIDTime:
		return arrow.FixedWidthTypes.Time64us
	case OIDInterval:
		return arrow.FixedWidthTypes.MonthDayNanoInterval
	case OIDDate:
		return arrow.FixedWidthTypes.Date32
	case OIDTimestamp:
		return &arrow.TimestampType{Unit: arrow.Microsecond}
	case OIDTimestampTZ:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	case OIDName, OIDChar, OIDPgNodeTree, OIDInet, OIDAclitem, OIDVoid:
		return arrow.BinaryTypes.String
	case OIDOid, OIDRegproc, OIDXid, OIDRegclass, OIDRegtype, OIDRegnamespace, OIDRegrole:
		return arrow.PrimitiveTypes.Uint32
	case OIDBytea:
		return arrow.BinaryTypes.Binary
	case OIDUUID:
		return &arrow.FixedSizeBinaryType{ByteWidth: 16}
	case OIDAnyArray:
		// Values of anyarray columns (pg_attribute.attmissingval) are never
		// produced; their text form is the closest honest holder.
		return arrow.ListOf(arrow.BinaryTypes.String)
	}
	if elem, ok := t.Elem(); ok {
		return arrow.ListOf(elem.Arrow())
	}
	return arrow.Null
}

// FromArrow maps an Arrow data type read from storage to its PostgreSQL
// type. It fails for types SQE cannot present yet.
func FromArrow(dt arrow.DataType) (T, error) {
	switch d := dt.(type) {
	case *arrow.BooleanType:
		return Bool, nil
	case *arrow.Int8Type, *arrow.Int16Type:
		return Int2, nil
	case *arrow.Int32Type:
		return Int4, nil
	case *arrow.Int64Type:
		return Int8, nil
	case *arrow.Float32Type:
		return Float4, nil
	case *arrow.Float64Type:
		return Float8, nil
	case *arrow.Decimal128Type:
		return Numeric(d.Precision, d.Scale), nil
	case *arrow.Decimal64Type:
		return Numeric(d.Precision, d.Scale), nil
	case *NumericType:
		return NumericGeneral(NumericGeneralStorageScale), nil
	case *arrow.StringType, *arrow.LargeStringType:
		return Text, nil
	case *arrow.Uint32Type:
		return OID, nil
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return Bytea, nil
	case *arrow.FixedSizeBinaryType:
		// Iceberg's uuid is read as fixed_size_binary(16).
		if d.ByteWidth == 16 {
			return UUID, nil
		}
	case *arrow.ListType:
		return arrayFromArrow(d)
	case *arrow.Date32Type:
		return Date, nil
	case *arrow.Time64Type:
		return Time, nil
	case *arrow.MonthDayNanoIntervalType:
		return Interval, nil
	case *arrow.TimestampType:
		if d.TimeZone != "" {
			return TimestampTZ, nil
		}
		return Timestamp, nil
	}
	return T{}, fmt.Errorf("arrow type %s has no PostgreSQL mapping yet", dt)
}

// arrayElems maps each array type SQE knows to its element type. The
// vector types are PostgreSQL's fixed catalog arrays, subscriptable like
// an array of their element.
var arrayElems = map[uint32]T{
	1000:            Bool,
	1016:            Int8,
	1021:            Float4,
	1022:            Float8,
	1015:            Varchar,
	1182:            Date,
	1115:            Timestamp,
	1185:            TimestampTZ,
	OIDRegtypeArray: Regtype,
	OIDTextArray:    Text,
	OIDNameArray:    Name,
	OIDOidArray:     OID,
	OIDInt2Array:    Int2,
	OIDInt4Array:    Int4,
	OIDCharArray:    Char,
	OIDAclitemArr:   Aclitem,
	OIDInt2Vector:   Int2,
	OIDOidVector:    OID,
	OIDUUIDArray:    UUID,
	OIDByteaArray:   Bytea,
	OIDJSONArray:    JSON,
	OIDJSONBArray:   JSONB,

	OIDBpcharArray:   Bpchar,
	OIDTimeArray:     Time,
	OIDIntervalArray: Interval,
}

// Elem is the element type of an array (or int2vector/oidvector). It
// reports false for anything else, including anyarray, whose element type
// is not fixed.
func (t T) Elem() (T, bool) {
	e, ok := arrayElems[t.OID]
	return e, ok
}

// arrayFromArrow maps an Arrow list to the PostgreSQL array of its
// element, for the element types that have one here.
func arrayFromArrow(l *arrow.ListType) (T, error) {
	switch e := l.Elem().(type) {
	case *arrow.StringType:
		return TextArray, nil
	case *arrow.BinaryType:
		return T{OID: OIDByteaArray}, nil
	case *arrow.FixedSizeBinaryType:
		if e.ByteWidth == 16 {
			return T{OID: OIDUUIDArray}, nil
		}
	case *arrow.Int16Type:
		return Int2Array, nil
	case *arrow.Int32Type:
		return Int4Array, nil
	case *arrow.Uint32Type:
		return OIDArray, nil
	case *arrow.Time64Type:
		return T{OID: OIDTimeArray}, nil
	case *arrow.MonthDayNanoIntervalType:
		return T{OID: OIDIntervalArray}, nil
	}
	return T{}, fmt.Errorf("arrow type %s has no PostgreSQL mapping yet", l)
}

// IsRegType reports the oid alias types (regclass, regtype, ...), which
// are read and printed as names.
func (t T) IsRegType() bool {
	switch t.OID {
	case OIDRegclass, OIDRegtype, OIDRegnamespace, OIDRegrole, OIDRegproc:
		return true
	}
	return false
}

// ArrayOf is the one-dimensional array type of elem, when SQE has it.
func ArrayOf(elem T) (T, bool) {
	for oid, e := range arrayElems {
		if e.OID == elem.OID && oid != OIDInt2Vector && oid != OIDOidVector {
			return T{OID: oid}, true
		}
	}
	return T{}, false
}
