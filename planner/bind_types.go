package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// typeFromName resolves a TypeName as written in a cast or column
// definition.
func typeFromName(tn *pg_query.TypeName) (types.T, error) {
	if tn.Setof || tn.PctType || len(tn.ArrayBounds) > 1 {
		return types.T{}, pgerror.Unsupported("set types and multi-dimensional arrays are not supported yet")
	}
	if len(tn.ArrayBounds) == 1 {
		elem, err := typeFromName(&pg_query.TypeName{Names: tn.Names, Typmods: tn.Typmods, Location: tn.Location})
		if err != nil {
			return types.T{}, err
		}
		arr, ok := types.ArrayOf(elem)
		if !ok {
			return types.T{}, pgerror.Unsupported("arrays of %s are not supported yet", elem.Name())
		}
		return arr, nil
	}
	var names []string
	for _, n := range tn.Names {
		names = append(names, n.GetString_().GetSval())
	}
	name := strings.ToLower(names[len(names)-1])
	if len(names) == 2 && names[0] != "pg_catalog" {
		return types.T{}, pgerror.New(pgerror.UndefinedObject, "type \"%s\" does not exist", strings.Join(names, "."))
	}
	mods := make([]int32, 0, len(tn.Typmods))
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			return types.T{}, pgerror.New(pgerror.SyntaxError, "type modifiers must be simple constants or identifiers")
		}
		mods = append(mods, c.GetIval().Ival)
	}
	var t types.T
	switch name {
	case "bool", "boolean":
		t = types.Bool
	case "int2", "smallint":
		t = types.Int2
	case "int4", "int", "integer":
		t = types.Int4
	case "int8", "bigint":
		t = types.Int8
	case "float4", "real":
		t = types.Float4
	case "float8", "double precision":
		t = types.Float8
	case "text":
		t = types.Text
	case "varchar", "character varying":
		t = types.Varchar
		if len(mods) == 1 {
			t = types.VarcharN(mods[0])
		}
	case "date":
		t = types.Date
	case "uuid":
		t = types.UUID
	case "json":
		t = types.JSON
	case "jsonb":
		t = types.JSONB
	case "bytea":
		t = types.Bytea
	case "oid":
		t = types.OID
	case "name":
		t = types.Name
	case "char":
		t = types.Char
	case "regclass":
		t = types.Regclass
	case "regtype":
		t = types.Regtype
	case "regnamespace":
		t = types.Regnamespace
	case "regrole":
		t = types.Regrole
	case "regproc":
		t = types.Regproc
	case "timestamp":
		t = types.Timestamp
	case "timestamptz":
		t = types.TimestampTZ
	case "time":
		t = types.Time
	case "interval":
		t = types.Interval
		if len(mods) > 0 && mods[0] != types.IntervalFullRange {
			// The field mask (INTERVAL '3' DAY) decides how a literal is
			// read; values carry no typmod.
			t.Precision = mods[0]
		}
	case "bpchar":
		t = types.Bpchar
		if len(mods) == 1 {
			if mods[0] < 1 {
				return types.T{}, pgerror.New(pgerror.InvalidParameterValue, "length for type char must be at least 1")
			}
			t = types.BpcharN(mods[0])
		}
	case "numeric", "decimal":
		switch len(mods) {
		case 0:
			t = types.T{OID: types.OIDNumeric, Scale: 0}
		case 1, 2:
			p, s := mods[0], int32(0)
			if len(mods) == 2 {
				s = mods[1]
			}
			if p < 1 || p > types.MaxNumericPrecision {
				return types.T{}, pgerror.New(pgerror.InvalidParameterValue, "NUMERIC precision %d must be between 1 and %d", p, types.MaxNumericPrecision)
			}
			if s < 0 || s > p {
				return types.T{}, pgerror.New(pgerror.InvalidParameterValue, "NUMERIC scale %d must be between 0 and precision %d", s, p)
			}
			t = types.Numeric(p, s)
		default:
			return types.T{}, pgerror.New(pgerror.SyntaxError, "invalid NUMERIC type modifier")
		}
	default:
		return types.T{}, pgerror.New(pgerror.UndefinedObject, "type \"%s\" does not exist", name).WithPosition(tn.Location)
	}
	switch name {
	case "timestamp", "timestamptz", "time", "interval":
		// Fractional-second precision is accepted; values keep
		// microseconds.
		precisions := mods
		if name == "interval" && len(mods) > 0 {
			precisions = mods[1:]
		}
		for _, m := range precisions {
			if m < 0 || m > 6 {
				return types.T{}, pgerror.New(pgerror.InvalidParameterValue, "%s(%d) precision must be between 0 and 6", name, m)
			}
		}
		return t, nil
	}
	if name != "numeric" && name != "decimal" && name != "varchar" && name != "character varying" && name != "bpchar" && len(mods) > 0 {
		return types.T{}, pgerror.New(pgerror.SyntaxError, "type modifier is not allowed for type \"%s\"", name)
	}
	return t, nil
}

