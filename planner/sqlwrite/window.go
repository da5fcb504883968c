package sqlwrite

import (
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// A window node is written as one SELECT of its input's columns and its
// functions, each f(...) OVER (PARTITION BY ... ORDER BY ... frame). Its
// input's rows are visible ones only (the secured relations below keep
// them), so every function reads the rows SQE's window reads; its
// arguments, keys and frame-reading expressions are guarded as any
// expression is, and the visibility columns pass up, since the rows pass
// up. The ORDER BY keys are written as a sort's are (NULLS FIRST or LAST
// spelled out, text by code point), so peers and frames are the same
// rows. Ranking and row_number over rows equal on the ORDER BY keys are
// as free to number them in any order in the other engine as in SQE.

// frameIgnoring are the window functions that read the partition's rows
// in order and not the frame: Trino refuses a frame clause for them, so
// it is written only where it is the default.
var frameIgnoring = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true,
	"cume_dist": true, "ntile": true, "lag": true, "lead": true,
}

func (w *writer) window(x *planner.Window, top bool) (*rel, error) {
	if err := w.checkTypes(x.Columns()); err != nil {
		return nil, err
	}
	in, a, s, err := w.from(x.Input)
	if err != nil {
		return nil, err
	}
	var def []string
	if len(x.PartitionBy) > 0 {
		parts := make([]string, len(x.PartitionBy))
		for i, e := range x.PartitionBy {
			if parts[i], err = w.guarded(e, s); err != nil {
				return nil, err
			}
		}
		def = append(def, "PARTITION BY "+strings.Join(parts, ", "))
	}
	ob, err := w.orderBy(x.OrderBy, s)
	if err != nil {
		return nil, err
	}
	if ob != "" {
		def = append(def, strings.TrimPrefix(ob, " "))
	}
	frame, err := w.frame(x)
	if err != nil {
		return nil, err
	}
	if frame != "" {
		def = append(def, frame)
	}
	over := " OVER (" + strings.Join(def, " ") + ")"
	items := make([]string, 0, len(x.Columns()))
	for _, c := range in.cols {
		items = append(items, s.cols[c.ID])
	}
	for _, f := range x.Funcs {
		call, err := w.windowCall(f, x, s)
		if err != nil {
			return nil, err
		}
		items = append(items, call+over)
	}
	list, vis := selectList(items, x.Columns(), in.vis, a, top)
	return &rel{sql: list + " FROM (" + in.sql + ") AS " + a, cols: x.Columns(), vis: vis}, nil
}

// isDefaultFrame reports the frame an OVER clause without one has.
func isDefaultFrame(f planner.WindowFrame) bool {
	return f.Mode == planner.RangeFrame && f.Start.Kind == planner.UnboundedPreceding &&
		f.End.Kind == planner.CurrentRow && f.Exclude == planner.ExcludeNoOthers
}

// frame writes x's frame clause, or nothing for the default one.
func (w *writer) frame(x *planner.Window) (string, error) {
	f := x.Frame
	if isDefaultFrame(f) {
		return "", nil
	}
	if w.d == Trino {
		for _, fn := range x.Funcs {
			if frameIgnoring[fn.Name] {
				return "", pgerror.Unsupported("window function %s with a frame clause cannot be written as SQL for %s", fn.Name, w.d)
			}
		}
		// Trino has neither EXCLUDE nor SQE's GROUPS and RANGE offsets
		// as known to match.
		if f.Exclude != planner.ExcludeNoOthers {
			return "", pgerror.Unsupported("a window frame with EXCLUDE cannot be written as SQL for %s", w.d)
		}
		if f.Mode == planner.GroupsFrame {
			return "", pgerror.Unsupported("a GROUPS window frame cannot be written as SQL for %s", w.d)
		}
	}
	var bounds [2]string
	for i, b := range []planner.FrameBound{f.Start, f.End} {
		switch b.Kind {
		case planner.UnboundedPreceding:
			bounds[i] = "UNBOUNDED PRECEDING"
		case planner.CurrentRow:
			bounds[i] = "CURRENT ROW"
		case planner.UnboundedFollowing:
			bounds[i] = "UNBOUNDED FOLLOWING"
		case planner.OffsetPreceding, planner.OffsetFollowing:
			off, err := w.frameOffset(f.Mode, b.Offset, x)
			if err != nil {
				return "", err
			}
			if b.Kind == planner.OffsetPreceding {
				bounds[i] = off + " PRECEDING"
			} else {
				bounds[i] = off + " FOLLOWING"
			}
		default:
			return "", pgerror.Unsupported("a window frame bound cannot be written as SQL")
		}
	}
	return f.Mode.String() + " BETWEEN " + bounds[0] + " AND " + bounds[1] + f.Exclude.String(), nil
}

