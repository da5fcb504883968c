package grants

import "testing"

func TestGrantLabels(t *testing.T) {
	tests := []struct {
		grantee   Grantee
		privilege string
		kind      ObjectKind
		label     string
	}{
		{Grantee{GranteeRole, "analyst"}, "SELECT", ObjectTable, "chm:ROLE:analyst:SELECT"},
		{Grantee{GranteeUser, "alice"}, "CREATE TABLE", ObjectSchema, "chm:USER:alice:CREATE TABLE"},
		{Grantee{GranteeRole, "analyst"}, "SELECT", ObjectView, "chm:ROLE:analyst:SELECT ON VIEW"},
		{Grantee{GranteeUser, "table-data-read"}, "table-data-read", ObjectTable, "chm:USER:table-data-read:table-data-read"},
		// A name may hold a colon; the privilege never does.
		{Grantee{GranteeUser, "corp:alice"}, "INSERT", ObjectTable, "chm:USER:corp:alice:INSERT"},
	}
	for _, tt := range tests {
		label := grantLabel(tt.grantee, tt.privilege, tt.kind)
		if label != tt.label {
			t.Errorf("grantLabel = %q, want %q", label, tt.label)
		}
		g, name, onView, ok := parseGrantLabel(label)
		if !ok || g != tt.grantee || name != tt.privilege || onView != (tt.kind == ObjectView) {
			t.Errorf("parseGrantLabel(%q) = %v %q %v %v", label, g, name, onView, ok)
		}
	}
	for _, bad := range []string{
		"chm-grantor:carol",
		"chm:GROUP:finance:SELECT",
		"chm:ROLE:analyst",
		"chm:ROLE::SELECT",
		"chm:ROLE:analyst:",
		"written in the console",
	} {
		if _, _, _, ok := parseGrantLabel(bad); ok {
			t.Errorf("parseGrantLabel(%q) accepted", bad)
		}
	}
}

func TestQuoteIdent(t *testing.T) {
	for in, want := range map[string]string{
		"bob":      "bob",
		"_x1$":     "_x1$",
		"Analysts": `"Analysts"`,
		"1st":      `"1st"`,
		`a"b`:      `"a""b"`,
		"":         `""`,
	} {
		if got := quoteIdent(in); got != want {
			t.Errorf("quoteIdent(%q) = %s, want %s", in, got, want)
		}
	}
}