// IntWidening reports whether from and to are integer types and every
// value of from is one of to (smallint to integer, integer to bigint...).
func IntWidening(from, to types.T) bool {
	return intRank(from) > 0 && intRank(to) >= intRank(from)
}

func intRank(t types.T) int {
	switch t.OID {
	case types.OIDInt2:
		return 1
	case types.OIDInt4:
		return 2
	case types.OIDInt8:
		return 3
	}
	return 0
}

// commonType is the type both sides of a comparison or arithmetic are
// converted to, following PostgreSQL's implicit casts.
func commonType(a, b types.T) (types.T, bool) {
	if a.OID == types.OIDUnknown && b.OID == types.OIDUnknown {
		return types.Text, true
	}
	if a.OID == types.OIDUnknown {
		return widenUnknown(b), true
	}
	if b.OID == types.OIDUnknown {
		return widenUnknown(a), true
	}
	fa, fb := a.Family(), b.Family()
	switch {
	case fa == types.FamilyOID && (fb == types.FamilyOID || fb == types.FamilyInt),
		fb == types.FamilyOID && fa == types.FamilyInt:
		// Integers convert to oid implicitly, as in PostgreSQL.
		return types.OID, true
	case fa == types.FamilyInt && fb == types.FamilyInt:
		if intRank(a) >= intRank(b) {
			return a, true
		}
		return b, true
	case fa == types.FamilyFloat || fb == types.FamilyFloat:
		if !a.IsNumeric() || !b.IsNumeric() {
			return types.T{}, false
		}
		if a.OID == types.OIDFloat4 && b.OID == types.OIDFloat4 {
			return types.Float4, true
		}
		return types.Float8, true
	case fa == types.FamilyNumeric || fb == types.FamilyNumeric:
		if !a.IsNumeric() || !b.IsNumeric() {
			return types.T{}, false
		}
		s := max(numericScale(a), numericScale(b))
		if a.IsGeneralNumeric() || b.IsGeneralNumeric() {
			return types.NumericGeneral(s), true
		}
		return types.T{OID: types.OIDNumeric, Scale: s}, true
	case fa == types.FamilyString && fb == types.FamilyString:
		return types.Text, true
	case fa == types.FamilyBool && fb == types.FamilyBool:
		return types.Bool, true
	case fa == types.FamilyUUID && fb == types.FamilyUUID:
		return types.UUID, true
	case fa == types.FamilyBytes && fb == types.FamilyBytes:
		return types.Bytea, true
	case a.OID == types.OIDJSONB && b.OID == types.OIDJSONB:
		// json has no comparison operators; jsonb does.
		return types.JSONB, true
	case fa == types.FamilyDate && fb == types.FamilyDate:
		return types.Date, true
	case fa == types.FamilyTime && fb == types.FamilyTime:
		return types.Time, true
	case fa == types.FamilyArray && a.OID == b.OID:
		return types.T{OID: a.OID}, true
	case fa == types.FamilyInterval && fb == types.FamilyInterval:
		return types.Interval, true
	case (fa == types.FamilyDate || fa == types.FamilyTimestamp) && (fb == types.FamilyDate || fb == types.FamilyTimestamp):
		if a.OID == types.OIDTimestampTZ || b.OID == types.OIDTimestampTZ {
			return types.TimestampTZ, true
		}
		return types.Timestamp, true
	}
	return types.T{}, false
}

