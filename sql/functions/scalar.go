package functions

import (
	"strings"

	"github.com/sqe-db/sqe/sql/types"
)

// Scalar describes a scalar function: Resolve checks the argument types
// and gives the types the arguments are converted to and the result type.
type Scalar struct {
	Name      string
	Leakproof bool
	Resolve   func(args []types.T) (argTypes []types.T, result types.T, ok bool)
	// Polymorphic functions take anyelement: an untyped literal argument
	// leaves the type undetermined, which is an error (42804) rather than
	// a missing function.
	Polymorphic bool
	// TextOutput functions (concat, concat_ws, format) turn their
	// arguments into text with the type's output function, not its cast
	// to text: a boolean is t or f, not true or false.
	TextOutput bool
	// Params name the parameters, for calls with named arguments; nil
	// when the function takes positional arguments only.
	Params []Param
}

// textArgs accepts n string (or untyped) arguments, n in [min, max].
func textArgs(minN, maxN int, result types.T) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		if len(args) < minN || len(args) > maxN {
			return nil, types.T{}, false
		}
		out := make([]types.T, len(args))
		for i, a := range args {
			if a.Family() != types.FamilyString && a.OID != types.OIDUnknown {
				return nil, types.T{}, false
			}
			out[i] = types.Text
		}
		return out, result, true
	}
}

// textIntArgs accepts (text, int [, int]).
func textIntArgs(minN, maxN int) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		if len(args) < minN || len(args) > maxN {
			return nil, types.T{}, false
		}
		if args[0].Family() != types.FamilyString && args[0].OID != types.OIDUnknown {
			return nil, types.T{}, false
		}
		out := []types.T{types.Text}
		for _, a := range args[1:] {
			if a.Family() != types.FamilyInt && a.OID != types.OIDUnknown {
				return nil, types.T{}, false
			}
			out = append(out, types.Int8)
		}
		return out, types.Text, true
	}
}

// anyToText accepts one or more arguments of any type (concat): as
// PostgreSQL's VARIADIC "any", it needs at least one.
func anyToText(args []types.T) ([]types.T, types.T, bool) {
	if len(args) == 0 {
		return nil, types.T{}, false
	}
	out := make([]types.T, len(args))
	for i := range args {
		out[i] = types.Text
	}
	return out, types.Text, true
}

func numericSame(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 || !args[0].IsNumeric() {
		return nil, types.T{}, false
	}
	return args, args[0], true
}

