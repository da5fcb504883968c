package trino

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// queryResults is one page of Trino's answer (the protocol's
// QueryResults document), with the members read here.
type queryResults struct {
	ID      string   `json:"id"`
	NextURI string   `json:"nextUri"`
	Columns []column `json:"columns"`
	// Data holds the page's rows; each value stays the JSON text Trino
	// wrote, so that a number is read from its digits exactly and no
	// value is boxed on the way.
	Data  [][]json.RawMessage `json:"data"`
	Error *queryError         `json:"error"`
}

// column is a result column as Trino describes it.
type column struct {
	Name          string        `json:"name"`
	Type          string        `json:"type"`
	TypeSignature typeSignature `json:"typeSignature"`
}

type typeSignature struct {
	RawType string `json:"rawType"`
}

// queryError is Trino's QueryError, without its message and failure
// info, which can quote the statement and the values it read.
type queryError struct {
	ErrorCode     int            `json:"errorCode"`
	ErrorName     string         `json:"errorName"`
	ErrorType     string         `json:"errorType"`
	ErrorLocation *errorLocation `json:"errorLocation"`
}

type errorLocation struct {
	LineNumber   int `json:"lineNumber"`
	ColumnNumber int `json:"columnNumber"`
}

// trinoType is a Trino type read from a column's description: its base
// name ("decimal", "timestamp with time zone") and its parameters.
type trinoType struct {
	name   string
	params []string
}

// parseTrinoType reads a column's type: the name from the type
// signature's raw type, the parameters from the type's text, as in
// "decimal(10,2)" or "timestamp(6) with time zone".
func parseTrinoType(c column) trinoType {
	text := strings.ToLower(strings.TrimSpace(c.Type))
	tt := trinoType{name: text}
	if open := strings.IndexByte(text, '('); open >= 0 {
		if end := strings.IndexByte(text[open:], ')'); end > 0 {
			for p := range strings.SplitSeq(text[open+1:open+end], ",") {
				tt.params = append(tt.params, strings.TrimSpace(p))
			}
			tt.name = strings.TrimSpace(text[:open] + text[open+end+1:])
		}
	}
	if raw := strings.ToLower(c.TypeSignature.RawType); raw != "" {
		tt.name = raw
	}
	return tt
}

func (tt trinoType) param(i int) (int, bool) {
	if i >= len(tt.params) {
		return 0, false
	}
	n, err := strconv.Atoi(tt.params[i])
	return n, err == nil
}

// reads says whether values of Trino type tt are read exactly as values
// of t: the type planner/sqlwrite writes for t, or one whose every value
// t reads unchanged (any integer type, whose values are range checked as
// they are read; a varchar of any length; a timestamp of at most
// microseconds).
func (tt trinoType) reads(t types.T) bool {
	switch t.OID {
	case types.OIDBool:
		return tt.name == "boolean"
	case types.OIDInt2, types.OIDInt4, types.OIDInt8:
		switch tt.name {
		case "tinyint", "smallint", "integer", "bigint":
			return true
		}
	case types.OIDFloat4:
		return tt.name == "real"
	case types.OIDFloat8:
		return tt.name == "double"
	case types.OIDNumeric:
		if t.General || t.Precision == 0 || tt.name != "decimal" {
			return false
		}
		scale, ok := tt.param(1)
		return ok && int32(scale) == t.Scale
	case types.OIDText, types.OIDVarchar:
		return tt.name == "varchar"
	case types.OIDDate:
		return tt.name == "date"
	case types.OIDTimestamp:
		// A timestamp without a precision is what Trino describes to a
		// client without the PARAMETRIC_DATETIME capability, with its
		// values rounded to milliseconds.
		p, ok := tt.param(0)
		return tt.name == "timestamp" && ok && p <= 6
	}
	return false
}

// checkColumns checks that Trino's result columns are the statement's,
// in number and in type. The messages name counts and types, never
// values.
func checkColumns(engine string, got []column, want []planner.Column) error {
	if len(got) != len(want) {
		return pgerror.New(pgerror.InternalError,
			"remote engine %q returned %d columns where the statement has %d", engine, len(got), len(want))
	}
	for i, c := range got {
		if !parseTrinoType(c).reads(want[i].Type) {
			return pgerror.New(pgerror.InternalError,
				"remote engine %q returned result column %d as Trino type %s where %s was expected",
				engine, i+1, typeNameForMessage(c.Type), want[i].Type.Name())
		}
	}
	return nil
}

// typeNameForMessage is a Trino type's text when it looks like a type
// name, so that whatever the engine sent in its place does not reach a
// message.
func typeNameForMessage(s string) string {
	if len(s) == 0 || len(s) > 64 {
		return "(unknown)"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("(), _", r)) {
			return "(unknown)"
		}
	}
	return s
}

// valueText is the text form of one JSON value of a row, as
// types.ParseText reads it; null reports NULL. A number is its JSON text
// as sent (json.Number's form), so integers stay exact. Strings are
// Trino's text of decimals, dates, timestamps and varchars, and of the
// non-finite doubles, which Trino spells "NaN", "Infinity" and
// "-Infinity", as PostgreSQL does. Booleans are "t" and "f".
func valueText(raw json.RawMessage) (text string, null bool, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false, false
	}
	switch c := raw[0]; {
	case c == 'n':
		return "", true, string(raw) == "null"
	case c == 't':
		return "t", false, string(raw) == "true"
	case c == 'f':
		return "f", false, string(raw) == "false"
	case c == '"':
		if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) && len(raw) >= 2 {
			return string(raw[1 : len(raw)-1]), false, true
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", false, false
		}
		return s, false, true
	case c == '-' || c >= '0' && c <= '9':
		return string(raw), false, true
	}
	// An array or an object: a structured value, of no type the
	// statement's columns have.
	return "", false, false
}

// postgresYear rewrites the year of Trino's text of a date or timestamp
// into PostgreSQL's, which types.ParseText reads. Trino writes ISO 8601
// years (Java's): year 0 is 1 BC, a year before it has a minus sign and
// one after 9999 a plus sign; PostgreSQL writes "0001-01-01 BC" and
// "10000-01-01".
func postgresYear(s string) string {
	if s == "" || (s[0] != '+' && s[0] != '-' && !strings.HasPrefix(s, "0000-")) {
		return s
	}
	if s[0] == '+' {
		return s[1:]
	}
	rest, neg := strings.CutPrefix(s, "-")
	dash := strings.IndexByte(rest, '-')
	if dash < 4 {
		return s
	}
	y, err := strconv.Atoi(rest[:dash])
	if err != nil {
		return s
	}
	if neg {
		y = -y
	}
	return fmt.Sprintf("%04d%s BC", 1-y, rest[dash:])
}
