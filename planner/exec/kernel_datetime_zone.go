package exec

import (
	"context"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// The session's TimeZone reaches evaluation through the context given to
// Build and Next (WithTimeZone). timestamptz values are UTC instants; the
// zone decides only how they meet wall clocks: casts to and from
// timestamp, date, time and text, the fields extract reads, date_trunc's
// boundaries, to_char, and calendar arithmetic with intervals. Expressions
// that depend on it are not folded at build time, when the zone is not
// known.

type timeZoneKey struct{}

// WithTimeZone returns a context whose queries evaluate timestamptz
// values in loc. Without one, UTC.
func WithTimeZone(ctx context.Context, loc *time.Location) context.Context {
	return context.WithValue(ctx, timeZoneKey{}, loc)
}

// timeZoneOf is the session zone carried by ctx, UTC by default.
func timeZoneOf(ctx context.Context) *time.Location {
	if loc, ok := ctx.Value(timeZoneKey{}).(*time.Location); ok && loc != nil {
		return loc
	}
	return time.UTC
}

func isTimestampTZ(t types.T) bool { return t.OID == types.OIDTimestampTZ }

// zoneDependentCast reports whether converting from to to reads the
// session zone.
func zoneDependentCast(from, to types.T) bool {
	switch {
	case isTimestampTZ(from) == isTimestampTZ(to):
		return false
	case isTimestampTZ(to):
		f := from.Family()
		return f == types.FamilyTimestamp || f == types.FamilyDate || f == types.FamilyString || f == types.FamilyUnknown
	default:
		f := to.Family()
		return f == types.FamilyTimestamp || f == types.FamilyDate || f == types.FamilyTime || f == types.FamilyString
	}
}

// castEval is a cast; one that depends on the session zone reads it from
// the evaluation context.
type castEval struct {
	arg      evaluator
	from, to types.T
}

func (c castEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := c.arg.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return castInZone(a, c.from, c.to, timeZoneOf(ctx))
}

// castInZone is castArray with timestamptz read and written in loc.
func castInZone(a arrow.Array, from, to types.T, loc *time.Location) (arrow.Array, error) {
	if loc == time.UTC || !zoneDependentCast(from, to) {
		return castArray(a, from, to)
	}
	validity, nulls := validity1(a)
	switch {
	case isTimestampTZ(from) && to.Family() == types.FamilyString:
		ts := a.(*array.Timestamp)
		b := array.NewStringBuilder(memory.DefaultAllocator)
		defer b.Release()
		var buf []byte
		for i := 0; i < ts.Len(); i++ {
			if ts.IsNull(i) {
				b.AppendNull()
				continue
			}
			buf = types.AppendTimestampTZ(buf[:0], int64(ts.Value(i)), loc)
			if to.OID == types.OIDVarchar && to.Precision > 0 {
				buf = truncateRunes(buf, int(to.Precision))
			}
			b.BinaryBuilder.Append(buf)
		}
		return b.NewArray(), nil
	case isTimestampTZ(from):
		local := localize(a, loc)
		defer local.Release()
		if to.Family() == types.FamilyTimestamp {
			local.Retain()
			return local, nil
		}
		return castArray(local, types.Timestamp, to)
	case from.Family() == types.FamilyString || from.Family() == types.FamilyUnknown:
		str := a.(*array.String)
		out := make([]int64, str.Len())
		for i := range out {
			if str.IsNull(i) {
				continue
			}
			v, err := types.ParseTimestampIn(str.Value(i), to, loc)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return newFixed(to.Arrow(), out, validity, nulls), nil
	}
	// timestamp or date to timestamptz: the wall clock read in loc.
	wall, err := castArray(a, from, types.Timestamp)
	if err != nil {
		return nil, err
	}
	defer wall.Release()
	in := values[int64](wall)
	out := make([]int64, len(in))
	for i, v := range in {
		if validAt(validity, i) {
			out[i] = types.InstantFromLocal(v, loc)
		}
	}
	return newFixed(to.Arrow(), out, validity, nulls), nil
}

// localize turns a timestamptz array into the wall clocks loc shows, as a
// timestamp array.
func localize(a arrow.Array, loc *time.Location) arrow.Array {
	validity, nulls := validity1(a)
	in := values[int64](a)
	out := make([]int64, len(in))
	for i, v := range in {
		if validAt(validity, i) {
			out[i] = types.LocalMicros(v, loc)
		}
	}
	return newFixed(types.Timestamp.Arrow(), out, validity, nulls)
}

// zonedKernel is a kernel that needs the session zone.
type zonedKernel func(loc *time.Location, args []arrow.Array, res types.T) (arrow.Array, error)

// lookupZonedKernel returns the zone-aware form of function name over
// arguments of types args, when its result depends on the session zone.
func lookupZonedKernel(name string, args []types.T) (zonedKernel, bool) {
	switch name {
	case "extract", "date_part":
		if len(args) != 2 || !isTimestampTZ(args[1]) {
			return nil, false
		}
		base, err := lookupKernel(name)
		if err != nil {
			return nil, false
		}
		return func(loc *time.Location, a []arrow.Array, res types.T) (arrow.Array, error) {
			if loc == time.UTC || constantField(a[0]) == "epoch" {
				return base(a, res)
			}
			local := localize(a[1], loc)
			defer local.Release()
			return base([]arrow.Array{a[0], local}, res)
		}, true
	case "extract_row_unit":
		if len(args) != 2 || !isTimestampTZ(args[1]) {
			return nil, false
		}
		return func(loc *time.Location, a []arrow.Array, res types.T) (arrow.Array, error) {
			return extractRowUnitKernel(loc)(a, res)
		}, true
	case "age":
		if len(args) != 2 || !isTimestampTZ(args[0]) {
			return nil, false
		}
		base, err := lookupKernel(name)
		if err != nil {
			return nil, false
		}
		// age counts calendar months and days between the wall clocks.
		return func(loc *time.Location, a []arrow.Array, res types.T) (arrow.Array, error) {
			if loc == time.UTC {
				return base(a, res)
			}
			l, r := localize(a[0], loc), localize(a[1], loc)
			defer l.Release()
			defer r.Release()
			return base([]arrow.Array{l, r}, res)
		}, true
	case "make_timestamptz":
		return func(loc *time.Location, a []arrow.Array, res types.T) (arrow.Array, error) {
			return makeTimestampTZKernel(loc)(a, res)
		}, true
	case "date_trunc":
		if len(args) != 2 || !isTimestampTZ(args[1]) {
			return nil, false
		}
		return dateTruncInZone, true
	case "to_char":
		if len(args) != 2 || !isTimestampTZ(args[0]) {
			return nil, false
		}
		return toCharInZone, true
	case "mask", "mask_first_n", "mask_last_n", "mask_show_first_n", "mask_show_last_n":
		return maskZonedKernel(name, args)
	}
	return nil, false
}

// makeTimestampTZKernel is make_timestamptz: the wall clock read in the
// seventh argument's zone, or in the session zone loc.
func makeTimestampTZKernel(loc *time.Location) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		zones := map[string]*time.Location{}
		return rowKernel(func(v []any) (any, error) {
			wall, err := makeTimestamp(v[:6])
			if err != nil {
				return nil, err
			}
			in := loc
			if len(v) == 7 {
				name := v[6].(string)
				if in = zones[name]; in == nil {
					if in, err = types.LoadZone(name); err != nil {
						return nil, err
					}
					zones[name] = in
				}
			}
			return types.InstantFromLocal(wall.(int64), in), nil
		})(args, res)
	}
}

