package functions

import "github.com/sqe-db/sqe/sql/types"

// OperatorFunction is an operator that PostgreSQL implements by a function
// over fixed types (pg_operator.oprcode), which the binder turns into a
// call of the kernel named Func. Leakproof follows the function's
// pg_proc.proleakproof in PostgreSQL 15.
type OperatorFunction struct {
	Symbol    string
	Func      string
	Leakproof bool
	Resolve   func(args []types.T) (argTypes []types.T, result types.T, ok bool)
}

// infixOperatorFunctions are the binary operators of this kind. The
// integer bitwise operators are not leakproof in PostgreSQL (int4and and
// its kin), though they cannot fail; starts_with is.
var infixOperatorFunctions = map[string]OperatorFunction{
	"&":  {Symbol: "&", Func: "bitand", Resolve: bitwiseArgs},
	"|":  {Symbol: "|", Func: "bitor", Resolve: bitwiseArgs},
	"#":  {Symbol: "#", Func: "bitxor", Resolve: bitwiseArgs},
	"<<": {Symbol: "<<", Func: "bitshiftleft", Resolve: shiftArgs},
	">>": {Symbol: ">>", Func: "bitshiftright", Resolve: shiftArgs},
	"^@": {Symbol: "^@", Func: "starts_with", Leakproof: true, Resolve: textArgs(2, 2, types.Bool)},
}

// prefixOperatorFunctions are the prefix operators of this kind: ~ is
// bitwise not, @ absolute value, |/ square root and ||/ cube root.
var prefixOperatorFunctions = map[string]OperatorFunction{
	"~":   {Symbol: "~", Func: "bitnot", Resolve: bitnotArgs},
	"@":   {Symbol: "@", Func: "abs", Resolve: absArgs},
	"|/":  {Symbol: "|/", Func: "sqrt", Resolve: floatArgs(1)},
	"||/": {Symbol: "||/", Func: "cbrt", Resolve: floatArgs(1)},
}

// LookupOperatorFunction returns the operator function for symbol, as a
// prefix operator or a binary one.
func LookupOperatorFunction(symbol string, prefix bool) (OperatorFunction, bool) {
	if prefix {
		op, ok := prefixOperatorFunctions[symbol]
		return op, ok
	}
	op, ok := infixOperatorFunctions[symbol]
	return op, ok
}

// patternComparisons are the text_pattern_ops comparisons, which compare
// strings byte by byte (bpchar ones without trailing blanks): SQE's text
// comparison already does, PostgreSQL's does under the C collation.
var patternComparisons = map[string]string{"~<~": "<", "~<=~": "<=", "~>=~": ">=", "~>~": ">"}

// LookupPatternComparison returns the comparison operator a
// text_pattern_ops operator is.
func LookupPatternComparison(symbol string) (string, bool) {
	op, ok := patternComparisons[symbol]
	return op, ok
}

// isIntArg reports an integer or an untyped literal (read as integer).
func isIntArg(t types.T) bool { return t.Family() == types.FamilyInt || t.OID == types.OIDUnknown }

// bitwiseArgs is &, | and # over two integers: PostgreSQL has them for
// smallint, integer and bigint pairs, and a mixed pair goes to the wider.
func bitwiseArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 || !isIntArg(args[0]) || !isIntArg(args[1]) {
		return nil, types.T{}, false
	}
	t := types.Int4
	switch {
	case args[0].OID == types.OIDInt8 || args[1].OID == types.OIDInt8:
		t = types.Int8
	case args[0].OID == types.OIDInt2 && args[1].OID == types.OIDInt2:
		t = types.Int2
	}
	return []types.T{t, t}, t, true
}

// shiftArgs is << and >>: an integer of any width shifted by an integer
// count (int2shl, int4shl, int8shl take the count as integer; a bigint
// count has no implicit cast to it).
func shiftArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 || !isIntArg(args[0]) || !isIntArg(args[1]) || args[1].OID == types.OIDInt8 {
		return nil, types.T{}, false
	}
	t := args[0]
	if t.OID == types.OIDUnknown {
		t = types.Int4
	}
	return []types.T{t, types.Int4}, t, true
}

// bitnotArgs is ~ over one integer.
func bitnotArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 || args[0].Family() != types.FamilyInt {
		return nil, types.T{}, false
	}
	return args, args[0], true
}

// absArgs is @ over a number of any type, as abs().
func absArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 || !args[0].IsNumeric() {
		return nil, types.T{}, false
	}
	return args, args[0], true
}
