package planner

import (
	"fmt"
	"strings"
)

// Node is a logical plan operator.
type Node interface {
	// Columns is the node's output, in batch order.
	Columns() []Column
	// Inputs are the node's children.
	Inputs() []Node
}

// Scan reads columns of a table.
type Scan struct {
	Table Table
	// TableColumns are the indices (into Table.Columns) read, matching
	// Cols one for one.
	TableColumns []int
	Cols         []Column
	// Pushed are the leakproof conjuncts of the filters above (and the
	// barrier's own predicate) that Iceberg can evaluate, to prune files
	// and row groups (PushedFilter); the filters stay in the plan.
	Pushed []Expr
	// Guard is set on the scan of a table under the caller's row filters
	// or masks: what the binder put above it (secureRelation), for
	// CheckPlan to find there. Nil when no policy applies.
	Guard *Guard
	// Unread marks, one for one with Cols, the columns that only a proven
	// row filter names: the scan returns them as NULLs without reading
	// them. Nil when every column is read. EXPLAIN shows them as read, so
	// a plan does not tell whether the filter was proven (which would say
	// whether the table holds rows it hides).
	Unread []bool
}

func (s *Scan) Columns() []Column { return s.Cols }
func (s *Scan) Inputs() []Node    { return nil }

// RowFiltered reports a scan under the caller's row filter: how many rows
// the table holds, hidden ones included, is not the caller's to see, so
// EXPLAIN neither estimates from the table's row count nor reports the
// rows the scan read.
func (s *Scan) RowFiltered() bool { return s.Guard != nil && s.Guard.Policy != nil }

// Filter keeps the rows for which Pred is true.
type Filter struct {
	Input Node
	Pred  Expr
	// Barrier marks a row filter from a policy: predicates from above may
	// move below it only if they are leakproof.
	Barrier bool
	// Proven marks a barrier whose table proved from file statistics that
	// it admits every row of this snapshot (RowFilterProver): it passes
	// rows through unevaluated and its columns are not read (Scan.Unread).
	// EXPLAIN does not show it.
	Proven bool
}

func (f *Filter) Columns() []Column { return f.Input.Columns() }
func (f *Filter) Inputs() []Node    { return []Node{f.Input} }

// Project computes Exprs, producing Cols.
type Project struct {
	Input Node
	Exprs []Expr
	Cols  []Column
	// Masking marks the projection that applies column masks: predicates
	// on its masked outputs may not move below it.
	Masking bool
}

func (p *Project) Columns() []Column { return p.Cols }
func (p *Project) Inputs() []Node    { return []Node{p.Input} }

// Aggregate groups its input by Groups and computes Aggs per group. Its
// output is GroupCols followed by the aggregates' Out columns.
type Aggregate struct {
	Input     Node
	Groups    []Expr
	GroupCols []Column
	Aggs      []*AggCall
	// Sets are the grouping sets of GROUP BY GROUPING SETS / ROLLUP /
	// CUBE, each the indexes of the Groups it groups by; nil for a plain
	// GROUP BY. A row of a set has NULL for the keys the set leaves out,
	// and SetCol, an integer column after the aggregates, says which set
	// (its index) the row belongs to.
	Sets   [][]int
	SetCol Column
}

func (a *Aggregate) Columns() []Column {
	out := append([]Column(nil), a.GroupCols...)
	for _, ag := range a.Aggs {
		out = append(out, ag.Out)
	}
	if a.Sets != nil {
		out = append(out, a.SetCol)
	}
	return out
}
func (a *Aggregate) Inputs() []Node { return []Node{a.Input} }

// RowCount is Input, an ungrouped aggregate of row counts (count(*),
// count(1)) over a whole table, answered from the record counts its data
// files' manifest entries keep (RowCounter), without reading a row. The
// table may be masked, and row-filtered by a filter its files proved
// true for every row (Filter.Proven). Input is kept whole: CheckPlan
// checks its gates as those of any plan, and it runs instead when the
// files cannot count exactly (delete files another engine wrote).
//
// Under a row filter, EXPLAIN shows Input in its place, as the plan of an
// unproven filter is shown, so that a plan does not tell whether the
// filter was proven, which would say whether the table holds rows hidden
// from the caller.
type RowCount struct {
	Input Node
}

func (r *RowCount) Columns() []Column { return r.Input.Columns() }
func (r *RowCount) Inputs() []Node    { return []Node{r.Input} }

// SortKey is one ORDER BY key.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// Sort orders its input.
type Sort struct {
	Input Node
	Keys  []SortKey
}

func (s *Sort) Columns() []Column { return s.Input.Columns() }
func (s *Sort) Inputs() []Node    { return []Node{s.Input} }

// Limit skips Offset rows then passes at most Count (all when Count < 0).
type Limit struct {
	Input  Node
	Count  int64
	Offset int64
	// CountExpr and OffsetExpr, when set, are constant expressions (1 + 1,
	// a scalar subquery) computed when the plan runs; they replace Count
	// and Offset, NULL meaning no limit and no offset.
	CountExpr, OffsetExpr Expr
	// WithTies (FETCH FIRST n ROWS WITH TIES) also passes the rows after
	// the last counted one that are equal to it in TieKeys, the ORDER BY
	// of the sorted input.
	WithTies bool
	TieKeys  []SortKey
}