// frameOffset writes a frame offset: a constant integer that is neither
// NULL nor negative (both an error here and there, with other words), and
// for RANGE an integer ORDER BY key, in PostgreSQL only.
func (w *writer) frameOffset(mode planner.FrameMode, e planner.Expr, x *planner.Window) (string, error) {
	if mode == planner.RangeFrame {
		if w.d == Trino {
			return "", pgerror.Unsupported("a RANGE window frame with an offset cannot be written as SQL for %s", w.d)
		}
		if len(x.OrderBy) == 1 && e.Type().OID == types.OIDInterval && w.intervalRangeKey(x.OrderBy[0].Expr.Type()) {
			// A constant interval, neither NULL nor negative, over a date
			// or timestamp key: PostgreSQL measures it as SQE does.
			v, ok := constantOf(e)
			iv, isInterval := v.(types.IntervalValue)
			if !ok || !isInterval || iv.Months < 0 || iv.Days < 0 || iv.Micros < 0 {
				return "", pgerror.Unsupported("a RANGE window frame offset that is not a constant interval of at least zero cannot be written as SQL")
			}
			return "CAST('" + string(types.AppendInterval(nil, iv)) + "' AS interval)", nil
		}
		if len(x.OrderBy) != 1 || !isInt(x.OrderBy[0].Expr.Type()) {
			return "", pgerror.Unsupported("a RANGE window frame with an offset over a key that is not an integer, date or timestamp cannot be written as SQL")
		}
	}
	v, ok := constantOf(e)
	n, integer := v.(int64)
	if !ok || !integer || n < 0 || !isInt(e.Type()) {
		return "", pgerror.Unsupported("a window frame offset that is not a constant integer of at least zero cannot be written as SQL")
	}
	lit := strconv.FormatInt(n, 10)
	if w.d == PostgreSQL {
		// A bigint, so that PostgreSQL measures a RANGE over any integer
		// key with it as SQE does.
		lit = "CAST(" + lit + " AS bigint)"
	}
	return lit, nil
}

// intervalRangeKey reports whether a RANGE frame over a key of type t may
// take an interval offset: a date or a timestamp, and a timestamp with
// time zone when the engine runs in the caller's zone (a day's length
// depends on it).
func (w *writer) intervalRangeKey(t types.T) bool {
	switch t.OID {
	case types.OIDDate, types.OIDTimestamp:
		return true
	case types.OIDTimestampTZ:
		return w.sessionZone
	}
	return false
}

// windowCall writes one window function, without its OVER clause.
func (w *writer) windowCall(f *planner.WindowCall, x *planner.Window, s *scope) (string, error) {
	if f.Agg != nil {
		if f.Agg.Filter != nil && w.d == Trino {
			return "", pgerror.Unsupported("a window aggregate with FILTER cannot be written as SQL for %s", w.d)
		}
		if f.Agg.Distinct {
			return "", pgerror.Unsupported("a window aggregate over DISTINCT values cannot be written as SQL")
		}
		return w.aggCall(f.Agg, s)
	}
	exact := false
	switch f.Name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "first_value", "last_value":
		exact = true
	case "ntile", "nth_value":
		// Trino's ntile is a bigint, and its handling of a count below
		// one is not known to match.
		exact = w.d == PostgreSQL
	case "lag", "lead":
		// Trino takes only a constant offset of at least zero, where
		// PostgreSQL and SQE read a negative one the other way; without
		// an ORDER BY it is not known to take the rows in their order.
		exact = w.d == PostgreSQL
		if w.d == Trino && len(x.OrderBy) > 0 {
			exact = true
			if len(f.Args) > 1 {
				v, ok := constantOf(f.Args[1])
				n, integer := v.(int64)
				exact = ok && integer && n >= 0
			}
		}
	}
	if !exact {
		return "", pgerror.Unsupported("window function %s cannot be written as SQL for %s", f.Name, w.d)
	}
	args := make([]string, len(f.Args))
	for i, a := range f.Args {
		var err error
		if args[i], err = w.guarded(a, s); err != nil {
			return "", err
		}
	}
	return f.Name + "(" + strings.Join(args, ", ") + ")", nil
}