// widenUnknown is the type an untyped literal takes beside a column of t.
func widenUnknown(t types.T) types.T {
	if t.Family() == types.FamilyString {
		return types.Text
	}
	return t
}

func numericScale(t types.T) int32 {
	if t.OID == types.OIDNumeric {
		return t.Scale
	}
	return 0
}

// convertConst converts a literal's value from one type to another at bind
// time, with PostgreSQL's errors for values that do not fit.
func convertConst(v any, from, to types.T) (any, error) {
	if v == nil {
		return nil, nil
	}
	if from.OID == to.OID && from.OID != types.OIDNumeric && ((to.OID != types.OIDVarchar && to.OID != types.OIDBpchar) || to.Precision == 0) {
		return v, nil
	}
	if from.IsGeneralNumeric() || to.IsGeneralNumeric() {
		if r, ok, err := convertGeneralConst(v, from, to); ok {
			return r, err
		}
	}
	if to.Family() == types.FamilyString && from.Family() != types.FamilyUnknown && from.Family() != types.FamilyString {
		return types.ParseText(formatConst(v, from), to)
	}
	switch from.Family() {
	case types.FamilyArray:
		fe, ok1 := from.Elem()
		te, ok2 := to.Elem()
		if to.Family() == types.FamilyArray && ok1 && ok2 {
			in := v.([]any)
			out := make([]any, len(in))
			for i, e := range in {
				c, err := convertConst(e, fe, te)
				if err != nil {
					return nil, err
				}
				out[i] = c
			}
			return out, nil
		}
	case types.FamilyBool:
		if to.OID == types.OIDInt4 {
			if v.(bool) {
				return int64(1), nil
			}
			return int64(0), nil
		}
	case types.FamilyUnknown, types.FamilyString:
		if from.OID == types.OIDBpchar && to.OID != types.OIDBpchar {
			// character(n) loses its padding when converted.
			return types.ParseText(strings.TrimRight(v.(string), " "), to)
		}
		return types.ParseText(v.(string), to)
	case types.FamilyJSON:
		if to.Family() == types.FamilyJSON {
			return types.ParseText(v.(string), to)
		}
	case types.FamilyOID:
		i := v.(int64)
		switch to.Family() {
		case types.FamilyOID:
			return i, nil
		case types.FamilyInt:
			if to.OID == types.OIDInt8 {
				return i, nil
			}
			return types.CheckIntRange(int64(int32(uint32(i))), to)
		}
	case types.FamilyInt:
		i := v.(int64)
		switch to.Family() {
		case types.FamilyBool:
			if from.OID == types.OIDInt4 {
				return i != 0, nil
			}
		case types.FamilyOID:
			if i < -(1<<31) || i > 1<<32-1 {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "OID out of range")
			}
			return int64(uint32(i)), nil
		case types.FamilyInt:
			return types.CheckIntRange(i, to)
		case types.FamilyFloat:
			return float64(i), nil
		case types.FamilyNumeric:
			return types.RescaleNumeric(decimal128.FromI64(i), 0, to)
		}
	case types.FamilyNumeric:
		n := v.(decimal128.Num)
		switch to.Family() {
		case types.FamilyNumeric:
			return types.RescaleNumeric(n, from.Scale, to)
		case types.FamilyFloat:
			if to.OID == types.OIDFloat4 {
				return types.Float4FromNumeric(n, from.Scale)
			}
			return n.ToFloat64(from.Scale), nil
		case types.FamilyInt:
			r, ok := types.Rescale(n, from.Scale, 0)
			if !ok || !r.BigInt().IsInt64() {
				return nil, outOfRange(to)
			}
			return types.CheckIntRange(r.BigInt().Int64(), to)
		}
	case types.FamilyFloat:
		f := v.(float64)
		switch to.Family() {
		case types.FamilyFloat:
			if to.OID == types.OIDFloat4 {
				return types.Float4FromFloat8(f)
			}
			return f, nil
		case types.FamilyInt:
			r := math.RoundToEven(f)
			if math.IsNaN(r) || r < math.MinInt64 || r >= math.MaxInt64 {
				return nil, outOfRange(to)
			}
			return types.CheckIntRange(int64(r), to)
		case types.FamilyNumeric:
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot convert %v to numeric", f)
			}
			n, err := decimal128.FromFloat64(f, types.MaxNumericPrecision, to.Scale)
			if err != nil {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "numeric field overflow")
			}
			return types.CheckNumericPrecision(n, to)
		}
	case types.FamilyDate:
		if to.Family() == types.FamilyTimestamp {
			return types.DateToTimestamp(v.(int32)), nil
		}
	case types.FamilyTimestamp:
		micros := v.(int64)
		switch to.Family() {
		case types.FamilyTimestamp:
			return v, nil
		case types.FamilyDate:
			return types.TimestampToDate(micros), nil
		case types.FamilyTime:
			if types.IsInfiniteTimestamp(micros) {
				return nil, nil
			}
			t := micros % types.MicrosPerDay
			if t < 0 {
				t += types.MicrosPerDay
			}
			return t, nil
		}
	case types.FamilyTime:
		if to.Family() == types.FamilyInterval {
			return types.IntervalValue{Micros: v.(int64)}, nil
		}
	case types.FamilyInterval:
		if to.Family() == types.FamilyTime {
			t := v.(types.IntervalValue).Micros % types.MicrosPerDay
			if t < 0 {
				t += types.MicrosPerDay
			}
			return t, nil
		}
	}
	return nil, cannotCast(from, to)
}

