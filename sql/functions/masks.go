package functions

import "github.com/sqe-db/sqe/sql/types"

// The mask functions are Apache Hive's (GenericUDFMask and its kin), which
// Ranger's hive service definition names as the transformers of its mask
// types, so that one policy renders the same value in SQE and in Hive or
// Spark:
//
//	mask(value [, upper, lower, digit, other, number, day, month, year])
//	mask_first_n(value [, count, upper, lower, digit, other, number, day, month, year])
//	mask_last_n, mask_show_first_n, mask_show_last_n: the same arguments
//	mask_hash(value)
//
// They mask what a policy hides, so they are leakproof: no value, and no
// option, makes them fail; an option that is NULL or out of range takes
// its default, as in Hive. Each option is a character (text, its first
// character; an integer, a code point; -1 keeps the character) or a
// number (an integer, or text holding one).

// How many options the mask functions take after the value: mask's
// eight, and the _n forms' count before them.
const (
	maskOptionCount  = 8
	maskNOptionCount = 9
)

// maskArgs accepts a value and up to options options.
func maskArgs(options int) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		if len(args) < 1 || len(args) > 1+options {
			return nil, types.T{}, false
		}
		value, result := maskedType(args[0])
		out := []types.T{value}
		for _, a := range args[1:] {
			switch {
			case a.Family() == types.FamilyInt:
				out = append(out, types.Int8)
			case isTextLike(a):
				out = append(out, types.Text)
			default:
				return nil, types.T{}, false
			}
		}
		return out, result, true
	}
}

// maskedType gives the type a masked value is read as and the result's:
// text for the string types (and an untyped literal), the value's own
// type otherwise. Integers, dates and timestamps are masked; for the
// other types, which Hive does not mask, the result is NULL.
func maskedType(t types.T) (arg, result types.T) {
	if isTextLike(t) {
		return types.Text, types.Text
	}
	return t, t
}

// maskHashArgs is mask_hash(value): a hex digest of a string; NULL of the
// value's type for the other types, which Hive does not hash.
func maskHashArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 {
		return nil, types.T{}, false
	}
	arg, result := maskedType(args[0])
	return []types.T{arg}, result, true
}
