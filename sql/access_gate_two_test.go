package sql

import (
	"context"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Gate two's statements parse but do not run yet: each gets a clean
// 0A000, never a partial effect. PostgreSQL's own CREATE POLICY, DROP
// POLICY and ALTER TABLE forms still go to PostgreSQL's grammar.
func TestGateTwoStatementsAreNotRunYet(t *testing.T) {
	e, m := newAuditedEngine(t)
	ctx := context.Background()
	carol, err := e.NewSession(ctx, auth.Identity{User: "carol", Roles: []string{"sqe_admin"}}, "sales_wh", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sql, code, message string
	}{
		{"CREATE OR REPLACE POLICY acdemo_rowfilter_eu ON TABLE sales_wh.acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')",
			pgerror.FeatureNotSupported, "CREATE POLICY is not supported yet"},
		{"CREATE POLICY acdemo_mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn",
			pgerror.FeatureNotSupported, "CREATE POLICY is not supported yet"},
		{"CREATE POLICY acdemo_tag_pii ON TAG PII COLUMN MASK hive:MASK_SHOW_LAST_4 TO ROLE engineer",
			pgerror.FeatureNotSupported, "CREATE POLICY is not supported yet"},
		{"DROP POLICY IF EXISTS acdemo_mask_ssn", pgerror.FeatureNotSupported, "DROP POLICY is not supported yet"},
		{"SHOW POLICIES ON TABLE acdemo.orders", pgerror.FeatureNotSupported, "SHOW POLICIES is not supported yet"},
		{"ALTER TABLE acdemo.orders SET TAGS (ssn = ('PII'))", pgerror.FeatureNotSupported, "ALTER TABLE is not supported yet"},
		{"ALTER TABLE acdemo.orders UNSET TAGS (ssn)", pgerror.FeatureNotSupported, "ALTER TABLE is not supported yet"},
		{"SHOW TAGS ON acdemo.orders", pgerror.FeatureNotSupported, "SHOW TAGS is not supported yet"},
		{"GRANT SELECT ON acdemo.orders TO ROLE engineer ROWS WHERE region = 'EU'",
			pgerror.FeatureNotSupported, "GRANT ... ROWS WHERE and MASKED WITH are not supported yet"},
		{"GRANT SELECT ON acdemo.orders TO ROLE engineer MASKED WITH (ssn AS '***-**-' || RIGHT(ssn, 4))",
			pgerror.FeatureNotSupported, "GRANT ... ROWS WHERE and MASKED WITH are not supported yet"},
		// Errors of the extension grammar point into the whole query.
		{"SELECT 1; CREATE POLICY p ON TABLE acdemo.orders ROW FILTER TO r USING (region =)",
			pgerror.SyntaxError, `syntax error at or near ")"`},
		// PostgreSQL's forms are not claimed: its parser reads them.
		{"ALTER TABLE acdemo.orders SET TAGS", pgerror.SyntaxError, `syntax error at end of input`},
		{"ALTER TABLE IF EXISTS acdemo.orders SET TAGS (ssn = ('PII'))", pgerror.SyntaxError, `syntax error at or near "TAGS"`},
	} {
		_, _, err := run(t, carol, c.sql)
		pe := pgerror.From(err)
		if pe == nil || pe.Code != c.code || pe.Message != c.message {
			t.Errorf("%s: error %v, want %s %q", c.sql, err, c.code, c.message)
		}
	}
	if len(m.changes) != 0 {
		t.Errorf("privilege changes recorded: %+v", m.changes)
	}
	// SHOW GRANTS: no SELECT reached engineer through a refused grant.
	rows, _, err := run(t, carol, "SHOW GRANTS ON acdemo.orders TO ROLE engineer")
	if err != nil || len(rows) != 0 {
		t.Errorf("grants to engineer: %v, %v", rows, err)
	}
}

// A change is refused inside a transaction block before anything else;
// a SHOW is not a change.
func TestGateTwoStatementsInTransaction(t *testing.T) {
	e, _ := newAuditedEngine(t)
	ctx := context.Background()
	carol, err := e.NewSession(ctx, auth.Identity{User: "carol", Roles: []string{"sqe_admin"}}, "sales_wh", nil)
	if err != nil {
		t.Fatal(err)
	}
	for q, code := range map[string]string{
		"DROP POLICY p": pgerror.ActiveSQLTransaction,
		"CREATE POLICY p ON TABLE acdemo.orders ROW FILTER TO r USING (true)": pgerror.ActiveSQLTransaction,
		"SHOW POLICIES":                    pgerror.FeatureNotSupported,
		"SHOW TAGS ON TABLE acdemo.orders": pgerror.FeatureNotSupported,
	} {
		if _, _, err := run(t, carol, "ROLLBACK; BEGIN"); err != nil {
			t.Fatal(err)
		}
		_, _, err := run(t, carol, q)
		if pe := pgerror.From(err); pe == nil || pe.Code != code {
			t.Errorf("%s: error %v, want %s", q, err, code)
		}
	}
}

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
