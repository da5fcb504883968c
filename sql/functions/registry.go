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
	// Pair aggregates take two arguments of any type, a key and a value
	// (json_object_agg); the value is the call's second argument, where a
	// delimited aggregate has its delimiter.
	Pair bool
	// OrderedSet aggregates are called with WITHIN GROUP (ORDER BY x):
	// x is the aggregated value, and Direct more arguments (percentile's
	// fraction) are given in the call's parentheses.
	OrderedSet bool
	Direct     int
	// OrderSensitive aggregates give a result that depends on the order
	// rows are fed in (array_agg, string_agg, json_agg).
	OrderSensitive bool
	// Regression aggregates take two double precision arguments, Y and
	// X (corr(Y, X)); Result is given double precision.
	Regression bool
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
	"string_agg": {Name: "string_agg", Leakproof: true, Delimited: true, OrderSensitive: true, Result: stringAggResult},
	// The statistics can overflow (float) or exceed numeric's precision.
	"stddev":      {Name: "stddev", Result: statsResult},
	"stddev_samp": {Name: "stddev_samp", Result: statsResult},
	"stddev_pop":  {Name: "stddev_pop", Result: statsResult},
	"variance":    {Name: "variance", Result: statsResult},
	"var_samp":    {Name: "var_samp", Result: statsResult},
	"var_pop":     {Name: "var_pop", Result: statsResult},
	"bool_and":    {Name: "bool_and", Leakproof: true, Result: boolResult},
	"bool_or":     {Name: "bool_or", Leakproof: true, Result: boolResult},
	"every":       {Name: "every", Leakproof: true, Result: boolResult},
	// The bitwise folds cannot fail.
	"bit_and":   {Name: "bit_and", Leakproof: true, Result: bitResult},
	"bit_or":    {Name: "bit_or", Leakproof: true, Result: bitResult},
	"bit_xor":   {Name: "bit_xor", Leakproof: true, Result: bitResult},
	"array_agg": {Name: "array_agg", Leakproof: true, OrderSensitive: true, Result: arrayAggResult},
	"json_agg":  {Name: "json_agg", Leakproof: true, OrderSensitive: true, Result: jsonAggResult(types.JSON)},
	"jsonb_agg": {Name: "jsonb_agg", Leakproof: true, OrderSensitive: true, Result: jsonAggResult(types.JSONB)},
	// The regression statistics (PostgreSQL's float8_regr_accum) fail
	// when finite values overflow; regr_count only counts.
	"corr":           {Name: "corr", Regression: true, Result: regrResult(types.Float8)},
	"covar_pop":      {Name: "covar_pop", Regression: true, Result: regrResult(types.Float8)},
	"covar_samp":     {Name: "covar_samp", Regression: true, Result: regrResult(types.Float8)},
	"regr_avgx":      {Name: "regr_avgx", Regression: true, Result: regrResult(types.Float8)},
	"regr_avgy":      {Name: "regr_avgy", Regression: true, Result: regrResult(types.Float8)},
	"regr_count":     {Name: "regr_count", Leakproof: true, Regression: true, Result: regrResult(types.Int8)},
	"regr_intercept": {Name: "regr_intercept", Regression: true, Result: regrResult(types.Float8)},
	"regr_r2":        {Name: "regr_r2", Regression: true, Result: regrResult(types.Float8)},
	"regr_slope":     {Name: "regr_slope", Regression: true, Result: regrResult(types.Float8)},
	"regr_sxx":       {Name: "regr_sxx", Regression: true, Result: regrResult(types.Float8)},
	"regr_sxy":       {Name: "regr_sxy", Regression: true, Result: regrResult(types.Float8)},
	"regr_syy":       {Name: "regr_syy", Regression: true, Result: regrResult(types.Float8)},
	// A NULL key is an error.
	"json_object_agg":  {Name: "json_object_agg", Pair: true, OrderSensitive: true, Result: jsonAggResult(types.JSON)},
	"jsonb_object_agg": {Name: "jsonb_object_agg", Pair: true, OrderSensitive: true, Result: jsonAggResult(types.JSONB)},
	// A fraction outside [0, 1] is an error, so the percentiles are not
	// leakproof; mode only picks one of its values.
	"percentile_cont": {Name: "percentile_cont", OrderedSet: true, Direct: 1, Result: percentileContResult},
	"percentile_disc": {Name: "percentile_disc", OrderedSet: true, Direct: 1, Result: orderedValueResult},
	"mode":            {Name: "mode", Leakproof: true, OrderedSet: true, Result: orderedValueResult},
}

