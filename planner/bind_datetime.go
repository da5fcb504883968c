package planner

import (
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// datetimeOperator resolves + and - (and * / for intervals) between date,
// time, timestamp and interval operands, as PostgreSQL's operator
// catalog lists them: the operand types each side is converted to and
// the result type. ok is false when the pair is not a date/time
// operation, so the numeric rules apply.
func datetimeOperator(op string, l, r types.T) (lt, rt, res types.T, ok bool) {
	lf, rf := l.Family(), r.Family()
	if !isDatetimeFamily(lf) && !isDatetimeFamily(rf) {
		return
	}
	// An untyped literal beside a date/time takes the type that makes the
	// operation meaningful: an interval beside a timestamp or time, an
	// integer beside a date (date + '1'), a timestamp for timestamp -
	// '...'.
	if l.OID == types.OIDUnknown {
		l, lf = unknownBeside(op, r, true), unknownBeside(op, r, true).Family()
	}
	if r.OID == types.OIDUnknown {
		r, rf = unknownBeside(op, l, false), unknownBeside(op, l, false).Family()
	}
	ts := func(a, b types.T) types.T {
		if a.OID == types.OIDTimestampTZ || b.OID == types.OIDTimestampTZ {
			return types.TimestampTZ
		}
		return types.Timestamp
	}
	switch op {
	case "+":
		switch {
		case lf == types.FamilyDate && rf == types.FamilyInt:
			return types.Date, types.Int4, types.Date, true
		case lf == types.FamilyInt && rf == types.FamilyDate:
			return types.Int4, types.Date, types.Date, true
		case lf == types.FamilyDate && rf == types.FamilyInterval:
			return types.Timestamp, types.Interval, types.Timestamp, true
		case lf == types.FamilyInterval && rf == types.FamilyDate:
			return types.Interval, types.Timestamp, types.Timestamp, true
		case lf == types.FamilyDate && rf == types.FamilyTime:
			return types.Date, types.Time, types.Timestamp, true
		case lf == types.FamilyTime && rf == types.FamilyDate:
			return types.Time, types.Date, types.Timestamp, true
		case lf == types.FamilyTimestamp && rf == types.FamilyInterval:
			return l, types.Interval, l, true
		case lf == types.FamilyInterval && rf == types.FamilyTimestamp:
			return types.Interval, r, r, true
		case lf == types.FamilyTime && rf == types.FamilyInterval:
			return types.Time, types.Interval, types.Time, true
		case lf == types.FamilyInterval && rf == types.FamilyTime:
			return types.Interval, types.Time, types.Time, true
		case lf == types.FamilyInterval && rf == types.FamilyInterval:
			return types.Interval, types.Interval, types.Interval, true
		}
	case "-":
		switch {
		case lf == types.FamilyDate && rf == types.FamilyInt:
			return types.Date, types.Int4, types.Date, true
		case lf == types.FamilyDate && rf == types.FamilyDate:
			return types.Date, types.Date, types.Int4, true
		case lf == types.FamilyDate && rf == types.FamilyInterval:
			return types.Timestamp, types.Interval, types.Timestamp, true
		case (lf == types.FamilyTimestamp || lf == types.FamilyDate) && (rf == types.FamilyTimestamp || rf == types.FamilyDate):
			t := ts(l, r)
			return t, t, types.Interval, true
		case lf == types.FamilyTimestamp && rf == types.FamilyInterval:
			return l, types.Interval, l, true
		case lf == types.FamilyTime && rf == types.FamilyInterval:
			return types.Time, types.Interval, types.Time, true
		case lf == types.FamilyTime && rf == types.FamilyTime:
			return types.Time, types.Time, types.Interval, true
		case lf == types.FamilyInterval && rf == types.FamilyInterval:
			return types.Interval, types.Interval, types.Interval, true
		}
	case "*":
		switch {
		case lf == types.FamilyInterval && r.IsNumeric():
			return types.Interval, types.Float8, types.Interval, true
		case l.IsNumeric() && rf == types.FamilyInterval:
			return types.Float8, types.Interval, types.Interval, true
		}
	case "/":
		if lf == types.FamilyInterval && r.IsNumeric() {
			return types.Interval, types.Float8, types.Interval, true
		}
	}
	return types.T{}, types.T{}, types.T{}, false
}

// unknownBeside is the type an untyped literal takes as the operand of op
// beside other (left says whether the literal is the left operand).
func unknownBeside(op string, other types.T, left bool) types.T {
	switch other.Family() {
	case types.FamilyDate:
		if op == "-" && !left {
			// date - '2020-01-01' is date - date in PostgreSQL.
			return types.Date
		}
		return types.Int4
	case types.FamilyTimestamp:
		if op == "-" && !left {
			return other
		}
		return types.Interval
	case types.FamilyTime:
		if op == "-" && !left {
			return types.Time
		}
		return types.Interval
	case types.FamilyInterval:
		if op == "*" || op == "/" {
			return types.Float8
		}
		return types.Interval
	}
	return types.Text
}

func isDatetimeFamily(f types.Family) bool {
	switch f {
	case types.FamilyDate, types.FamilyTimestamp, types.FamilyTime, types.FamilyInterval:
		return true
	}
	return false
}

// datetimeBinary binds a date/time operation whose operand and result
// types datetimeOperator chose.
func (b *Binder) datetimeBinary(op functions.Operator, l, r Expr, lt, rt, res types.T, loc int32) (Expr, error) {
	// The kernels take an interval as the right operand of + (and a time
	// of day beside a date) and the left one of *; both commute, so
	// interval + timestamp is timestamp + interval.
	lIv, rIv := lt.Family() == types.FamilyInterval, rt.Family() == types.FamilyInterval
	if op.Name == "+" && (lIv && !rIv || lt.Family() == types.FamilyTime && rt.Family() == types.FamilyDate) ||
		op.Name == "*" && rIv && !lIv {
		l, r, lt, rt = r, l, rt, lt
	}
	var err error
	if l, err = b.coerce(l, lt, loc); err != nil {
		return nil, err
	}
	if r, err = b.coerce(r, rt, loc); err != nil {
		return nil, err
	}
	return &BinOp{Op: op, L: l, R: r, Typ: res}, nil
}

// ageSinceToday rewrites age(x) as age(current_date, x): PostgreSQL's
// one-argument age counts from midnight of the current date.
func (b *Binder) ageSinceToday(fc *pg_query.FuncCall) *pg_query.FuncCall {
	// Today is the session zone's date.
	midnight := time.UnixMicro(types.LocalMicros(b.session.TransactionStart().UnixMicro(), b.sessionZone())).UTC()
	today := &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{
		Arg:      pg_query.MakeAConstStrNode(midnight.Format("2006-01-02"), -1),
		TypeName: &pg_query.TypeName{Names: []*pg_query.Node{pg_query.MakeStrNode("pg_catalog"), pg_query.MakeStrNode("timestamp")}, Typemod: -1},
		Location: -1,
	}}}
	out := proto.Clone(fc).(*pg_query.FuncCall)
	out.Args = []*pg_query.Node{today, fc.Args[0]}
	return out
}
