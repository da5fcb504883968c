package extgrammar

import "testing"

// TestParseEdgeInputs covers inputs a testdata file cannot hold: empty
// text, control characters and bytes that are not UTF-8.
func TestParseEdgeInputs(t *testing.T) {
	for _, c := range []struct {
		input, want string
	}{
		{"", "not an extension statement"},
		{" \n\t", "not an extension statement"},
		{"GRANT SELECT ON \"a\x01b\" TO r", `error 42602 at 17: invalid name "a\x01b": a name may not contain / ? # % \, whitespace or control characters`},
		{"GRANT SELECT ON caf\xe9 TO r", `error 42602 at 17: invalid name "caf\xe9": a name may not contain / ? # % \, whitespace or control characters`},
		{"GRANT SELECT ON t TO \"r\u00a0\"", `error 42602 at 22: invalid name "r` + "\u00a0" + `": a name may not contain / ? # % \, whitespace or control characters`},
		{"GRANT SELECT ON ñ\r\n", "error 42601 at 20: syntax error at end of input"},
	} {
		stmt, ok, err := Parse(c.input)
		if got := describe(t, stmt, ok, err); got != c.want {
			t.Errorf("Parse(%q):\n got: %s\nwant: %s", c.input, got, c.want)
		}
	}
}
