package ranger

import "testing"

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
