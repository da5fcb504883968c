package main

import "testing"

func TestSameAnswer(t *testing.T) {
	tests := []struct {
		name   string
		a, b   []string
		wantOK bool
	}{
		{name: "equal", a: []string{"1000000"}, b: []string{"1000000"}, wantOK: true},
		{name: "any row order", a: []string{"EU|1", "US|2"}, b: []string{"US|2", "EU|1"}, wantOK: true},
		{name: "float last digits", a: []string{"EU|0.14889623265036253"}, b: []string{"EU|0.1488962326503625"}, wantOK: true},
		{name: "different count", a: []string{"1000000"}, b: []string{"999999"}},
		{name: "different text", a: []string{"EU|1"}, b: []string{"US|1"}},
		{name: "float really differs", a: []string{"EU|0.1489"}, b: []string{"EU|0.1490"}},
		{name: "row count", a: []string{"EU|1"}, b: []string{"EU|1", "US|1"}},
		{name: "NULL against number", a: []string{"NULL"}, b: []string{"0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := sameAnswer(tt.a, tt.b)
			if (err == nil) != tt.wantOK {
				t.Fatalf("sameAnswer(%q, %q) = %v, want ok %v", tt.a, tt.b, err, tt.wantOK)
			}
		})
	}
}
