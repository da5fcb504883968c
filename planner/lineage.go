package planner

import (
	"cmp"
	"fmt"
	"slices"
)

// ColumnSource is a stored column values derive from: column Column (an
// index into Table.Columns) of Table.
type ColumnSource struct {
	Table  Table
	Column int
}

// Lineage says which stored columns the values of a plan's output columns
// derive from, so that the column tags of a query's sources can follow
// its rows into the table they are written to (CREATE TABLE AS, INSERT
// ... SELECT). It errs towards more sources: a copy tagged too much is
// still protected, a copy tagged too little leaks.
type Lineage struct {
	// Columns holds, for each output column of the plan in order, the
	// stored columns its values derive from.
	Columns [][]ColumnSource
	// Tables are the tables the plan scans, each once, in the order met.
	Tables []Table
	// Unknown names the first plan node or expression kind the analysis
	// does not know ("" when it knew them all). Columns may then miss
	// sources and must not be relied on.
	Unknown string
}

// ColumnLineage computes the lineage of a bound plan's output columns:
//   - a computed value derives from every column its expression reads,
//     conditions included (upper(a), a || b, CASE);
//   - an aggregate derives from everything it reads (argument, delimiter,
//     FILTER, ORDER BY), a window function also from its PARTITION BY
//     and ORDER BY;
//   - a subquery in an expression adds what its output columns derive
//     from, and a correlated one what the outer columns it reads do;
//   - filters, sorts, limits, joins and Gather pass their inputs' columns
//     through; set operations union their inputs by position; a
//     recursive query's columns take the union of its anchor and of
//     every round of its recursive term;
//   - a column a masking projection (gate two) replaces by its mask still
//     derives from the stored column, whatever the mask reads.
//
// A view was expanded by the binder, so its base scans are in the plan.
// A node or expression the analysis does not know sets Unknown, and the
// analysis goes on through the node's inputs to find the tables scanned.
func ColumnLineage(root Node) *Lineage {
	w := &lineageWalk{cols: map[ColumnID]sourceSet{}, work: map[*WorkTable][]sourceSet{}, scanned: map[Table]int{}}
	w.node(root)
	out := &Lineage{Tables: w.tables, Unknown: w.unknown}
	for _, c := range root.Columns() {
		srcs := make([]ColumnSource, 0, len(w.cols[c.ID]))
		for s := range w.cols[c.ID] {
			srcs = append(srcs, s)
		}
		slices.SortFunc(srcs, func(a, b ColumnSource) int {
			return cmp.Or(cmp.Compare(w.scanned[a.Table], w.scanned[b.Table]), cmp.Compare(a.Column, b.Column))
		})
		out.Columns = append(out.Columns, srcs)
	}
	return out
}

// sourceSet is a set of stored columns.
type sourceSet map[ColumnSource]bool

func (s sourceSet) addAll(from sourceSet) {
	for c := range from {
		s[c] = true
	}
}

// lineageWalk visits a plan inputs first, recording what every column it
// produces derives from. Column IDs are unique within a plan, subqueries
// included, so one map serves the whole plan and a correlated subquery
// finds its outer columns in it.
type lineageWalk struct {
	cols map[ColumnID]sourceSet
	// work holds, for the work table of each recursive query being
	// walked, what its columns derive from so far.
	work map[*WorkTable][]sourceSet
	// tables are the scanned tables; scanned gives each one's index.
	tables  []Table
	scanned map[Table]int
	unknown string
}

func (w *lineageWalk) markUnknown(format string, args ...any) {
	if w.unknown == "" {
		w.unknown = fmt.Sprintf(format, args...)
	}
}

// add records that column id derives from srcs (and from what it was
// already recorded to derive from: sets only grow).
func (w *lineageWalk) add(id ColumnID, srcs sourceSet) {
	set, ok := w.cols[id]
	if !ok {
		set = sourceSet{}
		w.cols[id] = set
	}
	set.addAll(srcs)
}

// of is what column id derives from. A column no node walked so far
// produced cannot be traced, which is unknown rather than sourceless.
func (w *lineageWalk) of(id ColumnID) sourceSet {
	set, ok := w.cols[id]
	if !ok {
		w.markUnknown("column #%d read where no node produces it", id)
	}
	return set
}