// scalars lists the scalar functions. Leakproof marks those that cannot
// fail or reveal their input except through their result.
var scalars = map[string]Scalar{
	"lower":                 {Name: "lower", Leakproof: true, Resolve: textArgs(1, 1, types.Text)},
	"upper":                 {Name: "upper", Leakproof: true, Resolve: textArgs(1, 1, types.Text)},
	"length":                {Name: "length", Leakproof: true, Resolve: lengthArgs},
	"char_length":           {Name: "length", Leakproof: true, Resolve: textArgs(1, 1, types.Int4)},
	"character_length":      {Name: "length", Leakproof: true, Resolve: textArgs(1, 1, types.Int4)},
	"btrim":                 {Name: "btrim", Leakproof: true, Resolve: withByteaForm(textArgs(1, 2, types.Text), "bb", 2, types.Bytea)},
	"ltrim":                 {Name: "ltrim", Leakproof: true, Resolve: withByteaForm(textArgs(1, 2, types.Text), "bb", 2, types.Bytea)},
	"rtrim":                 {Name: "rtrim", Leakproof: true, Resolve: withByteaForm(textArgs(1, 2, types.Text), "bb", 2, types.Bytea)},
	"replace":               {Name: "replace", Leakproof: true, Resolve: textArgs(3, 3, types.Text)},
	"strpos":                {Name: "strpos", Leakproof: true, Resolve: textArgs(2, 2, types.Int4)},
	"position":              {Name: "strpos", Leakproof: true, Resolve: withByteaForm(textArgs(2, 2, types.Int4), "bb", 2, types.Int4)},
	"starts_with":           {Name: "starts_with", Leakproof: true, Resolve: textArgs(2, 2, types.Bool)},
	"like_escape":           {Name: "like_escape", Resolve: withByteaForm(textArgs(2, 2, types.Text), "bb", 2, types.Bytea)},
	"substr":                {Name: "substr", Resolve: substrArgs},
	"substring":             {Name: "substring", Resolve: substringArgs},
	"left":                  {Name: "left", Leakproof: true, Resolve: textIntArgs(2, 2)},
	"right":                 {Name: "right", Leakproof: true, Resolve: textIntArgs(2, 2)},
	"concat":                {Name: "concat", Leakproof: true, TextOutput: true, Resolve: anyToText},
	"abs":                   {Name: "abs", Resolve: numericSame},
	"array_length":          {Name: "array_length", Leakproof: true, Resolve: arrayArgs([]types.T{types.Int4}, types.Int4)},
	"array_upper":           {Name: "array_upper", Leakproof: true, Resolve: arrayArgs([]types.T{types.Int4}, types.Int4)},
	"array_lower":           {Name: "array_lower", Leakproof: true, Resolve: arrayArgs([]types.T{types.Int4}, types.Int4)},
	"cardinality":           {Name: "cardinality", Leakproof: true, Resolve: arrayArgs(nil, types.Int4)},
	"array_to_string":       {Name: "array_to_string", Leakproof: true, Resolve: arrayToStringArgs},
	"string_to_array":       {Name: "string_to_array", Leakproof: true, Resolve: textArgs(2, 3, types.TextArray)},
	"format":                {Name: "format", TextOutput: true, Resolve: formatArgs},
	"floor":                 {Name: "floor", Leakproof: true, Resolve: roundingArgs},
	"ceil":                  {Name: "ceil", Leakproof: true, Resolve: roundingArgs},
	"ceiling":               {Name: "ceil", Leakproof: true, Resolve: roundingArgs},
	"make_date":             {Name: "make_date", Resolve: makeDateArgs},
	"date_trunc":            {Name: "date_trunc", Resolve: dateTruncArgs},
	"age":                   {Name: "age", Resolve: ageArgs},
	"make_timestamp":        {Name: "make_timestamp", Resolve: makeTimestampArgs},
	"make_timestamptz":      {Name: "make_timestamptz", Resolve: makeTimestampTZArgs},
	"make_time":             {Name: "make_time", Resolve: makeTimeArgs},
	"make_interval":         {Name: "make_interval", Resolve: makeIntervalArgs},
	"justify_days":          {Name: "justify_days", Resolve: intervalArg},
	"justify_hours":         {Name: "justify_hours", Resolve: intervalArg},
	"justify_interval":      {Name: "justify_interval", Resolve: intervalArg},
	"timezone":              {Name: "timezone", Resolve: timezoneArgs},
	"to_timestamp":          {Name: "to_timestamp", Resolve: toTimestampArgs},
	"to_date":               {Name: "to_date", Resolve: textArgs(2, 2, types.Date)},
	"to_char":               {Name: "to_char", Resolve: toCharArgs},
	"round":                 {Name: "round", Resolve: roundArgs},
	"trunc":                 {Name: "trunc", Resolve: roundArgs},
	"mod":                   {Name: "mod", Resolve: modArgs},
	"sign":                  {Name: "sign", Resolve: signArgs},
	"sqrt":                  {Name: "sqrt", Resolve: numericOrFloat1},
	"cbrt":                  {Name: "cbrt", Leakproof: true, Resolve: floatArgs(1)},
	"exp":                   {Name: "exp", Resolve: numericOrFloat1},
	"ln":                    {Name: "ln", Resolve: numericOrFloat1},
	"log":                   {Name: "log", Resolve: logArgs},
	"log10":                 {Name: "log", Resolve: numericOrFloat1},
	"power":                 {Name: "power", Resolve: PowerArgs},
	"pow":                   {Name: "power", Resolve: PowerArgs},
	"pi":                    {Name: "pi", Leakproof: true, Resolve: noArgs(types.Float8)},
	"random":                {Name: "random", Leakproof: true, Resolve: noArgs(types.Float8)},
	"pg_sleep":              {Name: "pg_sleep", Resolve: sleepArgs},
	"width_bucket":          {Name: "width_bucket", Resolve: widthBucketArgs},
	"degrees":               {Name: "degrees", Resolve: floatArgs(1)},
	"sin":                   {Name: "sin", Resolve: floatArgs(1)},
	"cos":                   {Name: "cos", Resolve: floatArgs(1)},
	"tan":                   {Name: "tan", Resolve: floatArgs(1)},
	"cot":                   {Name: "cot", Resolve: floatArgs(1)},
	"asin":                  {Name: "asin", Resolve: floatArgs(1)},
	"acos":                  {Name: "acos", Resolve: floatArgs(1)},
	"atan":                  {Name: "atan", Leakproof: true, Resolve: floatArgs(1)},
	"atan2":                 {Name: "atan2", Leakproof: true, Resolve: floatArgs(2)},
	"sinh":                  {Name: "sinh", Leakproof: true, Resolve: floatArgs(1)},
	"cosh":                  {Name: "cosh", Leakproof: true, Resolve: floatArgs(1)},
	"tanh":                  {Name: "tanh", Leakproof: true, Resolve: floatArgs(1)},
	"date_bin":              {Name: "date_bin", Resolve: dateBinArgs},
	"radians":               {Name: "radians", Resolve: floatArgs(1)},
	"lpad":                  {Name: "lpad", Resolve: padArgs},
	"rpad":                  {Name: "rpad", Resolve: padArgs},
	"repeat":                {Name: "repeat", Resolve: textIntArgs(2, 2)},
	"reverse":               {Name: "reverse", Leakproof: true, Resolve: textArgs(1, 1, types.Text)},
	"initcap":               {Name: "initcap", Leakproof: true, Resolve: textArgs(1, 1, types.Text)},
	"md5":                   {Name: "md5", Leakproof: true, Resolve: withByteaForm(textArgs(1, 1, types.Text), "b", 1, types.Text)},
	"split_part":            {Name: "split_part", Resolve: splitPartArgs},
	"concat_ws":             {Name: "concat_ws", Leakproof: true, TextOutput: true, Resolve: concatWSArgs},
	"regexp_replace":        {Name: "regexp_replace", Resolve: regexpReplaceArgs},
	"regexp_match":          {Name: "regexp_match", Resolve: textArgs(2, 3, types.TextArray)},
	"translate":             {Name: "translate", Leakproof: true, Resolve: textArgs(3, 3, types.Text)},
	"ascii":                 {Name: "ascii", Leakproof: true, Resolve: textArgs(1, 1, types.Int4)},
	"octet_length":          {Name: "octet_length", Leakproof: true, Resolve: octetLengthArgs},
	"div":                   {Name: "div", Resolve: intPairArgs},
	"factorial":             {Name: "factorial", Resolve: factorialArgs},
	"gcd":                   {Name: "gcd", Resolve: intPairArgs},
	"lcm":                   {Name: "lcm", Resolve: intPairArgs},
	"quote_literal":         {Name: "quote_literal", Leakproof: true, Resolve: quoteArgs},
	"quote_nullable":        {Name: "quote_nullable", Leakproof: true, Resolve: quoteArgs},
	"regexp_split_to_array": {Name: "regexp_split_to_array", Resolve: textArgs(2, 3, types.TextArray)},
	"overlay":               {Name: "overlay", Resolve: withByteaForm(overlayArgs, "bbii", 3, types.Bytea)},
	"encode":                {Name: "encode", Resolve: encodeArgs},
	"decode":                {Name: "decode", Resolve: textArgs(2, 2, types.Bytea)},
	"json_typeof":           {Name: "json_typeof", Leakproof: true, Resolve: jsonArgs(types.JSON, types.Text)},
	"jsonb_typeof":          {Name: "json_typeof", Leakproof: true, Resolve: jsonArgs(types.JSONB, types.Text)},
	"json_array_length":     {Name: "json_array_length", Resolve: jsonArgs(types.JSON, types.Int4)},
	"jsonb_array_length":    {Name: "json_array_length", Resolve: jsonArgs(types.JSONB, types.Int4)},
	"chr":                   {Name: "chr", Resolve: intToTextArgs},
	"to_hex":                {Name: "to_hex", Leakproof: true, Resolve: intToTextArgs},
	"pg_size_pretty":        {Name: "pg_size_pretty", Leakproof: true, Resolve: sizePrettyArgs},
	"json_build_object":     {Name: "json_build_object", Resolve: jsonAnyArgs(types.JSON)},
	"jsonb_build_object":    {Name: "jsonb_build_object", Resolve: jsonAnyArgs(types.JSONB)},
	"json_build_array":      {Name: "json_build_array", Leakproof: true, Resolve: jsonAnyArgs(types.JSON)},
	"jsonb_build_array":     {Name: "jsonb_build_array", Leakproof: true, Resolve: jsonAnyArgs(types.JSONB)},
	"to_json":               {Name: "to_json", Leakproof: true, Polymorphic: true, Resolve: toJSONArgs(types.JSON)},
	"to_jsonb":              {Name: "to_jsonb", Leakproof: true, Polymorphic: true, Resolve: toJSONArgs(types.JSONB)},
	"json_strip_nulls":      {Name: "json_strip_nulls", Leakproof: true, Resolve: jsonArgs(types.JSON, types.JSON)},
	"jsonb_strip_nulls":     {Name: "jsonb_strip_nulls", Leakproof: true, Resolve: jsonArgs(types.JSONB, types.JSONB)},
	"jsonb_pretty":          {Name: "jsonb_pretty", Leakproof: true, Resolve: jsonArgs(types.JSONB, types.Text)},
	"mask":                  {Name: "mask", Leakproof: true, Resolve: maskArgs(maskOptionCount)},
	"mask_first_n":          {Name: "mask_first_n", Leakproof: true, Resolve: maskArgs(maskNOptionCount)},
	"mask_last_n":           {Name: "mask_last_n", Leakproof: true, Resolve: maskArgs(maskNOptionCount)},
	"mask_show_first_n":     {Name: "mask_show_first_n", Leakproof: true, Resolve: maskArgs(maskNOptionCount)},
	"mask_show_last_n":      {Name: "mask_show_last_n", Leakproof: true, Resolve: maskArgs(maskNOptionCount)},
	"mask_hash":             {Name: "mask_hash", Leakproof: true, Resolve: maskHashArgs},
	// PostgreSQL's degree-based trigonometric functions fail on an
	// infinite argument or one outside [-1, 1] (asind, acosd).
	"sind":   {Name: "sind", Resolve: floatArgs(1)},
	"cosd":   {Name: "cosd", Resolve: floatArgs(1)},
	"tand":   {Name: "tand", Resolve: floatArgs(1)},
	"cotd":   {Name: "cotd", Resolve: floatArgs(1)},
	"asind":  {Name: "asind", Resolve: floatArgs(1)},
	"acosd":  {Name: "acosd", Resolve: floatArgs(1)},
	"atand":  {Name: "atand", Resolve: floatArgs(1)},
	"atan2d": {Name: "atan2d", Resolve: floatArgs(2)},
	// Not leakproof in PostgreSQL, though none of these can fail.
	"isfinite":     {Name: "isfinite", Resolve: isfiniteArgs},
	"scale":        {Name: "scale", Resolve: numericInfoArgs},
	"min_scale":    {Name: "min_scale", Resolve: numericInfoArgs},
	"bit_length":   {Name: "bit_length", Resolve: bitLengthArgs},
	"sha224":       {Name: "sha224", Resolve: byteaDigestArgs},
	"sha256":       {Name: "sha256", Resolve: byteaDigestArgs},
	"sha384":       {Name: "sha384", Resolve: byteaDigestArgs},
	"sha512":       {Name: "sha512", Resolve: byteaDigestArgs},
	"num_nulls":    {Name: "num_nulls", Resolve: nullCountArgs},
	"num_nonnulls": {Name: "num_nonnulls", Resolve: nullCountArgs},
	// PostgreSQL 15's regular expression functions; a pattern can be
	// invalid, so none is leakproof.
	// Float8 forms of PostgreSQL's catalog: the inverse hyperbolic
	// functions and the d-prefixed names of exp, log10, ln, round and
	// trunc; acosh and atanh fail outside their domains.
	"asinh":  {Name: "asinh", Resolve: floatArgs(1)},
	"acosh":  {Name: "acosh", Resolve: floatArgs(1)},
	"atanh":  {Name: "atanh", Resolve: floatArgs(1)},
	"dexp":   {Name: "exp", Resolve: floatArgs(1)},
	"dlog10": {Name: "log", Resolve: floatArgs(1)},
	"dlog1":  {Name: "ln", Resolve: floatArgs(1)},
	"dround": {Name: "round", Resolve: floatArgs(1)},
	"dtrunc": {Name: "trunc", Resolve: floatArgs(1)},
	// LIKE as functions, and the bits and bytes of bytea; none is
	// leakproof in PostgreSQL (LIKE fails on a pattern ending in its
	// escape, the others on an index outside the value).
	"like":      {Name: "like", Resolve: withByteaForm(textArgs(2, 2, types.Bool), "bb", 2, types.Bool)},
	"notlike":   {Name: "notlike", Resolve: withByteaForm(textArgs(2, 2, types.Bool), "bb", 2, types.Bool)},
	"get_bit":   {Name: "get_bit", Resolve: signatureArgs("bl", 2, types.Int4)},
	"get_byte":  {Name: "get_byte", Resolve: signatureArgs("bi", 2, types.Int4)},
	"set_bit":   {Name: "set_bit", Resolve: signatureArgs("bli", 3, types.Bytea)},
	"set_byte":  {Name: "set_byte", Resolve: signatureArgs("bii", 3, types.Bytea)},
	"bit_count": {Name: "bit_count", Resolve: signatureArgs("b", 1, types.Int8)},
	// textlen is length(text); int4inc adds one, failing past the range.
	"textlen":       {Name: "length", Resolve: textArgs(1, 1, types.Int4)},
	"int4inc":       {Name: "int4inc", Resolve: signatureArgs("i", 1, types.Int4)},
	"regexp_count":  {Name: "regexp_count", Resolve: signatureArgs("ttit", 2, types.Int4)},
	"regexp_instr":  {Name: "regexp_instr", Resolve: signatureArgs("ttiiiti", 2, types.Int4)},
	"regexp_like":   {Name: "regexp_like", Resolve: signatureArgs("ttt", 2, types.Bool)},
	"regexp_substr": {Name: "regexp_substr", Resolve: signatureArgs("ttiiti", 2, types.Text)},
}

