package audit

import (
	"strings"
	"testing"
)

// testToken is shaped as a login token: header.payload.signature.
const testToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl"

func TestRedactStatement(t *testing.T) {
	tests := []struct {
		name     string
		literals bool
		text     string
		want     string
		secret   string // must not appear in the output
	}{
		{"constants become parameters", true, "SELECT 'x', 42 FROM t WHERE a = 1.5 LIMIT 10",
			"SELECT $1, $2 FROM t WHERE a = $3 LIMIT $4", ""},
		{"numbering continues after the client's parameters", true, "SELECT * FROM t WHERE a = $1 AND b = 'bob'",
			"SELECT * FROM t WHERE a = $1 AND b = $2", "bob"},
		{"a password of ALTER ROLE", true, "ALTER ROLE x PASSWORD 'hunter22'", "ALTER ROLE x PASSWORD $1", "hunter22"},
		{"utility statements Normalize leaves", true, "CALL system.set_credential('s3cr3t-value')",
			"CALL system.set_credential($1)", "s3cr3t-value"},
		{"extension statements", true, "GRANT SELECT ON TABLE c.n.t TO USER alice", "GRANT SELECT ON TABLE c.n.t TO USER alice", ""},
		{"a token in a literal", true, "SELECT * FROM t WHERE k = '" + testToken + "'", "SELECT * FROM t WHERE k = $1", testToken},
		{"literals kept when asked", false, "SELECT 'visible', 42", "SELECT 'visible', 42", ""},
		{"a password even when literals are kept", false, "ALTER ROLE x WITH PASSWORD 'hunter22' VALID UNTIL '2030-01-01'",
			"ALTER ROLE x WITH PASSWORD $1 VALID UNTIL '2030-01-01'", "hunter22"},
		{"a secret-named option even when literals are kept", false, "CALL sys.configure('s3.secret-access-key' => 'abcd1234')",
			"CALL sys.configure('s3.secret-access-key' => $1)", "abcd1234"},
		{"a token even when literals are kept", false, "SELECT '" + testToken + "' AS t", "SELECT $1 AS t", testToken},
		{"an unterminated literal is not logged", true, "SELECT 'open", "", "open"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := redactor{literals: tc.literals}.statement(tc.text)
			if got.text != tc.want {
				t.Errorf("got %q, want %q", got.text, tc.want)
			}
			if tc.secret != "" && strings.Contains(got.text, tc.secret) {
				t.Errorf("%q leaks %q", got.text, tc.secret)
			}
		})
	}
}

func TestRedactErrorMessage(t *testing.T) {
	tests := []struct {
		name     string
		literals bool
		text     string
		msg      string
		want     string
	}{
		{"a literal the message repeats", true, "SELECT 'sesame'::int", `invalid input syntax for type integer: "sesame"`,
			`invalid input syntax for type integer: "[redacted]"`},
		{"short literals stay: they would mangle the message", true, "SELECT 'a' FROM t", `column "a" does not exist`,
			`column "a" does not exist`},
		{"kept literals stay in the message", false, "SELECT 'sesame'::int", `invalid input syntax for type integer: "sesame"`,
			`invalid input syntax for type integer: "sesame"`},
		{"a token in the message", false, "SELECT 1", "bad value " + testToken, "bad value [token]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := (redactor{literals: tc.literals}).statement(tc.text).message(tc.msg); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestLiteralValue(t *testing.T) {
	tests := []struct{ lit, want string }{
		{"'it''s'", "it's"},
		{"E'a\\nb'", "a\\nb"},
		{"$$dollar$$", "dollar"},
		{"$q$tagged$q$", "tagged"},
		{"42", "42"},
		{"U&'d\\0061t'", "d\\0061t"},
	}
	for _, tc := range tests {
		if got := literalValue(tc.lit); got != tc.want {
			t.Errorf("literalValue(%q) = %q, want %q", tc.lit, got, tc.want)
		}
	}
}
