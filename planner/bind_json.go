package planner

import (
	"github.com/sqe-db/sqe/sql/types"
)

// jsonOperator binds the json and jsonb extraction operators: -> and ->>
// (an object member by text key, an array element by integer), #> and
// #>> (a path of keys and indexes as text[]). The arrow forms keep the
// left operand's type; the text forms return text. ok is false for other
// operators and operand types.
func (b *Binder) jsonOperator(op string, l, r Expr, loc int32) (Expr, bool, error) {
	if l.Type().Family() != types.FamilyJSON {
		return b.jsonbOperator(op, l, r, loc)
	}
	asText := op == "->>" || op == "#>>"
	var name string
	var keyType types.T
	switch op {
	case "->", "->>":
		if r.Type().Family() == types.FamilyInt {
			name, keyType = "json_element", types.Int4
		} else if r.Type().Family() == types.FamilyString || isUnknown(r) {
			name, keyType = "json_field", types.Text
		} else {
			return nil, false, nil
		}
	case "#>", "#>>":
		if r.Type().OID != types.OIDTextArray && !isUnknown(r) {
			return nil, false, nil
		}
		name, keyType = "json_path", types.TextArray
	default:
		return b.jsonbOperator(op, l, r, loc)
	}
	key, err := b.coerce(r, keyType, loc)
	if err != nil {
		return nil, true, err
	}
	if name == "json_element" && l.Type().OID == types.OIDJSONB {
		// jsonb reads a scalar as a one-element array; json does not.
		name = "jsonb_element"
	}
	res := l.Type()
	if asText {
		name += "_text"
		res = types.Text
	}
	return &Func{Name: name, Args: []Expr{l, key}, Typ: res}, true, nil
}
