package planner

import (
	"time"

	"github.com/sqe-db/sqe/sql/types"
)

// sessionZone is the TimeZone constants are folded in: the session's when
// it reports one, else UTC.
func (b *Binder) sessionZone() *time.Location {
	if z, ok := b.session.(interface{ TimeZone() *time.Location }); ok {
		if loc := z.TimeZone(); loc != nil {
			return loc
		}
	}
	return time.UTC
}

// zoneSensitiveConst reports whether converting a constant from to to
// reads the session zone: timestamptz meeting a wall clock or text.
func zoneSensitiveConst(from, to types.T) bool {
	fromTZ, toTZ := from.OID == types.OIDTimestampTZ, to.OID == types.OIDTimestampTZ
	switch {
	case fromTZ == toTZ:
		return false
	case toTZ:
		f := from.Family()
		return f == types.FamilyTimestamp || f == types.FamilyDate || f == types.FamilyString || f == types.FamilyUnknown
	default:
		f := to.Family()
		return f == types.FamilyTimestamp || f == types.FamilyDate || f == types.FamilyTime || f == types.FamilyString
	}
}

// convertConstIn is convertConst for a session in zone loc: a timestamptz
// is printed and split into wall-clock parts in loc, and text or a wall
// clock without an offset becomes a timestamptz read in loc.
func convertConstIn(v any, from, to types.T, loc *time.Location) (any, error) {
	if v == nil || loc == time.UTC || !zoneSensitiveConst(from, to) {
		return convertConst(v, from, to)
	}
	switch {
	case from.OID == types.OIDTimestampTZ && to.Family() == types.FamilyString:
		return types.ParseText(string(types.AppendTimestampTZ(nil, v.(int64), loc)), to)
	case from.OID == types.OIDTimestampTZ:
		return convertConst(types.LocalMicros(v.(int64), loc), types.Timestamp, to)
	case from.Family() == types.FamilyString || from.Family() == types.FamilyUnknown:
		s, _ := v.(string)
		return types.ParseTimestampIn(s, to, loc)
	}
	wall, err := convertConst(v, from, types.Timestamp)
	if err != nil {
		return nil, err
	}
	return types.InstantFromLocal(wall.(int64), loc), nil
}
