package sql

import (
	"context"
	"errors"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// PREPARE, EXECUTE and DEALLOCATE answer as PostgreSQL 15 does, one
// session running the steps in order.
func TestPrepareExecuteDeallocate(t *testing.T) {
	s := newTestSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "PREPARE by_id(bigint) AS SELECT id, region FROM acdemo.orders WHERE id = $1", tag: "PREPARE"},
		{sql: "EXECUTE by_id(2)", rows: []string{"2|US"}, tag: "SELECT 1"},
		{sql: "EXECUTE by_id('3')", rows: []string{"3|EU"}, tag: "SELECT 1"},
		{sql: "EXECUTE by_id(1 + 0)", rows: []string{"1|EU"}, tag: "SELECT 1"},
		{sql: "EXECUTE by_id(2.6)", rows: []string{"3|EU"}, tag: "SELECT 1"},
		{sql: "EXECUTE by_id(NULL)", tag: "SELECT 0"},
		{sql: "PREPARE by_id AS SELECT 1", code: "42P05", msg: `prepared statement "by_id" already exists`},
		{sql: "EXECUTE by_id", code: "42601", msg: `wrong number of parameters for prepared statement "by_id"`},
		{sql: "EXECUTE by_id(1, 2)", code: "42601", msg: `wrong number of parameters for prepared statement "by_id"`},
		{sql: "EXECUTE by_id('abc')", code: "22P02", msg: `invalid input syntax for type bigint: "abc"`},
		{sql: "EXECUTE by_id('7'::text)", code: "42804", msg: "parameter $1 of type text cannot be coerced to the expected type bigint"},
		{sql: "EXECUTE by_id((SELECT 1))", code: "0A000", msg: "cannot use subquery in EXECUTE parameter"},
		{sql: "EXECUTE by_id(id)", code: "42703", msg: `column "id" does not exist`},
		{sql: "EXECUTE by_id(sum(1))", code: "42803", msg: "aggregate functions are not allowed in EXECUTE parameters"},
		{sql: "EXECUTE nope", code: "26000", msg: `prepared statement "nope" does not exist`},
		{sql: "DEALLOCATE nope", code: "26000", msg: `prepared statement "nope" does not exist`},
		{sql: "PREPARE untyped AS SELECT $1", tag: "PREPARE"},
		{sql: "EXECUTE untyped('hi')", rows: []string{"hi"}, tag: "SELECT 1"},
		{sql: "PREPARE gap AS SELECT 1 WHERE $2 = 1", code: "42P18", msg: "could not determine data type of parameter $1"},
		{sql: "PREPARE badtype(nosuchtype) AS SELECT 1", code: "42704", msg: `type "nosuchtype" does not exist`},
		{sql: "PREPARE missing AS SELECT * FROM acdemo.nosuch", code: "42P01", msg: `relation "acdemo.nosuch" does not exist`},
		{sql: "SELECT name, statement, parameter_types::text, from_sql, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name",
			rows: []string{
				"by_id|PREPARE by_id(bigint) AS SELECT id, region FROM acdemo.orders WHERE id = $1|{bigint}|true|0|5",
				"untyped|PREPARE untyped AS SELECT $1|{text}|true|0|1",
			}, tag: "SELECT 2"},
		{sql: "DEALLOCATE PREPARE by_id", tag: "DEALLOCATE"},
		{sql: "EXECUTE by_id(1)", code: "26000", msg: `prepared statement "by_id" does not exist`},
		{sql: "DEALLOCATE ALL", tag: "DEALLOCATE ALL"},
		{sql: "SELECT count(*) FROM pg_prepared_statements", rows: []string{"0"}, tag: "SELECT 1"},
	})
}

