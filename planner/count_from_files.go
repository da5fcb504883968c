package planner

import (
	"context"

	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/sql/types"
)

// RowCounter is a Table that can count its rows from metadata alone: the
// record counts its manifests keep for each data file (storage's
// ExactRowCount).
type RowCounter interface {
	Table
	// ExactRowCount is how many rows a scan of the table returns when it
	// prunes by filter (nil: none), a row filter the files it does not
	// prune must prove true for every row. ok is false whenever the files
	// cannot tell exactly (a delete file, a file that does not prove the
	// filter, a manifest that cannot be read): a scan then counts.
	ExactRowCount(ctx context.Context, filter iceberg.BooleanExpression) (n int64, ok bool)
}

// countRowsFromFiles wraps each ungrouped aggregate of row counts over a
// whole table whose files can count its rows in a RowCount. It runs
// after the scans batch, when each scan holds the predicates it prunes
// by: a count under a user's predicate is never taken from the files.
func countRowsFromFiles(n Node) Node {
	switch n.(type) {
	case *RowCount:
		return n
	case *Aggregate:
		if _, ok := countedScanOf(n); ok {
			return &RowCount{Input: n}
		}
	}
	return mapInputs(n, countRowsFromFiles)
}

// countedScan is the table an aggregate of row counts counts.
type countedScan struct {
	scan *Scan
	// barrier is the table's row filter, proven; nil without one.
	barrier *Filter
}

// countedScanOf is the table n counts when n (under a Gather or not) is
// an ungrouped aggregate of row counts only (countsRows) over a scan of
// a whole table that can count its rows. Only what keeps every row may
// come between: a Gather, a masking projection or one of column
// references (neither fails on a row, and a mask changes values, not
// rows), and the table's row filter if its files proved it true for
// every row. ok is false for anything else.
func countedScanOf(n Node) (countedScan, bool) {
	if g, ok := n.(*Gather); ok {
		n = g.Input
	}
	agg, ok := n.(*Aggregate)
	if !ok || len(agg.Groups) > 0 || agg.Sets != nil || len(agg.Aggs) == 0 {
		return countedScan{}, false
	}
	for _, a := range agg.Aggs {
		if !countsRows(a) {
			return countedScan{}, false
		}
	}
	var c countedScan
	for n = agg.Input; ; {
		switch x := n.(type) {
		case *Gather:
			n = x.Input
		case *Project:
			if !x.Masking && !onlyColumnRefs(x.Exprs) {
				return countedScan{}, false
			}
			n = x.Input
		case *Filter:
			if !x.Barrier || !x.Proven || c.barrier != nil {
				return countedScan{}, false
			}
			c.barrier = x
			n = x.Input
		case *Scan:
			c.scan = x
			return c, countableScan(x, c.barrier)
		default:
			return countedScan{}, false
		}
	}
}

// countableScan reports whether the files of s's table count the rows s
// returns under barrier, its proven row filter (nil: none): the table
// can count, and s prunes by nothing but that filter, which sits
// directly above it and translates whole for the files to prove again.
func countableScan(s *Scan, barrier *Filter) bool {
	if _, ok := s.Table.(RowCounter); !ok {
		return false
	}
	if barrier == nil {
		return !s.RowFiltered() && len(s.Pushed) == 0
	}
	if barrier.Input != Node(s) || !s.RowFiltered() || toIceberg(barrier.Pred, s) == nil {
		return false
	}
	for _, p := range s.Pushed {
		if !holdsConjunct(barrier.Pred, p) {
			return false
		}
	}
	return true
}

// countsRows reports an aggregate call whose value is the number of its
// input rows: a plain count(*), or count of a constant that is not NULL.
// count(x) of a column is not one: it skips the rows where x is NULL.
func countsRows(a *AggCall) bool {
	if a.Func.Name != "count" || a.Distinct || a.Filter != nil || len(a.OrderBy) > 0 || len(a.RowArgs) > 0 ||
		a.Delim != nil || a.Direct != nil || a.Out.Type != types.Int8 {
		return false
	}
	if a.Arg == nil {
		return true
	}
	c, ok := a.Arg.(*Const)
	return ok && c.Value != nil
}

func onlyColumnRefs(exprs []Expr) bool {
	for _, e := range exprs {
		if _, ok := e.(*ColRef); !ok {
			return false
		}
	}
	return true
}

// Source is the table r counts and the filter its count must honour: the
// Iceberg form of the table's proven row filter, nil without one. ok is
// false when Input is not a count the table's files can answer, which
// CheckPlan refuses.
func (r *RowCount) Source() (RowCounter, iceberg.BooleanExpression, bool) {
	c, ok := countedScanOf(r.Input)
	if !ok {
		return nil, nil, false
	}
	tbl := c.scan.Table.(RowCounter)
	if c.barrier == nil {
		return tbl, nil, true
	}
	return tbl, toIceberg(c.barrier.Pred, c.scan), true
}

// RowFiltered reports a count under the caller's row filter (or over a
// plan that is not a count): EXPLAIN, and EXPLAIN ANALYZE, show it as
// the plan it stands for.
func (r *RowCount) RowFiltered() bool {
	c, ok := countedScanOf(r.Input)
	return !ok || c.barrier != nil
}

// table is the table r counts; nil when Input is not a count.
func (r *RowCount) table() Table {
	c, ok := countedScanOf(r.Input)
	if !ok {
		return nil
	}
	return c.scan.Table
}