func (l *Limit) Columns() []Column { return l.Input.Columns() }
func (l *Limit) Inputs() []Node    { return []Node{l.Input} }

// OneRow produces a single row with no columns (SELECT without FROM).
type OneRow struct{}

func (OneRow) Columns() []Column { return nil }
func (OneRow) Inputs() []Node    { return nil }

// Explain renders a plan as an indented tree.
func Explain(n Node) string {
	var b strings.Builder
	explain(&b, n, 0, nil)
	return b.String()
}

// explain writes n's line, followed by note(n) when note is set, then its
// inputs' lines one level deeper.
func explain(b *strings.Builder, n Node, depth int, note func(Node) string) {
	switch x := n.(type) {
	case *RowCount:
		if x.RowFiltered() {
			explain(b, x.Input, depth, note)
			return
		}
	case *CTE:
		explainCTEs(b, x, depth, note)
		return
	}
	explainLine(b, n, depth, note)
	for _, in := range n.Inputs() {
		explain(b, in, depth+1, note)
	}
}

// explainLine writes n's own line, followed by note(n) when note is set.
func explainLine(b *strings.Builder, n Node, depth int, note func(Node) string) {
	b.WriteString(strings.Repeat("  ", depth))
	switch x := n.(type) {
	case *RowCount:
		fmt.Fprintf(b, "RowCount %s from file record counts", x.table().QualifiedName().label())
	case *Scan:
		fmt.Fprintf(b, "Scan %s cols=%v", x.Table.QualifiedName().label(), colNames(x.Cols))
		if v, ok := x.Table.(PastTable); ok && v.PastVersion() != "" {
			fmt.Fprintf(b, " %s", v.PastVersion())
		}
		if pushed := x.PushedFilter(); pushed != nil {
			fmt.Fprintf(b, " pushed=%s", pushed)
		}
	case *Filter:
		kind := "Filter"
		if x.Barrier {
			kind = "BarrierFilter"
		}
		fmt.Fprintf(b, "%s %s", kind, x.Pred)

	case *Project:
		fmt.Fprintf(b, "Project %s", joinExprs(x.Exprs))
	case *Aggregate:
		aggs := make([]string, len(x.Aggs))
		for i, a := range x.Aggs {
			aggs[i] = a.String()
		}
		fmt.Fprintf(b, "Aggregate groups=[%s] aggs=[%s]", joinExprs(x.Groups), strings.Join(aggs, ", "))
		if x.Sets != nil {
			fmt.Fprintf(b, " sets=%v", x.Sets)
		}
	case *Sort:
		keys := make([]string, len(x.Keys))
		for i, k := range x.Keys {
			keys[i] = k.Expr.String()
			if k.Desc {
				keys[i] += " DESC"
			}
		}
		fmt.Fprintf(b, "Sort %s", strings.Join(keys, ", "))
	case *Sample:
		b.WriteString(x.describe())
	case *Limit:
		count, offset := fmt.Sprint(x.Count), fmt.Sprint(x.Offset)
		if x.CountExpr != nil {
			count = x.CountExpr.String()
		}
		if x.OffsetExpr != nil {
			offset = x.OffsetExpr.String()
		}
		fmt.Fprintf(b, "Limit count=%s offset=%s", count, offset)
		if x.WithTies {
			b.WriteString(" with ties")
		}
	case OneRow:
		b.WriteString("OneRow")
	case *Append:
		b.WriteString("Append")
	case *RecursiveUnion:
		fmt.Fprintf(b, "RecursiveUnion %s all=%v", x.Work.Name, x.All)
	case *WorkTable:
		fmt.Fprintf(b, "WorkTable %s", x.Name)
	case *ProjectSet:
		names := make([]string, len(x.Funcs))
		for i, f := range x.Funcs {
			names[i] = fmt.Sprintf("%s(%s)", f.Name, joinExprs(f.Args))
		}
		fmt.Fprintf(b, "ProjectSet %s", strings.Join(names, ", "))
	case *SetOp:
		kind := [...]string{"Intersect", "Except"}[x.Kind]
		if x.All {
			kind += " All"
		}
		b.WriteString(kind)
	case *Values:
		fmt.Fprintf(b, "Values rows=%d", len(x.Rows))
	case *Window:
		b.WriteString(x.explain())
	case *Lateral:
		b.WriteString(x.explain())
	case *Gather:
		b.WriteString(x.explain())
	case *Remote:
		fmt.Fprintf(b, "Remote on %s (%s dialect): %s", x.Engine, x.Dialect, x.Reason)
		if x.ShowSQL {
			fmt.Fprintf(b, "\n%s  SQL: %s", strings.Repeat("  ", depth), x.SQL)
		}
	case *CTEScan:
		b.WriteString(x.explain())
	case *Join:
		fmt.Fprintf(b, "%sJoin", x.Kind)
		if x.HashLeft {
			b.WriteString(" (hash left)")
		}
		if x.On != nil {
			fmt.Fprintf(b, " on %s", x.On)
		}
	default:
		fmt.Fprintf(b, "%T", n)
	}
	if note != nil {
		b.WriteString(note(n))
	}
	b.WriteByte('\n')
}

