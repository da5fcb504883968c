package sql

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestUpdate runs UPDATE scenarios whose results, tags and errors were
// checked against PostgreSQL 15.
func TestUpdate(t *testing.T) {
	s, _ := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "INSERT INTO w.items (id, t, k) VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)", tag: "INSERT 0 3"},
		{sql: "INSERT INTO w.items (id, t, k) VALUES (4, 'd', 4), (5, 'e', 0)", tag: "INSERT 0 2"},
		{sql: "CREATE TABLE w.other (id bigint, tag text)", tag: "CREATE TABLE"},
		{sql: "INSERT INTO w.other VALUES (4, 'x'), (4, 'y'), (1, 'z')", tag: "INSERT 0 3"},
		{sql: "UPDATE w.items SET t = upper(t), n = 1.005 WHERE id = 2", tag: "UPDATE 1"},
		// A second rewrite of the same rows must see the first one's result.
		{sql: "UPDATE w.items SET k = k + 10 WHERE id = 2 RETURNING id, n, t, k", rows: []string{"2|1.01|B|12"}, tag: "UPDATE 1"},
		{sql: "SELECT id, n, t, k FROM w.items ORDER BY id", rows: []string{"1|NULL|a|1", "2|1.01|B|12", "3|NULL|c|3", "4|NULL|d|4", "5|NULL|e|0"}, tag: "SELECT 5"},
		{sql: "UPDATE w.items SET k = DEFAULT, d = '2024-02-29' WHERE id IN (SELECT id + 2 FROM w.other) RETURNING id, k, d",
			rows: []string{"3|7|2024-02-29"}, tag: "UPDATE 1"},
		{sql: "UPDATE w.items i SET t = o.tag FROM w.other o WHERE i.id = o.id AND o.tag <> 'y' RETURNING i.id, i.t",
			rows: []string{"1|z", "4|x"}, tag: "UPDATE 2", unordered: true},
		// RETURNING reads the FROM items' row each target row was joined
		// with; * lists the table's columns, then theirs.
		{sql: "UPDATE w.items i SET k = i.k FROM w.other o WHERE i.id = o.id AND o.tag = 'z' RETURNING *",
			rows: []string{"1|NULL|z|NULL|NULL|1|1|z"}, tag: "UPDATE 1"},
		{sql: "UPDATE w.items i SET k = i.k FROM w.other o WHERE i.id = o.id RETURNING id", code: pgerror.AmbiguousColumn,
			msg: `column reference "id" is ambiguous`},
		{sql: "UPDATE w.items SET (k, f) = (k * 2, 1.5) WHERE id = 5 RETURNING k, f", rows: []string{"0|1.5"}, tag: "UPDATE 1"},
		{sql: "UPDATE w.items SET k = '11' WHERE id = 5 RETURNING k", rows: []string{"11"}, tag: "UPDATE 1"},
		{sql: "UPDATE w.items SET k = 2.5 WHERE id = 5 RETURNING k", rows: []string{"3"}, tag: "UPDATE 1"},
		{sql: "UPDATE w.items SET k = 1 WHERE id > 100", tag: "UPDATE 0"},
		{sql: "UPDATE w.items SET id = NULL WHERE id = 1", code: pgerror.NotNullViolation,
			msg: `null value in column "id" of relation "items" violates not-null constraint`},
		{sql: "UPDATE w.items SET k = true", code: pgerror.DatatypeMismatch, msg: `column "k" is of type integer but expression is of type boolean`},
		{sql: "UPDATE w.items SET nope = 1", code: pgerror.UndefinedColumn, msg: `column "nope" of relation "items" does not exist`},
		{sql: "UPDATE w.items SET k = 1, k = 2", code: pgerror.SyntaxError, msg: `multiple assignments to same column "k"`},
		{sql: "UPDATE w.items SET k = 10 / (k - 3)", code: pgerror.DivisionByZero, msg: "division by zero"},
		{sql: "UPDATE w.items SET n = 123456789 WHERE id = 1", code: pgerror.NumericValueOutOfRange, msg: "numeric field overflow"},
		{sql: "UPDATE w.items SET k = 3000000000 WHERE id = 1", code: pgerror.NumericValueOutOfRange, msg: "integer out of range"},
		{sql: "SELECT id, n, t, d, f, k FROM w.items ORDER BY id", rows: []string{
			"1|NULL|z|NULL|NULL|1", "2|1.01|B|NULL|NULL|12", "3|NULL|c|2024-02-29|NULL|7", "4|NULL|x|NULL|NULL|4", "5|NULL|e|NULL|1.5|3"}, tag: "SELECT 5"},
		{sql: "UPDATE w.items SET t = t || '!'", tag: "UPDATE 5"},
		{sql: "SELECT count(*), string_agg(t, ',' ORDER BY id) FROM w.items", rows: []string{"5|z!,B!,c!,x!,e!"}, tag: "SELECT 1"},
		{sql: "BEGIN", tag: "BEGIN"},
		{sql: "UPDATE w.items SET k = 1", tag: "UPDATE 5"},
		{sql: "SELECT sum(k) FROM w.items", rows: []string{"5"}, tag: "SELECT 1"},
		{sql: "COMMIT", tag: "COMMIT"},
		{sql: "SELECT sum(k) FROM w.items", rows: []string{"5"}, tag: "SELECT 1"},
	})
}