// StatsNumericScale is the scale of the variance and standard deviation
// of integers and numerics. PostgreSQL picks a scale per value: 16
// significant digits after the variance's leading base-10000 digit, so
// 16 for variances from 1 to 9999, fewer above, more below, and a bare 0
// when every value is equal; SQE's numeric columns carry one scale, and
// keep 16, as avg does.
const StatsNumericScale = 16

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
		return types.T{OID: types.OIDNumeric, Scale: t.Scale, General: t.General}, true
	case types.OIDFloat4, types.OIDFloat8:
		return t, true
	}
	return types.T{}, false
}

func avgResult(t types.T) (types.T, bool) {
	switch t.OID {
	case types.OIDInt2, types.OIDInt4, types.OIDInt8, types.OIDNumeric:
		// numeric_avg divides the sum by the count: the quotient's scale
		// is picked per value.
		return types.NumericGeneral(max(AvgNumericScale, t.Scale)), true
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

func statsResult(t types.T) (types.T, bool) {
	switch t.Family() {
	case types.FamilyInt, types.FamilyNumeric:
		return types.NumericGeneral(StatsNumericScale), true
	case types.FamilyFloat:
		return types.Float8, true
	}
	return types.T{}, false
}

func boolResult(t types.T) (types.T, bool) {
	if t.OID == types.OIDBool {
		return types.Bool, true
	}
	return types.T{}, false
}

// arrayAggResult is the array of the argument's type, for the element
// types SQE has arrays of. Arrays of arrays (PostgreSQL's
// array_agg(anyarray), which builds a higher dimension) are not among
// them.
func arrayAggResult(t types.T) (types.T, bool) {
	if t.Family() == types.FamilyArray || t.Family() == types.FamilyUnknown {
		return types.T{}, false
	}
	return types.ArrayOf(t)
}

func jsonAggResult(res types.T) func(types.T) (types.T, bool) {
	return func(t types.T) (types.T, bool) {
		if t.Family() == types.FamilyUnknown {
			return types.T{}, false
		}
		return res, true
	}
}

// percentileContResult accepts the numeric types, which the binder casts
// to double precision as PostgreSQL's percentile_cont(float8) does.
func percentileContResult(t types.T) (types.T, bool) {
	if t.IsNumeric() {
		return types.Float8, true
	}
	return types.T{}, false
}

// orderedValueResult is the sorted value's own type (percentile_disc,
// mode): any type that sorts.
func orderedValueResult(t types.T) (types.T, bool) {
	switch t.Family() {
	case types.FamilyUnknown, types.FamilyArray:
		return types.T{}, false
	}
	// json has no ordering.
	return t, t.OID != types.OIDJSON
}

func sameResult(t types.T) (types.T, bool) {
	switch t.Family() {
	case types.FamilyUnknown:
		return types.T{}, false
	case types.FamilyString:
		return types.Text, true
	}
	if t.OID == types.OIDNumeric {
		return types.T{OID: types.OIDNumeric, Scale: t.Scale, General: t.General}, true
	}
	return t, true
}

// postgresFunctions names PostgreSQL functions SQE does not implement yet,
// so that calling one is reported as unsupported (0A000) rather than as
// not existing (42883).
var postgresFunctions = map[string]bool{
	"array_to_string": true,
	"ceiling":         true,
	"coalesce":        true, "cume_dist": true, "current_database": true, "current_schema": true, "current_schemas": true,
	"current_setting": true, "current_user": true, "dense_rank": true,
	"first_value": true, "format_type": true,
	"generate_series": true, "greatest": true,
	// json_each and its kin return records, which SQE has only in FROM.
	"json_each": true, "json_each_text": true, "jsonb_each": true, "jsonb_each_text": true,
	"lag": true, "last_value": true, "lead": true, "least": true, "left": true,
	"nth_value": true, "ntile": true,
	"nullif": true, "percent_rank": true, "pg_backend_pid": true,
	"rank": true, "row_number": true, "session_user": true, "set_config": true, "substring": true,
	"trim": true, "unnest": true, "version": true}

// IsPostgresFunction reports whether name is a PostgreSQL function SQE
// does not implement yet.
func IsPostgresFunction(name string) bool { return postgresFunctions[strings.ToLower(name)] }