func (w *lineageWalk) node(n Node) {
	switch x := n.(type) {
	case *Scan:
		w.scan(x)
	case OneRow:
	case *Filter:
		w.node(x.Input)
		w.exprs(x.Pred)
	case *Project:
		w.node(x.Input)
		w.project(x)
	case *Aggregate:
		w.node(x.Input)
		w.aggregate(x)
	case *Sort:
		w.node(x.Input)
		w.sortKeys(x.Keys)
	case *Sample:
		w.node(x.Input)
		w.exprs(x.Percent, x.Seed)
	case *Limit:
		w.node(x.Input)
		w.exprs(x.CountExpr, x.OffsetExpr)
		w.sortKeys(x.TieKeys)
	case *Join:
		w.node(x.Left)
		w.node(x.Right)
		w.exprs(x.On)
	case *Lateral:
		w.node(x.Left)
		w.node(x.Right)
	case *Gather:
		w.node(x.Input)
	case *Remote:
		w.node(x.Input)
	case *RowCount:
		w.node(x.Input)
	case *Append:
		for _, in := range x.Ins {
			w.node(in)
		}
		w.byPosition(x.Cols, x.Ins...)
	case *SetOp:
		w.node(x.Left)
		w.node(x.Right)
		w.byPosition(x.Cols, x.Left, x.Right)
	case *Values:
		w.values(x)
	case *ProjectSet:
		w.node(x.Input)
		for _, f := range x.Funcs {
			w.add(f.Out.ID, w.exprs(f.Args...))
		}
	case *Window:
		w.node(x.Input)
		w.window(x)
	case *WorkTable:
		w.workTable(x)
	case *RecursiveUnion:
		w.recursiveUnion(x)
	case *CTE:
		// The references in Input read what Def's columns derive from.
		w.node(x.Def)
		w.node(x.Input)
	case *CTEScan:
		for i, c := range x.Cols {
			w.add(c.ID, w.of(x.Source[i]))
		}
	default:
		w.markUnknown("plan node %T", n)
		for _, in := range n.Inputs() {
			w.node(in)
		}
	}
}

func (w *lineageWalk) scan(s *Scan) {
	if _, ok := w.scanned[s.Table]; !ok {
		w.scanned[s.Table] = len(w.tables)
		w.tables = append(w.tables, s.Table)
	}
	if len(s.TableColumns) != len(s.Cols) {
		w.markUnknown("scan of %s reading %d columns into %d", s.Table.QualifiedName().label(), len(s.TableColumns), len(s.Cols))
		return
	}
	for i, c := range s.Cols {
		w.add(c.ID, sourceSet{{Table: s.Table, Column: s.TableColumns[i]}: true})
	}
}

func (w *lineageWalk) project(p *Project) {
	if len(p.Exprs) != len(p.Cols) {
		w.markUnknown("projection of %d expressions into %d columns", len(p.Exprs), len(p.Cols))
		return
	}
	in := p.Input.Columns()
	for i, e := range p.Exprs {
		srcs := w.exprs(e)
		if _, passed := e.(*ColRef); p.Masking && !passed {
			srcs.addAll(w.maskedColumn(p.Cols[i].Name, in))
		}
		w.add(p.Cols[i].ID, srcs)
	}
}

// maskedColumn is what the stored column a mask replaces derives from:
// the masking projection's input column of the same name (its input is
// one table's scan, whose column names are distinct), or every input
// column when none has the name.
func (w *lineageWalk) maskedColumn(name string, in []Column) sourceSet {
	out := sourceSet{}
	for _, c := range in {
		if c.Name == name {
			out.addAll(w.of(c.ID))
			return out
		}
	}
	for _, c := range in {
		out.addAll(w.of(c.ID))
	}
	return out
}

func (w *lineageWalk) aggregate(a *Aggregate) {
	if len(a.Groups) != len(a.GroupCols) {
		w.markUnknown("aggregate of %d groups into %d columns", len(a.Groups), len(a.GroupCols))
		return
	}
	for i, g := range a.Groups {
		w.add(a.GroupCols[i].ID, w.exprs(g))
	}
	for _, ag := range a.Aggs {
		w.add(ag.Out.ID, w.exprs(ag.Exprs()...))
	}
	if a.Sets != nil {
		// Which grouping set a row belongs to reads no column.
		w.add(a.SetCol.ID, nil)
	}
}

func (w *lineageWalk) window(win *Window) {
	keys := w.exprs(win.PartitionBy...)
	keys.addAll(w.sortKeys(win.OrderBy))
	w.exprs(win.Frame.Start.Offset, win.Frame.End.Offset)
	for _, f := range win.Funcs {
		srcs := w.exprs(f.Args...)
		if f.Agg != nil {
			srcs.addAll(w.exprs(f.Agg.Exprs()...))
		}
		srcs.addAll(keys)
		w.add(f.Out.ID, srcs)
	}
}

