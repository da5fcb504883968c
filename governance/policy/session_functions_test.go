package policy

import "testing"

func TestFoldSessionFunctions(t *testing.T) {
	v := sessionValues{user: "o'brien", roles: []string{"auditor", "engineer"}}
	tests := []struct{ in, want string }{
		{"region = current_user()", "region = 'o''brien'"},
		{"region = current_user", "region = 'o''brien'"},
		{"owner = CURRENT_ROLE OR owner = session_user", "owner = 'o''brien' OR owner = 'o''brien'"},
		{"region = 'EU' OR is_role_in_session('auditor')", "region = 'EU' OR true"},
		{"IS_ROLE_IN_SESSION( 'admin' )", "false"},
		// Only a literal argument is folded; anything else reaches the
		// binder, which refuses the unknown function: no row passes.
		{"is_role_in_session(region)", "is_role_in_session(region)"},
		{"note = 'current_user()'", "note = 'current_user()'"},
		{"unterminated = 'x", "unterminated = 'x"},
	}
	for _, tt := range tests {
		if got := foldSessionFunctions(tt.in, v); got != tt.want {
			t.Errorf("fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