// EXECUTE of INSERT, UPDATE and DELETE answers with their command tags;
// prepared statements are not transactional, and a failed transaction
// block refuses PREPARE, EXECUTE and DEALLOCATE.
func TestExecuteWritesAndTransactions(t *testing.T) {
	s := newTestSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "CREATE TABLE acdemo.t (id int, v text)", tag: "CREATE TABLE"},
		{sql: "PREPARE ins(int, text) AS INSERT INTO acdemo.t VALUES ($1, $2)", tag: "PREPARE"},
		{sql: "EXECUTE ins(1, 'a')", tag: "INSERT 0 1"},
		{sql: "EXECUTE ins(2, 'b')", tag: "INSERT 0 1"},
		{sql: "PREPARE upd(text) AS UPDATE acdemo.t SET v = $1 WHERE id > 1", tag: "PREPARE"},
		{sql: "EXECUTE upd('z')", tag: "UPDATE 1"},
		{sql: "PREPARE del AS DELETE FROM acdemo.t WHERE id = 1 RETURNING v", tag: "PREPARE"},
		{sql: "EXECUTE del", rows: []string{"a"}, tag: "DELETE 1"},
		{sql: "SELECT id, v FROM acdemo.t", rows: []string{"2|z"}, tag: "SELECT 1"},
		{sql: "BEGIN; PREPARE in_tx AS SELECT 1; ROLLBACK", tag: "ROLLBACK"},
		{sql: "EXECUTE in_tx", rows: []string{"1"}, tag: "SELECT 1"},
		{sql: "BEGIN; DEALLOCATE in_tx; ROLLBACK", tag: "ROLLBACK"},
		{sql: "EXECUTE in_tx", code: "26000", msg: `prepared statement "in_tx" does not exist`},
		{sql: "BEGIN", tag: "BEGIN"},
		{sql: "SELECT 1/0", code: "22012", msg: "division by zero"},
		{sql: "PREPARE after_error AS SELECT 1", code: "25P02", msg: "current transaction is aborted, commands ignored until end of transaction block"},
		{sql: "EXECUTE ins(3, 'c')", code: "25P02", msg: "current transaction is aborted, commands ignored until end of transaction block"},
		{sql: "DEALLOCATE ins", code: "25P02", msg: "current transaction is aborted, commands ignored until end of transaction block"},
		{sql: "ROLLBACK", tag: "ROLLBACK"},
		{sql: "EXECUTE after_error", code: "26000", msg: `prepared statement "after_error" does not exist`},
	})
}

// A statement PREPARE made and one the protocol's Parse made share one
// namespace: Parse of a name PREPARE used fails, EXECUTE and DEALLOCATE
// reach one Parse made, and pg_prepared_statements shows both.
func TestPreparedStatementsShareOneNamespace(t *testing.T) {
	ctx := context.Background()
	s := newTestSession(t)
	if _, _, err := run(t, s, "PREPARE x AS SELECT 1"); err != nil {
		t.Fatal(err)
	}
	ps, err := s.Prepare(ctx, "SELECT $1::int * 2", nil)
	if err != nil {
		t.Fatal(err)
	}
	ps.Name = "x"
	if err := s.PreparedStatements().Add(ps); err == nil || !hasCode(err, "42P05") {
		t.Fatalf("Parse of x after PREPARE x: %v, want 42P05", err)
	}
	ps.Name = "y"
	if err := s.PreparedStatements().Add(ps); err != nil {
		t.Fatal(err)
	}
	runDMLSteps(t, s, []dmlStep{
		{sql: "EXECUTE y(21)", rows: []string{"42"}, tag: "SELECT 1"},
		{sql: "SELECT name, statement, from_sql FROM pg_prepared_statements ORDER BY name",
			rows: []string{"x|PREPARE x AS SELECT 1|true", "y|SELECT $1::int * 2|false"}, tag: "SELECT 2"},
		{sql: "DEALLOCATE y", tag: "DEALLOCATE"},
	})
	if _, err := s.PreparedStatements().Get("y"); !hasCode(err, "26000") {
		t.Fatalf("Get after DEALLOCATE: %v, want 26000", err)
	}
	// The protocol prepares an EXECUTE with the row shape of the
	// statement it runs, and parameters its arguments use.
	ex, err := s.Prepare(ctx, "EXECUTE x", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Columns) != 1 || ex.Columns[0].Name != "?column?" {
		t.Fatalf("EXECUTE x columns %v", ex.Columns)
	}
	res, err := s.Bind(ctx, ex, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if rows := drain(t, res); len(rows) != 1 || rows[0] != "1" {
		t.Fatalf("EXECUTE x through Bind: %v", rows)
	}
}

// hasCode reports whether err is a pgerror with SQLSTATE code.
func hasCode(err error, code string) bool {
	var pe *pgerror.Error
	return errors.As(err, &pe) && pe.Code == code
}
