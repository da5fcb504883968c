package planner

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// bindOverlaps binds (s1, e1) OVERLAPS (s2, e2), which the parser gives
// as overlaps(s1, e1, s2, e2). The four values are timestamps (dates
// read as timestamps, timestamptz when one is), or times; an end may be
// an interval, meaning start + interval, as PostgreSQL's SQL-language
// overloads define it. Not leakproof, as in PostgreSQL.
func (b *Binder) bindOverlaps(fc *pg_query.FuncCall, ec *exprCtx) (Expr, error) {
	args := make([]Expr, len(fc.Args))
	for i, n := range fc.Args {
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	noFunc := func() error {
		names := make([]string, len(args))
		for i, a := range args {
			names[i] = a.Type().Name()
		}
		return b.errAt(fc.Location, pgerror.UndefinedFunction, "function pg_catalog.overlaps(%s) does not exist", strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if len(args) != 4 {
		return nil, noFunc()
	}
	var sawTime, sawStamp, sawTZ bool
	for i, a := range args {
		t := a.Type()
		switch {
		case t.OID == types.OIDUnknown:
		case t.Family() == types.FamilyInterval && i%2 == 1:
		case t.OID == types.OIDTime:
			sawTime = true
		case t.OID == types.OIDTimestampTZ:
			sawTZ, sawStamp = true, true
		case t.Family() == types.FamilyDate || t.Family() == types.FamilyTimestamp:
			sawStamp = true
		default:
			return nil, noFunc()
		}
	}
	if sawTime && sawStamp {
		return nil, noFunc()
	}
	pointType := types.Timestamp
	switch {
	case sawTime:
		pointType = types.Time
	case sawTZ:
		pointType = types.TimestampTZ
	}
	var err error
	for i := 0; i < 4; i += 2 {
		if args[i], err = b.coerce(args[i], pointType, fc.Location); err != nil {
			return nil, err
		}
		end := args[i+1]
		if end.Type().Family() == types.FamilyInterval {
			if end, err = b.binary("+", args[i], end, fc.Location); err != nil {
				return nil, err
			}
		}
		if args[i+1], err = b.coerce(end, pointType, fc.Location); err != nil {
			return nil, err
		}
	}
	return &Func{Name: "overlaps", Args: args, Typ: types.Bool}, nil
}
