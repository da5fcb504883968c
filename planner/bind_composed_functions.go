package planner

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// composedFunction binds the functions PostgreSQL defines as a
// composition of operators and casts SQE has: timestamp(date, time) is
// date + time (datetime_timestamp), timestamptz(date, time) is that cast
// to timestamptz (an SQL function in pg_proc), and int8_sum(numeric,
// bigint) is the sum's transition, which is not strict: a NULL operand
// leaves the other (as numeric). ok is false for other calls and for
// argument types these do not take.
func (b *Binder) composedFunction(fc *pg_query.FuncCall, name string, ec *exprCtx) (Expr, bool, error) {
	if len(fc.Args) != 2 || fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 || fc.FuncVariadic {
		return nil, false, nil
	}
	lower := strings.ToLower(name)
	if lower != "timestamp" && lower != "timestamptz" && lower != "int8_sum" {
		return nil, false, nil
	}
	args := make([]Expr, 2)
	for i, n := range fc.Args {
		if n.GetNamedArgExpr() != nil {
			return nil, false, nil
		}
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, true, err
		}
		args[i] = e
	}
	accepts := func(e Expr, fam types.Family) bool { return isUnknown(e) || e.Type().Family() == fam }
	loc := fc.Location
	switch lower {
	case "timestamp", "timestamptz":
		if isUnknown(args[0]) && isUnknown(args[1]) {
			// PostgreSQL has timestamp(timestamp, integer) too.
			return nil, true, b.errAt(loc, pgerror.AmbiguousFunction, "function %s(unknown, unknown) is not unique", lower).
				WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
		}
		if !accepts(args[0], types.FamilyDate) || !accepts(args[1], types.FamilyTime) {
			return nil, false, nil
		}
		d, err := b.coerce(args[0], types.Date, loc)
		if err != nil {
			return nil, true, err
		}
		t, err := b.coerce(args[1], types.Time, loc)
		if err != nil {
			return nil, true, err
		}
		sum, err := b.binary("+", d, t, loc)
		if err != nil || lower == "timestamp" {
			return sum, true, err
		}
		e, err := b.cast(sum, types.TimestampTZ, loc)
		return e, true, err
	}
	sum, addend := args[0], args[1]
	if !(isUnknown(sum) || sum.Type().Family() == types.FamilyNumeric || sum.Type().Family() == types.FamilyInt) || !accepts(addend, types.FamilyInt) {
		return nil, false, nil
	}
	var err error
	if isUnknown(sum) || sum.Type().Family() == types.FamilyInt {
		if sum, err = b.cast(sum, types.T{OID: types.OIDNumeric}, loc); err != nil {
			return nil, true, err
		}
	}
	if addend, err = b.coerce(addend, types.Int8, loc); err != nil {
		return nil, true, err
	}
	asNumeric, err := b.cast(addend, types.T{OID: types.OIDNumeric}, loc)
	if err != nil {
		return nil, true, err
	}
	both, err := b.binary("+", sum, asNumeric, loc)
	if err != nil {
		return nil, true, err
	}
	e, err := b.newCase([]When{
		{Cond: &IsNull{Arg: sum}, Result: asNumeric},
		{Cond: &IsNull{Arg: addend}, Result: sum},
	}, both, "CASE")
	return e, true, err
}
