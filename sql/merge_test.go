package sql

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestMerge runs MERGE scenarios whose results, tags and errors were
// checked against PostgreSQL 15.
func TestMerge(t *testing.T) {
	s, _ := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "INSERT INTO w.items (id, t, k) VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)", tag: "INSERT 0 3"},
		{sql: "INSERT INTO w.items (id, t, k) VALUES (4, 'd', 4)", tag: "INSERT 0 1"},
		{sql: "CREATE TABLE w.src (id bigint, tag text, amt int)", tag: "CREATE TABLE"},
		{sql: "INSERT INTO w.src VALUES (1, 'one', 10), (2, 'two', 20), (3, 'del', 0), (5, 'five', 50), (6, 'skip', 60)", tag: "INSERT 0 5"},
		{sql: "MERGE INTO w.items i USING w.src s ON i.id = s.id WHEN MATCHED AND s.tag = 'del' THEN DELETE " +
			"WHEN MATCHED THEN UPDATE SET t = s.tag, k = i.k + s.amt " +
			"WHEN NOT MATCHED AND s.tag <> 'skip' THEN INSERT (id, t) VALUES (s.id, s.tag) WHEN NOT MATCHED THEN DO NOTHING", tag: "MERGE 4"},
		{sql: "SELECT id, t, k FROM w.items ORDER BY id", rows: []string{"1|one|11", "2|two|22", "4|d|4", "5|five|7"}, tag: "SELECT 4"},
		{sql: "MERGE INTO w.items USING (SELECT 9 AS id) s ON items.id = s.id WHEN NOT MATCHED THEN INSERT DEFAULT VALUES",
			code: pgerror.NotNullViolation, msg: `null value in column "id" of relation "items" violates not-null constraint`},
		{sql: "MERGE INTO w.items USING (SELECT 9::bigint AS id, 'x' AS v) s ON items.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id, DEFAULT, s.v)", tag: "MERGE 1"},
		{sql: "MERGE INTO w.items USING (SELECT 1 AS id UNION ALL SELECT 1) s ON items.id = s.id WHEN MATCHED THEN UPDATE SET k = 0",
			code: pgerror.CardinalityViolation, msg: "MERGE command cannot affect row a second time"},
		{sql: "MERGE INTO w.items USING (SELECT 1 AS id UNION ALL SELECT 1) s ON items.id = s.id WHEN MATCHED THEN DO NOTHING", tag: "MERGE 0"},
		{sql: "MERGE INTO w.items USING (SELECT 4 AS id) s ON items.id = s.id WHEN MATCHED THEN UPDATE SET k = 'x'",
			code: pgerror.InvalidTextRepresentation, msg: `invalid input syntax for type integer: "x"`},
		{sql: "MERGE INTO w.items USING (SELECT 4 AS id) s ON items.id = s.id WHEN MATCHED THEN UPDATE SET id = NULL",
			code: pgerror.NotNullViolation, msg: `null value in column "id" of relation "items" violates not-null constraint`},
		{sql: "MERGE INTO w.items USING w.src s ON items.id = s.id WHEN MATCHED THEN DELETE", tag: "MERGE 3"},
		{sql: "SELECT id, n, t, k FROM w.items ORDER BY id", rows: []string{"4|NULL|d|4", "9|NULL|x|7"}, tag: "SELECT 2"},
		{sql: "BEGIN", tag: "BEGIN"},
		{sql: "MERGE INTO w.items USING (VALUES (4, 'n')) s(id, t) ON items.id = s.id WHEN MATCHED THEN UPDATE SET t = s.t", tag: "MERGE 1"},
		{sql: "SELECT id, t FROM w.items ORDER BY id", rows: []string{"4|n", "9|x"}, tag: "SELECT 2"},
		{sql: "ROLLBACK", tag: "ROLLBACK"},
		{sql: "SELECT id, t FROM w.items ORDER BY id", rows: []string{"4|d", "9|x"}, tag: "SELECT 2"},
	})
}
