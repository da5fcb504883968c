package sqlwrite

import (
	"fmt"
	"github.com/cockroachdb/apd/v3"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

func isText(t types.T) bool { return t.OID == types.OIDText || t.OID == types.OIDVarchar }

func isInt(t types.T) bool {
	return t.OID == types.OIDInt2 || t.OID == types.OIDInt4 || t.OID == types.OIDInt8
}

// expr writes e with the columns of s.
func (w *writer) expr(e planner.Expr, s *scope) (string, error) {
	switch x := e.(type) {
	case *planner.ColRef:
		ref, ok := s.cols[x.ID]
		if !ok {
			return "", fmt.Errorf("sqlwrite: column %s is not in scope", x)
		}
		w.colReads++
		return ref, nil
	case *planner.Const:
		return w.constant(x)
	case *planner.OuterRef:
		ref, ok := w.outer[x.ID]
		if !ok {
			return "", pgerror.Unsupported("a reference to column %s of an enclosing query cannot be written as SQL", x.Name)
		}
		w.outerReads++
		return ref, nil
	case *planner.BinOp:
		return w.binOp(x, s)
	case *planner.Not:
		a, err := w.expr(x.Arg, s)
		return "(NOT " + a + ")", err
	case *planner.Negate:
		if !isInt(x.Type()) && x.Type().OID != types.OIDFloat8 && x.Type().OID != types.OIDNumeric {
			return "", pgerror.Unsupported("unary minus on %s cannot be written as SQL", x.Type().Name())
		}
		a, err := w.expr(x.Arg, s)
		return "(- " + a + ")", err
	case *planner.IsNull:
		a, err := w.nullTested(x.Arg, s)
		if x.Negated {
			return "(" + a + " IS NOT NULL)", err
		}
		return "(" + a + " IS NULL)", err
	case *planner.Cast:
		return w.cast(x, s)
	case *planner.Case:
		for i, wh := range x.Whens {
			// The first condition is evaluated for every row.
			if i > 0 {
				if err := w.refuseFoldedFailure(wh.Cond); err != nil {
					return "", err
				}
			}
			if err := w.refuseFoldedFailure(wh.Result); err != nil {
				return "", err
			}
		}
		if x.Else != nil {
			if err := w.refuseFoldedFailure(x.Else); err != nil {
				return "", err
			}
		}
		var b strings.Builder
		b.WriteString("CASE")
		for _, wh := range x.Whens {
			c, err := w.expr(wh.Cond, s)
			if err != nil {
				return "", err
			}
			r, err := w.expr(wh.Result, s)
			if err != nil {
				return "", err
			}
			b.WriteString(" WHEN " + c + " THEN " + r)
		}
		if x.Else != nil {
			el, err := w.expr(x.Else, s)
			if err != nil {
				return "", err
			}
			b.WriteString(" ELSE " + el)
		}
		b.WriteString(" END")
		return b.String(), nil
	case *planner.Func:
		return w.function(x, s)
	case *planner.Subquery:
		return w.subquery(x, s)
	case *planner.ArrayExpr:
		return w.arrayExpr(x, s)
	}
	return "", pgerror.Unsupported("expression %s cannot be written as SQL", strings.TrimPrefix(fmt.Sprintf("%T", e), "*planner."))
}

// nullTested writes the argument of IS [NOT] NULL. A NULL without a type
// (coalesce(NULL, 'x') tests its untyped NULL) is written as the bare
// NULL, which both dialects take there.
func (w *writer) nullTested(e planner.Expr, s *scope) (string, error) {
	if c, ok := e.(*planner.Const); ok && c.Typ.OID == types.OIDUnknown && c.Value == nil {
		return "NULL", nil
	}
	return w.expr(e, s)
}

// constant writes a literal as a value of exactly its type.
func (w *writer) constant(c *planner.Const) (string, error) {
	typ, err := w.d.typeName(c.Typ)
	if err != nil {
		return "", err
	}
	if c.Value == nil {
		return "CAST(NULL AS " + typ + ")", nil
	}
	var lit string
	switch v := c.Value.(type) {
	case bool:
		if v {
			return "TRUE", nil
		}
		return "FALSE", nil
	case int64:
		switch c.Typ.OID {
		case types.OIDTimestamp, types.OIDTimestampTZ:
			if w.d == PostgreSQL || inTrinoYears(floorDiv(v, microsPerDay)) {
				// An instant is written in UTC, with its offset.
				zone := map[bool]string{true: "+00", false: ""}[c.Typ.OID == types.OIDTimestampTZ]
				lit = "'" + string(types.AppendTimestamp(nil, v, zone)) + "'"
			}
		case types.OIDTime:
			lit = "'" + string(types.AppendTime(nil, v)) + "'"
		}
		if lit != "" || !isInt(c.Typ) {
			break
		}
		if c.Typ.OID == types.OIDInt4 {
			if v < 0 {
				// Parenthesized, so that no minus sign ever follows another.
				return "(" + strconv.FormatInt(v, 10) + ")", nil
			}
			return strconv.FormatInt(v, 10), nil
		}
		lit = strconv.FormatInt(v, 10)
	case float64:
		switch {
		case w.d == Trino && math.IsNaN(v):
			return "CAST(nan() AS " + typ + ")", nil
		case w.d == Trino && math.IsInf(v, 0):
			return "CAST(" + map[bool]string{true: "-", false: ""}[v < 0] + "infinity() AS " + typ + ")", nil
		default:
			bits := 64
			if c.Typ.OID == types.OIDFloat4 {
				bits = 32
			}
			lit = "'" + string(types.AppendFloat(nil, v, bits)) + "'"
		}
	case decimal128.Num:
		lit = "'" + v.ToString(c.Typ.Scale) + "'"
	case *apd.Decimal:
		// A general numeric: PostgreSQL's numeric reads its text back
		// exactly, NaN and the infinities included.
		if w.d == PostgreSQL {
			lit = "'" + types.NumericString(v) + "'"
		}
	case []byte:
		switch {
		case c.Typ.OID == types.OIDUUID && len(v) == 16:
			lit = "'" + string(types.AppendUUID(nil, v)) + "'"
		case c.Typ.OID == types.OIDBytea && w.d == PostgreSQL:
			// Quoted as an escape string, whose backslash does not
			// depend on standard_conforming_strings.
			if lit, err = w.d.quoteString(string(types.AppendByteaHex(nil, v))); err != nil {
				return "", err
			}
		}
	case types.IntervalValue:
		// PostgreSQL reads its IntervalStyle postgres text back exactly.
		if w.d == PostgreSQL {
			lit = "'" + string(types.AppendInterval(nil, v)) + "'"
		}
	case string:
		if lit, err = w.d.quoteString(v); err != nil {
			return "", err
		}
		if c.Typ.OID == types.OIDText {
			return lit, nil
		}
	case []any:
		// An array constant, one-dimensional as SQE's are, as ARRAY[...]
		// of its elements' constants; the cast gives an empty one its
		// type. typeName above has already refused the dialects and
		// types without arrays.
		elem, isArray := c.Typ.Elem()
		if !isArray {
			break
		}
		elems := make([]string, len(v))
		for i, e := range v {
			if elems[i], err = w.constant(&planner.Const{Typ: elem, Value: e}); err != nil {
				return "", err
			}
		}
		return "CAST(ARRAY[" + strings.Join(elems, ", ") + "] AS " + typ + ")", nil
	case int32:
		if c.Typ.OID != types.OIDDate {
			break
		}
		if w.d == Trino && !inTrinoYears(int64(v)) {
			return "", pgerror.Unsupported("a date outside years 1 to 9999 cannot be written as SQL for %s", w.d)
		}
		text, bc := types.AppendDate(nil, int64(v))
		if bc {
			text = append(text, " BC"...)
		}
		lit = "'" + string(text) + "'"
	}
	if lit == "" {
		return "", pgerror.Unsupported("a %s literal cannot be written as SQL", c.Typ.Name())
	}
	return "CAST(" + lit + " AS " + typ + ")", nil
}

// binOp writes an operator whose meaning is the same in the dialect for
// the operand types.
func (w *writer) binOp(b *planner.BinOp, s *scope) (string, error) {
	lt := b.L.Type()
	exact := false
	switch b.Op.Name {
	case "AND", "OR":
		exact = true
	case "=", "<>", "<", "<=", ">", ">=":
		// Both dialects compare these types alike; text by code point once
		// PostgreSQL is told the C collation.
		exact = lt.OID == b.R.Type().OID && (isInt(lt) || isText(lt) || lt.OID == types.OIDBool || lt.OID == types.OIDTime ||
			lt.OID == types.OIDDate || lt.OID == types.OIDTimestamp || lt.OID == types.OIDNumeric ||
			// PostgreSQL orders NaN above every number and equal to
			// itself, as SQE does; Trino's NaN equals nothing.
			(w.d == PostgreSQL && (lt.OID == types.OIDFloat8 || lt.OID == types.OIDFloat4 ||
				lt.OID == types.OIDUUID || lt.OID == types.OIDBytea || lt.OID == types.OIDTimestampTZ || lt.OID == types.OIDJSONB)) ||
			(lt.OID == types.OIDUUID && (b.Op.Name == "=" || b.Op.Name == "<>")) ||
			(w.d == PostgreSQL && lt.OID == b.R.Type().OID && comparedArray(lt)))
	case "+", "-", "*":
		// PostgreSQL's numeric arithmetic is SQE's; Trino's decimal
		// product has another precision.
		exact = isInt(b.Typ) || (b.Typ.OID == types.OIDNumeric && (b.Op.Name != "*" || w.d == PostgreSQL)) ||
			((b.Typ.OID == types.OIDFloat8 || b.Typ.OID == types.OIDFloat4) && w.d == PostgreSQL) ||
			(w.d == PostgreSQL && (dateArithmetic(b) || intervalArithmetic(b, w.sessionZone) || intervalScaled(b)))
	case "/", "%":
		// Trino's decimal division keeps another scale than PostgreSQL's,
		// and its float division by zero gives infinity, not an error.
		exact = isInt(b.Typ) || (w.d == PostgreSQL && (b.Typ.OID == types.OIDNumeric || b.Typ.OID == types.OIDFloat8)) ||
			(w.d == PostgreSQL && b.Op.Name == "/" && intervalDivided(b))
	case "||":
		exact = isText(lt) && isText(b.R.Type())
	}
	if !exact {
		return "", pgerror.Unsupported("operator %s on %s and %s cannot be written as SQL for %s", b.Op.Name, lt.Name(), b.R.Type().Name(), w.d)
	}
	l, err := w.expr(b.L, s)
	if err != nil {
		return "", err
	}
	r, err := w.expr(b.R, s)
	if err != nil {
		return "", err
	}
	op := b.Op.Name
	if w.d == PostgreSQL && (isText(lt) || isTextArray(lt)) && op != "=" && op != "<>" && op != "||" {
		l += ` COLLATE "C"`
	}
	return "(" + l + " " + op + " " + r + ")", nil
}

// dateArithmetic reports whether b is a date plus or minus an integer (a
// date), or a date minus a date (an integer), which PostgreSQL computes
// as SQE does; Trino adds intervals only.
func dateArithmetic(b *planner.BinOp) bool {
	l, r := b.L.Type(), b.R.Type()
	switch {
	case l.OID == types.OIDDate && (r.OID == types.OIDInt4 || r.OID == types.OIDInt2) && b.Typ.OID == types.OIDDate:
		return true
	case b.Op.Name == "+" && r.OID == types.OIDDate && (l.OID == types.OIDInt4 || l.OID == types.OIDInt2) && b.Typ.OID == types.OIDDate:
		return true
	case b.Op.Name == "-" && l.OID == types.OIDDate && r.OID == types.OIDDate && b.Typ.OID == types.OIDInt4:
		return true
	}
	return false
}

// intervalArithmetic reports whether b adds or subtracts intervals and
// timestamps without time zone or dates, or subtracts timestamps, which
// PostgreSQL computes as SQE does (an instant's would depend on the zone).
func intervalArithmetic(b *planner.BinOp, sessionZone bool) bool {
	l, r, res := b.L.Type().OID, b.R.Type().OID, b.Typ.OID
	if sessionZone && (res == types.OIDTimestampTZ || l == types.OIDTimestampTZ || r == types.OIDTimestampTZ) {
		// Adding days or months to an instant steps through the
		// zone's calendar.
		l, r = localOf(l), localOf(r)
		res = localOf(res)
	}
	local := func(o uint32) bool { return o == types.OIDTimestamp || o == types.OIDDate }
	switch {
	case res == types.OIDTimestamp && local(l) && r == types.OIDInterval:
		return true
	case res == types.OIDTimestamp && b.Op.Name == "+" && l == types.OIDInterval && local(r):
		return true
	case res == types.OIDInterval && b.Op.Name == "-" && l == types.OIDTimestamp && r == types.OIDTimestamp:
		return true
	case res == types.OIDInterval && l == types.OIDInterval && r == types.OIDInterval:
		return true
	}
	return false
}

// localOf treats a timestamp with time zone as a local timestamp, for
// the arithmetic the caller's zone makes exact.
func localOf(o uint32) uint32 {
	if o == types.OIDTimestampTZ {
		return types.OIDTimestamp
	}
	return o
}

// cast writes the casts that mean the same in both dialects: widening an
// integer, and an integer to double precision or numeric.
func (w *writer) cast(c *planner.Cast, s *scope) (string, error) {
	from, to := c.Arg.Type(), c.To
	ok := from.OID == to.OID && !(to.OID == types.OIDNumeric || to.OID == types.OIDVarchar)
	switch {
	case isInt(from) && isInt(to) && intRank(from) <= intRank(to):
		ok = true
	case isInt(from) && to.OID == types.OIDFloat8 && from.OID != types.OIDInt8:
		ok = true
	case isText(from) && to.OID == types.OIDText:
		ok = true
	case w.d == PostgreSQL:
		// Trino's casts to varchar print numbers in their own notation
		// (a double as 1.5E0): none is written.
		ok = postgresCastIsSQEs(from, to, w.sessionZone)
	}
	if !ok {
		return "", pgerror.Unsupported("cast from %s to %s cannot be written as SQL for %s", from.Name(), to.Name(), w.d)
	}
	a, err := w.expr(c.Arg, s)
	if err != nil {
		return "", err
	}
	typ, err := w.d.typeName(to)
	if err != nil {
		return "", err
	}
	return "CAST(" + a + " AS " + typ + ")", nil
}

// postgresCastIsSQEs reports whether PostgreSQL's cast from one type to
// the other gives SQE's value: SQE's casts among these types are
// PostgreSQL's (its input and output functions, DateStyle ISO, rounding,
// a float's shortest digits as Ryu finds them). A bytea's text is its hex
// form, the only one SQE prints and the one the engine's connection asks
// for (bytea_output); text is not read as bytea here, whose escapes SQE's
// input may read otherwise.
func postgresCastIsSQEs(from, to types.T, sessionZone bool) bool {
	castable := func(t types.T) bool {
		switch t.OID {
		case types.OIDBool, types.OIDInt2, types.OIDInt4, types.OIDInt8, types.OIDFloat4, types.OIDFloat8,
			types.OIDText, types.OIDDate, types.OIDTimestamp:
			return true
		case types.OIDNumeric, types.OIDUUID, types.OIDJSON, types.OIDJSONB:
			return true
		case types.OIDVarchar:
			// Both cut a value to a varchar(n) to its first n characters
			// (SQE's casts are all explicit ones).
			return true
		case types.OIDTimestampTZ:
			// Its date, text and local time are the zone's.
			return sessionZone
		}
		return false
	}
	if fe, isArray := from.Elem(); isArray {
		// An array's cast is its elements'.
		te, toArray := to.Elem()
		if toArray {
			return postgresCastIsSQEs(fe, te, sessionZone)
		}
		return isText(to) && postgresCastIsSQEs(fe, to, sessionZone)
	}
	if from.OID == types.OIDBytea && isText(to) {
		return true
	}
	if !castable(from) || !castable(to) {
		return false
	}
	// PostgreSQL has no cast between bool and the floats or dates.
	if (from.OID == types.OIDBool || to.OID == types.OIDBool) && !isInt(from) && !isInt(to) && !isText(from) && !isText(to) && from.OID != to.OID {
		return false
	}
	return true
}

func intRank(t types.T) int {
	return map[uint32]int{types.OIDInt2: 1, types.OIDInt4: 2, types.OIDInt8: 3}[t.OID]
}

// function writes the scalar functions that mean the same in both
// dialects.
func (w *writer) function(f *planner.Func, s *scope) (string, error) {
	if f.Name == "mask_hash" {
		return "", pgerror.Wrap(ErrKeyedMask, pgerror.FeatureNotSupported, "%s", ErrKeyedMask)
	}
	if sql, ok, err := w.maskText(f, s); ok {
		return sql, err
	}
	if sql, ok, err := w.likeCall(f, s); ok {
		return sql, err
	}
	if sql, ok, err := w.extractCall(f, s); ok {
		return sql, err
	}
	if sql, ok, err := w.patternCall(f, s); ok {
		return sql, err
	}
	if sql, ok, err := w.subscriptCall(f, s); ok {
		return sql, err
	}
	if sql, ok, err := w.sessionCall(f, s); ok {
		return sql, err
	}
	wf, known := w.writtenFunction(f.Name)
	if !known || !wf.exact(w.d, f) || f.Row != nil {
		return "", pgerror.Unsupported("function %s cannot be written as SQL for %s", f.Name, w.d)
	}
	if !w.sessionZone && readsZone(f) {
		return "", pgerror.Unsupported("function %s reads the time zone, which the engine does not share", f.Name)
	}
	args := make([]string, len(f.Args))
	for i, a := range f.Args {
		var err error
		if c, isConst := a.(*planner.Const); isConst && c.Typ.OID == types.OIDInt8 && int4Arg(c) && takesInt4(f.Name) {
			// An integer literal, bound as bigint, taken as integer.
			args[i] = "(" + strconv.FormatInt(c.Value.(int64), 10) + ")"
			continue
		}
		if args[i], err = w.expr(a, s); err != nil {
			return "", err
		}
		if c, isConst := a.(*planner.Const); isConst && c.Typ.OID == types.OIDText && (f.Name == "to_json" || f.Name == "to_jsonb") {
			// A bare string literal is of unknown type, which PostgreSQL's
			// polymorphic parameter does not take.
			args[i] = "CAST(" + args[i] + " AS text)"
		}
	}
	name := f.Name
	if wf.spell != nil {
		name = wf.spell(f)
	}
	if f.Name == "random" {
		// Counted, for a WITH query Trino may compute more than once.
		w.volatileCalls++
	}
	return name + "(" + strings.Join(args, ", ") + ")", nil
}

// subscriptCall writes an array subscript or slice as the PostgreSQL
// syntax SQE binds them from: a[i], a[lo:hi], a[lo:] (array_slice_from),
// a[:hi] (array_slice_to) and a[:].
func (w *writer) subscriptCall(f *planner.Func, s *scope) (string, bool, error) {
	var format string
	switch {
	case f.Name == "array_subscript" && len(f.Args) == 2:
		format = "(%s)[%s]"
	case f.Name == "array_slice" && len(f.Args) == 3:
		format = "(%s)[%s:%s]"
	case f.Name == "array_slice" && len(f.Args) == 1:
		format = "(%s)[:]"
	case f.Name == "array_slice_from" && len(f.Args) == 2:
		format = "(%s)[%s:]"
	case f.Name == "array_slice_to" && len(f.Args) == 2:
		format = "(%s)[:%s]"
	}
	if w.d != PostgreSQL || format == "" {
		return "", false, nil
	}
	parts := make([]any, len(f.Args))
	for i, a := range f.Args {
		sql, err := w.expr(a, s)
		if err != nil {
			return "", true, err
		}
		parts[i] = sql
	}
	return fmt.Sprintf(format, parts...), true, nil
}

// aggCall writes an aggregate whose result is the same in the dialect.
func (w *writer) aggCall(a *planner.AggCall, s *scope) (string, error) {
	// string_agg's delimiter and order are written for PostgreSQL, whose
	// string_agg is SQE's.
	delimited := w.d == PostgreSQL && a.Func.Name == "string_agg" && a.Delim != nil && a.Arg != nil &&
		isText(a.Arg.Type()) && isText(a.Delim.Type())
	// PostgreSQL's aggregates that collect values are SQE's, in the order
	// asked for.
	collecting := w.d == PostgreSQL && a.Delim == nil && a.Arg != nil &&
		(a.Func.Name == "array_agg" || a.Func.Name == "json_agg" || a.Func.Name == "jsonb_agg")
	ordered := delimited || collecting
	// PostgreSQL's two-argument aggregates (corr(Y, X), the other
	// regressions, json_object_agg(key, value)) and ordered-set ones
	// (mode, percentile_cont, percentile_disc) are SQE's.
	paired := w.d == PostgreSQL && a.Delim != nil && a.Arg != nil && len(a.OrderBy) == 0 && !a.Distinct &&
		(strings.HasPrefix(a.Func.Name, "regr_") || strings.HasPrefix(a.Func.Name, "covar_") || a.Func.Name == "corr" ||
			a.Func.Name == "json_object_agg" || a.Func.Name == "jsonb_object_agg")
	if len(a.RowArgs) > 0 {
		return w.rowCount(a, s)
	}
	if w.d == PostgreSQL && a.Delim == nil && a.Arg != nil && len(a.OrderBy) == 1 && !a.Distinct &&
		(a.Func.Name == "mode" || ((a.Func.Name == "percentile_cont" || a.Func.Name == "percentile_disc") && a.Direct != nil)) {
		return w.orderedSetCall(a, s)
	}
	if (a.Delim != nil && !delimited && !paired) || len(a.RowArgs) > 0 || (len(a.OrderBy) > 0 && !ordered) || a.Direct != nil {
		return "", pgerror.Unsupported("aggregate %s with these arguments cannot be written as SQL", a.Func.Name)
	}
	exact := paired
	switch a.Func.Name {
	case "count", "min", "max":
		exact = true
	case "string_agg":
		exact = delimited
	case "array_agg", "json_agg", "jsonb_agg":
		exact = collecting
	case "corr", "json_object_agg", "jsonb_object_agg":
		exact = paired
	case "bool_and", "bool_or", "every", "bit_and", "bit_or",
		"stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		// PostgreSQL's are SQE's; Trino's stddev of integers is a double
		// and it has no bit aggregates of these names.
		exact = w.d == PostgreSQL
	case "sum", "avg":
		// Trino sums integers as bigint and averages them as double, where
		// PostgreSQL gives numeric.
		exact = w.d == PostgreSQL || (a.Arg != nil && a.Arg.Type().OID == types.OIDFloat8)
	}
	if !exact {
		return "", pgerror.Unsupported("aggregate %s cannot be written as SQL for %s", a.Func.Name, w.d)
	}
	arg := "*"
	if a.Arg != nil {
		var err error
		if arg, err = w.guarded(a.Arg, s); err != nil {
			return "", err
		}
		if w.d == PostgreSQL && a.Func.Name != "count" && isText(a.Arg.Type()) {
			arg += ` COLLATE "C"`
		}
		if a.Distinct {
			arg = "DISTINCT " + arg
		}
	}
	if delimited || paired {
		d, err := w.guarded(a.Delim, s)
		if err != nil {
			return "", err
		}
		arg += ", " + d
	}
	if ordered {
		ob, err := w.orderBy(a.OrderBy, s)
		if err != nil {
			return "", err
		}
		arg += ob
	}
	out := a.Func.Name + "(" + arg + ")"
	return w.withFilter(out, a, s)
}

// rowCount writes count of a row, count([DISTINCT] (a, b)), for
// PostgreSQL as count([DISTINCT] ROW(a, b)). There, as in SQE, a row is
// never NULL (ROW(NULL, NULL) is counted), and DISTINCT compares two
// rows field by field with each type's equality and NULL equal to NULL
// (record_eq), for the field types below, whose equality is SQE's
// (byte-wise for text, NaN equal to itself). Trino's DISTINCT over rows
// holding NULL fields and NaN is not known to be SQE's: refused there.
func (w *writer) rowCount(a *planner.AggCall, s *scope) (string, error) {
	if w.d != PostgreSQL || a.Func.Name != "count" || a.Delim != nil || len(a.OrderBy) > 0 || a.Direct != nil {
		return "", pgerror.Unsupported("aggregate %s with these arguments cannot be written as SQL", a.Func.Name)
	}
	fields := make([]string, len(a.RowArgs))
	for i, e := range a.RowArgs {
		switch t := e.Type(); {
		case isInt(t) || isText(t):
		case t.OID == types.OIDBool, t.OID == types.OIDDate, t.OID == types.OIDTimestamp, t.OID == types.OIDTimestampTZ,
			t.OID == types.OIDNumeric, t.OID == types.OIDFloat4, t.OID == types.OIDFloat8, t.OID == types.OIDUUID:
		default:
			return "", pgerror.Unsupported("aggregate count of a row holding %s cannot be written as SQL", t.Name())
		}
		var err error
		if fields[i], err = w.guarded(e, s); err != nil {
			return "", err
		}
	}
	distinct := ""
	if a.Distinct {
		distinct = "DISTINCT "
	}
	return w.withFilter("count("+distinct+"ROW("+strings.Join(fields, ", ")+"))", a, s)
}

// withFilter appends a's FILTER clause, guarded, to its call.
func (w *writer) withFilter(call string, a *planner.AggCall, s *scope) (string, error) {
	if a.Filter == nil {
		return call, nil
	}
	f, err := w.guarded(a.Filter, s)
	if err != nil {
		return "", err
	}
	return call + " FILTER (WHERE " + f + ")", nil
}

// orderedSetCall writes an ordered-set aggregate, name(direct) WITHIN
// GROUP (ORDER BY key), for PostgreSQL.
func (w *writer) orderedSetCall(a *planner.AggCall, s *scope) (string, error) {
	direct := ""
	if a.Direct != nil {
		var err error
		if direct, err = w.guarded(a.Direct, s); err != nil {
			return "", err
		}
	}
	ob, err := w.orderBy(a.OrderBy, s)
	if err != nil {
		return "", err
	}
	out := a.Func.Name + "(" + direct + ") WITHIN GROUP (" + strings.TrimPrefix(ob, " ") + ")"
	return w.withFilter(out, a, s)
}

// microsPerDay is a day in microseconds.
const microsPerDay = 86_400_000_000

// floorDiv is a / b rounded down.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

// inTrinoYears reports whether the date days after 1970-01-01 is in years
// 1 to 9999, whose text Trino reads as PostgreSQL does (it writes other
// years, BC ones and the infinities otherwise, or has none).
func inTrinoYears(days int64) bool {
	y, _, _ := types.CivilFromDays(days)
	return y >= 1 && y <= 9999
}

// arrayExpr writes ARRAY[...] of its type, for PostgreSQL, whose arrays
// are SQE's.
func (w *writer) arrayExpr(a *planner.ArrayExpr, s *scope) (string, error) {
	typ, err := w.d.typeName(a.Typ)
	if err != nil {
		return "", err
	}
	if w.d != PostgreSQL {
		return "", pgerror.Unsupported("an ARRAY constructor cannot be written as SQL for %s", w.d)
	}
	elems := make([]string, len(a.Elems))
	for i, e := range a.Elems {
		if elems[i], err = w.expr(e, s); err != nil {
			return "", err
		}
	}
	return "CAST(ARRAY[" + strings.Join(elems, ", ") + "] AS " + typ + ")", nil
}
