package planner

import (
	"fmt"
	"math"
	"strings"

	"github.com/sqe-db/sqe/sql/types"
)

// EXPLAIN's cost annotations. Tools such as Superset read PostgreSQL's
// "(cost=startup..total rows=n width=w)" off each plan line, so SQE prints
// the same shape. The numbers are estimates in PostgreSQL's units (one
// unit = reading one 8 kB page sequentially) from a deliberately simple
// model, not measurements:
//
//   - a scan's rows are the table's row count from metadata (the Iceberg
//     snapshot summary), or defaultTableRows when unknown; its cost is the
//     pages those rows fill at the estimated width plus a per-row CPU cost;
//   - a filter keeps defaultEqSelectivity of its input for each equality
//     conjunct and for a LIKE whose pattern starts with fixed text (a
//     narrow range, as an equality with that text would be), and
//     defaultSelectivity for any other, as PostgreSQL guesses without
//     statistics;
//   - a join on an equality between its sides keeps one row per row of
//     the side holding the foreign key (joinRows), a semi join its left
//     rows in the proportion the right side's rows are of the referenced
//     table's, an anti join all its left rows, a join on another
//     condition the larger side;
//   - a grouped aggregate yields the product of its group columns'
//     distinct values where ANALYZE's statistics give them all, otherwise
//     at most defaultGroups groups; an ungrouped one a single row; a sort
//     adds n·log2(n) comparisons before its first row; a limit pays only
//     for the fraction of its input it reads;
//   - widths are PostgreSQL's average widths per type (get_typavgwidth):
//     fixed-length types their length, bounded variable-length types from
//     their declared size, others 32 bytes.

// Cost constants, PostgreSQL's defaults.
const (
	seqPageCost     = 1.0
	cpuTupleCost    = 0.01
	cpuOperatorCost = 0.0025
	pageSize        = 8192

	defaultTableRows     = 1000
	defaultSelectivity   = 1.0 / 3
	defaultEqSelectivity = 0.005
	defaultGroups        = 200
	// defaultSRFRows is how many rows a set-returning function is taken
	// to return per input row, and a recursive query's rounds.
	defaultSRFRows = 10
)

// planEstimate is one node's estimate.
type planEstimate struct {
	startup, total float64
	rows           float64
}

// ExplainWithCosts renders n like Explain, each line followed by its
// PostgreSQL-style cost estimate.
func ExplainWithCosts(n Node) string {
	est := map[Node]planEstimate{}
	estimatePlan(n, est)
	var b strings.Builder
	explain(&b, n, 0, func(n Node) string {
		e := est[n]
		return fmt.Sprintf("  (cost=%.2f..%.2f rows=%.0f width=%d)", e.startup, e.total, e.rows, rowWidth(n.Columns()))
	})
	return b.String()
}

// estimatePlan estimates n and its inputs, recording each in est.
func estimatePlan(n Node, est map[Node]planEstimate) planEstimate {
	var in []planEstimate
	for _, c := range n.Inputs() {
		in = append(in, estimatePlan(c, est))
	}
	e := estimateNode(n, in)
	e.rows = math.Max(1, math.Round(e.rows))
	est[n] = e
	return e
}

