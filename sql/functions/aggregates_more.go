package functions

import "github.com/sqe-db/sqe/sql/types"

// bitResult is bit_and, bit_or and bit_xor over smallint, integer and
// bigint: the argument's own type.
func bitResult(t types.T) (types.T, bool) {
	if t.Family() == types.FamilyInt {
		return t, true
	}
	return types.T{}, false
}

// regrResult is the result of a regression aggregate, whose arguments
// the binder has converted to double precision.
func regrResult(res types.T) func(types.T) (types.T, bool) {
	return func(t types.T) (types.T, bool) {
		if t.OID != types.OIDFloat8 {
			return types.T{}, false
		}
		return res, true
	}
}
