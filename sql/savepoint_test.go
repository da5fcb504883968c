package sql

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The expectations are PostgreSQL 15's answers to the same scripts.
func TestSavepointsAndSettings(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
	}{
		{"outside a block", []step{
			{query: "SAVEPOINT a", code: pgerror.NoActiveSQLTransaction},
			{query: "RELEASE a", code: pgerror.NoActiveSQLTransaction},
			{query: "ROLLBACK TO a", code: pgerror.NoActiveSQLTransaction},
			{query: "SET LOCAL search_path = x", tag: "SET", status: 'I'},
			{query: "SHOW search_path", rows: `"$user", public`, tag: "SHOW"},
		}},
		{"rollback to leaves the failed state", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: "SET search_path = s1", tag: "SET"},
			{query: "SAVEPOINT a", tag: "SAVEPOINT"},
			{query: "SET search_path = s2", tag: "SET"},
			{query: "SAVEPOINT a", tag: "SAVEPOINT"},
			{query: "SET LOCAL search_path = s3", tag: "SET"},
			{query: "SELECT 1/0", code: pgerror.DivisionByZero, status: 'E'},
			{query: "SAVEPOINT b", code: pgerror.InFailedSQLTransaction, status: 'E'},
			{query: "RELEASE a", code: pgerror.InFailedSQLTransaction, status: 'E'},
			{query: "ROLLBACK TO nope", code: pgerror.InvalidSavepointSpecification, status: 'E'},
			{query: "ROLLBACK TO a", tag: "ROLLBACK", status: 'T'},
			{query: "SHOW search_path", rows: "s2", tag: "SHOW"},
			{query: "RELEASE SAVEPOINT a", tag: "RELEASE"},
			{query: "SHOW search_path", rows: "s2", tag: "SHOW"},
			{query: "ROLLBACK TO a", tag: "ROLLBACK"},
			{query: "ROLLBACK TO SAVEPOINT a", tag: "ROLLBACK"},
			{query: "SHOW search_path", rows: "s1", tag: "SHOW"},
			{query: "RELEASE a", tag: "RELEASE"},
			{query: "RELEASE a", code: pgerror.InvalidSavepointSpecification},
			{query: "COMMIT", tag: "ROLLBACK", status: 'I'},
			{query: "SHOW search_path", rows: `"$user", public`, tag: "SHOW"},
		}},
		{"set local and set at commit", []step{
			{query: "BEGIN; SET LOCAL search_path = l; SET search_path = g; COMMIT", tag: "COMMIT"},
			{query: "SHOW search_path", rows: "g", tag: "SHOW"},
			{query: "BEGIN; SET search_path = g2; SET LOCAL search_path = l; SHOW search_path", rows: "l", tag: "SHOW"},
			{query: "COMMIT; SHOW search_path", rows: "g2", tag: "SHOW"},
			{query: "BEGIN; SET search_path = g3; ROLLBACK; SHOW search_path", rows: "g2", tag: "SHOW"},
			{query: "BEGIN; SET LOCAL search_path = l; SET search_path = l; COMMIT; SHOW search_path", rows: "l", tag: "SHOW"},
			{query: "BEGIN; RESET ALL; ROLLBACK; SHOW search_path", rows: "l", tag: "SHOW"},
			{query: "BEGIN; SET LOCAL search_path TO DEFAULT; COMMIT; SHOW search_path", rows: "l", tag: "SHOW"},
		}},
		{"isolation levels", []step{
			{query: "SET transaction_isolation = 'serializable'", tag: "SET"},
			{query: "SHOW transaction_isolation", rows: "read committed", tag: "SHOW"},
			{query: "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", tag: "SET"},
			{query: "SHOW transaction_isolation", rows: "read committed", tag: "SHOW"},
			{query: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", tag: "BEGIN"},
			{query: "SHOW transaction_isolation", rows: "repeatable read", tag: "SHOW"},
			{query: "SHOW transaction_read_only", rows: "on", tag: "SHOW"},
			{query: "SELECT 1", rows: "1", tag: "SELECT 1"},
			{query: "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", code: pgerror.ActiveSQLTransaction, status: 'E'},
			{query: "ROLLBACK", tag: "ROLLBACK"},
			{query: "START TRANSACTION READ ONLY", tag: "START TRANSACTION"},
			{query: "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", tag: "SET"},
			{query: "SHOW transaction_isolation", rows: "serializable", tag: "SHOW"},
			{query: "COMMIT", tag: "COMMIT"},
			{query: "SHOW transaction_isolation", rows: "read committed", tag: "SHOW"},
			{query: "SHOW transaction_read_only", rows: "off", tag: "SHOW"},
			{query: "SET default_transaction_isolation = 'repeatable read'", tag: "SET"},
			{query: "SHOW transaction_isolation", rows: "repeatable read", tag: "SHOW"},
			{query: "BEGIN; SET default_transaction_isolation = 'serializable'; SHOW transaction_isolation", rows: "repeatable read", tag: "SHOW"},
			{query: "COMMIT; SHOW transaction_isolation", rows: "serializable", tag: "SHOW"},
			{query: "SET default_transaction_isolation = 'bogus'", code: pgerror.InvalidParameterValue},
			{query: "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ UNCOMMITTED", tag: "SET"},
			{query: "SHOW default_transaction_isolation", rows: "read uncommitted", tag: "SHOW"},
			{query: "SHOW transaction_isolation", rows: "read uncommitted", tag: "SHOW"},
			{query: "BEGIN; SET transaction_isolation = 'bogus'", code: pgerror.InvalidParameterValue, status: 'E'},
		}},
		{"set_config", []step{
			{query: "SELECT set_config('search_path', 'sc', false)", rows: "sc", tag: "SELECT 1"},
			{query: "SHOW search_path", rows: "sc", tag: "SHOW"},
			{query: "BEGIN; SELECT set_config('search_path', 'loc', true)", rows: "loc", tag: "SELECT 1"},
			{query: "SHOW search_path", rows: "loc", tag: "SHOW"},
			{query: "COMMIT; SHOW search_path", rows: "sc", tag: "SHOW"},
			{query: "SELECT set_config('search_path', 'loc2', true)", rows: "loc2", tag: "SELECT 1"},
			{query: "SHOW search_path", rows: "sc", tag: "SHOW"},
			{query: "SELECT set_config('nope', 'x', false)", code: pgerror.UndefinedObject},
			{query: "SELECT set_config(NULL, 'x', false)", code: pgerror.NullValueNotAllowed},
			{query: "SELECT set_config('search_path', NULL, false)", rows: `"$user", public`, tag: "SELECT 1"},
			{query: "SELECT set_config('application_name', 'zz', NULL)", rows: "zz", tag: "SELECT 1"},
			{query: "RESET ALL; SHOW application_name", rows: "test", tag: "SHOW"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSession(t)
			defer s.Close()
			runSteps(t, s, tt.steps)
		})
	}
}
