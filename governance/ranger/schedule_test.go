package ranger

import (
	"testing"
	"time"
)

// TestValidityRecurrences: a validity schedule's recurrences, as Ranger's
// RangerValidityScheduleEvaluator applies them: each starts an interval
// at every minute its fields match, in the schedule's time zone.
func TestValidityRecurrences(t *testing.T) {
	// Office hours in New York: 9:00 for 8 hours, Monday to Friday
	// (Ranger's 2-6, 1 = Sunday).
	office := ValiditySchedule{TimeZone: "America/New_York", Recurrences: []ValidityRecurrence{{
		Schedule: RecurrenceSchedule{Minute: "0", Hour: "9", DayOfWeek: "2-6"},
		Interval: ValidityInterval{Hours: 8},
	}}}
	// The first of each month, and the 15th of March, April and
	// December 2027, for a day, in UTC.
	monthly := ValiditySchedule{Recurrences: []ValidityRecurrence{{
		Schedule: RecurrenceSchedule{Minute: "0", Hour: "0", DayOfMonth: "1"},
		Interval: ValidityInterval{Days: 1},
	}, {
		Schedule: RecurrenceSchedule{Minute: "*", Hour: "*", DayOfMonth: "15", Month: "3-4,12", Year: "2027"},
		Interval: ValidityInterval{Minutes: 1},
	}}}
	// Every quarter hour for five minutes, within a bounded window.
	quarters := ValiditySchedule{StartTime: "2027/01/04 00:00:00", EndTime: "2027/01/05 00:00:00", Recurrences: []ValidityRecurrence{{
		Schedule: RecurrenceSchedule{Minute: "0,15,30,45", DayOfMonth: "*"},
		Interval: ValidityInterval{Minutes: 5},
	}}}
	// An interval across midnight and across a week's end: Saturday
	// 22:00 for 4 hours.
	saturdayNight := ValiditySchedule{Recurrences: []ValidityRecurrence{{
		Schedule: RecurrenceSchedule{Minute: "0", Hour: "22", DayOfWeek: "7"},
		Interval: ValidityInterval{Hours: 4},
	}}}
	// Day of month or day of week: Ranger takes the later of the two
	// candidates, so either matching starts the interval.
	either := ValiditySchedule{Recurrences: []ValidityRecurrence{{
		Schedule: RecurrenceSchedule{Minute: "0", Hour: "12", DayOfMonth: "13", DayOfWeek: "6"},
		Interval: ValidityInterval{Hours: 1},
	}}}
	// Without an interval Ranger lets the recurrence hold.
	noInterval := ValiditySchedule{Recurrences: []ValidityRecurrence{{Schedule: RecurrenceSchedule{Hour: "3", DayOfWeek: "1"}}}}

	utc := func(s string) time.Time {
		t.Helper()
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name     string
		schedule ValiditySchedule
		at       string
		want     bool
	}{
		// 2027-01-04 is a Monday; New York is UTC-5 in January.
		{"office: Monday 9:00 New York", office, "2027-01-04T14:00:00Z", true},
		{"office: Monday 8:59 New York", office, "2027-01-04T13:59:00Z", false},
		{"office: Monday 17:00 New York, the interval's end (inclusive)", office, "2027-01-04T22:00:00Z", true},
		{"office: Monday 17:01 New York", office, "2027-01-04T22:01:00Z", false},
		{"office: Friday 12:00 New York", office, "2027-01-08T17:00:00Z", true},
		{"office: Saturday 12:00 New York", office, "2027-01-09T17:00:00Z", false},
		{"office: Monday 14:00 UTC is 9:00 in New York, not 14:00 UTC's 9:00", office, "2027-01-04T09:30:00Z", false},
		// In July New York is UTC-4.
		{"office: a July Monday 9:00 New York", office, "2027-07-05T13:00:00Z", true},
		{"office: a July Monday 8:30 New York", office, "2027-07-05T12:30:00Z", false},
		{"monthly: the first, 00:00", monthly, "2027-02-01T00:00:00Z", true},
		{"monthly: the first, 23:59", monthly, "2027-02-01T23:59:00Z", true},
		{"monthly: the second, 00:00 (the day's end, inclusive)", monthly, "2027-02-02T00:00:00Z", true},
		{"monthly: the second, 00:01", monthly, "2027-02-02T00:01:00Z", false},
		{"monthly: the 15th of March 2027", monthly, "2027-03-15T10:20:30Z", true},
		{"monthly: the 15th of May 2027", monthly, "2027-05-15T10:20:30Z", false},
		{"monthly: the 15th of December 2027", monthly, "2027-12-15T23:59:59Z", true},
		{"monthly: the 15th of March 2028", monthly, "2028-03-15T10:20:30Z", false},
		{"quarters: 10:15", quarters, "2027-01-04T10:15:00Z", true},
		{"quarters: 10:20", quarters, "2027-01-04T10:20:00Z", true},
		{"quarters: 10:21", quarters, "2027-01-04T10:21:00Z", false},
		{"quarters: 23:59 across the hour", quarters, "2027-01-04T23:59:00Z", false},
		{"quarters: 10:15 a day past the window", quarters, "2027-01-05T10:15:00Z", false},
		{"quarters: 10:15 the day before the window", quarters, "2027-01-03T10:15:00Z", false},
		// 2027-01-09 is a Saturday.
		{"saturday night: 23:00", saturdayNight, "2027-01-09T23:00:00Z", true},
		{"saturday night: Sunday 01:59", saturdayNight, "2027-01-10T01:59:00Z", true},
		{"saturday night: Sunday 02:01", saturdayNight, "2027-01-10T02:01:00Z", false},
		{"saturday night: Friday 23:00", saturdayNight, "2027-01-08T23:00:00Z", false},
		// 2027-08-13 is a Friday, 2027-01-13 a Wednesday, 2027-01-15 a Friday.
		{"either: Friday the 13th", either, "2027-08-13T12:30:00Z", true},
		{"either: the 13th, a Wednesday", either, "2027-01-13T12:30:00Z", true},
		{"either: a Friday, the 15th", either, "2027-01-15T12:30:00Z", true},
		{"either: a Thursday, the 14th", either, "2027-01-14T12:30:00Z", false},
		{"no interval: always", noInterval, "2027-01-06T12:00:00Z", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, err := compileSchedules([]ValiditySchedule{tc.schedule})
			if err != nil {
				t.Fatal(err)
			}
			if got := inSchedule(ws, utc(tc.at)); got != tc.want {
				t.Errorf("at %s: %v, want %v", tc.at, got, tc.want)
			}
		})
	}
}