func estimateNode(n Node, in []planEstimate) planEstimate {
	switch x := n.(type) {
	case *Scan:
		rows := float64(defaultTableRows)
		if r := x.Table.RowEstimate(); r >= 0 && !x.RowFiltered() {
			rows = float64(r)
		}
		pages := math.Ceil(rows * float64(rowWidth(x.Cols)) / pageSize)
		return planEstimate{total: pages*seqPageCost + rows*cpuTupleCost, rows: rows}
	case *Filter:
		conj := SplitConjuncts(x.Pred)
		sel := 1.0
		for _, c := range conj {
			sel *= selectivity(c, x.Input)
		}
		return planEstimate{startup: in[0].startup, total: in[0].total + in[0].rows*cpuOperatorCost*float64(len(conj)), rows: in[0].rows * sel}
	case *RowCount:
		// EXPLAIN may show it in place of its input.
		return in[0]
	case *Remote:
		// The other engine's costs are its own: the plan's as SQE sees it.
		return in[0]
	case *Sample:
		frac := 0.1
		if c, ok := x.Percent.(*Const); ok {
			if p, ok := c.Value.(float64); ok && p >= 0 && p <= 100 {
				frac = p / 100
			}
		}
		return planEstimate{startup: in[0].startup, total: in[0].total + in[0].rows*cpuOperatorCost, rows: in[0].rows * frac}
	case *Project:
		return planEstimate{startup: in[0].startup, total: in[0].total + in[0].rows*cpuOperatorCost*float64(len(x.Exprs)), rows: in[0].rows}
	case *Aggregate:
		work := in[0].total + in[0].rows*cpuOperatorCost*float64(len(x.Groups)+max(1, len(x.Aggs)))
		if len(x.Groups) == 0 {
			return planEstimate{startup: work, total: work + cpuTupleCost, rows: 1}
		}
		groups := math.Min(in[0].rows, defaultGroups)
		if x.Sets == nil {
			if n, ok := groupsFromStatistics(x.Input, x.Groups, in[0].rows); ok {
				groups = n
			}
		}
		return planEstimate{startup: work, total: work + groups*cpuTupleCost, rows: groups}
	case *Sort:
		rows := in[0].rows
		startup := in[0].total + 2*cpuOperatorCost*rows*math.Log2(math.Max(rows, 2))
		return planEstimate{startup: startup, total: startup + rows*cpuOperatorCost, rows: rows}
	case *Limit:
		avail := math.Max(in[0].rows-float64(x.Offset), 0)
		rows := avail
		if x.Count >= 0 {
			rows = math.Min(float64(x.Count), avail)
		}
		frac := 1.0
		if in[0].rows > 0 {
			frac = math.Min(1, (float64(x.Offset)+rows)/in[0].rows)
		}
		return planEstimate{startup: in[0].startup, total: in[0].startup + (in[0].total-in[0].startup)*frac, rows: rows}
	case OneRow:
		return planEstimate{total: cpuTupleCost, rows: 1}
	case *Values:
		return planEstimate{total: cpuTupleCost * float64(len(x.Rows)), rows: float64(len(x.Rows))}
	case *Join:
		rows := joinRows(x, in[0].rows, in[1].rows)
		startup := in[0].total + in[1].total
		return planEstimate{startup: startup, total: startup + (in[0].rows+in[1].rows+rows)*cpuTupleCost, rows: rows}
	case *ProjectSet:
		rows := in[0].rows * defaultSRFRows
		return planEstimate{startup: in[0].startup, total: in[0].total + rows*cpuTupleCost, rows: rows}
	case *SetOp:
		return planEstimate{startup: in[0].total + in[1].total, total: in[0].total + in[1].total + (in[0].rows+in[1].rows)*cpuOperatorCost, rows: in[0].rows}
	case *WorkTable:
		return planEstimate{total: defaultSRFRows * cpuTupleCost, rows: defaultSRFRows}
	case *RecursiveUnion:
		return planEstimate{startup: in[0].startup, total: in[0].total + in[1].total*defaultSRFRows, rows: in[0].rows * defaultSRFRows}
	case *CTE:
		// The WITH query runs once, before the first row is read.
		return planEstimate{startup: in[0].total + in[1].startup, total: in[0].total + in[1].total, rows: in[1].rows}
	case *CTEScan:
		return planEstimate{total: x.Rows * cpuTupleCost, rows: x.Rows}
	}
	// Append, Window and any other node: the sum of its inputs, plus a
	// per-row cost.
	var e planEstimate
	for i, c := range in {
		if i == 0 {
			e.startup = c.startup
		}
		e.total += c.total + c.rows*cpuOperatorCost
		if _, isAppend := n.(*Append); isAppend || i == 0 {
			e.rows += c.rows
		}
	}
	return e
}

// selectivity is the fraction of rows of in a conjunct is guessed to
// keep. A column equal to a constant keeps 1/n of them where ANALYZE's
// statistics give the column's n distinct values, as PostgreSQL's eqsel
// does without a most-common-values list.
func selectivity(e Expr, in Node) float64 {
	if b, ok := e.(*BinOp); ok && b.Op.Name == "=" {
		if nd, ok := constEqualityDistinct(b, in); ok {
			return 1 / nd
		}
		return defaultEqSelectivity
	}
	if n, ok := e.(*IsNull); ok && !n.Negated {
		return defaultEqSelectivity
	}
	if likePrefixPattern(e) {
		return defaultEqSelectivity
	}
	return defaultSelectivity
}

// likePrefixPattern reports whether e is LIKE (or ILIKE) with a constant
// pattern that starts with text, not with a wildcard ('forest%').
func likePrefixPattern(e Expr) bool {
	f, ok := e.(*Func)
	if !ok || (f.Name != "like" && f.Name != "ilike") || len(f.Args) != 2 {
		return false
	}
	c, ok := f.Args[1].(*Const)
	if !ok {
		return false
	}
	p, ok := c.Value.(string)
	return ok && p != "" && p[0] != '%' && p[0] != '_'
}