func (w *lineageWalk) values(v *Values) {
	for _, c := range v.Cols {
		w.add(c.ID, nil)
	}
	for _, row := range v.Rows {
		if len(row) != len(v.Cols) {
			w.markUnknown("VALUES row of %d expressions for %d columns", len(row), len(v.Cols))
			return
		}
		for i, e := range row {
			w.add(v.Cols[i].ID, w.exprs(e))
		}
	}
}

// byPosition makes each of cols derive from the column at its position
// in every input.
func (w *lineageWalk) byPosition(cols []Column, ins ...Node) {
	for _, in := range ins {
		inCols := in.Columns()
		if len(inCols) != len(cols) {
			w.markUnknown("set operation input of %d columns for %d", len(inCols), len(cols))
			return
		}
		for i, c := range cols {
			w.add(c.ID, w.of(inCols[i].ID))
		}
	}
}

// recursiveUnion walks the recursive term again while its output adds
// sources to the work table's columns: a fixed point, reached because
// the sets only grow and the plan's sources are finite.
func (w *lineageWalk) recursiveUnion(r *RecursiveUnion) {
	w.node(r.Anchor)
	anchor := r.Anchor.Columns()
	if len(anchor) != len(r.Work.Cols) || len(r.Cols) != len(r.Work.Cols) {
		w.markUnknown("recursive query of %d columns over a work table of %d", len(anchor), len(r.Work.Cols))
		return
	}
	state := make([]sourceSet, len(anchor))
	for i, c := range anchor {
		state[i] = sourceSet{}
		state[i].addAll(w.of(c.ID))
	}
	w.work[r.Work] = state
	for grown := true; grown; {
		w.node(r.Recursive)
		rec := r.Recursive.Columns()
		if len(rec) != len(state) {
			w.markUnknown("recursive term of %d columns for %d", len(rec), len(state))
			return
		}
		grown = false
		for i, c := range rec {
			for s := range w.of(c.ID) {
				if !state[i][s] {
					state[i][s] = true
					grown = true
				}
			}
		}
	}
	for i, c := range r.Cols {
		w.add(c.ID, state[i])
	}
}

func (w *lineageWalk) workTable(t *WorkTable) {
	state, ok := w.work[t]
	if !ok || len(state) != len(t.Cols) {
		w.markUnknown("work table %s outside its recursive query", t.Name)
		state = make([]sourceSet, len(t.Cols))
	}
	for i, c := range t.Cols {
		w.add(c.ID, state[i])
	}
}

// sortKeys is what the keys' expressions derive from.
func (w *lineageWalk) sortKeys(keys []SortKey) sourceSet {
	out := sourceSet{}
	for _, k := range keys {
		w.expr(k.Expr, out)
	}
	return out
}

// exprs is what the expressions derive from; nil ones are skipped.
func (w *lineageWalk) exprs(es ...Expr) sourceSet {
	out := sourceSet{}
	for _, e := range es {
		if e != nil {
			w.expr(e, out)
		}
	}
	return out
}

// expr adds what e derives from to out.
func (w *lineageWalk) expr(e Expr, out sourceSet) {
	switch x := e.(type) {
	case *ColRef:
		out.addAll(w.of(x.ID))
	case *OuterRef:
		out.addAll(w.of(x.ID))
	case *Const, *Param:
	case *BinOp:
		w.expr(x.L, out)
		w.expr(x.R, out)
	case *Not:
		w.expr(x.Arg, out)
	case *Negate:
		w.expr(x.Arg, out)
	case *IsNull:
		w.expr(x.Arg, out)
	case *Cast:
		w.expr(x.Arg, out)
	case *Func:
		for _, a := range x.Args {
			w.expr(a, out)
		}
	case *Case:
		for _, wh := range x.Whens {
			w.expr(wh.Cond, out)
			w.expr(wh.Result, out)
		}
		if x.Else != nil {
			w.expr(x.Else, out)
		}
	case *ArrayExpr:
		for _, el := range x.Elems {
			w.expr(el, out)
		}
	case *ArrayCompare:
		w.expr(x.Left, out)
		w.expr(x.Array, out)
	case *Subquery:
		for _, a := range x.Args {
			w.expr(a, out)
		}
		w.node(x.Plan)
		for _, c := range x.Plan.Columns() {
			out.addAll(w.of(c.ID))
		}
	default:
		w.markUnknown("expression %T", e)
	}
}
