package planner

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// errNotAssignable says that no assignment cast leads from an expression's
// type to a column's; the caller words the error for its clause.
var errNotAssignable = errors.New("no assignment cast")

// assignCast converts e to t by assignment, as PostgreSQL stores a value
// into a column: untyped literals and parameters are read as t, the
// implicit and assignment casts apply (numeric to integer rounds, any
// type becomes text), explicit-only ones (text to integer, integer to
// boolean) do not. A string longer than a varchar(n) or char(n) column
// is an error unless the excess is spaces, where an explicit cast would
// cut it.
func (b *Binder) assignCast(e Expr, to types.T, loc int32) (Expr, error) {
	from := e.Type()
	if c, ok := e.(*Const); ok && c.Value == nil && from.OID == types.OIDUnknown {
		return &Const{Typ: to}, nil
	}
	if from == to {
		return e, nil
	}
	if (to.OID == types.OIDVarchar || to.OID == types.OIDBpchar) && to.Precision > 0 {
		return b.assignLimitedString(e, to, loc)
	}
	if !isUnknown(e) && !assignable(from, to) {
		return nil, errNotAssignable
	}
	if to.OID == types.OIDNumeric && !to.General && (from.IsGeneralNumeric() || generalNumericInput(e)) {
		// A stored numeric column has one scale: a value with its own
		// (a quotient, 'NaN', a float) is converted to it, and NaN and
		// the infinities are refused.
		if c, ok := e.(*Const); ok {
			v, err := convertConst(c.Value, c.Typ, to)
			if err != nil {
				return nil, err
			}
			return &Const{Typ: to, Value: v}, nil
		}
		return &Cast{Arg: e, To: to}, nil
	}
	return b.cast(e, to, loc)
}

// assignable reports whether PostgreSQL has an implicit or assignment cast
// from one type to another (among the conversions exec implements).
func assignable(from, to types.T) bool {
	if !castSupported(from, to) {
		return false
	}
	ff, tf := from.Family(), to.Family()
	switch {
	case tf == types.FamilyString:
		// Output to a string type is an assignment cast for every type.
		return true
	case ff == types.FamilyString:
		// Input from a string is explicit only.
		return false
	case jsonbScalarCast(from, to):
		return false
	case ff == types.FamilyInt && tf == types.FamilyBool, ff == types.FamilyBool && tf == types.FamilyInt:
		return false
	case ff == types.FamilyArray && tf == types.FamilyArray:
		fe, _ := from.Elem()
		te, _ := to.Elem()
		return assignable(fe, te)
	}
	return true
}

// assignLimitedString converts e to text, then checks and shapes the
// value for varchar(n) or char(n) as their assignment casts do.
func (b *Binder) assignLimitedString(e Expr, to types.T, loc int32) (Expr, error) {
	text, err := b.cast(e, types.Text, loc)
	if err != nil {
		return nil, err
	}
	fit := func(args []any) (any, error) {
		if args[0] == nil {
			return nil, nil
		}
		return fitString(args[0].(string), to)
	}
	if c, ok := text.(*Const); ok {
		v, err := fit([]any{c.Value})
		if err != nil {
			return nil, err
		}
		return &Const{Typ: to, Value: v}, nil
	}
	return &Func{Name: "assign_" + to.Name(), Args: []Expr{text}, Typ: to, Row: fit}, nil
}

// fitString is PostgreSQL's varchar and bpchar length coercion for an
// assignment: a longer value fails with 22001 unless every character
// past n is a space, which is then dropped; char(n) pads with spaces.
func fitString(s string, to types.T) (string, error) {
	n := int(to.Precision)
	count := utf8.RuneCountInString(s)
	if count > n {
		cut := 0
		for i := 0; i < n; i++ {
			_, size := utf8.DecodeRuneInString(s[cut:])
			cut += size
		}
		if strings.TrimLeft(s[cut:], " ") != "" {
			kind := "character varying"
			if to.OID == types.OIDBpchar {
				kind = "character"
			}
			return "", pgerror.New(pgerror.StringDataRightTruncation, "value too long for type %s(%d)", kind, n)
		}
		s, count = s[:cut], n
	}
	if to.OID == types.OIDBpchar && count < n {
		s += strings.Repeat(" ", n-count)
	}
	return s, nil
}
