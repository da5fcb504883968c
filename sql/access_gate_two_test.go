package sql

import (
	"testing"
)

// Only SQE's forms are extension statements; PostgreSQL's row security
// policies and every other ALTER TABLE go to PostgreSQL's grammar.
func TestGateTwoStatementsRouting(t *testing.T) {
	s := &Session{}
	for q, ext := range map[string]bool{
		"CREATE POLICY p ON TABLE t ROW FILTER TO r USING (true)": true,
		"CREATE POLICY p ON TAG PII COLUMN MASK MASK_NULL TO r":   true,
		"DROP POLICY p":                                               true,
		"ALTER TABLE t SET TAGS (c = ('PII'))":                        true,
		"alter table t unset tags (c)":                                true,
		"CREATE POLICY p ON t USING (true)":                           false,
		"CREATE POLICY p ON tag FOR SELECT TO r USING (owner = user)": false,
		"DROP POLICY p ON t":                                          false,
		"ALTER TABLE t ADD COLUMN c int":                              false,
		"ALTER TABLE t RENAME COLUMN tags TO labels":                  false,
	} {
		stmts, err := s.Parse(t.Context(), q)
		if err != nil || len(stmts) != 1 || (stmts[0].ext != nil) != ext {
			t.Errorf("%s: %d statements, error %v; want extension %v", q, len(stmts), err, ext)
		}
	}
}
