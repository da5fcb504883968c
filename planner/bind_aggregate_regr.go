package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// bindRegressionArgs binds the two arguments of a regression aggregate,
// corr(Y, X): both are converted to double precision, the only
// signature PostgreSQL has, so integers, numerics, reals and untyped
// literals are accepted and anything else does not match. Y is the
// call's Arg and X its second argument (Delim).
func (b *Binder) bindRegressionArgs(fc *pg_query.FuncCall, name string, call *AggCall, bindArg func(*pg_query.Node) (Expr, error)) error {
	args := make([]Expr, 2)
	// bindArg reads an untyped literal as text (string_agg's rule); here
	// it resolves to double precision, as PostgreSQL's only signature.
	literal := make([]bool, 2)
	for i, n := range fc.Args {
		e, err := bindArg(n)
		if err != nil {
			return err
		}
		args[i] = e
		literal[i] = n.GetAConst() != nil && n.GetAConst().GetSval() != nil
	}
	for i, e := range args {
		if literal[i] {
			var err error
			if args[i], err = b.cast(e, types.Float8, fc.Location); err != nil {
				return err
			}
			continue
		}
		if !implicitlyCoercible(e.Type(), types.Float8) {
			return b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s, %s) does not exist", name, args[0].Type().Name(), args[1].Type().Name()).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
	}
	for i, e := range args {
		var err error
		if args[i], err = b.coerce(e, types.Float8, fc.Location); err != nil {
			return err
		}
	}
	call.Arg, call.Delim = args[0], args[1]
	return nil
}
