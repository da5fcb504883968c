package planner

import (
	"github.com/sqe-db/sqe/sql/types"
)

// jsonbScalarCast reports PostgreSQL's explicit casts from jsonb to
// boolean and the numeric types (jsonb_bool, jsonb_int4, jsonb_numeric,
// ...): a jsonb scalar of the matching kind converts, any other value
// fails.
func jsonbScalarCast(from, to types.T) bool {
	if from.OID != types.OIDJSONB {
		return false
	}
	switch to.Family() {
	case types.FamilyBool, types.FamilyInt, types.FamilyFloat, types.FamilyNumeric:
		return true
	}
	return false
}

// jsonbCast binds a cast of jsonb to boolean or a numeric type. A boolean
// is read directly; a number is read as its text (checked to be a jsonb
// number, the error naming the target type as PostgreSQL's does), then
// as a numeric, which converts to the target as numeric's own casts do
// (rounding half away from zero to an integer, failing out of range).
// Neither is leakproof: both fail on the other kinds of value.
func (b *Binder) jsonbCast(e Expr, to types.T, loc int32) (Expr, error) {
	name := to.Name()
	if to.Family() == types.FamilyNumeric {
		// A typmod applies after the conversion, as numeric's own cast.
		name = "numeric"
	}
	target := &Const{Typ: types.Text, Value: name}
	if to.Family() == types.FamilyBool {
		return &Func{Name: "jsonb_bool", Args: []Expr{e, target}, Typ: types.Bool}, nil
	}
	text := &Func{Name: "jsonb_number_text", Args: []Expr{e, target}, Typ: types.Text}
	num, err := b.cast(text, types.T{OID: types.OIDNumeric}, loc)
	if err != nil {
		return nil, err
	}
	return b.cast(num, to, loc)
}
