package sql

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The input of the spilling windows: 60,000 rows, a from 1 to 200 and b
// from 1 to 300, under a budget of 512 KiB.
const (
	windowSpillRows  = "generate_series(1, 200) AS a, generate_series(1, 300) AS b"
	windowSpillLimit = 512 << 10
)

// TestSpilledWindowsReturnTheUnlimitedRows: a window past the budget
// sorts its input through a spilling sort and computes a run of whole
// partitions at a time; its rows, in their order, are the window's in
// memory, for ranking and offset functions, ROWS, RANGE and GROUPS
// frames, NULL and text keys, descending orders, a partition much larger
// than the rest, and windows stacked on one another.
func TestSpilledWindowsReturnTheUnlimitedRows(t *testing.T) {
	const rows = windowSpillRows
	tests := []struct {
		name string
		sql  string
	}{
		{"ranking", "SELECT a, b, row_number() OVER w, rank() OVER w, dense_rank() OVER w FROM " + rows +
			" WINDOW w AS (PARTITION BY a % 100 ORDER BY b % 37 DESC)"},
		{"lag and lead", "SELECT a, b, lag(b, 2) OVER w, lead(b * 10, 1, -1) OVER w FROM " + rows +
			" WINDOW w AS (PARTITION BY a ORDER BY (a + b) % 50)"},
		{"ROWS frame", "SELECT a, b, sum(b) OVER (PARTITION BY a % 100 ORDER BY b ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING), " +
			"max(a) OVER (PARTITION BY a % 100 ORDER BY b ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM " + rows},
		{"RANGE frame with offsets", "SELECT a, b, count(*) OVER (PARTITION BY b % 50 ORDER BY a DESC RANGE BETWEEN 5 PRECEDING AND 2 FOLLOWING), " +
			"avg(b) OVER (PARTITION BY b % 50 ORDER BY a DESC) FROM " + rows},
		{"GROUPS frame excluding ties", "SELECT a, b, string_agg(b::text, ',') OVER (PARTITION BY a ORDER BY b % 100 GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES) FROM " + rows + ""},
		{"NULL keys, NULLs first", "SELECT a, b, count(*) OVER w, first_value(b) OVER w, last_value(a) OVER w FROM " + rows +
			" WINDOW w AS (PARTITION BY NULLIF(a % 40, 0) ORDER BY NULLIF(b % 5, 0) DESC NULLS FIRST)"},
		{"text keys", "SELECT a, b, row_number() OVER w, nth_value(b, 3) OVER w FROM " + rows +
			" WINDOW w AS (PARTITION BY (a % 60)::text ORDER BY b::text DESC)"},
		{"distribution functions", "SELECT a, b, percent_rank() OVER w, cume_dist() OVER w, ntile(7) OVER w FROM " + rows +
			" WINDOW w AS (PARTITION BY a ORDER BY b % 9)"},
		{"one partition much larger", "SELECT a, b, sum(a + b) OVER (PARTITION BY CASE WHEN a <= 10 THEN 0 ELSE a END ORDER BY b, a), " +
			"row_number() OVER (PARTITION BY CASE WHEN a <= 10 THEN 0 ELSE a END ORDER BY b, a) FROM " + rows},
		{"windows of two definitions", "SELECT a, b, row_number() OVER (PARTITION BY a ORDER BY b DESC), sum(a) OVER (PARTITION BY b ORDER BY a) FROM " + rows},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkSpilledAsUnlimited(t, tt.sql, windowSpillLimit, true) })
	}
	t.Run("DISTINCT ON", func(t *testing.T) {
		checkSpilledAsUnlimited(t, "SELECT DISTINCT ON (a, b % 3) a, b FROM "+rows+" ORDER BY a, b % 3, b DESC", windowSpillLimit, true)
	})
}

// TestWindowSpillAreaIsRemoved: a window that spilled leaves no file when
// it fails while it reads its input, while it returns its rows, or is
// cancelled; a partition larger than the budget still fails with 53200.
func TestWindowSpillAreaIsRemoved(t *testing.T) {
	tests := []spillEndCase{
		{name: "error while the sort reads its input", sql: "SELECT a, b, row_number() OVER (PARTITION BY a ORDER BY 1 / (a - 150)) FROM " + windowSpillRows, want: pgerror.DivisionByZero},
		{name: "error while partitions are computed", sql: "SELECT a, b, ntile(CASE WHEN a = 190 THEN 0 ELSE 3 END) OVER (PARTITION BY a ORDER BY b) FROM " + windowSpillRows, want: "22014"},
		{name: "cancel", sql: "SELECT a, b, rank() OVER (PARTITION BY a ORDER BY b DESC) FROM " + windowSpillRows, cancelAfterFirst: true, want: pgerror.QueryCanceled},
		{name: "partition past the budget", sql: "SELECT a, b, row_number() OVER (ORDER BY b, a) FROM " + windowSpillRows, want: pgerror.OutOfMemory},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkSpillEnd(t, windowSpillLimit, tt) })
	}
}
