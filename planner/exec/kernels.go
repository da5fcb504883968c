package exec

import (
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/types"
)

// kernelFactory makes one instance of a scalar kernel. Every compiled call
// gets its own instance, so a kernel that keeps state (the compiled
// patterns of the regular expression functions) shares it with no other
// call and no other goroutine.
type kernelFactory func() scalarKernel

// fixed is the factory of a kernel that keeps no state.
func fixed(k scalarKernel) kernelFactory { return func() scalarKernel { return k } }

// scalarKernels is the kernel table: every function name the planner can
// send down the scalar kernel path (a registered function's canonical
// name, or an operator, cast or special form the binder turns into a
// call), with the factory of its kernel. A name missing here fails when
// the call is compiled; specialForms lists the registered functions that
// are compiled another way.
func scalarKernels() map[string]kernelFactory {
	return map[string]kernelFactory{
		// Strings (kernel_string*.go, kernel_casefold.go,
		// kernel_format_text.go, kernel_bit_length.go).
		"lower":           func() scalarKernel { return asciiCaseKernel(false) },
		"upper":           func() scalarKernel { return asciiCaseKernel(true) },
		"initcap":         fixed(initcapKernel),
		"length":          fixed(length),
		"btrim":           func() scalarKernel { return trimKernel("btrim") },
		"ltrim":           func() scalarKernel { return trimKernel("ltrim") },
		"rtrim":           func() scalarKernel { return trimKernel("rtrim") },
		"replace":         fixed(replaceKernel),
		"strpos":          fixed(strpos),
		"starts_with":     fixed(startsWith),
		"substr":          fixed(substrKernel),
		"substring":       fixed(substringKernel),
		"left":            func() scalarKernel { return leftRight(true) },
		"right":           func() scalarKernel { return leftRight(false) },
		"concat":          fixed(concatKernel),
		"concat_ws":       fixed(concatWS),
		"format":          fixed(formatKernel),
		"string_to_array": fixed(stringToArray),
		"lpad":            func() scalarKernel { return padKernel(true) },
		"rpad":            func() scalarKernel { return padKernel(false) },
		"repeat":          repeatKernel,
		"reverse":         reverseKernel,
		"split_part":      func() scalarKernel { return rowKernel(splitPart) },
		"translate":       translateKernel,
		"ascii":           asciiKernel,
		"chr":             chrKernel,
		"octet_length":    octetLengthKernel,
		"bit_length":      fixed(bitLengthKernel),
		"quote_literal":   func() scalarKernel { return quoteKernel(false) },
		"quote_nullable":  func() scalarKernel { return quoteKernel(true) },
		"overlay":         func() scalarKernel { return rowKernel(overlay) },
		"md5":             md5Kernel,
		"to_hex":          fixed(toHexKernel),
		"pg_size_pretty":  func() scalarKernel { return rowKernel(sizePretty) },
		// The boolean's output function (t, f), for concat and format.
		"bool_out": fixed(boolOutKernel),

		// LIKE and the regular expressions (kernel_like.go,
		// kernel_regexp.go, kernel_regexp_posix.go).
		"like":                  func() scalarKernel { return matchKernel("like") },
		"ilike":                 func() scalarKernel { return matchKernel("ilike") },
		"regex":                 func() scalarKernel { return matchKernel("regex") },
		"iregex":                func() scalarKernel { return matchKernel("iregex") },
		"notlike":               fixed(notLikeKernel),
		"like_escape":           fixed(likeEscapeKernel),
		"regexp_replace":        regexpReplaceKernel,
		"regexp_match":          func() scalarKernel { return regexpKernel(true) },
		"regexp_split_to_array": fixed(regexpSplit),
		"regexp_count":          func() scalarKernel { return regexpFamilyKernel(regexpCount) },
		"regexp_instr":          func() scalarKernel { return regexpFamilyKernel(regexpInstr) },
		"regexp_like":           func() scalarKernel { return regexpFamilyKernel(regexpLike) },
		"regexp_substr":         func() scalarKernel { return regexpFamilyKernel(regexpSubstr) },

		// bytea (kernel_bytea*.go, kernel_sha2.go); the bytea forms of
		// string functions are in byteaKernels.
		"byteacat":  fixed(byteaCat),
		"encode":    encodeKernel,
		"decode":    decodeKernel,
		"get_bit":   fixed(getBitKernel),
		"get_byte":  fixed(getByteKernel),
		"set_bit":   fixed(setBitKernel),
		"set_byte":  fixed(setByteKernel),
		"bit_count": fixed(bitCountKernel),
		"sha224":    func() scalarKernel { return sha2Kernel(sha256.New224) },
		"sha256":    func() scalarKernel { return sha2Kernel(sha256.New) },
		"sha384":    func() scalarKernel { return sha2Kernel(sha512.New384) },
		"sha512":    func() scalarKernel { return sha2Kernel(sha512.New) },

		// Arithmetic and rounding (kernel_math.go, kernel_math_integer.go,
		// kernel_extract.go, kernel_arith.go, kernel_numeric_info.go,
		// kernel_isfinite.go, kernel_null_count.go).
		"abs":          fixed(absKernel),
		"sign":         fixed(signKernel),
		"mod":          fixed(modKernel),
		"div":          func() scalarKernel { return intPairKernel("div") },
		"gcd":          func() scalarKernel { return intPairKernel("gcd") },
		"lcm":          func() scalarKernel { return intPairKernel("lcm") },
		"factorial":    func() scalarKernel { return rowKernel(factorial) },
		"floor":        func() scalarKernel { return roundingKernel(false) },
		"ceil":         func() scalarKernel { return roundingKernel(true) },
		"round":        func() scalarKernel { return roundKernel(true) },
		"trunc":        func() scalarKernel { return roundKernel(false) },
		"width_bucket": func() scalarKernel { return rowKernel(widthBucket) },
		"greatest":     func() scalarKernel { return minMaxKernel(true) },
		"least":        func() scalarKernel { return minMaxKernel(false) },
		"scale":        func() scalarKernel { return numericInfo(scaleOf) },
		"min_scale":    func() scalarKernel { return numericInfo(minScale) },
		"int4inc":      fixed(int4IncKernel),
		"isfinite":     fixed(isfiniteKernel),
		"num_nulls":    func() scalarKernel { return nullCountKernel(true) },
		"num_nonnulls": func() scalarKernel { return nullCountKernel(false) },

		// Integer bitwise operators (kernel_bitwise.go).
		"bitand":        func() scalarKernel { return bitwise2(func(a, b int64) int64 { return a & b }) },
		"bitor":         func() scalarKernel { return bitwise2(func(a, b int64) int64 { return a | b }) },
		"bitxor":        func() scalarKernel { return bitwise2(func(a, b int64) int64 { return a ^ b }) },
		"bitnot":        fixed(bitnotKernel),
		"bitshiftleft":  func() scalarKernel { return shiftKernel(true) },
		"bitshiftright": func() scalarKernel { return shiftKernel(false) },

		// Powers, logarithms and constants (kernel_math.go).
		"sqrt":   sqrtKernel,
		"cbrt":   func() scalarKernel { return floatKernel(math.Cbrt) },
		"exp":    expKernel,
		"ln":     lnKernel,
		"log":    func() scalarKernel { return numericOrFloat("log", logKernel) },
		"power":  powerKernel,
		"pi":     func() scalarKernel { return constKernel(math.Pi) },
		"random": fixed(randomKernel),

		// Trigonometry in radians (kernel_math.go) and in degrees
		// (kernel_trig_degrees.go).
		"sin":     func() scalarKernel { return float1(trigFunction("sin")) },
		"cos":     func() scalarKernel { return float1(trigFunction("cos")) },
		"tan":     func() scalarKernel { return float1(trigFunction("tan")) },
		"cot":     func() scalarKernel { return float1(trigFunction("cot")) },
		"asin":    func() scalarKernel { return float1(trigFunction("asin")) },
		"acos":    func() scalarKernel { return float1(trigFunction("acos")) },
		"atan":    func() scalarKernel { return float1(trigFunction("atan")) },
		"sinh":    func() scalarKernel { return float1(trigFunction("sinh")) },
		"cosh":    func() scalarKernel { return float1(trigFunction("cosh")) },
		"tanh":    func() scalarKernel { return float1(trigFunction("tanh")) },
		"asinh":   func() scalarKernel { return floatKernel(math.Asinh) },
		"acosh":   acoshKernel,
		"atanh":   atanhKernel,
		"atan2":   atan2Kernel,
		"degrees": degreesKernel,
		"radians": func() scalarKernel { return float1(radians) },
		"sind":    func() scalarKernel { return degreesTrigKernel(degreeConstants.sind) },
		"cosd":    func() scalarKernel { return degreesTrigKernel(degreeConstants.cosd) },
		"tand":    func() scalarKernel { return degreesTrigKernel(degreeConstants.tand) },
		"cotd":    func() scalarKernel { return degreesTrigKernel(degreeConstants.cotd) },
		"asind":   func() scalarKernel { return degreesTrigKernel(degreeConstants.asind) },
		"acosd":   func() scalarKernel { return degreesTrigKernel(degreeConstants.acosd) },
		"atand":   func() scalarKernel { return degreesTrigKernel(degreeConstants.atand) },
		"atan2d":  atan2dKernel,

		// Dates and times (kernel_datetime_funcs.go, kernel_extract.go,
		// kernel_format.go, kernel_overlaps.go); the session zone's forms
		// are lookupZonedKernel's.
		"extract":          fixed(extractKernel),
		"extract_row_unit": func() scalarKernel { return extractRowUnitKernel(time.UTC) },
		"date_trunc":       fixed(dateTrunc),
		"date_bin":         func() scalarKernel { return rowKernel(dateBin) },
		"age":              ageKernel,
		"make_date":        fixed(makeDate),
		"make_time":        func() scalarKernel { return rowKernel(makeTime) },
		"make_timestamp":   func() scalarKernel { return rowKernel(makeTimestamp) },
		"make_timestamptz": func() scalarKernel { return makeTimestampTZKernel(time.UTC) },
		"make_interval":    fixed(makeIntervalKernel),
		"justify_days":     func() scalarKernel { return justifyKernel("justify_days") },
		"justify_hours":    func() scalarKernel { return justifyKernel("justify_hours") },
		"justify_interval": func() scalarKernel { return justifyKernel("justify_interval") },
		"timezone":         fixed(timezoneKernel),
		"to_timestamp":     toTimestampKernel,
		"to_date":          func() scalarKernel { return parseTemplateKernel(true) },
		"to_char":          fixed(toCharKernel),
		"overlaps":         fixed(overlapsKernel),

		// Arrays by name (kernel_array.go); the functions whose kernel
		// needs the element type are arrayFuncKernel's.
		"array_length":    func() scalarKernel { return arrayFunctionKernel("array_length") },
		"array_upper":     func() scalarKernel { return arrayFunctionKernel("array_upper") },
		"array_lower":     func() scalarKernel { return arrayFunctionKernel("array_lower") },
		"cardinality":     func() scalarKernel { return arrayFunctionKernel("cardinality") },
		"array_to_string": func() scalarKernel { return arrayFunctionKernel("array_to_string") },

		// json and jsonb (kernel_json.go, kernel_jsonb_ops.go,
		// kernel_jsonb_casts.go, kernel_json_inspect.go): the extraction
		// operators, the jsonb operators, the reprinting functions and
		// the casts of jsonb.
		"json_field":         func() scalarKernel { return jsonExtractKernel(jsonFieldOf, false) },
		"json_field_text":    func() scalarKernel { return jsonExtractKernel(jsonFieldOf, true) },
		"json_element":       func() scalarKernel { return jsonExtractKernel(jsonElementOf, false) },
		"json_element_text":  func() scalarKernel { return jsonExtractKernel(jsonElementOf, true) },
		"jsonb_element":      func() scalarKernel { return jsonExtractKernel(jsonbElementOf, false) },
		"jsonb_element_text": func() scalarKernel { return jsonExtractKernel(jsonbElementOf, true) },
		"json_path":          func() scalarKernel { return jsonExtractKernel(jsonPathOf, false) },
		"json_path_text":     func() scalarKernel { return jsonExtractKernel(jsonPathOf, true) },
		"jsonb_concat":       func() scalarKernel { return jsonTextMap2(types.JSONBConcat) },
		"jsonb_delete":       jsonbDeleteKernel,
		"jsonb_delete_keys":  jsonbDeleteKeysKernel,
		"jsonb_delete_index": jsonbDeleteIndexKernel,
		"jsonb_contains":     jsonbContainsKernel,
		"jsonb_exists":       jsonbExistsKernel,
		"jsonb_exists_any":   func() scalarKernel { return jsonbExistsAnyKernel(false) },
		"jsonb_exists_all":   func() scalarKernel { return jsonbExistsAnyKernel(true) },
		"json_strip_nulls":   func() scalarKernel { return jsonTextMap(types.JSONStripNulls) },
		"jsonb_strip_nulls":  func() scalarKernel { return jsonTextMap(types.JSONBStripNulls) },
		"jsonb_pretty":       func() scalarKernel { return jsonTextMap(types.JSONBPretty) },
		"json_typeof":        jsonTypeofKernel,
		"json_array_length":  jsonArrayLengthKernel,
		"jsonb_bool":         jsonbBoolKernel,
		"jsonb_number_text":  jsonbNumberTextKernel,

		// Masking (kernel_mask*.go). mask_hash here is unkeyed:
		// evaluation passes the server's key (lookupKeyedKernel).
		"mask":              func() scalarKernel { return maskFuncKernel(maskAll) },
		"mask_first_n":      func() scalarKernel { return maskFuncKernel(maskFirstN) },
		"mask_last_n":       func() scalarKernel { return maskFuncKernel(maskLastN) },
		"mask_show_first_n": func() scalarKernel { return maskFuncKernel(maskShowFirstN) },
		"mask_show_last_n":  func() scalarKernel { return maskFuncKernel(maskShowLastN) },
		"mask_hash": fixed(func(args []arrow.Array, res types.T) (arrow.Array, error) {
			return maskHash(nil, args, res)
		}),
	}
}

