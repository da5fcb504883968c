package sql

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestDelete runs DELETE scenarios whose results, tags and errors were
// checked against PostgreSQL 15.
func TestDelete(t *testing.T) {
	s, _ := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "INSERT INTO w.items (id, t) VALUES (1, 'a'), (2, 'b'), (3, 'c')", tag: "INSERT 0 3"},
		{sql: "INSERT INTO w.items (id, t) VALUES (4, 'd'), (5, 'e')", tag: "INSERT 0 2"},
		{sql: "INSERT INTO w.items (id, t, k) VALUES (6, 'f', 0)", tag: "INSERT 0 1"},
		{sql: "CREATE TABLE w.other (id bigint, tag text)", tag: "CREATE TABLE"},
		{sql: "INSERT INTO w.other VALUES (4, 'x'), (4, 'y'), (1, 'z')", tag: "INSERT 0 3"},
		{sql: "DELETE FROM w.items WHERE id = 2", tag: "DELETE 1"},
		// A second rewrite of the same file must not bring id 2 back.
		{sql: "DELETE FROM w.items WHERE id = 3 RETURNING id, t", rows: []string{"3|c"}, tag: "DELETE 1"},
		{sql: "SELECT id FROM w.items ORDER BY id", rows: []string{"1", "4", "5", "6"}, tag: "SELECT 4"},
		{sql: "DELETE FROM w.items WHERE id > 100", tag: "DELETE 0"},
		{sql: "DELETE FROM w.items WHERE false", tag: "DELETE 0"},
		{sql: "DELETE FROM w.items i USING w.other o WHERE i.id = o.id AND o.tag = 'z' RETURNING i.id, i.k, o.tag", rows: []string{"1|7|z"}, tag: "DELETE 1"},
		{sql: "DELETE FROM w.items i USING w.other o WHERE i.id = o.id RETURNING i.id, i.k", rows: []string{"4|7"}, tag: "DELETE 1"},
		{sql: "DELETE FROM w.items i USING w.other o WHERE i.id = o.id RETURNING o.nope", code: pgerror.UndefinedColumn,
			msg: `column o.nope does not exist`},
		{sql: "DELETE FROM w.items WHERE id IN (SELECT id + 1 FROM w.other)", tag: "DELETE 1"},
		{sql: "DELETE FROM w.items AS x WHERE NOT EXISTS (SELECT 1 FROM w.other o WHERE o.id = x.id) AND x.t = 'zz'", tag: "DELETE 0"},
		{sql: "SELECT id, t FROM w.items ORDER BY id", rows: []string{"6|f"}, tag: "SELECT 1"},
		{sql: "DELETE FROM w.items WHERE 1 / k = 1", code: pgerror.DivisionByZero, msg: "division by zero"},
		{sql: "DELETE FROM w.items WHERE nope = 1", code: pgerror.UndefinedColumn, msg: `column "nope" does not exist`},
		{sql: "DELETE FROM w.items WHERE 1", code: pgerror.DatatypeMismatch, msg: "argument of WHERE must be type boolean, not type integer"},
		{sql: "DELETE FROM w.nothere", code: pgerror.UndefinedTable, msg: `relation "w.nothere" does not exist`},
		{sql: "SELECT count(*) FROM w.items", rows: []string{"1"}, tag: "SELECT 1"},
		{sql: "DELETE FROM w.items RETURNING *", rows: []string{"6|NULL|f|NULL|NULL|0"}, tag: "DELETE 1"},
		{sql: "DELETE FROM w.items", tag: "DELETE 0"},
		{sql: "INSERT INTO w.items (id) VALUES (7), (8)", tag: "INSERT 0 2"},
		{sql: "BEGIN", tag: "BEGIN"},
		{sql: "DELETE FROM w.items WHERE id = 7 RETURNING id", rows: []string{"7"}, tag: "DELETE 1"},
		{sql: "SELECT id FROM w.items", rows: []string{"8"}, tag: "SELECT 1"},
		{sql: "ROLLBACK", tag: "ROLLBACK"},
		{sql: "SELECT id FROM w.items ORDER BY id", rows: []string{"7", "8"}, tag: "SELECT 2"},
	})
}

// TestDeleteRowPolicy checks that DELETE sees, and so deletes, only the
// rows the caller's row policy admits, and that a masked column refuses
// it.
func TestDeleteRowPolicy(t *testing.T) {
	s, cat := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "INSERT INTO w.items (id, t) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')", tag: "INSERT 0 4"},
	})
	bob := policySession(t, cat, rowPolicy{filter: "id % 2 = 0"})
	runDMLSteps(t, bob, []dmlStep{
		{sql: "DELETE FROM w.items WHERE t IN ('a', 'b') RETURNING id", rows: []string{"2"}, tag: "DELETE 1"},
		{sql: "DELETE FROM w.items", tag: "DELETE 1"},
	})
	runDMLSteps(t, s, []dmlStep{
		{sql: "SELECT id FROM w.items ORDER BY id", rows: []string{"1", "3"}, tag: "SELECT 2"},
	})
	// A masked column is seen through its mask by the statement's own
	// expressions; the rows written back keep the stored values; the
	// column cannot be assigned and RETURNING would show stored values.
	masked := policySession(t, cat, rowPolicy{masks: map[int]string{2: "upper(t)"}})
	runDMLSteps(t, masked, []dmlStep{
		{sql: "DELETE FROM w.items WHERE t = 'c'", tag: "DELETE 0"},
		{sql: "DELETE FROM w.items WHERE t = 'C'", tag: "DELETE 1"},
		{sql: "UPDATE w.items SET t = 'z' WHERE id = 1", code: pgerror.InsufficientPrivilege, msg: `permission denied for column "t" of relation "items"`},
		{sql: "UPDATE w.items SET id = 11 WHERE t = 'A'", tag: "UPDATE 1"},
		{sql: "DELETE FROM w.items WHERE id = 11 RETURNING id", code: pgerror.InsufficientPrivilege, msg: "permission denied for table items"},
		{sql: "SELECT id, t FROM w.items", rows: []string{"11|A"}, tag: "SELECT 1"},
	})
	runDMLSteps(t, s, []dmlStep{
		{sql: "SELECT id, t FROM w.items", rows: []string{"11|a"}, tag: "SELECT 1"},
	})
}
