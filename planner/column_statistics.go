package planner

import "math"

// DistinctEstimator is a Table that knows, from the statistics ANALYZE
// collected of it, about how many distinct values its columns hold
// (storage's Table.Statistics, through the SQL layer's adapter). The
// join order and aggregate estimates use it where they guess otherwise.
type DistinctEstimator interface {
	Table
	// DistinctValues estimates the distinct non-null values of column
	// col (an index into Columns); ok is false without statistics.
	DistinctValues(col int) (n float64, ok bool)
}

// distinctValues estimates how many distinct values column id takes in
// n's output, from the statistics of the table whose scan in n produces
// it. ok is false when no scan in n produces id, when that scan is under
// the caller's row filter or masks (the statistics describe every row
// and the stored values, and estimates reach EXPLAIN), or when the table
// has no statistics. The estimate is at most the table's row count.
func distinctValues(n Node, id ColumnID) (float64, bool) {
	var scan *Scan
	col := -1
	walk(n, func(m Node) {
		s, ok := m.(*Scan)
		if !ok || scan != nil {
			return
		}
		for i, c := range s.Cols {
			if c.ID == id {
				scan, col = s, i
			}
		}
	})
	if scan == nil || scan.Guard != nil {
		return 0, false
	}
	est, ok := scan.Table.(DistinctEstimator)
	if !ok {
		return 0, false
	}
	nd, ok := est.DistinctValues(scan.TableColumns[col])
	if !ok || nd < 0 {
		return 0, false
	}
	if rows := scan.Table.RowEstimate(); rows >= 0 {
		nd = math.Min(nd, float64(rows))
	}
	return math.Max(nd, 1), true
}

// groupsFromStatistics estimates the groups of an aggregate over in by
// groups, the product of the group columns' distinct values, at most
// rows; ok is false unless every group is a column with statistics.
func groupsFromStatistics(in Node, groups []Expr, rows float64) (float64, bool) {
	n := 1.0
	for _, g := range groups {
		ref, ok := g.(*ColRef)
		if !ok {
			return 0, false
		}
		nd, ok := distinctValues(in, ref.ID)
		if !ok {
			return 0, false
		}
		n *= nd
	}
	return math.Min(n, rows), true
}
