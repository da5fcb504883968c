package ranger

import (
	"fmt"
	"time"
)

// scheduleLayout is how Ranger writes a validity schedule's times.
const scheduleLayout = "2006/01/02 15:04:05"

// window is a compiled validity schedule: the policy applies from start
// (inclusive) to end (exclusive); a zero bound is open.
type window struct {
	start, end time.Time
}

func compileSchedules(ss []ValiditySchedule) ([]window, error) {
	var out []window
	for i, s := range ss {
		if len(s.Recurrences) > 0 {
			return nil, fmt.Errorf("validity schedule %d: recurrences are not supported", i+1)
		}
		loc := time.UTC
		if s.TimeZone != "" {
			l, err := time.LoadLocation(s.TimeZone)
			if err != nil {
				return nil, fmt.Errorf("validity schedule %d: time zone %q: %w", i+1, s.TimeZone, err)
			}
			loc = l
		}
		var w window
		var err error
		if s.StartTime != "" {
			if w.start, err = time.ParseInLocation(scheduleLayout, s.StartTime, loc); err != nil {
				return nil, fmt.Errorf("validity schedule %d: start time: %w", i+1, err)
			}
		}
		if s.EndTime != "" {
			if w.end, err = time.ParseInLocation(scheduleLayout, s.EndTime, loc); err != nil {
				return nil, fmt.Errorf("validity schedule %d: end time: %w", i+1, err)
			}
		}
		out = append(out, w)
	}
	return out, nil
}

// inSchedule reports whether a policy with these windows applies at t: it
// does when it has none, or when t falls in one of them.
func inSchedule(ws []window, t time.Time) bool {
	if len(ws) == 0 {
		return true
	}
	for _, w := range ws {
		if (w.start.IsZero() || !t.Before(w.start)) && (w.end.IsZero() || t.Before(w.end)) {
			return true
		}
	}
	return false
}
