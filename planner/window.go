package planner

import (
	"fmt"
	"strings"
)

// FrameMode is how a window frame's bounds are measured.
type FrameMode uint8

const (
	// RangeFrame measures bounds in peer groups (rows equal on the ORDER
	// BY keys): CURRENT ROW means the current row's peers too.
	RangeFrame FrameMode = iota
	// RowsFrame measures bounds in physical rows.
	RowsFrame
	// GroupsFrame measures bounds in peer groups: n PRECEDING is n peer
	// groups before the current row's.
	GroupsFrame
)

// FrameExclusion is a frame's EXCLUDE clause: rows around the current
// one taken out of its frame.
type FrameExclusion uint8

const (
	// ExcludeNoOthers keeps the whole frame (the default).
	ExcludeNoOthers FrameExclusion = iota
	// ExcludeCurrentRow takes out the current row.
	ExcludeCurrentRow
	// ExcludeGroup takes out the current row and its peers.
	ExcludeGroup
	// ExcludeTies takes out the current row's peers but not the row.
	ExcludeTies
)

func (x FrameExclusion) String() string {
	return [...]string{"", " EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES"}[x]
}

func (m FrameMode) String() string {
	return [...]string{"RANGE", "ROWS", "GROUPS"}[m]
}

// BoundKind is one end of a window frame.
type BoundKind uint8

const (
	UnboundedPreceding BoundKind = iota
	OffsetPreceding
	CurrentRow
	OffsetFollowing
	UnboundedFollowing
)

// FrameBound is one end of a frame; Offset is set for the Offset kinds
// and is a constant bigint expression.
type FrameBound struct {
	Kind   BoundKind
	Offset Expr
}

// WindowFrame is the set of rows of a partition an aggregate or a
// frame-reading function (first_value...) sees for one row.
// PostgreSQL's default, RANGE UNBOUNDED PRECEDING to CURRENT ROW, is the
// whole partition when there is no ORDER BY, as every row is then a peer.
type WindowFrame struct {
	Mode       FrameMode
	Start, End FrameBound
	Exclude    FrameExclusion
}

func (f WindowFrame) String() string {
	bound := func(b FrameBound) string {
		switch b.Kind {
		case UnboundedPreceding:
			return "UNBOUNDED PRECEDING"
		case OffsetPreceding:
			return fmt.Sprintf("%s PRECEDING", b.Offset)
		case CurrentRow:
			return "CURRENT ROW"
		case OffsetFollowing:
			return fmt.Sprintf("%s FOLLOWING", b.Offset)
		}
		return "UNBOUNDED FOLLOWING"
	}
	return fmt.Sprintf("%s BETWEEN %s AND %s%s", f.Mode, bound(f.Start), bound(f.End), f.Exclude)
}

// WindowCall is one window function computed by a Window node; its
// result is the column Out.
type WindowCall struct {
	// Name is the function: a ranking or value function (row_number,
	// lag...) or, when Agg is set, an aggregate.
	Name string
	Args []Expr
	// Agg is the aggregate computed over the frame: its Arg (nil for
	// count(*)), Delim and Filter are read per row.
	Agg *AggCall
	Out Column
}

func (w *WindowCall) String() string {
	if w.Agg != nil {
		return w.Agg.String()
	}
	return fmt.Sprintf("%s(%s)", w.Name, joinExprs(w.Args))
}

// Window computes window functions sharing one window definition. Its
// output is the input's columns followed by the functions' Out columns;
// rows come out ordered by partition and then by OrderBy.
type Window struct {
	Input       Node
	PartitionBy []Expr
	OrderBy     []SortKey
	Frame       WindowFrame
	Funcs       []*WindowCall
}

func (w *Window) Columns() []Column {
	out := append([]Column(nil), w.Input.Columns()...)
	for _, f := range w.Funcs {
		out = append(out, f.Out)
	}
	return out
}
func (w *Window) Inputs() []Node { return []Node{w.Input} }

// definition identifies the window: calls with the same definition share
// a node.
func (w *Window) definition() string {
	keys := make([]string, len(w.OrderBy))
	for i, k := range w.OrderBy {
		keys[i] = fmt.Sprintf("%s desc=%v nullsfirst=%v", k.Expr, k.Desc, k.NullsFirst)
	}
	return fmt.Sprintf("partition=[%s] order=[%s] frame=%s", joinExprs(w.PartitionBy), strings.Join(keys, ", "), w.Frame)
}

func (w *Window) explain() string {
	calls := make([]string, len(w.Funcs))
	for i, f := range w.Funcs {
		calls[i] = f.String()
	}
	return fmt.Sprintf("Window %s funcs=[%s]", w.definition(), strings.Join(calls, ", "))
}

// windowColumns adds the IDs of the columns w's keys and arguments read
// to set.
func windowColumns(w *Window, set map[ColumnID]bool) {
	for _, e := range w.PartitionBy {
		ExprColumns(e, set)
	}
	for _, k := range w.OrderBy {
		ExprColumns(k.Expr, set)
	}
	for _, f := range w.Funcs {
		for _, a := range f.Args {
			ExprColumns(a, set)
		}
		if f.Agg != nil {
			for _, e := range f.Agg.Exprs() {
				ExprColumns(e, set)
			}
		}
	}
}