func cannotCast(from, to types.T) error {
	return pgerror.New("42846", "cannot cast type %s to %s", from.Name(), to.Name())
}

func outOfRange(t types.T) error {
	return pgerror.New(pgerror.NumericValueOutOfRange, "%s out of range", t.Name())
}

// formatConst renders a constant as its type's output function does.
func formatConst(v any, t types.T) string {
	var buf []byte
	switch x := v.(type) {
	case bool:
		if x {
			return "true"
		}
		return "false"
	case int64:
		if t.Family() == types.FamilyTimestamp {
			zone := ""
			if t.OID == types.OIDTimestampTZ {
				// In UTC; convertConstIn prints in other session zones.
				zone = "+00"
			}
			return string(types.AppendTimestamp(buf, x, zone))
		}
		if t.Family() == types.FamilyTime {
			return string(types.AppendTime(buf, x))
		}
		return strconv.FormatInt(x, 10)
	case float64:
		bits := 64
		if t.OID == types.OIDFloat4 {
			bits = 32
		}
		return string(types.AppendFloat(buf, x, bits))
	case decimal128.Num:
		return string(types.AppendDecimal128(buf, x.HighBits(), x.LowBits(), t.Scale))
	case *apd.Decimal:
		return types.NumericString(x)
	case int32:
		out, bc := types.AppendDate(buf, int64(x))
		if bc {
			out = append(out, " BC"...)
		}
		return string(out)
	case string:
		return x
	case types.IntervalValue:
		return string(types.AppendInterval(buf, x))
	case []byte:
		if t.OID == types.OIDUUID {
			return string(types.AppendUUID(buf, x))
		}
		return string(types.AppendByteaHex(buf, x))
	}
	return fmt.Sprint(v)
}

// isJSONOperator reports PostgreSQL's json and jsonb operators, which SQE
// refuses as unsupported rather than as missing.
func isJSONOperator(op string) bool {
	switch op {
	case "->", "->>", "#>", "#>>", "@>", "<@", "?", "?|", "?&", "||", "-", "#-", "@?", "@@":
		return true
	}
	return false
}
