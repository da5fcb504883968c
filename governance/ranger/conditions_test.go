package ranger

import (
	"testing"
	"time"
)

func TestIPMatcher(t *testing.T) {
	tests := []struct {
		values []string
		ip     string
		want   bool
	}{
		{[]string{"10.1.2.3"}, "10.1.2.3", true},
		{[]string{"10.1.2.3"}, "10.1.2.4", false},
		{[]string{"10.1.*"}, "10.1.200.4", true},
		{[]string{"10.1.*.*"}, "10.10.0.1", false},
		{[]string{"10.0.0.0/8"}, "10.200.0.1", true},
		{[]string{"10.0.0.0/8"}, "11.0.0.1", false},
		{[]string{"fe80:*"}, "FE80::1", true},
		{[]string{"192.168.0.1", "172.16.0.0/12"}, "172.20.1.1", true},
	}
	for _, tc := range tests {
		c, err := compileIPMatcher(tc.values)
		if err != nil {
			t.Fatalf("%v: %v", tc.values, err)
		}
		got, err := c.eval(&evalContext{req: &Request{ClientIPAddress: tc.ip}})
		if err != nil || got != tc.want {
			t.Errorf("%v on %s = %v, %v; want %v", tc.values, tc.ip, got, err, tc.want)
		}
	}
	for _, any := range [][]string{nil, {"*"}, {"*.*.*.*"}, {"*:*"}} {
		if c, err := compileIPMatcher(any); err != nil || c != nil {
			t.Errorf("%v: %v, %v; want a condition that always holds", any, c, err)
		}
	}
	if _, err := compileIPMatcher([]string{"10.0.0.0/99"}); err == nil {
		t.Error("a bad CIDR range compiled")
	}
}

// TestTimeOfDay: RangerTimeOfDayMatcher's durations, in the server's
// local time, ends inclusive, wrapping past midnight.
func TestTimeOfDay(t *testing.T) {
	tests := []struct {
		values       []string
		hour, minute int
		want         bool
	}{
		{[]string{"9am-5pm"}, 9, 0, true},
		{[]string{"9am-5pm"}, 8, 59, false},
		{[]string{"9am-5pm"}, 17, 0, true},
		{[]string{"9am-5pm"}, 17, 1, false},
		{[]string{"9:30 A.M. - 4:00p.m."}, 9, 29, false},
		{[]string{"9:30 A.M. - 4:00p.m."}, 16, 0, true},
		{[]string{"12am-1am"}, 0, 30, true},
		{[]string{"12pm-1pm"}, 12, 30, true},
		{[]string{"12pm-1pm"}, 0, 30, false},
		{[]string{"10pm-6am"}, 23, 0, true},
		{[]string{"10pm-6am"}, 5, 59, true},
		{[]string{"10pm-6am"}, 12, 0, false},
		{[]string{"1am-2am", "3pm-4pm"}, 15, 30, true},
		{[]string{"", "1am-2am"}, 1, 30, true},
	}
	for _, tc := range tests {
		c, err := compileTimeOfDay(tc.values)
		if err != nil {
			t.Fatalf("%q: %v", tc.values, err)
		}
		at := time.Date(2027, 3, 10, tc.hour, tc.minute, 30, 0, time.Local)
		got, err := c.eval(&evalContext{req: &Request{}, now: at})
		if err != nil || got != tc.want {
			t.Errorf("%q at %02d:%02d = %v, %v; want %v", tc.values, tc.hour, tc.minute, got, err, tc.want)
		}
	}
	if c, err := compileTimeOfDay(nil); err != nil || c != nil {
		t.Errorf("no values: %v, %v; want a condition that always holds", c, err)
	}
	for _, bad := range []string{"9-17", "9am", "noon-5pm", "9am-5pm and more"} {
		if _, err := compileTimeOfDay([]string{bad}); err == nil {
			t.Errorf("%q compiled", bad)
		}
	}
}

func TestContextConditions(t *testing.T) {
	e := hive(t, `[]`)
	ec := e.newContext(&Request{Context: map[string]string{"ORIGIN": "vpn-paris"}})
	tests := []struct {
		c    condition
		want bool
	}{
		{contextWildcard{name: "ORIGIN", patterns: []string{"vpn-*"}}, true},
		{contextWildcard{name: "ORIGIN", patterns: []string{"office-?"}}, false},
		{contextValueIn{name: "ORIGIN", values: []string{"vpn-paris"}}, true},
		{contextValueIn{name: "ORIGIN", values: []string{"vpn-paris"}, negate: true}, false},
	}
	for _, tc := range tests {
		if got, err := tc.c.eval(ec); err != nil || got != tc.want {
			t.Errorf("%+v = %v, %v; want %v", tc.c, got, err, tc.want)
		}
	}
	// Without the value Ranger lets these hold; SQE cannot decide them.
	for _, c := range []condition{contextWildcard{name: "NOPE", patterns: []string{"*"}}, contextValueIn{name: "NOPE", values: []string{"x"}, negate: true}} {
		if _, err := c.eval(ec); err == nil {
			t.Errorf("%+v: no error without the context value", c)
		}
	}
}
