package sql

import (
	"strconv"
	"strings"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// timeZoneSetting validates a TimeZone value and returns the spelling
// SHOW reports: a number is hours east of Greenwich (SET TIME ZONE -7),
// anything else a zone name or POSIX offset types.LoadZone accepts.
func timeZoneSetting(value string) (string, error) {
	v := strings.TrimSpace(value)
	if hours, err := strconv.ParseFloat(v, 64); err == nil {
		return types.NumericZoneName(hours)
	}
	loc, err := types.LoadZone(v)
	if err != nil {
		return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%s\"", value)
	}
	if loc == time.UTC {
		switch strings.ToUpper(v) {
		case "UTC", "GMT", "UCT":
			return strings.ToUpper(v), nil
		case "ETC/UTC":
			return "Etc/UTC", nil
		}
		return v, nil
	}
	return types.CanonicalZoneName(v, loc), nil
}

// timeZone is the session's TimeZone as a location; a value that no
// longer loads (it was checked when set) falls back to UTC.
func (s *settings) timeZone() *time.Location {
	name := s.values["timezone"]
	if name == s.zoneName && s.zone != nil {
		return s.zone
	}
	loc, err := types.LoadZone(name)
	if err != nil {
		loc = time.UTC
	}
	s.zoneName, s.zone = name, loc
	return loc
}