// LookupScalar returns the scalar function named name.
func LookupScalar(name string) (Scalar, bool) {
	f, ok := scalars[strings.ToLower(name)]
	if !ok {
		f, ok = numericScalars[strings.ToLower(name)]
	}
	if ok {
		f.Params = scalarParams[f.Name]
	}
	return f, ok
}

// Pattern operators: LIKE (~~), ILIKE (~~*) and POSIX regular
// expressions (~, ~*), with their negations. LIKE cannot fail, so it is
// leakproof; a regular expression can be invalid, which the binder checks
// when the pattern is a constant.
var patternOps = map[string]struct {
	Func      string
	Negated   bool
	Leakproof bool
}{
	"~~":   {Func: "like"},
	"!~~":  {Func: "like", Negated: true},
	"~~*":  {Func: "ilike"},
	"!~~*": {Func: "ilike", Negated: true},
	"~":    {Func: "regex"},
	"!~":   {Func: "regex", Negated: true},
	"~*":   {Func: "iregex"},
	"!~*":  {Func: "iregex", Negated: true},
}

// LookupPatternOp returns the matching function behind a pattern
// operator and whether the operator negates it.
func LookupPatternOp(op string) (fn string, negated, ok bool) {
	p, ok := patternOps[op]
	return p.Func, p.Negated, ok
}

