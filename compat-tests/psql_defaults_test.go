package compattests

import (
	"os"
	"path/filepath"
	"testing"
)

// TestColumnDefaultsThroughPsql creates a table with column defaults,
// describes it with \d before and after ALTER TABLE renames, adds and
// drops columns, and reads information_schema.columns.column_default.
// testdata/psql/d_defaults.out is PostgreSQL 15's output for the same
// script: the Default column is pg_get_expr(adbin, adrelid, true) and
// column_default pg_get_expr(adbin, adrelid), whose parentheses differ.
//
// Not parallel: the schema it makes must be gone before the parallel
// tests list schemas.
func TestColumnDefaultsThroughPsql(t *testing.T) {
	script := `CREATE SCHEMA wire_defaults;
CREATE TABLE wire_defaults.t (id bigint NOT NULL, n int DEFAULT 7, s text DEFAULT 'x', ts timestamptz DEFAULT now(), code varchar(10) DEFAULT 'a' || 'b', amount numeric(12,2) NOT NULL DEFAULT 1 + 2.5, due date DEFAULT current_date + 30, tags text[] DEFAULT '{a,"b c"}', state text DEFAULT CASE WHEN true THEN 'new' END);
\d wire_defaults.t
ALTER TABLE wire_defaults.t RENAME COLUMN n TO m;
ALTER TABLE wire_defaults.t ADD COLUMN flag boolean DEFAULT true;
ALTER TABLE wire_defaults.t DROP COLUMN s;
\d wire_defaults.t
SELECT column_name, column_default FROM information_schema.columns WHERE table_schema = 'wire_defaults' ORDER BY ordinal_position;
INSERT INTO wire_defaults.t (id) VALUES (1);
SELECT id, m, code, amount, tags, state, flag FROM wire_defaults.t;
DROP SCHEMA wire_defaults CASCADE;
`
	t.Cleanup(func() {
		runPsql(t, shared.server, psqlRun{password: shared.token, args: []string{"-c", "DROP SCHEMA IF EXISTS wire_defaults CASCADE"}})
	})
	res := mustPsql(t, shared.server, psqlRun{password: shared.token, stdin: script})
	path := filepath.Join("testdata", "psql", "d_defaults.out")
	if *updatePsqlGolden {
		if err := os.WriteFile(path, []byte(res.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if res.stdout != string(want) {
		t.Errorf("stdout differs from %s\ngot:\n%s\nwant:\n%s", path, res.stdout, want)
	}
	if wantErr := "NOTICE:  drop cascades to table wire_defaults.t\n"; res.stderr != wantErr {
		t.Errorf("stderr = %q, want %q", res.stderr, wantErr)
	}
}