// constEqualityDistinct is the distinct count of the column an equality
// compares with a constant, from ANALYZE's statistics.
func constEqualityDistinct(b *BinOp, in Node) (float64, bool) {
	col, other := b.L, b.R
	if _, ok := col.(*ColRef); !ok {
		col, other = b.R, b.L
	}
	ref, ok := col.(*ColRef)
	if !ok || len(exprRefs(other)) > 0 || hasSubquery(other) {
		return 0, false
	}
	return distinctValues(in, ref.ID)
}

// rowWidth is the estimated average width in bytes of a row of cols.
func rowWidth(cols []Column) int {
	w := 0
	for _, c := range cols {
		w += typeWidth(c.Type)
	}
	return w
}

// typeWidth is PostgreSQL's get_typavgwidth for the types SQE has.
func typeWidth(t types.T) int {
	if l := t.Len(); l > 0 {
		return int(l)
	}
	maxWidth := 0
	switch t.OID {
	case types.OIDNumeric:
		if t.Precision > 0 {
			// numeric_maximum_size: header plus base-10000 digits.
			maxWidth = 8 + int((t.Precision+3)/4+1)*2
		}
	case types.OIDVarchar, types.OIDBpchar:
		if t.Precision > 0 {
			// Up to 4 bytes per character in UTF-8, plus the header.
			maxWidth = int(t.Precision)*4 + 4
		}
	}
	switch {
	case maxWidth <= 0:
		return 32
	case t.OID == types.OIDBpchar || maxWidth <= 32:
		return maxWidth
	case maxWidth < 1000:
		return 32 + (maxWidth-32)/2
	}
	return 32 + (1000-32)/2
}

// joinRows estimates the rows of j given its inputs'. An equality between
// the sides is taken as a foreign key referencing a key, as orderJoins
// takes it: l*r pairs, of which one in n match, n being the rows of the
// smaller table the sides read (the referenced one). Several equalities
// are one composite key: the strongest divides, once. An outer join keeps
// at least its preserved side's rows.
func joinRows(j *Join, l, r float64) float64 {
	switch {
	case j.Kind == SemiJoin:
		// Each left row at most once: as many as the right side's rows
		// are of the keys the equality ranges over (the referenced
		// table's), all of them without an equality.
		if d := equalityDivisor(j); d > 0 {
			return math.Max(1, l*math.Min(1, r/d))
		}
		return l
	case j.Kind.Existence():
		// At most each left row once; without statistics, all of them.
		return l
	case j.On == nil:
		return l * r
	}
	rows := math.Max(l, r)
	if d := equalityDivisor(j); d > 0 {
		rows = math.Max(1, l*r/math.Max(1, d))
	}
	switch j.Kind {
	case LeftJoin:
		rows = math.Max(rows, l)
	case RightJoin:
		rows = math.Max(rows, r)
	case FullJoin:
		rows = math.Max(rows, math.Max(l, r))
	}
	return rows
}

// equalityDivisor is the strongest divisor among j's equalities between
// its sides (0 when there is none): the larger distinct count of the two
// key columns where ANALYZE's statistics give both, as PostgreSQL's
// eqjoinsel, else the rows of the smaller table the sides read.
func equalityDivisor(j *Join) float64 {
	left, right := columnSet(j.Left.Columns()), columnSet(j.Right.Columns())
	guess := math.Min(baseRows(j.Left), baseRows(j.Right))
	d := 0.0
	for _, c := range SplitConjuncts(j.On) {
		if !hasHashKey([]Expr{c}, left, right) {
			continue
		}
		d = math.Max(d, keyColumnsDistinct(c.(*BinOp), j.Left, j.Right, guess))
	}
	return d
}

// keyColumnsDistinct is the larger distinct count of the columns an
// equality compares, one read by each of a and b, from ANALYZE's
// statistics; guess when either has none.
func keyColumnsDistinct(eq *BinOp, a, b Node, guess float64) float64 {
	l, okL := eq.L.(*ColRef)
	r, okR := eq.R.(*ColRef)
	if !okL || !okR {
		return guess
	}
	ndL, okL := distinctValues(a, l.ID)
	if !okL {
		ndL, okL = distinctValues(b, l.ID)
	}
	ndR, okR := distinctValues(b, r.ID)
	if !okR {
		ndR, okR = distinctValues(a, r.ID)
	}
	if !okL || !okR {
		return guess
	}
	return math.Max(ndL, ndR)
}
