package planner

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// A numeric without a typmod carries its own display scale per value in
// PostgreSQL, where a column of SQE has one scale. When an expression is
// a constant, its single value can have exactly PostgreSQL's scale: this
// file computes it for the constant forms whose scale PostgreSQL decides
// from the value (division, float to numeric, a CASE or GREATEST/LEAST
// that picks one of several constants).

// isUnconstrainedNumeric reports whether t is numeric without a typmod.
func isUnconstrainedNumeric(t types.T) bool {
	return t.OID == types.OIDNumeric && t.Precision == 0
}

// floatConstToNumeric converts a float constant to numeric as PostgreSQL's
// float8_numeric and float4_numeric do: through the text of its 15 (6 for
// real) significant digits, so 1.1::float8::numeric is 1.1 with scale 1.
func floatConstToNumeric(f float64, from types.T) (decimal128.Num, int32, bool) {
	digits := 15
	if from.OID == types.OIDFloat4 {
		digits = 6
	}
	n, scale, err := types.ParseNumericLiteral(strconv.FormatFloat(f, 'g', digits, 64))
	if err != nil {
		return decimal128.Num{}, 0, false
	}
	return n, scale, true
}

// foldNumericDivision divides two numeric constants as numeric_div does
// (select_div_scale's scale, rounded half away from zero). ok is false
// when the divisor is zero: the error is raised at execution, as for
// columns.
func foldNumericDivision(l, r *Const) (*Const, bool) {
	x, xok := constNumeric(l)
	y, yok := constNumeric(r)
	if !xok || !yok {
		return nil, false
	}
	q := new(apd.Decimal)
	if err := types.NumericDiv(q, x, y); err != nil {
		return nil, false
	}
	return &Const{Typ: types.NumericGeneral(max(functions.AvgNumericScale, l.Typ.Scale, r.Typ.Scale)), Value: q}, true
}

// constNumeric is a numeric constant's value as a general numeric.
func constNumeric(c *Const) (*apd.Decimal, bool) {
	switch v := c.Value.(type) {
	case *apd.Decimal:
		return v, true
	case decimal128.Num:
		return types.NumericFromDecimal128(v, c.Typ.Scale), true
	}
	return nil, false
}

// ownScaleNumeric converts a chosen constant branch to numeric keeping the
// value's own scale, as PostgreSQL's coercion to a typmod-less numeric
// does; nil when the constant is not a number.
func (b *Binder) ownScaleNumeric(c *Const) Expr {
	if c.Value == nil || !c.Typ.IsNumeric() {
		return nil
	}
	if c.Typ.OID == types.OIDNumeric {
		return c
	}
	e, err := b.cast(c, types.T{OID: types.OIDNumeric}, 0)
	if err != nil {
		return nil
	}
	return e
}

// generalNumericInput reports a value that becomes a general numeric when
// converted to numeric without a typmod: a float (NaN, the infinities
// and its own digits per value), a string literal a decimal128 cannot
// hold ('NaN', 'Infinity', more than 38 digits), and a string that is not
// a literal, whose scale is known only per value.
func generalNumericInput(e Expr) bool {
	t := e.Type()
	if t.Family() == types.FamilyFloat {
		return true
	}
	c, ok := e.(*Const)
	if !ok && t.Family() == types.FamilyString {
		return true
	}
	if !ok || (t.Family() != types.FamilyString && t.OID != types.OIDUnknown) {
		return false
	}
	s, ok := c.Value.(string)
	if !ok {
		return false
	}
	if _, _, err := types.ParseNumericLiteral(strings.TrimSpace(s)); err == nil {
		return false
	}
	_, err := types.ParseNumeric(s)
	return err == nil
}

// convertGeneralConst converts a constant to or from the general numeric;
// ok is false for the conversions convertConst makes itself (to text).
func convertGeneralConst(v any, from, to types.T) (any, bool, error) {
	if to.IsGeneralNumeric() {
		switch x := v.(type) {
		case *apd.Decimal:
			return x, true, nil
		case decimal128.Num:
			return types.NumericFromDecimal128(x, from.Scale), true, nil
		case int64:
			if from.Family() == types.FamilyInt {
				return apd.New(x, 0), true, nil
			}
		case float64:
			return types.NumericFromFloat64(x, from.OID == types.OIDFloat4), true, nil
		case string:
			d, err := types.ParseNumeric(x)
			return d, true, err
		}
		return nil, false, nil
	}
	d, ok := v.(*apd.Decimal)
	if !ok {
		return nil, false, nil
	}
	switch to.Family() {
	case types.FamilyNumeric:
		n, err := types.NumericToFixed(d, to)
		return n, true, err
	case types.FamilyInt:
		i, err := types.NumericToInt64(d, to)
		return i, true, err
	case types.FamilyFloat:
		f := types.NumericToFloat64(d)
		if to.OID == types.OIDFloat4 {
			r, err := types.Float4FromFloat8(f)
			return r, true, err
		}
		return f, true, nil
	}
	return nil, false, nil
}

// numericBranchesType is the type of a column several expressions fill
// (CASE and COALESCE branches, VALUES rows) whose common type t is
// numeric. PostgreSQL keeps each value's scale: when branches of
// different scales meet, the column is a general numeric. Constant
// branches of a CASE are held at the widest scale instead (CASE ... THEN
// price ELSE 0 END keeps price's decimal column), so the general form is
// kept for columns of different scales, and for VALUES, whose rows are
// all constants.
func numericBranchesType(es []Expr, t types.T, constants bool) types.T {
	if t.OID != types.OIDNumeric || t.General {
		return t
	}
	scale := int32(-1)
	for _, e := range es {
		if e != nil && isUnknown(e) && generalNumericInput(e) {
			// 'NaN', 'Infinity' or a literal past 38 digits.
			return types.NumericGeneral(t.Scale)
		}
		if e == nil || isUnknown(e) {
			continue
		}
		if c, ok := e.(*Const); ok && (!constants || c.Value == nil) {
			continue
		}
		f := e.Type().Family()
		if f != types.FamilyNumeric && f != types.FamilyInt {
			continue
		}
		s := numericScale(e.Type())
		if scale >= 0 && s != scale {
			return types.NumericGeneral(t.Scale)
		}
		scale = s
	}
	return t
}
