package functions

import "github.com/sqe-db/sqe/sql/types"

// Resolvers of scalar functions PostgreSQL 15 has over SQE's types that
// are registered in scalars: the degree-based trigonometric functions,
// isfinite, the numeric scale functions, bit_length, the SHA-2 digests,
// num_nulls and num_nonnulls, and the bytea forms of substring.

// isfiniteArgs is isfinite(date | timestamp | timestamptz | interval).
func isfiniteArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 {
		return nil, types.T{}, false
	}
	switch args[0].Family() {
	case types.FamilyDate, types.FamilyTimestamp, types.FamilyInterval:
		return args, types.Bool, true
	}
	return nil, types.T{}, false
}

// numericInfoArgs is scale(numeric) and min_scale(numeric) → integer; an
// integer argument converts to numeric.
func numericInfoArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 {
		return nil, types.T{}, false
	}
	switch a := args[0]; {
	case a.Family() == types.FamilyNumeric:
		return args, types.Int4, true
	case a.Family() == types.FamilyInt || a.OID == types.OIDUnknown:
		return []types.T{{OID: types.OIDNumeric}}, types.Int4, true
	}
	return nil, types.T{}, false
}

// bitLengthArgs is bit_length(text) and bit_length(bytea).
func bitLengthArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) == 1 && args[0].Family() == types.FamilyBytes {
		return []types.T{types.Bytea}, types.Int4, true
	}
	return textArgs(1, 1, types.Int4)(args)
}

// byteaDigestArgs is sha224, sha256, sha384 and sha512 (bytea) → bytea;
// an untyped literal is read as bytea, text is not accepted, as in
// PostgreSQL.
func byteaDigestArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) == 1 && (args[0].Family() == types.FamilyBytes || args[0].OID == types.OIDUnknown) {
		return []types.T{types.Bytea}, types.Bytea, true
	}
	return nil, types.T{}, false
}

// nullCountArgs is num_nulls and num_nonnulls (VARIADIC "any"): at least
// one argument, of any type, counted without being converted.
func nullCountArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) == 0 {
		return nil, types.T{}, false
	}
	out := make([]types.T, len(args))
	for i, a := range args {
		out[i] = a
		if a.OID == types.OIDUnknown {
			out[i] = types.Text
		}
	}
	return out, types.Int4, true
}

// quoteArgs is quote_literal and quote_nullable of text or anyelement:
// PostgreSQL's anyelement forms quote the value cast to text.
func quoteArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 {
		return nil, types.T{}, false
	}
	return []types.T{types.Text}, types.Text, true
}

// byteaSubstrArgs is substring/substr(bytea, int [, int]) → bytea, with
// the positions as for text.
func byteaSubstrArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) < 2 || len(args) > 3 || args[0].Family() != types.FamilyBytes {
		return nil, types.T{}, false
	}
	out := []types.T{types.Bytea}
	for _, a := range args[1:] {
		if !isIntArg(a) {
			return nil, types.T{}, false
		}
		out = append(out, types.Int8)
	}
	return out, types.Bytea, true
}

// substrArgs is substr(text | bytea, int [, int]).
func substrArgs(args []types.T) ([]types.T, types.T, bool) {
	if want, res, ok := byteaSubstrArgs(args); ok {
		return want, res, ok
	}
	return textIntArgs(2, 3)(args)
}

// signatureArgs accepts the parameter lists of a function whose trailing
// parameters are optional, each parameter a letter of kinds: t text, i
// integer (int4; smallint and untyped literals convert, bigint does not,
// as PostgreSQL has no implicit bigint to integer cast), b bytea, l
// bigint. At least minN arguments are required.
func signatureArgs(kinds string, minN int, result types.T) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		if len(args) < minN || len(args) > len(kinds) {
			return nil, types.T{}, false
		}
		out := make([]types.T, len(args))
		for i, a := range args {
			t, ok := signatureArg(kinds[i], a)
			if !ok {
				return nil, types.T{}, false
			}
			out[i] = t
		}
		return out, result, true
	}
}

func signatureArg(kind byte, a types.T) (types.T, bool) {
	unknown := a.OID == types.OIDUnknown
	switch kind {
	case 't':
		return types.Text, a.Family() == types.FamilyString || unknown
	case 'i':
		return types.Int4, a.OID == types.OIDInt4 || a.OID == types.OIDInt2 || unknown
	case 'l':
		return types.Int8, a.Family() == types.FamilyInt || unknown
	case 'b':
		return types.Bytea, a.Family() == types.FamilyBytes || unknown
	}
	return types.T{}, false
}

// regexpReplaceArgs is regexp_replace(text, text, text [, text]) and
// regexp_replace(text, text, text, integer [, integer [, text]]).
func regexpReplaceArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) == 4 && (args[3].Family() == types.FamilyString || args[3].OID == types.OIDUnknown) {
		return textArgs(4, 4, types.Text)(args)
	}
	return signatureArgs("tttiit", 3, types.Text)(args)
}

// withByteaForm accepts a string function's text forms and, when an
// argument is bytea, its bytea form: the parameter kinds of
// signatureArgs, at least minN of them.
func withByteaForm(text func([]types.T) ([]types.T, types.T, bool), kinds string, minN int, result types.T) func([]types.T) ([]types.T, types.T, bool) {
	bytea := signatureArgs(kinds, minN, result)
	return func(args []types.T) ([]types.T, types.T, bool) {
		for _, a := range args {
			if a.Family() == types.FamilyBytes {
				return bytea(args)
			}
		}
		return text(args)
	}
}