func colNames(cols []Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// JoinKind is the kind of a join.
type JoinKind uint8

const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
	// SemiJoin keeps each left row for which some right row satisfies On,
	// once however many do (EXISTS, IN).
	SemiJoin
	// AntiJoin keeps each left row for which no right row satisfies On
	// (NOT EXISTS, and NOT IN with its NULL rules written into On).
	AntiJoin
)

func (k JoinKind) String() string {
	return [...]string{"Inner", "Left", "Right", "Full", "Semi", "Anti"}[k]
}

// Existence reports a semi or anti join, which tests right rows for
// existence and returns left rows only.
func (k JoinKind) Existence() bool { return k == SemiJoin || k == AntiJoin }

// Join combines Left and Right rows for which On holds (all pairs when On
// is nil). Its output is Left's columns followed by Right's; an outer
// join fills the missing side with NULLs. A semi or anti join outputs
// Left's columns only, On being evaluated over the pairs.
type Join struct {
	Left, Right Node
	Kind        JoinKind
	On          Expr
	// HashLeft, on a semi or anti join with a hash key, hashes the left
	// input and streams the right one through it, marking the left rows
	// that have a match; then it emits those (or the others). It changes
	// how the join runs, not what it returns: the rule that sets it
	// (hashSmallerExistenceSide) does so when the left input is
	// estimated smaller, and a rule that drops it leaves a correct plan.
	HashLeft bool
}

func (j *Join) Columns() []Column {
	out := append([]Column(nil), j.Left.Columns()...)
	if j.Kind.Existence() {
		return out
	}
	return append(out, j.Right.Columns()...)
}
func (j *Join) Inputs() []Node { return []Node{j.Left, j.Right} }

// Append concatenates its inputs' rows (UNION ALL). Every input has the
// output's column types; Cols are the output columns.
type Append struct {
	Ins  []Node
	Cols []Column
}

func (a *Append) Columns() []Column { return a.Cols }
func (a *Append) Inputs() []Node    { return a.Ins }

// SetOpKind is INTERSECT or EXCEPT.
type SetOpKind uint8

const (
	Intersect SetOpKind = iota
	Except
)

// SetOp computes INTERSECT or EXCEPT of two inputs of the same column
// types, as multisets when All, else as sets.
type SetOp struct {
	Kind        SetOpKind
	All         bool
	Left, Right Node
	Cols        []Column
}

func (s *SetOp) Columns() []Column { return s.Cols }
func (s *SetOp) Inputs() []Node    { return []Node{s.Left, s.Right} }

// Values produces rows of expressions that read no column (VALUES).
type Values struct {
	Rows [][]Expr
	Cols []Column
}

func (v *Values) Columns() []Column { return v.Cols }
func (v *Values) Inputs() []Node    { return nil }

// SRFCall is one set-returning function call (unnest, generate_series,
// generate_subscripts) of a ProjectSet.
type SRFCall struct {
	Name string
	Args []Expr
	Out  Column
}

// ProjectSet evaluates set-returning functions per input row: each row
// yields as many rows as its longest function result, the shorter ones
// padded with NULLs, as PostgreSQL does in a select list. Its output is
// the input's columns followed by the functions' Out columns.
type ProjectSet struct {
	Input Node
	Funcs []*SRFCall
}

func (p *ProjectSet) Columns() []Column {
	out := append([]Column(nil), p.Input.Columns()...)
	for _, f := range p.Funcs {
		out = append(out, f.Out)
	}
	return out
}
func (p *ProjectSet) Inputs() []Node { return []Node{p.Input} }

// WorkTable is rows handed to the plan as it runs: inside the recursive
// term of WITH RECURSIVE, the rows the previous iteration produced; in a
// DELETE, UPDATE or MERGE, the target's candidate rows, or the changed
// rows RETURNING reads.
type WorkTable struct {
	Name string
	Cols []Column
	// Guard is set on the work table holding a DML target's rows when
	// the caller's row filters or masks apply to them, as on a Scan.
	Guard *Guard
}

func (w *WorkTable) Columns() []Column { return w.Cols }
func (w *WorkTable) Inputs() []Node    { return nil }

// RecursiveUnion evaluates WITH RECURSIVE: Anchor's rows, then Recursive
// run again and again over the rows the previous round produced (its
// WorkTable) until a round produces none. Without All, rows already
// produced are dropped, as UNION does.
type RecursiveUnion struct {
	Anchor, Recursive Node
	Work              *WorkTable
	All               bool
	Cols              []Column
}

func (r *RecursiveUnion) Columns() []Column { return r.Cols }
func (r *RecursiveUnion) Inputs() []Node    { return []Node{r.Anchor, r.Recursive} }
