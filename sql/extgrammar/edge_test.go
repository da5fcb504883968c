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
		{"GRANT \xfd-a ON t TO r", `error 42602 at 7: invalid name "\xfd-a": a name may not contain / ? # % \, whitespace or control characters`},
		{"ALTER TABLE t SET TAGS (\"a\x01\" = ('x'))", `error 42602 at 25: invalid column name "a\x01": a name may not contain control characters`},
		{"ALTER TABLE t SET TAGS (c = ('x\x01'))", `error 42602 at 30: invalid tag "x\x01": a tag may not contain control characters`},
		{"CREATE POLICY p ON TAG 'caf\xe9' ROW FILTER TO r USING (true)", `error 22021 at 24: invalid byte sequence for encoding "UTF8": 0xe9`},
		{"GRANT SELECT ON t TO r ROWS WHERE a = 'caf\xe9'", `error 22021 at 35: invalid byte sequence for encoding "UTF8": 0xe9`},
	} {
		stmt, ok, err := Parse(c.input)
		if got := describe(t, stmt, ok, err); got != c.want {
			t.Errorf("Parse(%q):\n got: %s\nwant: %s", c.input, got, c.want)
		}
	}
}
