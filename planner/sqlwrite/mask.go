package sqlwrite

import (
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// maskText writes a call of one of Hive's mask functions (mask,
// mask_first_n, ...) over text with constant options, as SQE's kernel
// computes it: the span it replaces, cut with substr by the value's length
// in characters, and each replaced class of characters mapped with
// translate over the class's characters (exec.MaskClassRunes), which both
// dialects have. Only the raw column appears in it, as the mask's
// argument. A mask that replaces the other class (every character that is
// neither a letter nor a digit) cannot be listed and is refused, as are
// masks of other types and options that are not constants. ok is false
// when f is not a mask function.
func (w *writer) maskText(f *planner.Func, s *scope) (sql string, ok bool, err error) {
	if len(f.Args) == 0 {
		return "", false, nil
	}
	options := make([]any, 0, len(f.Args)-1)
	for _, a := range f.Args[1:] {
		c, isConst := constantOf(a)
		if !isConst {
			if _, known := exec.ConstTextMask(f.Name, nil); known {
				return "", true, pgerror.Unsupported("function %s with options that are not constants cannot be written as SQL", f.Name)
			}
			return "", false, nil
		}
		options = append(options, c)
	}
	m, known := exec.ConstTextMask(f.Name, options)
	if !known {
		return "", false, nil
	}
	if !isText(f.Args[0].Type()) || !isText(f.Typ) {
		return "", true, pgerror.Unsupported("function %s on type %s cannot be written as SQL", f.Name, f.Args[0].Type().Name())
	}
	if m.Other != exec.MaskKeep {
		return "", true, pgerror.Unsupported("function %s replacing characters other than letters and digits cannot be written as SQL", f.Name)
	}
	v, err := w.expr(f.Args[0], s)
	if err != nil {
		return "", true, err
	}
	tr, err := w.translateClasses(m)
	if err != nil {
		return "", true, err
	}
	n := strconv.Itoa(m.Count)
	// cut is where the replaced span starts or ends, for the forms that
	// count from the end.
	cut := "GREATEST(length(" + v + ") - " + n + ", 0)"
	var out string
	switch m.Span {
	case "all":
		out = tr(v)
	case "first":
		out = tr("substr("+v+", 1, "+n+")") + " || substr(" + v + ", " + n + " + 1)"
	case "but_first":
		out = "substr(" + v + ", 1, " + n + ") || " + tr("substr("+v+", "+n+" + 1)")
	case "last":
		out = "substr(" + v + ", 1, " + cut + ") || " + tr("substr("+v+", "+cut+" + 1)")
	case "but_last":
		out = tr("substr("+v+", 1, "+cut+")") + " || substr(" + v + ", " + cut + " + 1)"
	default:
		return "", true, pgerror.Unsupported("function %s cannot be written as SQL", f.Name)
	}
	return "(" + out + ")", true, nil
}

// translateClasses returns what maps a text expression's letters and
// digits to m's replacements (the identity when m keeps every class). A
// statement masking several columns alike builds the translate's
// literals once.
func (w *writer) translateClasses(m exec.TextMask) (func(string) string, error) {
	key := [3]rune{m.Upper, m.Lower, m.Digit}
	if tr, ok := w.translates[key]; ok {
		return tr, nil
	}
	upper, lower, digit := exec.MaskClassRunes()
	var from, to strings.Builder
	for _, c := range []struct {
		runes []rune
		by    rune
	}{{upper, m.Upper}, {lower, m.Lower}, {digit, m.Digit}} {
		if c.by == exec.MaskKeep {
			continue
		}
		for _, r := range c.runes {
			from.WriteRune(r)
			to.WriteRune(c.by)
		}
	}
	tr := func(e string) string { return e }
	if from.Len() > 0 {
		fromLit, err := w.d.quoteString(from.String())
		if err != nil {
			return nil, err
		}
		toLit, err := w.d.quoteString(to.String())
		if err != nil {
			return nil, err
		}
		tr = func(e string) string { return "translate(" + e + ", " + fromLit + ", " + toLit + ")" }
	}
	if w.translates == nil {
		w.translates = map[[3]rune]func(string) string{}
	}
	w.translates[key] = tr
	return tr, nil
}

// constantOf is the value of a constant option (through the casts the
// binder adds to text or bigint).
func constantOf(e planner.Expr) (any, bool) {
	switch x := e.(type) {
	case *planner.Const:
		return x.Value, true
	case *planner.Cast:
		c, ok := x.Arg.(*planner.Const)
		if !ok {
			return nil, false
		}
		switch v := c.Value.(type) {
		case nil:
			return nil, true
		case int64:
			if isText(x.To) {
				return strconv.FormatInt(v, 10), true
			}
			return v, true
		case string:
			if isText(x.To) {
				return v, true
			}
		}
	}
	return nil, false
}