// constantField is the first non-null value of a text argument, "" when
// there is none.
func constantField(a arrow.Array) string {
	s, ok := a.(*array.String)
	if !ok {
		return ""
	}
	for i := 0; i < s.Len(); i++ {
		if s.IsValid(i) {
			return strings.ToLower(s.Value(i))
		}
	}
	return ""
}

// dateTruncInZone truncates in the zone's wall clock. Units of a day and
// more find their instant again in the zone (DST-aware); smaller units
// keep the value's own offset, as PostgreSQL's timestamptz_trunc does.
func dateTruncInZone(loc *time.Location, args []arrow.Array, res types.T) (arrow.Array, error) {
	if loc == time.UTC {
		return dateTrunc(args, res)
	}
	local := localize(args[1], loc)
	defer local.Release()
	trunc, err := dateTrunc([]arrow.Array{args[0], local}, types.Timestamp)
	if err != nil {
		return nil, err
	}
	defer trunc.Release()
	units := args[0].(*array.String)
	orig := values[int64](args[1])
	validity, nulls := validity1(trunc)
	in := values[int64](trunc)
	out := make([]int64, len(in))
	for i, v := range in {
		if !validAt(validity, i) {
			continue
		}
		switch strings.ToLower(units.Value(i)) {
		case "microseconds", "microsecond", "us", "usec", "usecs", "useconds",
			"milliseconds", "millisecond", "ms", "msec", "msecs", "mseconds",
			"second", "seconds", "sec", "secs", "s",
			"minute", "minutes", "min", "mins", "m",
			"hour", "hours", "hr", "hrs", "h":
			out[i] = v - int64(types.ZoneOffset(orig[i], loc))*1_000_000
		default:
			out[i] = types.InstantFromLocal(v, loc)
		}
	}
	return newFixed(res.Arrow(), out, validity, nulls), nil
}

