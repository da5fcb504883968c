package sql

import (
	"errors"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The expected outcomes below were checked against PostgreSQL 15.
func TestDDLViews(t *testing.T) {
	s := newTestSession(t)
	runDDLScript(t, s, []ddlStep{
		{query: "CREATE SCHEMA s"},
		{query: "CREATE TABLE s.t (a int, b text)"},
		{query: "INSERT INTO s.t VALUES (1, 'x'), (2, 'y'), (-1, 'z')"},
		{query: "CREATE VIEW s.v AS SELECT a, b FROM s.t WHERE a > 0", tags: []string{"CREATE VIEW"}},
		{query: "SELECT * FROM s.v ORDER BY a", rows: []string{"1|x", "2|y"}},
		{query: "SELECT v.b FROM s.v v WHERE v.a = 2", rows: []string{"y"}},
		{query: "SELECT q.x FROM s.v AS q(x) ORDER BY 1", rows: []string{"1", "2"}},
		{query: "CREATE VIEW s.v AS SELECT 1", code: pgerror.DuplicateTable},
		{query: "CREATE VIEW s.t AS SELECT 1", code: pgerror.DuplicateTable},
		{query: "CREATE OR REPLACE VIEW s.v AS SELECT a FROM s.t", code: codeInvalidTableDefinition},
		{query: "CREATE OR REPLACE VIEW s.v AS SELECT a, b AS c FROM s.t", code: codeInvalidTableDefinition},
		{query: "CREATE OR REPLACE VIEW s.v AS SELECT b AS a, b FROM s.t", code: codeInvalidTableDefinition},
		{query: "CREATE OR REPLACE VIEW s.t AS SELECT 1", code: pgerror.WrongObjectType},
		{query: "CREATE OR REPLACE VIEW s.v AS SELECT a, b, a + 1 AS c FROM s.t", tags: []string{"CREATE VIEW"}},
		{query: "SELECT * FROM s.v ORDER BY a", rows: []string{"-1|z|0", "1|x|2", "2|y|3"}},
		{query: "CREATE VIEW s.w(x) AS SELECT a, b FROM s.t WHERE a = 1", tags: []string{"CREATE VIEW"}},
		{query: "SELECT x, b FROM s.w", rows: []string{"1|x"}},
		{query: "CREATE VIEW s.w2(x, y, z) AS SELECT a, b FROM s.t", code: pgerror.SyntaxError},
		{query: "CREATE VIEW s.w3 AS SELECT a, a FROM s.t", code: pgerror.DuplicateColumn},
		{query: "CREATE VIEW s.w5 AS SELECT * FROM nope", code: pgerror.UndefinedTable},
		{query: "CREATE VIEW s.lit AS SELECT 'abc' AS x, 1.5 AS y UNION ALL SELECT 'q', 2.5 ORDER BY 1"},
		{query: "SELECT x || 'd', pg_typeof(x), y::text FROM s.lit", rows: []string{"abcd|text|1.5", "qd|text|2.5"}},
		{query: "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 's.lit'::regclass AND a.attnum > 0 ORDER BY a.attnum",
			rows: []string{"x|text", "y|numeric"}},
		{query: "WITH t AS (SELECT 42 AS a) SELECT * FROM t, s.w", rows: []string{"42|1|x"}},
		{query: "EXPLAIN SELECT x FROM s.w", tags: []string{"EXPLAIN"}},
		{query: "DROP VIEW s.lit"},
		// A view of a view, and names resolved with the search_path of
		// the view's creation, not the reader's.
		{query: "SET search_path = s"},
		{query: "CREATE VIEW vv AS SELECT x FROM w"},
		{query: "SET search_path = public"},
		{query: "SELECT * FROM s.vv", rows: []string{"1"}},
		// A view that reads itself fails when used, as in PostgreSQL.
		{query: "CREATE VIEW s.r AS SELECT * FROM s.w"},
		{query: "CREATE OR REPLACE VIEW s.w(x) AS SELECT x, b FROM s.r"},
		{query: "SELECT * FROM s.r", code: "42P17"},
		{query: "INSERT INTO s.v VALUES (1, 'a', 2)", code: pgerror.FeatureNotSupported},
		{query: "DROP TABLE s.v", code: pgerror.WrongObjectType},
		{query: "DROP VIEW s.t", code: pgerror.WrongObjectType},
		{query: "DROP VIEW s.nope", code: pgerror.UndefinedTable},
		{query: "DROP VIEW IF EXISTS s.nope, s.r", code: codeDependentObjects},
		{query: "CREATE OR REPLACE VIEW s.w(x) AS SELECT a, b FROM s.t WHERE a = 1"},
		{query: "DROP VIEW IF EXISTS s.nope, s.r", tags: []string{"DROP VIEW"},
			notices: []string{`00000 view "nope" does not exist, skipping`}},
		// Dependencies: what a view reads cannot be dropped without
		// CASCADE, which drops the view (and its readers) too.
		{query: "CREATE TABLE s.d (a int)"},
		{query: "CREATE VIEW s.dv AS SELECT a FROM s.d"},
		{query: "CREATE VIEW s.dvv AS SELECT a FROM s.dv"},
		{query: "DROP TABLE s.d", code: codeDependentObjects},
		{query: "DROP VIEW s.dv", code: codeDependentObjects},
		{query: "DROP VIEW s.dvv, s.dv", tags: []string{"DROP VIEW"}},
		{query: "CREATE VIEW s.dv AS SELECT a FROM s.d"},
		{query: "CREATE VIEW s.dvv AS SELECT a FROM s.dv"},
		{query: "DROP TABLE s.d CASCADE", tags: []string{"DROP TABLE"},
			notices: []string{"00000 drop cascades to 2 other objects"}},
		{query: "SELECT count(*) FROM s.dvv", code: pgerror.UndefinedTable},
		{query: "DROP VIEW s.v, s.nope", code: pgerror.UndefinedTable},
		{query: "SELECT count(*) FROM s.v", rows: []string{"3"}},
		{query: "SELECT c.relkind, c.relhasrules, c.reltuples FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 's' ORDER BY c.relname",
			rows: []string{"r|false|3", "v|true|-1", "v|true|-1", "v|true|-1"}},
		{query: "SELECT table_name, table_type, is_insertable_into FROM information_schema.tables WHERE table_schema = 's' ORDER BY 1",
			rows: []string{"t|BASE TABLE|YES", "v|VIEW|NO", "vv|VIEW|NO", "w|VIEW|NO"}},
		{query: "SELECT viewname, definition FROM pg_views WHERE schemaname = 's' AND viewname = 'vv'",
			rows: []string{"vv| SELECT x FROM w;"}},
		{query: "SELECT pg_get_viewdef('s.w'::regclass), pg_get_viewdef('s.w'::regclass, true), pg_get_viewdef('s.t'::regclass)",
			rows: []string{" SELECT a, b FROM s.t WHERE a = 1;| SELECT a, b FROM s.t WHERE a = 1;|NULL"}},
		{query: "SELECT table_name, check_option, is_updatable FROM information_schema.views WHERE table_schema = 's' ORDER BY 1",
			rows: []string{"v|NONE|NO", "vv|NONE|NO", "w|NONE|NO"}},
		{query: "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 's.v'::regclass AND a.attnum > 0 ORDER BY a.attnum",
			rows: []string{"a|integer", "b|text", "c|integer"}},
		{query: "SELECT relname FROM pg_stat_user_tables WHERE schemaname = 's'", rows: []string{"t"}},
		{query: "COMMENT ON VIEW s.t IS 'x'", code: pgerror.WrongObjectType},
		{query: "COMMENT ON VIEW s.v IS 'hello'", tags: []string{"COMMENT"}},
		{query: "SELECT obj_description('s.v'::regclass, 'pg_class'), (SELECT description FROM pg_description WHERE objoid = 's.v'::regclass)",
			rows: []string{"hello|hello"}},
		{query: "SELECT count(*) FROM s.v", rows: []string{"3"}},
		{query: "COMMENT ON VIEW s.v IS NULL", tags: []string{"COMMENT"}},
		{query: "SELECT obj_description('s.v'::regclass)", rows: []string{"NULL"}},
		{query: "DROP SCHEMA s", code: codeDependentObjects},
		{query: "DROP SCHEMA s CASCADE", tags: []string{"DROP SCHEMA"}},
		{query: "SELECT count(*) FROM s.v", code: pgerror.UndefinedTable},
	})
}

// The message, detail and hint are PostgreSQL 15's for the same script.
func TestDropWithDependentViewsMessage(t *testing.T) {
	s := newTestSession(t)
	runDDLScript(t, s, []ddlStep{
		{query: "CREATE SCHEMA d"},
		{query: "CREATE TABLE d.t (a int)"},
		{query: "CREATE VIEW d.v AS SELECT a FROM d.t"},
		{query: "CREATE VIEW d.w AS SELECT a FROM d.v"},
		{query: "CREATE VIEW d.x AS SELECT 1 AS one"},
	})
	_, _, err := run(t, s, "DROP TABLE d.t")
	var pe *pgerror.Error
	if !errors.As(err, &pe) {
		t.Fatalf("DROP TABLE: %v", err)
	}
	if pe.Code != codeDependentObjects || pe.Message != "cannot drop table d.t because other objects depend on it" ||
		pe.Detail != "view d.v depends on table d.t\nview d.w depends on view d.v" ||
		pe.Hint != "Use DROP ... CASCADE to drop the dependent objects too." {
		t.Fatalf("DROP TABLE: %s %q %q %q", pe.Code, pe.Message, pe.Detail, pe.Hint)
	}
	runDDLScript(t, s, []ddlStep{
		{query: "DROP VIEW d.x, d.x", tags: []string{"DROP VIEW"}},
		{query: "DROP TABLE d.t CASCADE", notices: []string{"00000 drop cascades to 2 other objects"}},
		{query: "CREATE TABLE d.t (a int)"},
		{query: "CREATE SCHEMA e"},
		{query: "CREATE VIEW e.v AS SELECT a FROM d.t"},
		{query: "DROP SCHEMA d CASCADE", notices: []string{"00000 drop cascades to 2 other objects"}},
		{query: "SELECT table_name FROM information_schema.views WHERE table_schema = 'e'", rows: []string{}},
	})
}
