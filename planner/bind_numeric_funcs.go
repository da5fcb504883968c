package planner

import (
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// scaleFromArguments fixes the result type of round(numeric, n) and
// trunc(numeric, n): PostgreSQL's result has scale n, and SQE's numeric
// columns carry one scale, so n must be a constant. Other calls keep res.
func scaleFromArguments(name string, args []Expr, res types.T) (types.T, error) {
	if res.OID == types.OIDNumeric && res.Precision == 0 && generalNumericResult(name, args) {
		return types.NumericGeneral(res.Scale), nil
	}
	if res.OID == types.OIDNumeric && len(args) == 1 {
		switch name {
		case "sqrt", "exp", "ln", "log":
			res.Scale = transcendentalScale(name, args[0])
			return res, nil
		}
	}
	if (name != "round" && name != "trunc") || len(args) != 2 || res.OID != types.OIDNumeric {
		return res, nil
	}
	c, ok := args[1].(*Const)
	if !ok {
		return res, pgerror.Unsupported("%s(numeric, integer) with a non-constant scale is not supported yet", name)
	}
	if c.Value == nil {
		return res, nil
	}
	n := c.Value.(int64)
	res.Scale = int32(min(max(n, 0), types.MaxNumericPrecision))
	return res, nil
}

// transcendentalScale is the result scale of sqrt, exp, ln or log (base
// 10) of a numeric: for a constant, the scale PostgreSQL gives that value
// (16 significant digits); for a column, 16 decimals or the argument's
// scale, as PostgreSQL gives a value of weight 0.
func transcendentalScale(name string, arg Expr) int32 {
	argScale := arg.Type().Scale
	c, ok := arg.(*Const)
	n, isNum := c.valueNumeric()
	if !ok || !isNum || n.Sign() <= 0 {
		return min(max(functions.LogNumericScale, argScale), types.MaxNumericPrecision)
	}
	x := n.BigInt()
	var s int32
	switch name {
	case "sqrt":
		s = types.NumericSqrtScale(x, argScale)
	case "exp":
		s = types.NumericExpScale(n.ToFloat64(argScale), argScale)
	case "ln":
		s = types.NumericLnScale(x, argScale)
	default:
		s = types.NumericLogScale(big.NewInt(10), 0, x, argScale)
	}
	return min(s, types.MaxNumericPrecision)
}

// argTypeNames lists the arguments' types for an "function f(...) does
// not exist" message, as PostgreSQL names them ("unknown" for a string
// literal, "???" for an argument that does not bind).
func (b *Binder) argTypeNames(args []*pg_query.Node, ec *exprCtx) string {
	names := make([]string, len(args))
	for i, n := range args {
		names[i] = "???"
		if e, err := b.bindExpr(n, &exprCtx{scope: ec.scope, clause: ec.clause}); err == nil {
			names[i] = e.Type().Name()
		}
	}
	return strings.Join(names, ", ")
}

// bindTypeof is pg_typeof(x): the argument's type as a regtype constant
// (the argument itself is not evaluated, as in PostgreSQL).
func (b *Binder) bindTypeof(fc *pg_query.FuncCall, ec *exprCtx) (Expr, error) {
	arg, err := b.bindExpr(fc.Args[0], ec)
	if err != nil {
		return nil, err
	}
	return &Const{Typ: types.Regtype, Value: int64(arg.Type().OID)}, nil
}

// valueNumeric is a numeric constant's value; ok is false for a NULL, a
// nil constant or another type.
func (c *Const) valueNumeric() (decimal128.Num, bool) {
	if c == nil {
		return decimal128.Num{}, false
	}
	n, ok := c.Value.(decimal128.Num)
	return n, ok
}

// generalNumericResult reports a numeric function result held as a
// general numeric: one of a general argument (each value keeps its own
// scale, NaN and infinities pass through), of the functions whose result
// scale PostgreSQL picks from the value (sqrt, exp, ln, log, power, gcd,
// lcm, trim_scale), and round's and trunc's with a scale that is not a
// constant.
func generalNumericResult(name string, args []Expr) bool {
	for _, a := range args {
		if a.Type().IsGeneralNumeric() {
			return true
		}
	}
	switch name {
	case "trim_scale", "sqrt", "exp", "ln", "log", "power", "gcd", "lcm":
		// Their result's scale is picked per value.
		return true
	case "round", "trunc":
		if len(args) == 2 {
			_, isConst := args[1].(*Const)
			return !isConst
		}
	}
	return false
}