// arrayArgs accepts an array followed by arguments of the given types.
func arrayArgs(rest []types.T, result types.T) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		if len(args) != 1+len(rest) {
			return nil, types.T{}, false
		}
		if _, ok := args[0].Elem(); !ok {
			return nil, types.T{}, false
		}
		return append([]types.T{args[0]}, rest...), result, true
	}
}

func arrayToStringArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 && len(args) != 3 {
		return nil, types.T{}, false
	}
	if _, ok := args[0].Elem(); !ok {
		return nil, types.T{}, false
	}
	// The delimiter and the NULL string are text: no other type has an
	// implicit cast to it.
	for _, a := range args[1:] {
		if a.Family() != types.FamilyString && a.OID != types.OIDUnknown {
			return nil, types.T{}, false
		}
	}
	out := []types.T{args[0], types.Text}
	if len(args) == 3 {
		out = append(out, types.Text)
	}
	return out, types.Text, true
}

// formatArgs accepts format(text, any...): every argument is formatted
// from its text form. Not leakproof: a bad format string fails.
func formatArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) == 0 {
		return nil, types.T{}, false
	}
	out := make([]types.T, len(args))
	for i := range args {
		out[i] = types.Text
	}
	return out, types.Text, true
}

// roundingArgs accepts floor / ceil of a numeric (result: numeric at
// scale 0) or a float (result: double precision); integers are numeric.
func roundingArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 {
		return nil, types.T{}, false
	}
	switch args[0].Family() {
	case types.FamilyFloat:
		return []types.T{types.Float8}, types.Float8, true
	case types.FamilyNumeric:
		return args, types.T{OID: types.OIDNumeric}, true
	case types.FamilyInt:
		return []types.T{{OID: types.OIDNumeric}}, types.T{OID: types.OIDNumeric}, true
	}
	return nil, types.T{}, false
}
