package functions

import (
	"strings"

	"github.com/sqe-db/sqe/sql/types"
)

// Kind says how an operator's result type follows from its arguments.
type Kind uint8

const (
	// Comparison operators take two arguments of one common type and
	// return boolean.
	Comparison Kind = iota
	// Arithmetic operators take two numeric arguments of one common type
	// and return that type (numeric scale rules aside).
	Arithmetic
	// Logical operators take and return boolean.
	Logical
	// Concat takes two strings and returns text.
	Concat
)

// Operator describes a binary or unary SQL operator.
type Operator struct {
	Name string
	Kind Kind
	// Leakproof is true when the operator cannot fail or otherwise reveal
	// its arguments, whatever values they hold.
	Leakproof bool
}

// operators lists the operators the binder accepts. Arithmetic can overflow
// or divide by zero, so it is not leakproof; comparisons and boolean logic
// are. String concatenation cannot fail on valid text.
var operators = map[string]Operator{
	"=":   {Name: "=", Kind: Comparison, Leakproof: true},
	"<>":  {Name: "<>", Kind: Comparison, Leakproof: true},
	"!=":  {Name: "<>", Kind: Comparison, Leakproof: true},
	"<":   {Name: "<", Kind: Comparison, Leakproof: true},
	"<=":  {Name: "<=", Kind: Comparison, Leakproof: true},
	">":   {Name: ">", Kind: Comparison, Leakproof: true},
	">=":  {Name: ">=", Kind: Comparison, Leakproof: true},
	"+":   {Name: "+", Kind: Arithmetic},
	"-":   {Name: "-", Kind: Arithmetic},
	"*":   {Name: "*", Kind: Arithmetic},
	"/":   {Name: "/", Kind: Arithmetic},
	"%":   {Name: "%", Kind: Arithmetic},
	"||":  {Name: "||", Kind: Concat, Leakproof: true},
	"AND": {Name: "AND", Kind: Logical, Leakproof: true},
	"OR":  {Name: "OR", Kind: Logical, Leakproof: true},
	"NOT": {Name: "NOT", Kind: Logical, Leakproof: true},
}

// LookupOperator returns the operator named name (as the parser spells it).
func LookupOperator(name string) (Operator, bool) {
	op, ok := operators[strings.ToUpper(name)]
	return op, ok
}

// Aggregate describes an aggregate function.
type Aggregate struct {
	Name string
	// Star is true when the aggregate may be called as f(*).
	Star bool
	// Result gives the result type for an argument type, or false when the
	// argument type is not accepted.
	Result func(arg types.T) (types.T, bool)
	// Leakproof: aggregates whose accumulation can fail (sum overflow) are
	// not.
	Leakproof bool
	// Delimited aggregates take a second, text argument: string_agg's
	// delimiter.
	Delimited bool
}

// AvgNumericScale is the scale of avg() over integers and numerics. It is
// PostgreSQL's minimum significant digits for division (16) for results
// below 10,000; PostgreSQL narrows it for larger results, SQE keeps it.
const AvgNumericScale = 16

var aggregates = map[string]Aggregate{
	"count": {Name: "count", Star: true, Leakproof: true,
		Result: func(types.T) (types.T, bool) { return types.Int8, true }},
	"sum":        {Name: "sum", Result: sumResult},
	"avg":        {Name: "avg", Result: avgResult},
	"min":        {Name: "min", Leakproof: true, Result: sameResult},
	"max":        {Name: "max", Leakproof: true, Result: sameResult},
	"string_agg": {Name: "string_agg", Leakproof: true, Delimited: true, Result: stringAggResult},
}

// LookupAggregate returns the aggregate named name.
func LookupAggregate(name string) (Aggregate, bool) {
	a, ok := aggregates[strings.ToLower(name)]
	return a, ok
}

func sumResult(t types.T) (types.T, bool) {
	switch t.OID {
	case types.OIDInt2, types.OIDInt4:
		return types.Int8, true
	case types.OIDInt8:
		return types.T{OID: types.OIDNumeric}, true
	case types.OIDNumeric:
		return types.T{OID: types.OIDNumeric, Scale: t.Scale}, true
	case types.OIDFloat4, types.OIDFloat8:
		return t, true
	}
	return types.T{}, false
}

func avgResult(t types.T) (types.T, bool) {
	switch t.OID {
	case types.OIDInt2, types.OIDInt4, types.OIDInt8, types.OIDNumeric:
		return types.T{OID: types.OIDNumeric, Scale: max(AvgNumericScale, t.Scale)}, true
	case types.OIDFloat4, types.OIDFloat8:
		return types.Float8, true
	}
	return types.T{}, false
}

// stringAggResult accepts the string types (text, varchar, name), which
// PostgreSQL converts to text for string_agg(text, text).
func stringAggResult(t types.T) (types.T, bool) {
	if t.Family() == types.FamilyString {
		return types.Text, true
	}
	return types.T{}, false
}

func sameResult(t types.T) (types.T, bool) {
	switch t.Family() {
	case types.FamilyUnknown:
		return types.T{}, false
	case types.FamilyString:
		return types.Text, true
	}
	if t.OID == types.OIDNumeric {
		return types.T{OID: types.OIDNumeric, Scale: t.Scale}, true
	}
	return t, true
}

// postgresFunctions names PostgreSQL functions SQE does not implement yet,
// so that calling one is reported as unsupported (0A000) rather than as
// not existing (42883).
var postgresFunctions = map[string]bool{
	"array_agg": true, "array_to_string": true,
	"bool_and": true, "bool_or": true, "ceiling": true,
	"coalesce": true, "cume_dist": true, "current_database": true, "current_schema": true, "current_schemas": true,
	"current_setting": true, "current_user": true, "dense_rank": true,
	"first_value": true, "format_type": true,
	"generate_series": true, "greatest": true, "json_agg": true, "json_build_object": true,
	"jsonb_agg": true, "lag": true, "last_value": true, "lead": true, "least": true, "left": true,
	"nth_value": true, "ntile": true,
	"nullif": true, "percent_rank": true, "percentile_cont": true, "percentile_disc": true, "pg_backend_pid": true,
	"rank": true, "row_number": true, "session_user": true, "set_config": true, "stddev": true, "stddev_pop": true,
	"stddev_samp": true, "substring": true,
	"trim": true, "unnest": true,
	"var_pop": true, "var_samp": true, "variance": true, "version": true}

// IsPostgresFunction reports whether name is a PostgreSQL function SQE
// does not implement yet.
func IsPostgresFunction(name string) bool { return postgresFunctions[strings.ToLower(name)] }