// TestUpdateRowPolicy checks that UPDATE changes only the rows the
// caller's row policy admits and cannot move a row out of it.
func TestUpdateRowPolicy(t *testing.T) {
	s, cat := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "INSERT INTO w.items (id, t) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')", tag: "INSERT 0 4"},
		{sql: "CREATE TABLE w.other (id bigint, tag text)", tag: "CREATE TABLE"},
		{sql: "INSERT INTO w.other VALUES (1, 'one'), (2, 'two'), (4, 'four')", tag: "INSERT 0 3"},
	})
	bob := policySession(t, cat, rowPolicy{filter: "id % 2 = 0"})
	runDMLSteps(t, bob, []dmlStep{
		{sql: "UPDATE w.items SET t = 'x' RETURNING id", rows: []string{"2", "4"}, tag: "UPDATE 2", unordered: true},
		{sql: "UPDATE w.items SET id = id + 1 WHERE id = 2", code: pgerror.InsufficientPrivilege,
			msg: `new row violates row-level security policy for table "items"`},
		// The policy judges the new row, not the FROM items' values that
		// RETURNING carries beside it.
		{sql: "UPDATE w.items i SET t = o.tag FROM w.other o WHERE i.id = o.id RETURNING o.id, i.t, o.tag",
			rows: []string{"2|two|two", "4|four|four"}, tag: "UPDATE 2", unordered: true},
		{sql: "UPDATE w.items i SET id = o.id + 1 FROM w.other o WHERE i.id = o.id RETURNING o.tag", code: pgerror.InsufficientPrivilege,
			msg: `new row violates row-level security policy for table "items"`},
	})
	runDMLSteps(t, s, []dmlStep{
		{sql: "SELECT id, t FROM w.items ORDER BY id", rows: []string{"1|a", "2|two", "3|c", "4|four"}, tag: "SELECT 4"},
	})
	// With t masked, UPDATE ... FROM and MERGE join on the masked value
	// and write back the stored one.
	masked := policySession(t, cat, rowPolicy{masks: map[int]string{2: "upper(t)"}})
	runDMLSteps(t, masked, []dmlStep{
		{sql: "UPDATE w.items i SET k = 9 FROM w.other o WHERE i.t = upper(o.tag)", tag: "UPDATE 2"},
		{sql: "MERGE INTO w.items i USING w.other o ON i.t = upper(o.tag) WHEN MATCHED THEN UPDATE SET k = 8", tag: "MERGE 2"},
		{sql: "MERGE INTO w.items i USING w.other o ON i.id = o.id WHEN MATCHED THEN UPDATE SET t = o.tag", code: pgerror.InsufficientPrivilege,
			msg: `permission denied for column "t" of relation "items"`},
	})
	runDMLSteps(t, s, []dmlStep{
		{sql: "SELECT id, t, k FROM w.items ORDER BY id", rows: []string{"1|a|7", "2|two|8", "3|c|7", "4|four|8"}, tag: "SELECT 4"},
	})
}

// TestRewriteDeclaredTypes runs UPDATE and DELETE on a table whose
// smallint columns Iceberg stores as int: the statement sees them as
// smallint, as a SELECT does, and writes them back. Checked against
// PostgreSQL 15.
func TestRewriteDeclaredTypes(t *testing.T) {
	s, _ := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "CREATE TABLE w.sm (id smallint, v varchar(5))", tag: "CREATE TABLE"},
		{sql: "INSERT INTO w.sm VALUES (1, 'a'), (2, 'b'), (3, 'c')", tag: "INSERT 0 3"},
		{sql: "UPDATE w.sm SET v = 'z' WHERE v = 'a' RETURNING id, v", rows: []string{"1|z"}, tag: "UPDATE 1"},
		{sql: "CREATE TABLE w.o2 (id int, x smallint)", tag: "CREATE TABLE"},
		{sql: "INSERT INTO w.o2 VALUES (1, 5), (3, 6)", tag: "INSERT 0 2"},
		{sql: "UPDATE w.sm SET v = 'y', id = sm.id + 10 FROM w.o2 WHERE sm.id = o2.id AND o2.x = 6 RETURNING sm.id, o2.x, sm.v",
			rows: []string{"13|6|y"}, tag: "UPDATE 1"},
		{sql: "DELETE FROM w.sm USING w.o2 WHERE sm.id = o2.id RETURNING sm.*, o2.x", rows: []string{"1|z|5"}, tag: "DELETE 1"},
		{sql: "SELECT id, v FROM w.sm ORDER BY id", rows: []string{"2|b", "13|y"}, tag: "SELECT 2"},
		{sql: "DELETE FROM w.sm WHERE id = 2 RETURNING *", rows: []string{"2|b"}, tag: "DELETE 1"},
	})
}
