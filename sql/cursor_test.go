package sql

import (
	"context"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

const seriesCursor = "DECLARE c CURSOR FOR SELECT g FROM generate_series(1, 5) g"

func TestCursors(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
	}{
		{"declare needs a block", []step{
			{query: "DECLARE c CURSOR FOR SELECT 1", code: pgerror.NoActiveSQLTransaction, status: 'I'},
		}},
		{"fetch counts and tags", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: seriesCursor, tag: "DECLARE CURSOR"},
			{query: "FETCH 2 FROM c", rows: "1;2", tag: "FETCH 2"},
			{query: "FETCH c", rows: "3", tag: "FETCH 1"},
			{query: "MOVE 1 IN c", tag: "MOVE 1"},
			{query: "FETCH FORWARD ALL FROM c", rows: "5", tag: "FETCH 1"},
			{query: "FETCH NEXT FROM c", tag: "FETCH 0"},
			{query: "CLOSE c", tag: "CLOSE CURSOR"},
			{query: "CLOSE c", code: pgerror.InvalidCursorName, status: 'E'},
			{query: "ROLLBACK", tag: "ROLLBACK", status: 'I'},
		}},
		{"move all then fetch", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: seriesCursor, tag: "DECLARE CURSOR"},
			{query: "MOVE ALL IN c", tag: "MOVE 5"},
			{query: "FETCH c", tag: "FETCH 0"},
			{query: "MOVE c", tag: "MOVE 0"},
			{query: "FETCH BACKWARD -1 IN c", tag: "FETCH 0"},
			{query: "COMMIT", tag: "COMMIT"},
			{query: "FETCH c", code: pgerror.InvalidCursorName},
		}},
		{"duplicate name", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: seriesCursor, tag: "DECLARE CURSOR"},
			{query: "DECLARE c CURSOR FOR SELECT 1", code: pgerror.DuplicateCursor, status: 'E'},
		}},
		{"backward on a default cursor", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: seriesCursor, tag: "DECLARE CURSOR"},
			{query: "FETCH PRIOR FROM c", code: pgerror.FeatureNotSupported, status: 'E'},
		}},
		{"absolute refused", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: seriesCursor, tag: "DECLARE CURSOR"},
			{query: "FETCH LAST FROM c", code: pgerror.FeatureNotSupported},
		}},
		{"no scroll refuses backward as PostgreSQL", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: "DECLARE c NO SCROLL CURSOR FOR SELECT 1", tag: "DECLARE CURSOR"},
			{query: "FETCH FORWARD 0 FROM c", code: pgerror.ObjectNotInPrerequisiteState},
		}},
		{"scroll and binary refused", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: "DECLARE c SCROLL CURSOR FOR SELECT 1", code: pgerror.FeatureNotSupported},
			{query: "ROLLBACK", tag: "ROLLBACK"},
			{query: "BEGIN", tag: "BEGIN"},
			{query: "DECLARE c BINARY CURSOR FOR SELECT 1", code: pgerror.FeatureNotSupported},
		}},
		{"close all", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: seriesCursor, tag: "DECLARE CURSOR"},
			{query: "DECLARE d CURSOR FOR SELECT 1", tag: "DECLARE CURSOR"},
			{query: "CLOSE ALL", tag: "CLOSE CURSOR ALL"},
			{query: "FETCH d", code: pgerror.InvalidCursorName},
		}},
		{"with hold survives commit, not rollback", []step{
			{query: "DECLARE h CURSOR WITH HOLD FOR SELECT g FROM generate_series(1, 5) g", tag: "DECLARE CURSOR", status: 'I'},
			{query: "FETCH 2 h", rows: "1;2", tag: "FETCH 2"},
			{query: "BEGIN", tag: "BEGIN"},
			{query: "FETCH 1 h", rows: "3", tag: "FETCH 1"},
			{query: "ROLLBACK", tag: "ROLLBACK"},
			{query: "FETCH 1 h", rows: "4", tag: "FETCH 1"},
			{query: "BEGIN", tag: "BEGIN"},
			{query: "DECLARE h2 CURSOR WITH HOLD FOR SELECT 7", tag: "DECLARE CURSOR"},
			{query: "DECLARE n CURSOR FOR SELECT 8", tag: "DECLARE CURSOR"},
			{query: "COMMIT", tag: "COMMIT"},
			{query: "FETCH h2", rows: "7", tag: "FETCH 1"},
			{query: "FETCH n", code: pgerror.InvalidCursorName},
			{query: "BEGIN", tag: "BEGIN"},
			{query: "DECLARE h3 CURSOR WITH HOLD FOR SELECT 9", tag: "DECLARE CURSOR"},
			{query: "ROLLBACK", tag: "ROLLBACK"},
			{query: "FETCH h3", code: pgerror.InvalidCursorName},
			{query: "FETCH ALL h", rows: "5", tag: "FETCH 1"},
		}},
		{"table rows through the select path", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: "DECLARE o CURSOR WITHOUT HOLD FOR SELECT id, region FROM acdemo.orders ORDER BY id", tag: "DECLARE CURSOR"},
			{query: "FETCH FORWARD 2 FROM o", rows: "1|EU;2|US", tag: "FETCH 2"},
			{query: "FETCH FORWARD 2 FROM o", rows: "3|EU", tag: "FETCH 1"},
			{query: "DECLARE bad CURSOR FOR SELECT nope FROM acdemo.orders", code: pgerror.UndefinedColumn, status: 'E'},
		}},
		{"savepoint drops newer cursors only", []step{
			{query: "BEGIN", tag: "BEGIN"},
			{query: seriesCursor, tag: "DECLARE CURSOR"},
			{query: "SAVEPOINT s", tag: "SAVEPOINT"},
			{query: "FETCH 1 c", rows: "1", tag: "FETCH 1"},
			{query: "DECLARE d CURSOR FOR SELECT 1", tag: "DECLARE CURSOR"},
			{query: "ROLLBACK TO s", tag: "ROLLBACK"},
			{query: "FETCH 1 c", rows: "2", tag: "FETCH 1"},
			{query: "FETCH d", code: pgerror.InvalidCursorName},
		}},
		{"discard", []step{
			{query: "DECLARE h CURSOR WITH HOLD FOR SELECT 1", tag: "DECLARE CURSOR"},
			{query: "SET application_name = 'changed'", tag: "SET"},
			{query: "BEGIN", tag: "BEGIN"},
			{query: "DISCARD PLANS", tag: "DISCARD PLANS"},
			{query: "DISCARD TEMP", tag: "DISCARD TEMP"},
			{query: "DISCARD SEQUENCES", tag: "DISCARD SEQUENCES"},
			{query: "DISCARD ALL", code: pgerror.ActiveSQLTransaction, status: 'E'},
			{query: "ROLLBACK", tag: "ROLLBACK"},
			{query: "DISCARD ALL", tag: DiscardAllTag},
			{query: "FETCH h", code: pgerror.InvalidCursorName},
			{query: "SHOW application_name", rows: "test", tag: "SHOW"},
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

// TestCursorStreams checks a cursor holds at most the rest of one batch:
// fetching a few rows of a large table returns exactly those rows, in
// order, and the rest stays pending in the cursor.
func TestCursorStreams(t *testing.T) {
	s := newTestSession(t)
	defer s.Close()
	runSteps(t, s, []step{
		{query: "BEGIN", tag: "BEGIN"},
		{query: "DECLARE c CURSOR FOR SELECT count(*) FROM acdemo.sales", tag: "DECLARE CURSOR"},
		{query: "DECLARE s CURSOR FOR SELECT 1 FROM acdemo.sales", tag: "DECLARE CURSOR"},
		{query: "MOVE 998 IN s", tag: "MOVE 998"},
		{query: "FETCH 5 FROM s", rows: "1;1", tag: "FETCH 2"},
		{query: "FETCH ALL FROM c", rows: "1000", tag: "FETCH 1"},
	})
	c := s.cursors.get("s")
	if c == nil || !c.done || c.batch != nil {
		t.Fatalf("cursor after its end: %+v", c)
	}
}

func TestCursorCancelledFetchFails(t *testing.T) {
	s := newTestSession(t)
	defer s.Close()
	runSteps(t, s, []step{
		{query: "BEGIN", tag: "BEGIN"},
		{query: "DECLARE s CURSOR FOR SELECT id FROM acdemo.sales", tag: "DECLARE CURSOR"},
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := executeOne(t, ctx, s, "FETCH 10 FROM s")
	if _, err := res.Next(ctx); pgerror.Code(err) != pgerror.QueryCanceled {
		t.Fatalf("cancelled FETCH: %v", err)
	}
	if s.TxStatus() != 'E' {
		t.Fatalf("status %c after a failed FETCH", s.TxStatus())
	}
	runSteps(t, s, []step{
		{query: "ROLLBACK", tag: "ROLLBACK", status: 'I'},
		{query: "FETCH s", code: pgerror.InvalidCursorName},
	})
}
