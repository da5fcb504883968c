package functions

import "github.com/sqe-db/sqe/sql/types"

// String functions beyond the basic ones in scalar.go.

// padArgs is lpad/rpad(text, int [, text]).
func padArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 && len(args) != 3 {
		return nil, types.T{}, false
	}
	if !isTextLike(args[0]) || (args[1].Family() != types.FamilyInt && args[1].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	out := []types.T{types.Text, types.Int4}
	if len(args) == 3 {
		if !isTextLike(args[2]) {
			return nil, types.T{}, false
		}
		out = append(out, types.Text)
	}
	return out, types.Text, true
}

// textIntTextArgs is split_part(text, text, int).
func splitPartArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 3 || !isTextLike(args[0]) || !isTextLike(args[1]) || (args[2].Family() != types.FamilyInt && args[2].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	return []types.T{types.Text, types.Text, types.Int4}, types.Text, true
}

// intToTextArgs is chr(int) and to_hex(int).
func intToTextArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 || (args[0].Family() != types.FamilyInt && args[0].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	t := types.Int4
	if args[0].OID == types.OIDInt8 {
		t = types.Int8
	}
	return []types.T{t}, types.Text, true
}

// sizePrettyArgs is pg_size_pretty(bigint). PostgreSQL also has a
// numeric form, which makes a smaller integer or an unknown literal
// ambiguous there (42725); SQE has only the bigint form and does not
// widen.
func sizePrettyArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 || args[0].OID != types.OIDInt8 {
		return nil, types.T{}, false
	}
	return []types.T{types.Int8}, types.Text, true
}

// concatWSArgs is concat_ws(separator, any...).
func concatWSArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) < 2 || !isTextLike(args[0]) {
		return nil, types.T{}, false
	}
	return anyToText(args)
}

func isTextLike(t types.T) bool { return t.Family() == types.FamilyString || t.OID == types.OIDUnknown }

// substringArgs is substring(text FROM int [FOR int]) and
// substring(text FROM pattern), the POSIX regular-expression form, which
// an untyped second argument resolves to, as in PostgreSQL.
func substringArgs(args []types.T) ([]types.T, types.T, bool) {
	if want, res, ok := byteaSubstrArgs(args); ok {
		return want, res, ok
	}
	if len(args) == 2 && isTextLike(args[0]) && isTextLike(args[1]) {
		return []types.T{types.Text, types.Text}, types.Text, true
	}
	return textIntArgs(2, 3)(args)
}

// lengthArgs is length(text) and length(bytea) (bytes).
func lengthArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) == 1 && args[0].Family() == types.FamilyBytes {
		return []types.T{types.Bytea}, types.Int4, true
	}
	return textArgs(1, 1, types.Int4)(args)
}

// octetLengthArgs is lengthArgs, except that a character(n) value is
// measured as stored, its padding included (bpcharoctetlen), not as the
// text it converts to.
func octetLengthArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) == 1 && args[0].OID == types.OIDBpchar {
		return []types.T{args[0]}, types.Int4, true
	}
	return lengthArgs(args)
}

// encodeArgs is encode(bytea, format) → text.
func encodeArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 || (args[0].Family() != types.FamilyBytes && args[0].OID != types.OIDUnknown) || !isTextLike(args[1]) {
		return nil, types.T{}, false
	}
	return []types.T{types.Bytea, types.Text}, types.Text, true
}

// overlayArgs is overlay(text PLACING text FROM int [FOR int]).
func overlayArgs(args []types.T) ([]types.T, types.T, bool) {
	if (len(args) != 3 && len(args) != 4) || !isTextLike(args[0]) || !isTextLike(args[1]) {
		return nil, types.T{}, false
	}
	out := []types.T{types.Text, types.Text}
	for _, a := range args[2:] {
		if a.Family() != types.FamilyInt && a.OID != types.OIDUnknown {
			return nil, types.T{}, false
		}
		out = append(out, types.Int4)
	}
	return out, types.Text, true
}

// jsonArgs accepts one json or jsonb value (or an untyped literal, read
// as jsonb for the jsonb_ functions and json for the json_ ones).
func jsonArgs(t types.T, result types.T) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		if len(args) != 1 || (args[0].OID != t.OID && args[0].OID != types.OIDUnknown) {
			return nil, types.T{}, false
		}
		return []types.T{t}, result, true
	}
}