// toCharInZone is to_char(timestamptz, format) with the fields, TZ and OF
// of the session zone.
func toCharInZone(loc *time.Location, args []arrow.Array, res types.T) (arrow.Array, error) {
	return toCharIn(args, res, loc)
}

// addIntervalInZone is timestamptz + interval in loc: months and days move
// the wall clock (so '1 day' across a DST change keeps the time of day),
// the time part moves the instant, as PostgreSQL's timestamptz_pl_interval.
func addIntervalInZone(micros int64, iv types.IntervalValue, loc *time.Location) (int64, error) {
	if iv.Months != 0 || iv.Days != 0 {
		wall := types.LocalMicros(micros, loc)
		moved, err := types.AddInterval(wall, types.IntervalValue{Months: iv.Months, Days: iv.Days})
		if err != nil {
			return 0, err
		}
		micros = types.InstantFromLocal(moved, loc)
	}
	return types.AddInterval(micros, types.IntervalValue{Micros: iv.Micros})
}

// zoneDependentArith reports whether l op r depends on the session zone:
// timestamptz with an interval, whose months and days are calendar units.
func zoneDependentArith(l, r types.T) bool {
	return isTimestampTZ(l) && r.Family() == types.FamilyInterval ||
		l.Family() == types.FamilyInterval && isTimestampTZ(r)
}

// datetimeArithIn is datetimeArith with timestamptz ± interval done in
// the zone loc.
func datetimeArithIn(loc *time.Location, op string, l, r arrow.Array, lt, rt, res types.T) (arrow.Array, error) {
	if loc == time.UTC || !zoneDependentArith(lt, rt) || (op != "+" && op != "-") {
		return datetimeArith(op, l, r, lt, rt, res)
	}
	validity, nulls := validity2(l, r)
	ts, ivs := values[int64](l), values[arrow.MonthDayNanoInterval](r)
	if lt.Family() == types.FamilyInterval {
		ts, ivs = values[int64](r), values[arrow.MonthDayNanoInterval](l)
	}
	out := make([]int64, len(ts))
	for i := range out {
		if !validAt(validity, i) {
			continue
		}
		iv := types.IntervalFromArrow(ivs[i])
		if op == "-" {
			var err error
			if iv, err = types.NegateInterval(iv); err != nil {
				return nil, err
			}
		}
		v, err := addIntervalInZone(ts[i], iv, loc)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return newFixed(res.Arrow(), out, validity, nulls), nil
}