// TestValidityRecurrenceRefusals: a recurrence SQE cannot read as Ranger
// would is an error, so the policy is refused rather than guessed.
func TestValidityRecurrenceRefusals(t *testing.T) {
	for _, r := range []ValidityRecurrence{
		{Schedule: RecurrenceSchedule{Hour: "9"}, Interval: ValidityInterval{Hours: 1}},
		{Schedule: RecurrenceSchedule{Hour: "24", DayOfWeek: "*"}, Interval: ValidityInterval{Hours: 1}},
		{Schedule: RecurrenceSchedule{Minute: "5-1", DayOfWeek: "*"}, Interval: ValidityInterval{Hours: 1}},
		{Schedule: RecurrenceSchedule{Month: "0", DayOfWeek: "*"}, Interval: ValidityInterval{Hours: 1}},
		{Schedule: RecurrenceSchedule{Year: "2016", DayOfWeek: "*"}, Interval: ValidityInterval{Hours: 1}},
		{Schedule: RecurrenceSchedule{DayOfMonth: "first"}, Interval: ValidityInterval{Hours: 1}},
		{Schedule: RecurrenceSchedule{DayOfWeek: "*"}, Interval: ValidityInterval{Hours: -1}},
	} {
		if _, err := compileSchedules([]ValiditySchedule{{Recurrences: []ValidityRecurrence{r}}}); err == nil {
			t.Errorf("%+v compiled", r)
		}
	}
}
