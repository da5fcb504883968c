package sqllogictest

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/sql/types"
)

// floatPlaces is how many decimals DataFusion's runner keeps of a float
// (BigDecimal::round(12), then trailing zeros dropped).
const floatPlaces = 12

// Render converts one value in PostgreSQL text format, of a column whose
// type OID is oid, to the text DataFusion's Postgres runner prints for it.
// v is nil for NULL.
//
// That runner decodes values with tokio-postgres and prints: NULL as
// "NULL"; booleans as true/false; the empty string as "(empty)";
// integers and numerics as PostgreSQL writes them; float4 and float8 as
// the shortest decimal that round-trips, rounded half to even at 12
// decimals without trailing zeros (NaN, Infinity, -Infinity as such);
// dates as YYYY-MM-DD; times and timestamps with chrono's formatting (a
// "T" between date and time, fractions as 3, 6 or 9 digits). Types it has
// no rendering for (timestamptz among them) are left as PostgreSQL wrote
// them.
func Render(oid uint32, v *string) string {
	if v == nil {
		return "NULL"
	}
	s := *v
	switch oid {
	case types.OIDBool:
		switch s {
		case "t":
			return "true"
		case "f":
			return "false"
		}
		return s
	case types.OIDText, types.OIDVarchar, types.OIDBpchar, types.OIDName, types.OIDUnknown:
		if s == "" {
			return "(empty)"
		}
		return strings.TrimRight(s, "\n")
	case types.OIDFloat4:
		return renderFloat(s, 32)
	case types.OIDFloat8:
		return renderFloat(s, 64)
	case types.OIDTime:
		return renderTime(s)
	case types.OIDTimestamp:
		date, clock, ok := strings.Cut(s, " ")
		if !ok {
			return s
		}
		return date + "T" + renderTime(clock)
	}
	return s
}

// renderFloat prints a float as Rust's Display does (shortest digits that
// round-trip at the value's own width, never an exponent), then rounds it
// as the runner does.
func renderFloat(s string, bits int) string {
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		return s
	}
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return roundDecimal(strconv.FormatFloat(f, 'f', -1, bits), floatPlaces)
}

// roundDecimal rounds a plain decimal string half to even at places
// decimals and drops trailing zeros (and a trailing point).
func roundDecimal(s string, places int) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	if len(frac) > places {
		digits, ok := new(big.Int).SetString(intPart+frac, 10)
		if !ok {
			return s
		}
		div := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(frac)-places)), nil)
		q, r := new(big.Int).QuoRem(digits, div, new(big.Int))
		switch new(big.Int).Lsh(r, 1).Cmp(div) {
		case 1:
			q.Add(q, big.NewInt(1))
		case 0:
			if q.Bit(0) == 1 {
				q.Add(q, big.NewInt(1))
			}
		}
		str := q.String()
		if len(str) <= places {
			str = strings.Repeat("0", places-len(str)+1) + str
		}
		intPart, frac = str[:len(str)-places], str[len(str)-places:]
	}
	frac = strings.TrimRight(frac, "0")
	out := intPart
	if frac != "" {
		out += "." + frac
	}
	if neg && strings.Trim(out, "0.") != "" {
		out = "-" + out
	}
	return out
}

// renderTime rewrites PostgreSQL's "HH:MM:SS[.f...]" with chrono's
// fraction widths: none, milliseconds (3 digits), microseconds (6).
func renderTime(s string) string {
	clock, frac, ok := strings.Cut(s, ".")
	if !ok {
		return s
	}
	if len(frac) > 6 || strings.Trim(frac, "0123456789") != "" {
		return s
	}
	frac += strings.Repeat("0", 6-len(frac))
	switch {
	case frac == "000000":
		return clock
	case strings.HasSuffix(frac, "000"):
		return clock + "." + frac[:3]
	}
	return clock + "." + frac
}
