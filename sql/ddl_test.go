package sql

import (
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// ddlStep is one statement string of a DDL script run on one session.
type ddlStep struct {
	query   string
	rows    []string // rows of the last statement, when not nil
	tags    []string // command tags, when not nil
	code    string   // expected SQLSTATE, "" for success
	notices []string // "CODE message" of the notices raised, when not nil
}

func runDDLScript(t *testing.T, s *Session, steps []ddlStep) {
	t.Helper()
	for _, st := range steps {
		rows, tags, err := run(t, s, st.query)
		var notices []string
		for _, n := range s.TakeNotices() {
			notices = append(notices, n.Code+" "+n.Message)
		}
		if code := pgerror.Code(err); st.code == "" && err != nil || st.code != "" && code != st.code {
			t.Fatalf("%s: error %v (%s), want %q", st.query, err, code, st.code)
		}
		if st.rows != nil && strings.Join(rows, "\n") != strings.Join(st.rows, "\n") {
			t.Errorf("%s: rows\n%s\nwant\n%s", st.query, strings.Join(rows, "\n"), strings.Join(st.rows, "\n"))
		}
		if st.tags != nil && strings.Join(tags, ",") != strings.Join(st.tags, ",") {
			t.Errorf("%s: tags %v, want %v", st.query, tags, st.tags)
		}
		if st.notices != nil && strings.Join(notices, "\n") != strings.Join(st.notices, "\n") {
			t.Errorf("%s: notices %q, want %q", st.query, notices, st.notices)
		}
	}
}

func TestDDLSchemasAndTables(t *testing.T) {
	s := newTestSession(t)
	runDDLScript(t, s, []ddlStep{
		{query: "CREATE SCHEMA s", tags: []string{"CREATE SCHEMA"}},
		{query: "CREATE SCHEMA s", code: pgerror.DuplicateSchema},
		{query: "CREATE SCHEMA IF NOT EXISTS s", tags: []string{"CREATE SCHEMA"},
			notices: []string{`42P06 schema "s" already exists, skipping`}},
		{query: "CREATE TABLE s.t (a int, b varchar(5) DEFAULT 'x', c numeric(10,2) NOT NULL, d smallint, e char(3), j jsonb)",
			tags: []string{"CREATE TABLE"}},
		{query: "CREATE TABLE IF NOT EXISTS s.t (a int)", notices: []string{`42P07 relation "t" already exists, skipping`}},
		{query: "CREATE TABLE s.t (a int)", code: pgerror.DuplicateTable},
		{query: "CREATE TABLE s.u (a nosuchtype)", code: pgerror.UndefinedObject},
		{query: "CREATE TABLE s.u (a int DEFAULT a)", code: pgerror.FeatureNotSupported},
		{query: "CREATE TABLE s.u (a int DEFAULT (SELECT 1))", code: pgerror.FeatureNotSupported},
		{query: "CREATE TABLE s.u (a int DEFAULT 'abc')", code: pgerror.InvalidTextRepresentation},
		{query: "CREATE TABLE s.u (a int PRIMARY KEY)", code: pgerror.FeatureNotSupported},
		{query: "CREATE TABLE s.u (a int, a text)", code: pgerror.DuplicateColumn},
		{query: "CREATE TABLE nosuch.u (a int)", code: pgerror.InvalidSchemaName},
		{query: "CREATE TABLE u (a int)", code: pgerror.InvalidSchemaName},
		{query: "CREATE TABLE s.p (id bigint, d date) WITH (partitioning = 'day(d), bucket(4, id)', \"write.target-file-size-bytes\" = 1024)",
			tags: []string{"CREATE TABLE"}},
		{query: "CREATE TABLE s.q (id bigint) WITH (partitioning = 'week(id)')", code: pgerror.InvalidParameterValue},
		{query: "CREATE TABLE s.q (id bigint) WITH (partitioning = 'day(id)')", code: pgerror.InvalidParameterValue},
		{query: "CREATE TABLE s.q (id bigint) WITH (partitioning = 'bucket(x, id)')", code: pgerror.InvalidParameterValue},
		// Properties that would choose where, or with which keys, the
		// server writes files are the operator's, not a table owner's.
		{query: "CREATE TABLE s.q (id bigint) WITH (\"s3.endpoint\" = 'http://elsewhere:9000')", code: pgerror.InsufficientPrivilege},
		{query: "CREATE TABLE s.q (id bigint) WITH (\"write.data.path\" = '/etc')", code: pgerror.InsufficientPrivilege},
		{query: "CREATE TABLE s.q (id bigint) WITH (\"S3.Access-Key-Id\" = 'k')", code: pgerror.InsufficientPrivilege},
		{query: "ALTER TABLE s.p SET (\"write.metadata.path\" = '/tmp/x')", code: pgerror.InsufficientPrivilege},
		{query: "SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute WHERE attrelid = 's.t'::regclass AND attnum > 0 ORDER BY attnum",
			rows: []string{"a|integer|false", "b|character varying(5)|false", "c|numeric(10,2)|true", "d|smallint|false", "e|character(3)|false", "j|jsonb|false"}},
		{query: "SELECT count(*) FROM s.t", rows: []string{"0"}},
		{query: "BEGIN; CREATE SCHEMA x", code: pgerror.ActiveSQLTransaction},
		{query: "ROLLBACK"},
		// A write in a block is discarded by ROLLBACK.
		{query: "BEGIN; INSERT INTO s.t (a, c) VALUES (1, 2)", tags: []string{"BEGIN", "INSERT 0 1"}},
		{query: "ROLLBACK"},
		{query: "SELECT count(*) FROM s.t", rows: []string{"0"}},
		{query: "DROP SCHEMA s", code: codeDependentObjects},
		{query: "DROP SCHEMA nosuch", code: pgerror.InvalidSchemaName},
		{query: "DROP SCHEMA IF EXISTS nosuch, s2", tags: []string{"DROP SCHEMA"}, notices: []string{
			`00000 schema "nosuch" does not exist, skipping`, `00000 schema "s2" does not exist, skipping`}},
		{query: "DROP TABLE nosuch", code: pgerror.UndefinedTable},
		{query: "DROP TABLE IF EXISTS nosuch, s.nosuch2", tags: []string{"DROP TABLE"}, notices: []string{
			`00000 table "nosuch" does not exist, skipping`, `00000 table "nosuch2" does not exist, skipping`}},
		{query: "DROP TABLE s.p", tags: []string{"DROP TABLE"}},
		{query: "SELECT * FROM s.p", code: pgerror.UndefinedTable},
		{query: "DROP SCHEMA s CASCADE", tags: []string{"DROP SCHEMA"}, notices: []string{`00000 drop cascades to table s.t`}},
		{query: "SELECT count(*) FROM pg_namespace WHERE nspname = 's'", rows: []string{"0"}},
	})
}

func TestDDLCreateTableAs(t *testing.T) {
	s := newTestSession(t)
	runDDLScript(t, s, []ddlStep{
		{query: "CREATE SCHEMA c"},
		{query: "CREATE TABLE c.o AS SELECT id, region, amount FROM acdemo.orders WHERE id < 3", tags: []string{"SELECT 2"}},
		{query: "SELECT id, region, amount FROM c.o ORDER BY id", rows: []string{"1|EU|120.50", "2|US|75.00"}},
		{query: "CREATE TABLE c.o2 (x, y) AS SELECT 1::smallint, 'a'::varchar(3) WITH NO DATA", tags: []string{"CREATE TABLE AS"}},
		{query: "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'c.o2'::regclass AND attnum > 0 ORDER BY attnum",
			rows: []string{"x|smallint", "y|character varying(3)"}},
		{query: "SELECT count(*) FROM c.o2", rows: []string{"0"}},
		{query: "CREATE TABLE IF NOT EXISTS c.o AS SELECT 1", tags: []string{"CREATE TABLE AS"},
			notices: []string{`42P07 relation "o" already exists, skipping`}},
		{query: "SELECT sum(amount) AS total, 7::smallint AS small INTO c.o3 FROM acdemo.orders", tags: []string{"SELECT 1"}},
		{query: "SELECT total, small, pg_typeof(total), pg_typeof(small) FROM c.o3", rows: []string{"505.75|7|numeric|smallint"}},
		// A failing query leaves no table behind.
		{query: "CREATE TABLE c.bad AS SELECT 1 / (id - 2) AS x FROM acdemo.orders", code: pgerror.DivisionByZero},
		{query: "SELECT * FROM c.bad", code: pgerror.UndefinedTable},
		// A numeric with a scale per value (a quotient, an average) is
		// stored at the scale the binder gives it, as numeric(38,16);
		// NaN cannot be stored there.
		{query: "CREATE TABLE c.q AS SELECT id, amount / 3 AS third, avg(amount) OVER () AS mean FROM acdemo.orders", tags: []string{"SELECT 3"}},
		{query: "SELECT id, third, mean, pg_typeof(third) FROM c.q ORDER BY id", rows: []string{
			"1|40.1666666666666667|168.5833333333333333|numeric", "2|25.0000000000000000|168.5833333333333333|numeric",
			"3|103.4166666666666667|168.5833333333333333|numeric"}},
		{query: "INSERT INTO c.q SELECT 4, 1.0 / 3, avg(amount) FROM acdemo.orders", tags: []string{"INSERT 0 1"}},
		{query: "SELECT third, mean FROM c.q WHERE id = 4", rows: []string{"0.3333333333333333|168.5833333333333333"}},
		{query: "INSERT INTO c.q VALUES (5, 'NaN', 0)", code: pgerror.NumericValueOutOfRange},
		{query: "INSERT INTO c.q VALUES (5, 1, 'Infinity'::numeric)", code: pgerror.NumericValueOutOfRange},
	})
}

func TestDDLAlterCommentTruncate(t *testing.T) {
	s := newTestSession(t)
	runDDLScript(t, s, []ddlStep{
		{query: "CREATE SCHEMA a"},
		{query: "CREATE TABLE a.t AS SELECT id, region FROM acdemo.orders", tags: []string{"SELECT 3"}},
		{query: "ALTER TABLE a.t ADD COLUMN n int NOT NULL", code: pgerror.NotNullViolation},
		{query: "ALTER TABLE a.t ADD COLUMN n int DEFAULT 5", code: pgerror.FeatureNotSupported},
		{query: "ALTER TABLE a.t ADD COLUMN n int", tags: []string{"ALTER TABLE"}},
		{query: "ALTER TABLE a.t ADD COLUMN n int", code: pgerror.DuplicateColumn},
		{query: "ALTER TABLE a.t ADD COLUMN IF NOT EXISTS n int",
			notices: []string{`42701 column "n" of relation "t" already exists, skipping`}},
		{query: "ALTER TABLE a.t RENAME COLUMN region TO area", tags: []string{"ALTER TABLE"}},
		{query: "ALTER TABLE a.t RENAME COLUMN zz TO yy", code: pgerror.UndefinedColumn},
		{query: "ALTER TABLE a.t RENAME COLUMN id TO area", code: pgerror.DuplicateColumn},
		{query: "SELECT id, area, n FROM a.t ORDER BY id", rows: []string{"1|EU|NULL", "2|US|NULL", "3|EU|NULL"}},
		{query: "ALTER TABLE a.t DROP COLUMN area, ADD COLUMN area text", tags: []string{"ALTER TABLE"}},
		{query: "SELECT id, n, area FROM a.t ORDER BY id", rows: []string{"1|NULL|NULL", "2|NULL|NULL", "3|NULL|NULL"}},
		{query: "ALTER TABLE a.t DROP COLUMN zz", code: pgerror.UndefinedColumn},
		{query: "ALTER TABLE a.t DROP COLUMN IF EXISTS zz",
			notices: []string{`00000 column "zz" of relation "t" does not exist, skipping`}},
		{query: "ALTER TABLE a.t SET (\"write.metadata.previous-versions-max\" = 5)", tags: []string{"ALTER TABLE"}},
		{query: "ALTER TABLE a.t SET (\"sqe.pgtype.1\" = 'x')", code: pgerror.InvalidParameterValue},
		{query: "ALTER TABLE a.t RESET (\"write.metadata.previous-versions-max\")", tags: []string{"ALTER TABLE"}},
		{query: "ALTER TABLE a.t ALTER COLUMN n TYPE bigint", code: pgerror.FeatureNotSupported},
		{query: "ALTER TABLE a.t RENAME TO t2", tags: []string{"ALTER TABLE"}},
		{query: "SELECT count(*) FROM a.t2", rows: []string{"3"}},
		{query: "SELECT * FROM a.t", code: pgerror.UndefinedTable},
		{query: "COMMENT ON TABLE a.t2 IS 'orders copy'", tags: []string{"COMMENT"}},
		{query: "COMMENT ON COLUMN a.t2.id IS 'the id'", tags: []string{"COMMENT"}},
		{query: "COMMENT ON COLUMN a.t2.zz IS 'x'", code: pgerror.UndefinedColumn},
		{query: "SELECT obj_description('a.t2'::regclass, 'pg_class'), col_description('a.t2'::regclass, 1), col_description('a.t2'::regclass, 2)",
			rows: []string{"orders copy|the id|NULL"}},
		{query: "SELECT d.description FROM pg_description d WHERE d.objoid = 'a.t2'::regclass ORDER BY d.objsubid",
			rows: []string{"orders copy", "the id"}},
		{query: "COMMENT ON TABLE a.t2 IS NULL"},
		{query: "SELECT obj_description('a.t2'::regclass, 'pg_class')", rows: []string{"NULL"}},
		{query: "TRUNCATE a.t2", tags: []string{"TRUNCATE TABLE"}},
		{query: "SELECT count(*) FROM a.t2", rows: []string{"0"}},
		{query: "TRUNCATE nosuch", code: pgerror.UndefinedTable},
		{query: "ALTER TABLE a.t2 ADD COLUMN req int NOT NULL DEFAULT 3", tags: []string{"ALTER TABLE"}},
		{query: "SELECT attname, attnotnull FROM pg_attribute WHERE attrelid = 'a.t2'::regclass AND attname = 'req'", rows: []string{"req|true"}},
	})
}