// byteaKernels are the bytea forms of string functions (kernel_bytea*.go):
// they work on bytes where the text forms work on characters, and
// lookupKernel runs them when a call's first argument is bytea.
func byteaKernels() map[string]kernelFactory {
	return map[string]kernelFactory{
		"btrim":       func() scalarKernel { return byteaTrimKernel(true, true) },
		"ltrim":       func() scalarKernel { return byteaTrimKernel(true, false) },
		"rtrim":       func() scalarKernel { return byteaTrimKernel(false, true) },
		"strpos":      fixed(byteaPositionKernel),
		"md5":         fixed(byteaMD5Kernel),
		"overlay":     fixed(byteaOverlayKernel),
		"like":        func() scalarKernel { return byteaLikeKernel(false) },
		"notlike":     func() scalarKernel { return byteaLikeKernel(true) },
		"like_escape": fixed(byteaLikeEscapeKernel),
	}
}

// specialForms are the registered functions whose calls are compiled
// outside the scalar kernel table, with where: their kernel depends on
// the arguments' SQL types or needs the query's context. (Aggregates,
// window functions, set-returning functions, CASE, COALESCE and casts are
// planner nodes of their own, never function calls here.)
func specialForms() map[string]string {
	const (
		context = "lookupContextKernel: waits under the query's context"
		general = "generalNumericKernel: over general numerics"
		json    = "jsonTypedKernel: renders each argument by its SQL type"
	)
	return map[string]string{
		"pg_sleep":           context,
		"trim_scale":         general,
		"numeric_inc":        general,
		"json_build_object":  json,
		"jsonb_build_object": json,
		"json_build_array":   json,
		"jsonb_build_array":  json,
		"to_json":            json,
		"to_jsonb":           json,
	}
}

// lookupKernel finds the kernel of a function in the kernel table; a
// string function with a bytea form runs it when its first argument is
// bytea.
func lookupKernel(name string) (scalarKernel, error) {
	factory, ok := kernelTables().scalar[name]
	if !ok {
		return nil, fmt.Errorf("function %s cannot be executed", name)
	}
	k := factory()
	if bytea, ok := kernelTables().bytea[name]; ok {
		return withByteaForm(bytea(), k), nil
	}
	return k, nil
}

// kernelTables are the scalar and bytea kernel tables, built once on
// first use and only read after: a compiled call takes its kernel from a
// fresh factory call, so no kernel state is shared.
var kernelTables = sync.OnceValue(func() struct{ scalar, bytea map[string]kernelFactory } {
	return struct{ scalar, bytea map[string]kernelFactory }{scalarKernels(), byteaKernels()}
})
