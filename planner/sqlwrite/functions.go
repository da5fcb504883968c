package sqlwrite

import (
	"math"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// writtenFunction is a scalar function the writer writes, in the
// dialects whose function of that spelling gives SQE's answer for every
// argument it is given.
type writtenFunction struct {
	// spell is the call's function name in the dialect (nil: the
	// plan's).
	spell func(f *planner.Func) string
	// exact says whether the call f is exact in dialect d.
	exact func(d Dialect, f *planner.Func) bool
}

// writtenFunctions are the scalar functions written by name, beside the
// masks (mask.go) and LIKE (likeCall). What each checks is why its
// dialect's function means the same:
//   - PostgreSQL's functions are the ones SQE implements, under the
//     settings the engine's connections fix (DateStyle ISO, UTC) and the
//     C collation the writer names for comparisons;
//   - Trino's differ at the edges: substr counts a negative start from
//     the end, replace inserts at every position for an empty search,
//     concat is NULL when an argument is, greatest and least are NULL
//     when one is; those are written for Trino only where the edge
//     cannot occur (a constant argument proves it) or not at all.
func writtenFunctions() map[string]writtenFunction {
	textArgs := func(n int) func(Dialect, *planner.Func) bool {
		return func(_ Dialect, f *planner.Func) bool {
			if len(f.Args) != n {
				return false
			}
			for _, a := range f.Args {
				if !isText(a.Type()) {
					return false
				}
			}
			return true
		}
	}
	postgresOnly := func(check func(Dialect, *planner.Func) bool) func(Dialect, *planner.Func) bool {
		return func(d Dialect, f *planner.Func) bool { return d == PostgreSQL && check(d, f) }
	}
	m := map[string]writtenFunction{
		"abs": {exact: func(d Dialect, f *planner.Func) bool {
			return d == PostgreSQL || (len(f.Args) == 1 && (isInt(f.Typ) || f.Typ.OID == types.OIDFloat8))
		}},
		"length": {exact: func(d Dialect, f *planner.Func) bool {
			return textArgs(1)(d, f) || (d == PostgreSQL && len(f.Args) == 1 && f.Args[0].Type().OID == types.OIDBytea)
		}},
		"char_length": {spell: func(*planner.Func) string { return "length" }, exact: textArgs(1)},
		"coalesce":    {exact: func(Dialect, *planner.Func) bool { return true }},
		"strpos":      {exact: textArgs(2)},
		"replace": {exact: func(d Dialect, f *planner.Func) bool {
			if !textArgs(3)(d, f) {
				return false
			}
			return d == PostgreSQL || nonEmptyConstText(f.Args[1])
		}},
		"substr": {exact: func(d Dialect, f *planner.Func) bool {
			if (len(f.Args) != 2 && len(f.Args) != 3) || !isText(f.Args[0].Type()) || !int4Arg(f.Args[1]) {
				return false
			}
			if len(f.Args) == 3 && !int4Arg(f.Args[2]) {
				return false
			}
			return d == PostgreSQL || positiveConstInt(f.Args[1])
		}},
		"left": {exact: postgresOnly(func(_ Dialect, f *planner.Func) bool {
			return len(f.Args) == 2 && isText(f.Args[0].Type()) && int4Arg(f.Args[1])
		})},
		"right": {exact: postgresOnly(func(_ Dialect, f *planner.Func) bool {
			return len(f.Args) == 2 && isText(f.Args[0].Type()) && int4Arg(f.Args[1])
		})},
		"concat": {exact: postgresOnly(func(_ Dialect, f *planner.Func) bool { return textArgs(len(f.Args))(PostgreSQL, f) })},
		"btrim":  {exact: postgresOnly(func(_ Dialect, f *planner.Func) bool { return textArgs(len(f.Args))(PostgreSQL, f) })},
		"ltrim":  {exact: postgresOnly(func(_ Dialect, f *planner.Func) bool { return textArgs(len(f.Args))(PostgreSQL, f) })},
		"rtrim":  {exact: postgresOnly(func(_ Dialect, f *planner.Func) bool { return textArgs(len(f.Args))(PostgreSQL, f) })},
		// random() is a double in [0, 1) in both. It is evaluated once per
		// row of the node that computes it, as in SQE: PostgreSQL computes
		// a WITH query once (it is written MATERIALIZED); Trino may compute
		// one at every reference, so cte refuses a WITH query holding it
		// that is read more than once there.
		"random": {exact: func(_ Dialect, f *planner.Func) bool { return len(f.Args) == 0 }},
	}
	// PostgreSQL's functions of these names are SQE's for arguments whose
	// meaning no session setting changes (no instant: its zone is the
	// caller's here and UTC there).
	for _, name := range []string{
		"upper", "lower", "greatest", "least", "round", "trunc", "floor", "ceil", "ceiling", "sign",
		"sqrt", "mod", "md5", "octet_length", "bit_length", "regexp_replace", "to_char",
		"date_trunc", "substring", "reverse", "repeat", "lpad", "rpad", "split_part", "starts_with", "translate",
		"ascii", "chr", "to_hex", "nullif", "initcap", "div", "gcd", "lcm", "cbrt", "pi", "make_date", "overlay",
		"encode", "decode", "concat_ws", "like_escape", "array_length", "array_to_string", "justify_hours",
		"array_append", "array_prepend", "array_cat", "array_position", "array_remove", "string_to_array",
		"regexp_match", "regexp_split_to_array", "json_build_object", "jsonb_build_object", "json_build_array",
		"jsonb_build_array", "jsonb_strip_nulls", "jsonb_pretty", "quote_ident", "quote_literal",
		"quote_nullable", "to_date", "make_timestamp", "age",
		"cardinality", "array_replace", "to_timestamp", "justify_days", "justify_interval",
		"width_bucket", "factorial", "format", "array_upper", "array_lower", "array_ndims", "array_dims",
		"arrayoverlap", "overlaps",
	} {
		if _, written := m[name]; !written {
			m[name] = writtenFunction{exact: postgresOnly(func(Dialect, *planner.Func) bool { return true })}
		}
	}
	// pg_size_pretty of an integer is ambiguous in PostgreSQL (bigint or
	// numeric).
	m["pg_size_pretty"] = writtenFunction{exact: postgresOnly(func(_ Dialect, f *planner.Func) bool {
		return len(f.Args) == 1 && (f.Args[0].Type().OID == types.OIDInt8 || f.Args[0].Type().OID == types.OIDNumeric)
	})}
	// SQE names json's and jsonb's functions alike; PostgreSQL spells
	// jsonb's with its prefix.
	for _, name := range []string{"json_typeof", "json_array_length"} {
		m[name] = writtenFunction{
			exact: postgresOnly(func(_ Dialect, f *planner.Func) bool {
				return len(f.Args) == 1 && (f.Args[0].Type().OID == types.OIDJSON || f.Args[0].Type().OID == types.OIDJSONB)
			}),
			spell: func(f *planner.Func) string {
				if f.Args[0].Type().OID == types.OIDJSONB {
					return "jsonb" + strings.TrimPrefix(f.Name, "json")
				}
				return f.Name
			},
		}
	}
	// to_json and to_jsonb render their argument as json_build_array
	// renders each of its own, which PostgreSQL and SQE do alike (a
	// float's digits too); so do the json builders, and array_to_string
	// prints its elements' text.
	for _, name := range []string{"to_json", "to_jsonb"} {
		m[name] = writtenFunction{exact: postgresOnly(func(_ Dialect, f *planner.Func) bool { return len(f.Args) == 1 })}
	}
	for _, name := range []string{"json_build_object", "jsonb_build_object", "json_build_array", "jsonb_build_array", "array_to_string"} {
		m[name] = writtenFunction{exact: postgresOnly(func(Dialect, *planner.Func) bool { return true })}
	}
	m["make_interval"] = writtenFunction{exact: postgresOnly(func(_ Dialect, f *planner.Func) bool { return exactMakeInterval(f) })}
	m["timezone"] = writtenFunction{exact: postgresOnly(func(_ Dialect, f *planner.Func) bool { return namedZone(f) })}
	// Transcendental functions of numeric are computed digit by digit
	// alike; of floats, by each side's math library, which may differ in
	// the last bit.
	for _, name := range []string{"power", "exp", "ln", "log", "log10"} {
		m[name] = writtenFunction{exact: postgresOnly(func(_ Dialect, f *planner.Func) bool {
			for _, a := range f.Args {
				if a.Type().OID != types.OIDNumeric {
					return false
				}
			}
			return true
		})}
	}
	return m
}

// writtenFunction is the function written under the plan's name, built
// once per statement.
func (w *writer) writtenFunction(name string) (writtenFunction, bool) {
	if w.functions == nil {
		w.functions = writtenFunctions()
	}
	wf, ok := w.functions[name]
	return wf, ok
}

// readsZone reports whether f's answer depends on the session's time
// zone: an argument is a timestamp with time zone (its fields and text
// are the zone's), or a date given to a function PostgreSQL reads it in
// as an instant (date_trunc, to_char, date_part).
func readsZone(f *planner.Func) bool {
	if f.Name == "timezone" {
		// x AT TIME ZONE zone reads the session's zone only when zone is
		// not a constant naming one.
		return !namedZone(f)
	}
	if f.Name == "to_timestamp" && len(f.Args) == 2 {
		// to_timestamp(text, format) reads a local time in the zone.
		return true
	}
	for _, a := range f.Args {
		if elem, isArray := a.Type().Elem(); isArray && elem.OID == types.OIDTimestampTZ {
			// An array's instants are read as its elements are (as text,
			// or rendered as json).
			return true
		}
		switch a.Type().OID {
		case types.OIDTimestampTZ:
			return true
		case types.OIDDate:
			if f.Name == "date_trunc" || f.Name == "to_char" {
				return true
			}
		}
	}
	return false
}

// takesInt4 reports whether PostgreSQL declares the integer parameters
// of the function name as integer only: an integer literal (bound as
// bigint) is passed to it as integer. Elsewhere it stays bigint, since a
// function with both forms (pg_size_pretty(bigint | numeric)) would find
// an integer ambiguous.
func takesInt4(name string) bool {
	switch name {
	case "substr", "substring", "left", "right", "lpad", "rpad", "repeat", "round", "trunc", "split_part",
		"overlay", "make_date", "make_timestamp", "chr", "width_bucket", "array_position", "make_interval":
		return true
	}
	return false
}

// int4Arg reports whether e is an integer argument both dialects take as
// an integer: of type smallint or integer, or a constant in integer's
// range (an integer literal is bound as bigint; PostgreSQL's substr,
// left and right take integer, and a bigint column is not cast down).
func int4Arg(e planner.Expr) bool {
	t := e.Type()
	if t.OID == types.OIDInt2 || t.OID == types.OIDInt4 {
		return true
	}
	c, ok := e.(*planner.Const)
	if !ok || t.OID != types.OIDInt8 {
		return false
	}
	v, ok := c.Value.(int64)
	return ok && v >= math.MinInt32 && v <= math.MaxInt32
}

// nonEmptyConstText reports whether e is a non-empty text constant.
func nonEmptyConstText(e planner.Expr) bool {
	c, ok := e.(*planner.Const)
	if !ok {
		return false
	}
	s, ok := c.Value.(string)
	return ok && s != ""
}

// positiveConstInt reports whether e is an integer constant of at least 1.
func positiveConstInt(e planner.Expr) bool {
	c, ok := e.(*planner.Const)
	if !ok {
		return false
	}
	v, ok := c.Value.(int64)
	return ok && v >= 1
}

// likeCall writes LIKE over text. PostgreSQL's LIKE, with its default
// escape (the backslash) and byte-wise under the C collation, is SQE's.
// Trino's LIKE has no default escape and refuses an escape before an
// ordinary character, so it is written only for a constant pattern
// without a backslash, where both read the pattern alike.
func (w *writer) likeCall(f *planner.Func, s *scope) (string, bool, error) {
	if f.Name != "like" || len(f.Args) != 2 || !isText(f.Args[0].Type()) || !isText(f.Args[1].Type()) {
		return "", false, nil
	}
	if w.d == Trino {
		c, ok := f.Args[1].(*planner.Const)
		if !ok {
			return "", false, nil
		}
		if p, isString := c.Value.(string); !isString || strings.Contains(p, `\`) {
			return "", false, nil
		}
	}
	return w.infix(f, s, "LIKE", w.d == PostgreSQL)
}

// infix writes f's two arguments joined by the operator op, the left one
// under the C collation when collate is set. ok is always true.
func (w *writer) infix(f *planner.Func, s *scope, op string, collate bool) (sql string, ok bool, err error) {
	l, err := w.expr(f.Args[0], s)
	if err != nil {
		return "", true, err
	}
	r, err := w.expr(f.Args[1], s)
	if err != nil {
		return "", true, err
	}
	if collate {
		l += ` COLLATE "C"`
	}
	return "(" + l + " " + op + " " + r + ")", true, nil
}

// extractCall writes extract(field FROM x) (numeric) and date_part(field,
// x) (double precision) over a date or a timestamp without time zone, for
// PostgreSQL, whose fields and results are SQE's. Over a timestamp with
// time zone, and date_part of a date (which PostgreSQL reads as one),
// only when the engine runs in the caller's zone.
func (w *writer) extractCall(f *planner.Func, s *scope) (string, bool, error) {
	if f.Name != "extract" || len(f.Args) != 2 || w.d != PostgreSQL {
		return "", false, nil
	}
	c, ok := f.Args[0].(*planner.Const)
	if !ok {
		return "", false, nil
	}
	field, ok := c.Value.(string)
	if !ok || field == "" || strings.Trim(field, "abcdefghijklmnopqrstuvwxyz") != "" {
		return "", false, nil
	}
	at := f.Args[1].Type().OID
	numeric := f.Typ.OID == types.OIDNumeric
	inZone := w.sessionZone && (at == types.OIDTimestampTZ || at == types.OIDDate)
	if !(at == types.OIDTimestamp || at == types.OIDInterval || (at == types.OIDDate && numeric) || inZone) {
		return "", false, nil
	}
	v, err := w.expr(f.Args[1], s)
	if err != nil {
		return "", true, err
	}
	if numeric {
		return "EXTRACT(" + field + " FROM " + v + ")", true, nil
	}
	return "date_part('" + field + "', " + v + ")", true, nil
}

// patternCall writes ilike, regex and iregex over text, for PostgreSQL,
// as operators under the C collation: there its case folding (ILIKE, ~*)
// is ASCII's, as SQE's is, and its regular expressions are the ones SQE
// implements.
func (w *writer) patternCall(f *planner.Func, s *scope) (string, bool, error) {
	op := map[string]string{"ilike": "ILIKE", "regex": "~", "iregex": "~*"}[f.Name]
	if op == "" || w.d != PostgreSQL || len(f.Args) != 2 || !isText(f.Args[0].Type()) || !isText(f.Args[1].Type()) {
		return w.operatorCall(f, s)
	}
	return w.infix(f, s, op, true)
}

// operatorOf is the PostgreSQL operator over json, jsonb, arrays or
// bytea that SQE's function name stands for ("" for none); its results
// there are SQE's.
func operatorOf(name string) string {
	switch name {
	case "json_field", "json_element", "jsonb_element":
		return "->"
	case "json_field_text", "json_element_text", "jsonb_element_text":
		return "->>"
	case "json_path":
		return "#>"
	case "json_path_text":
		return "#>>"
	case "jsonb_contains", "arraycontains":
		return "@>"
	case "arraycontained":
		return "<@"
	case "byteacat", "jsonb_concat":
		return "||"
	case "jsonb_exists":
		return "?"
	case "jsonb_exists_any":
		return "?|"
	case "jsonb_exists_all":
		return "?&"
	case "jsonb_delete", "jsonb_delete_index":
		return "-"
	}
	return ""
}

// operatorCall writes one of operatorFunctions as its PostgreSQL
// operator.
func (w *writer) operatorCall(f *planner.Func, s *scope) (string, bool, error) {
	op := operatorOf(f.Name)
	if op == "" || w.d != PostgreSQL || len(f.Args) != 2 || f.Row != nil {
		return "", false, nil
	}
	return w.infix(f, s, op, false)
}
