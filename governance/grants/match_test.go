package grants

import "testing"

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", true},
		{"*", "orders", true},
		{"orders", "orders", true},
		{"orders", "orders2", false},
		{"ord*", "orders", true},
		{"ord*", "or", false},
		{"*ers", "orders", true},
		{"o*d*s", "orders", true},
		{"o*d*s", "ordesx", false},
		{"?rders", "orders", true},
		{"?rders", "rders", false},
		{"a*b*c", "aXbYbZc", true},
		{"a*b*c", "aXbYbZ", false},
		{"é?", "éü", true},
		{"**", "x", true},
	}
	for _, tt := range tests {
		if got := globMatch(tt.pattern, tt.s); got != tt.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tt.pattern, tt.s, got, tt.want)
		}
	}
}

func TestCovers(t *testing.T) {
	r := func(root, c, n, tb string) Resource { return Resource{Root: root, Catalog: c, Namespace: n, Table: tb} }
	tests := []struct {
		name           string
		policy, target Resource
		want           bool
	}{
		{"exact", r("*", "wh", "ns", "t"), r("*", "wh", "ns", "t"), true},
		{"case is ignored", r("*", "WH", "Ns", "T"), r("*", "wh", "ns", "t"), true},
		// ALL / FUTURE TABLES IN SCHEMA: a table created after the grant
		// is covered by the policy written for it.
		{"all tables covers a table created later", r("*", "wh", "ns", "*"), r("*", "wh", "ns", "created_next_year"), true},
		{"all tables does not reach another schema", r("*", "wh", "ns", "*"), r("*", "wh", "other", "t"), false},
		{"wildcard in a name", r("*", "wh", "ns", "ord*"), r("*", "wh", "ns", "orders"), true},
		{"realm pattern", r("POLARIS", "wh", "ns", "t"), r("OTHER", "wh", "ns", "t"), false},
		{"an ancestor policy never applies", r("*", "wh", "ns", ""), r("*", "wh", "ns", "t"), false},
		{"a catalog policy does not reach tables", r("*", "wh", "", ""), r("*", "wh", "ns", "t"), false},
		{"a deeper policy applies when its extra levels are *", r("*", "wh", "*", "*"), r("*", "wh", "", ""), true},
		{"but not when they name something", r("*", "wh", "ns", "*"), r("*", "wh", "", ""), false},
		{"a table policy does not cover its namespace", r("*", "wh", "ns", "t"), r("*", "wh", "ns", ""), false},
		{"a wildcard request needs a wildcard policy", r("*", "wh", "ns", "orders"), r("*", "wh", "ns", "*"), false},
	}
	for _, tt := range tests {
		if got := covers(tt.policy, tt.target); got != tt.want {
			t.Errorf("%s: covers(%v, %v) = %v, want %v", tt.name, tt.policy, tt.target, got, tt.want)
		}
	}
}
