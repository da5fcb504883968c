package planner

import (
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// bindMinMax binds GREATEST and LEAST: the arguments converted to one
// common type (numerics to one scale, so the result column has one),
// NULLs ignored, NULL only when every argument is.
func (b *Binder) bindMinMax(m *pg_query.MinMaxExpr, ec *exprCtx) (Expr, error) {
	name := "greatest"
	if m.Op == pg_query.MinMaxOp_IS_LEAST {
		name = "least"
	}
	args := make([]Expr, len(m.Args))
	common := types.Unknown
	for i, n := range m.Args {
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, err
		}
		args[i] = e
		if isUnknown(e) {
			// Untyped literals take the others' type, as in CASE.
			continue
		}
		ct, ok := commonType(common, e.Type())
		if !ok {
			return nil, b.errAt(m.Location, pgerror.DatatypeMismatch, "%s types %s and %s cannot be matched", name, common.Name(), e.Type().Name())
		}
		common = ct
	}
	if common.OID == types.OIDUnknown {
		common = types.Text
	}
	if common.OID == types.OIDNumeric {
		for _, a := range args {
			common.Scale = max(common.Scale, numericScale(a.Type()))
		}
	}
	written := append([]Expr(nil), args...)
	leakproof := true
	for i, a := range args {
		var err error
		if common.OID == types.OIDNumeric && a.Type().IsNumeric() && a.Type().Family() != types.FamilyFloat && !isUnknown(a) {
			if c, ok := a.(*Const); ok {
				v, err := convertConst(c.Value, c.Typ, common)
				if err != nil {
					return nil, err
				}
				args[i] = &Const{Typ: common, Value: v}
			} else if a.Type() != common {
				args[i] = &Cast{Arg: a, To: common}
			}
		} else if args[i], err = b.coerce(a, common, m.Location); err != nil {
			return nil, err
		}
		leakproof = leakproof && args[i].Leakproof()
	}
	if isUnconstrainedNumeric(common) {
		if e := b.foldConstantMinMax(name, args, written); e != nil {
			return e, nil
		}
	}
	return &Func{Name: name, Args: args, Typ: common, leakproof: leakproof}, nil
}

// foldConstantMinMax picks GREATEST's or LEAST's winner among numeric
// constants (compared at the common scale) and returns it as written,
// keeping its own scale as PostgreSQL does; nil unless every argument is
// a constant.
func (b *Binder) foldConstantMinMax(name string, args, written []Expr) Expr {
	best := -1
	for i, a := range args {
		c, ok := a.(*Const)
		if !ok {
			return nil
		}
		v, ok := c.Value.(decimal128.Num)
		if c.Value == nil {
			continue
		}
		if !ok {
			return nil
		}
		if best < 0 {
			best = i
			continue
		}
		cmp := v.Cmp(args[best].(*Const).Value.(decimal128.Num))
		if (name == "greatest" && cmp > 0) || (name == "least" && cmp < 0) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	k, ok := written[best].(*Const)
	if !ok {
		return nil
	}
	return b.ownScaleNumeric(k)
}

// similarToRegex translates a SQL SIMILAR TO pattern into an anchored
// regular expression, as PostgreSQL's similar_to_escape does: % and _ are
// wildcards, the escape character (default backslash) quotes the next
// character, . ^ $ are literal, and the rest of the regular-expression
// syntax (| * + ? {m,n} ( ) [...]) keeps its meaning.
func similarToRegex(pattern string, escape rune, hasEscape bool) (string, error) {
	out := []rune("^(?:")
	inBracket := false
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case hasEscape && c == escape:
			if i+1 >= len(rs) {
				return "", pgerror.New(pgerror.InvalidEscapeSequence, "invalid escape string").
					WithHint("Escape string must be empty or one character.")
			}
			i++
			out = append(out, []rune(regexpQuote(rs[i]))...)
		case inBracket:
			if c == ']' {
				inBracket = false
			}
			out = append(out, c)
		case c == '[':
			inBracket = true
			out = append(out, c)
		case c == '%':
			out = append(out, '.', '*')
		case c == '_':
			out = append(out, '.')
		case c == '.' || c == '^' || c == '$':
			out = append(out, '\\', c)
		default:
			out = append(out, c)
		}
	}
	return string(append(out, ')', '$')), nil
}

func regexpQuote(r rune) string {
	switch r {
	case '\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$':
		return `\` + string(r)
	}
	return string(r)
}

// bindSimilar binds x [NOT] SIMILAR TO pattern [ESCAPE e] as a regular
// expression match; the pattern (and escape) must be constants.
func (b *Binder) bindSimilar(a *pg_query.A_Expr, ec *exprCtx) (Expr, error) {
	l, err := b.bindExpr(a.Lexpr, ec)
	if err != nil {
		return nil, err
	}
	fc := a.Rexpr.GetFuncCall()
	if fc == nil || len(fc.Args) == 0 {
		return nil, pgerror.Unsupported("SIMILAR TO with this pattern is not supported yet")
	}
	pat, err := b.bindExpr(fc.Args[0], ec)
	if err != nil {
		return nil, err
	}
	pc, ok := pat.(*Const)
	if !ok {
		return nil, pgerror.Unsupported("SIMILAR TO with a non-constant pattern is not supported yet")
	}
	escape, hasEscape := '\\', true
	if len(fc.Args) == 2 {
		e, err := b.bindExpr(fc.Args[1], ec)
		if err != nil {
			return nil, err
		}
		ecst, ok := e.(*Const)
		if !ok {
			return nil, pgerror.Unsupported("SIMILAR TO with a non-constant escape is not supported yet")
		}
		if ecst.Value == nil {
			return &Const{Typ: types.Bool}, nil
		}
		r := []rune(ecst.Value.(string))
		switch len(r) {
		case 0:
			hasEscape = false
		case 1:
			escape = r[0]
		default:
			return nil, b.errAt(a.Location, pgerror.InvalidEscapeSequence, "invalid escape string").
				WithHint("Escape string must be empty or one character.")
		}
	}
	if pc.Value == nil {
		return &Const{Typ: types.Bool}, nil
	}
	re, err := similarToRegex(pc.Value.(string), escape, hasEscape)
	if err != nil {
		return nil, err
	}
	op := "~"
	if a.Name[0].GetString_().GetSval() == "!~" {
		op = "!~"
	}
	return b.pattern(op, l, &Const{Typ: types.Text, Value: re}, a.Location)
}
