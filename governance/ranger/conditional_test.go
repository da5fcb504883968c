package ranger

import "testing"

func TestConditional(t *testing.T) {
	off := false
	cond := []PolicyItemCondition{{Type: "ip-range", Values: []string{"10.0.0.0/8"}}}
	item := PolicyItem{Users: []string{"bob"}, Conditions: cond}
	tests := []struct {
		name   string
		policy Policy
		want   bool
	}{
		{"plain", Policy{PolicyItems: []PolicyItem{{Users: []string{"bob"}}}}, false},
		{"policy condition", Policy{Conditions: cond}, true},
		{"validity schedule", Policy{ValiditySchedules: []ValiditySchedule{{StartTime: "2020/01/01 00:00:00"}}}, true},
		{"allow item", Policy{PolicyItems: []PolicyItem{item}}, true},
		{"deny item", Policy{DenyPolicyItems: []PolicyItem{item}}, true},
		{"allow exception", Policy{AllowExceptions: []PolicyItem{item}}, true},
		{"deny exception", Policy{DenyExceptions: []PolicyItem{item}}, true},
		{"mask item", Policy{DataMaskPolicyItems: []DataMaskPolicyItem{{PolicyItem: item}}}, true},
		{"row filter item", Policy{RowFilterPolicyItems: []RowFilterPolicyItem{{PolicyItem: item}}}, true},
		{"disabled", Policy{IsEnabled: &off, Conditions: cond}, false},
	}
	for _, tt := range tests {
		if got := Conditional([]Policy{tt.policy}); got != tt.want {
			t.Errorf("%s: Conditional = %v, want %v", tt.name, got, tt.want)
		}
	}
}
