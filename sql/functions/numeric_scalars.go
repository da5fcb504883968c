package functions

import "github.com/sqe-db/sqe/sql/types"

// numericScalars are PostgreSQL's numeric functions whose result is a
// general numeric (each value with the scale PostgreSQL picks for it):
// trim_scale, and the numeric_* implementations of operators and math
// functions, callable by name.
var numericScalars = map[string]Scalar{
	"trim_scale":        {Name: "trim_scale", Resolve: generalNumericArgs(1)},
	"numeric_exp":       {Name: "exp", Resolve: generalNumericArgs(1)},
	"numeric_ln":        {Name: "ln", Resolve: generalNumericArgs(1)},
	"numeric_sqrt":      {Name: "sqrt", Resolve: generalNumericArgs(1)},
	"numeric_log":       {Name: "log", Resolve: generalNumericArgs(2)},
	"numeric_div_trunc": {Name: "div", Resolve: generalNumericArgs(2)},
	"numeric_inc":       {Name: "numeric_inc", Resolve: generalNumericArgs(1)},
}

// generalNumericArgs accepts n numerics (integers and literals read as
// numerics, keeping their scales); the result is a general numeric.
func generalNumericArgs(n int) func(args []types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		if len(args) != n {
			return nil, types.T{}, false
		}
		want := make([]types.T, n)
		for i, a := range args {
			switch {
			case a.Family() == types.FamilyNumeric:
				want[i] = a
			case a.Family() == types.FamilyInt, a.OID == types.OIDUnknown:
				want[i] = types.T{OID: types.OIDNumeric}
			default:
				return nil, types.T{}, false
			}
		}
		return want, types.NumericGeneral(types.NumericGeneralStorageScale), true
	}
}
