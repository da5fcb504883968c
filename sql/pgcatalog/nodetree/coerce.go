package nodetree

import (
	"github.com/sqe-db/sqe/sql/types"
)

// coerce converts n to type to as coerce_to_target_type does: an untyped
// literal becomes a constant of the type (its value read and written
// back), another type gains a conversion node, and a type modifier
// (varchar(5), numeric(10,2)) a length coercion above it. explicit says
// the user wrote the conversion; an implicit one prints only where
// conversions are shown.
func (a *analyzer) coerce(n *Node, to types.T, explicit bool) (*Node, error) {
	from := n.Type
	base := types.T{OID: to.OID}
	switch {
	case from.OID == types.OIDUnknown:
		if n.Kind != Const {
			return nil, unsupported("untyped %s", n.Kind)
		}
		c := &Node{Kind: Const, Type: base, Null: n.Null}
		if !n.Null {
			v, err := constText(n.Value, base, a.env.Zone)
			if err != nil {
				return nil, unsupported("%s literal: %v", base.Name(), err)
			}
			c.Value = v
		}
		return lengthCoercion(c, to, explicit), nil
	case from.OID == to.OID:
		if from.Typmod() == to.Typmod() || to.Typmod() == -1 {
			return n, nil
		}
		return lengthCoercion(n, to, explicit), nil
	}
	kind, err := conversion(from, to)
	if err != nil {
		return nil, err
	}
	if to.Typmod() == -1 {
		return &Node{Kind: kind, Type: to, Explicit: explicit, Args: []*Node{n}}, nil
	}
	// A conversion and a length coercion together print as one cast: the
	// inner conversion is shown as implicit.
	inner := &Node{Kind: kind, Type: base, Args: []*Node{n}}
	return lengthCoercion(inner, to, explicit), nil
}

// lengthCoercion applies to's modifier to n, which has to's type without
// one; nothing when to has none.
func lengthCoercion(n *Node, to types.T, explicit bool) *Node {
	if to.Typmod() == -1 {
		return n
	}
	return &Node{Kind: CastFunc, Type: to, Explicit: explicit, Args: []*Node{n}}
}

// conversion is how PostgreSQL (pg_cast) converts from to to: by a cast
// function, or without one: a binary-compatible relabelling (text and
// varchar) or through the types' text forms (I/O conversion).
func conversion(from, to types.T) (Kind, error) {
	fs, ts := from.Family() == types.FamilyString, to.Family() == types.FamilyString
	switch {
	case fs && ts:
		// character converts to the others by a function trimming its
		// blanks; text and varchar are the same bytes, as is either
		// read as character.
		if from.OID == types.OIDBpchar {
			return CastFunc, nil
		}
		return Relabel, nil
	case from.OID == types.OIDName || to.OID == types.OIDName:
		return CastFunc, nil
	case from.OID == types.OIDBool && ts:
		return CastFunc, nil
	case fs || ts:
		return Relabel, nil
	case numericRank(from).ok() && numericRank(to).ok():
		return CastFunc, nil
	case isDatetime(from) && isDatetime(to):
		return CastFunc, nil
	case from.OID == types.OIDBool && to.OID == types.OIDInt4, from.OID == types.OIDInt4 && to.OID == types.OIDBool:
		return CastFunc, nil
	case from.Family() == types.FamilyJSON && to.Family() == types.FamilyJSON:
		return Relabel, nil
	}
	return "", unsupported("conversion from %s to %s", from.Name(), to.Name())
}
