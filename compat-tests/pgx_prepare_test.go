package compattests

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// SQL's PREPARE, EXECUTE and DEALLOCATE through pgx in every exec mode:
// EXECUTE of a SELECT returns its rows with their row description (and
// binary results where pgx asks for them), EXECUTE of a write its command
// tag, and the errors carry PostgreSQL's SQLSTATEs.
func TestPgxPrepareExecute(t *testing.T) {
	forEachMode(t, func(t *testing.T, m execMode) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn := connectMode(t, ctx, m)
		if _, err := conn.Exec(ctx, "PREPARE by_id(bigint) AS SELECT id, region, amount FROM acdemo.orders WHERE id = $1"); err != nil {
			t.Fatal(err)
		}
		var (
			id     int64
			region string
			amount float64
		)
		if err := conn.QueryRow(ctx, "EXECUTE by_id(3)").Scan(&id, &region, &amount); err != nil {
			t.Fatal(err)
		}
		if id != 3 || region != "EU" {
			t.Errorf("EXECUTE by_id(3) = %d, %s", id, region)
		}
		rows, err := conn.Query(ctx, "EXECUTE by_id(2)")
		if err != nil {
			t.Fatal(err)
		}
		fds := rows.FieldDescriptions()
		rows.Close()
		if len(fds) != 3 || fds[0].Name != "id" || fds[0].DataTypeOID != 20 || fds[1].Name != "region" || fds[1].DataTypeOID != 25 {
			t.Errorf("row description %+v", fds)
		}
		for _, tc := range []struct{ sql, code string }{
			{"EXECUTE by_id('x')", "22P02"},
			{"EXECUTE by_id('7'::text)", "42804"},
			{"EXECUTE by_id", "42601"},
			{"EXECUTE nope", "26000"},
			{"PREPARE by_id AS SELECT 1", "42P05"},
			{"DEALLOCATE nope", "26000"},
		} {
			_, err := conn.Exec(ctx, tc.sql)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != tc.code {
				t.Errorf("%s: %v, want %s", tc.sql, err, tc.code)
			}
		}
		table := fmt.Sprintf("acdemo.prep_%d", int(m.mode))
		steps := []struct{ sql, tag string }{
			{"CREATE TABLE " + table + " (id int, v text)", "CREATE TABLE"},
			{"PREPARE ins(int, text) AS INSERT INTO " + table + " VALUES ($1, $2)", "PREPARE"},
			{"EXECUTE ins(1, 'a')", "INSERT 0 1"},
			{"EXECUTE ins(2, 'b')", "INSERT 0 1"},
			{"PREPARE del AS DELETE FROM " + table + " WHERE id = 1", "PREPARE"},
			{"EXECUTE del", "DELETE 1"},
			{"DEALLOCATE ins", "DEALLOCATE"},
			{"DEALLOCATE ALL", "DEALLOCATE ALL"},
			{"DROP TABLE " + table, "DROP TABLE"},
		}
		for _, st := range steps {
			tag, err := conn.Exec(ctx, st.sql)
			if err != nil {
				t.Fatalf("%s: %v", st.sql, err)
			}
			if tag.String() != st.tag {
				t.Errorf("%s: tag %q, want %q", st.sql, tag.String(), st.tag)
			}
		}
	})
}

// A statement the protocol prepared and one PREPARE made share one
// namespace: the protocol's Parse of a name PREPARE used fails with 42P05,
// EXECUTE runs a statement Parse made, and DEALLOCATE drops it.
func TestPgxPreparedNamespace(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn := connectMode(t, ctx, execModes[0])
	if _, err := conn.Exec(ctx, "PREPARE shared_x AS SELECT 1"); err != nil {
		t.Fatal(err)
	}
	_, err := conn.Prepare(ctx, "shared_x", "SELECT 2")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42P05" || pe.Message != `prepared statement "shared_x" already exists` {
		t.Fatalf("Parse after PREPARE: %v, want 42P05", err)
	}
	if _, err := conn.Prepare(ctx, "proto_y", "SELECT $1::int * 2"); err != nil {
		t.Fatal(err)
	}
	var got int
	if err := conn.QueryRow(ctx, "EXECUTE proto_y(21)").Scan(&got); err != nil || got != 42 {
		t.Fatalf("EXECUTE of a Parse statement: %d, %v", got, err)
	}
	var fromSQL []bool
	rows, err := conn.Query(ctx, "SELECT from_sql FROM pg_prepared_statements WHERE name IN ('shared_x', 'proto_y') ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var b bool
		if err := rows.Scan(&b); err != nil {
			t.Fatal(err)
		}
		fromSQL = append(fromSQL, b)
	}
	if rows.Err() != nil || len(fromSQL) != 2 || fromSQL[0] || !fromSQL[1] {
		t.Fatalf("pg_prepared_statements from_sql %v, %v (want proto_y false, shared_x true)", fromSQL, rows.Err())
	}
	if _, err := conn.Exec(ctx, "DEALLOCATE proto_y"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "EXECUTE proto_y(1)"); !errors.As(err, &pe) || pe.Code != "26000" {
		t.Fatalf("EXECUTE after DEALLOCATE: %v, want 26000", err)
	}
}
