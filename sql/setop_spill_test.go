package sql

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The input of the spilling set operations: 120,000 rows, a from 1 to
// 400 and b from 1 to 300, under a budget of 1 MiB.
const (
	setOpSpillRows  = "generate_series(1, 400) AS a, generate_series(1, 300) AS b"
	setOpSpillLimit = 1 << 20
)

// TestSpilledSetOperationsReturnTheUnlimitedRows: an INTERSECT or EXCEPT
// whose state passes the budget partitions it and both inputs to disk and
// computes the pairs of partitions in turn, with the rows (as a set) of
// the operation in memory, with and without ALL, NULLs and text, when the
// state stops fitting while the left input is read, and when partitions
// are partitioned again. UNION's DISTINCT is a spilling aggregate.
func TestSpilledSetOperationsReturnTheUnlimitedRows(t *testing.T) {
	const spillRows = setOpSpillRows
	tests := []struct {
		name  string
		sql   string
		limit int64 // setOpSpillLimit when 0
	}{
		{"intersect", "SELECT a, b FROM " + spillRows + " INTERSECT SELECT b, a FROM " + spillRows, 0},
		{"intersect all", "SELECT a % 200, b FROM " + spillRows + " INTERSECT ALL SELECT a % 100, b FROM " + spillRows, 0},
		{"except", "SELECT a, b FROM " + spillRows + " EXCEPT SELECT b, a FROM " + spillRows, 0},
		{"except all", "SELECT a % 200, b FROM " + spillRows + " EXCEPT ALL SELECT a % 300, b FROM " + spillRows, 0},
		{"NULLs and text", "SELECT NULLIF(a % 200, 0) AS x, 'v' || b AS t FROM " + spillRows +
			" EXCEPT SELECT NULLIF(a % 150, 7), 'v' || (b * 2) FROM " + spillRows, 0},
		{"intersect all, NULLs and text", "SELECT NULLIF(a % 200, 0) AS x, 'v' || b AS t FROM " + spillRows +
			" INTERSECT ALL SELECT NULLIF(a % 150, 7), 'v' || (b % 250) FROM " + spillRows, 0},
		{"state outgrows the budget while the left input is read", "SELECT a, b FROM " + spillRows +
			" EXCEPT SELECT a, b FROM generate_series(1, 10) AS a, generate_series(1, 10) AS b", 0},
		{"partitions partitioned again", "SELECT a, b FROM " + spillRows + " INTERSECT SELECT b, a FROM " + spillRows, 384 << 10},
		{"union", "SELECT a, b FROM " + spillRows + " UNION SELECT b, a FROM " + spillRows, 0},
	}
	for _, tt := range tests {
		limit := tt.limit
		if limit == 0 {
			limit = setOpSpillLimit
		}
		t.Run(tt.name, func(t *testing.T) { checkSpilledAsUnlimited(t, tt.sql, limit, false) })
	}
}

// TestSetOperationSpillAreaIsRemoved: a set operation that spilled leaves
// no file when it fails while it counts the right input, while it
// partitions the left one, or is cancelled.
func TestSetOperationSpillAreaIsRemoved(t *testing.T) {
	const spillRows = setOpSpillRows
	tests := []spillEndCase{
		{name: "error while the right input is counted", sql: "SELECT a, b FROM " + spillRows + " EXCEPT SELECT b + 1 / (a - 300), a FROM " + spillRows, want: pgerror.DivisionByZero},
		{name: "error while the left input is partitioned", sql: "SELECT a, 1 / (a - 350) FROM " + spillRows + " INTERSECT ALL SELECT a, b FROM " + spillRows, want: pgerror.DivisionByZero},
		{name: "cancel", sql: "SELECT a, b FROM " + spillRows + " INTERSECT SELECT b, a FROM " + spillRows, cancelAfterFirst: true, want: pgerror.QueryCanceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkSpillEnd(t, setOpSpillLimit, tt) })
	}
}
