package sqlwrite

import (
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// Set operations (UNION ALL, and INTERSECT / EXCEPT with or without ALL;
// UNION is a GROUP BY over a UNION ALL) compare or concatenate whole
// rows, so a row a policy hides must be gone before the operation: no
// node above can guard a comparison the operation itself makes. Each
// input is written as a branch that outputs the set operation's columns
// and keeps, in its WHERE, only the rows whose visibility columns hold
// (the secured relations below have already dropped them; the WHERE
// states the guarantee where the operation needs it). The comparisons a
// set operation makes (equality of whole rows, NULLs equal) cannot raise
// an error.
//
// The other engine may still move a predicate from above the operation
// into its branches, below a secured relation's WHERE. So when any input
// carries visibility columns, every branch also outputs their AND as one
// visibility column (TRUE for an input without any), which the nodes
// above guard their expressions with as with any other. It holds on
// every row a branch returns, so it changes neither which rows INTERSECT
// or EXCEPT match nor how many.

// setBranch writes in as a branch of a set operation: its columns renamed
// to out's, its visible rows only, and (when vis is not empty) the AND of
// its visibility columns named vis.
func (w *writer) setBranch(in *rel, out []planner.Column, vis string) (string, error) {
	if len(in.cols) != len(out) {
		return "", pgerror.Unsupported("a set operation over inputs of other widths cannot be written as SQL")
	}
	if err := w.checkTypes(in.cols); err != nil {
		return "", err
	}
	a := w.alias()
	s := &scope{}
	s.from(in, a)
	items := make([]string, len(out))
	for i, c := range in.cols {
		if c.Type.OID != out[i].Type.OID {
			return "", pgerror.Unsupported("a set operation over columns of types %s and %s cannot be written as SQL", c.Type.Name(), out[i].Type.Name())
		}
		items[i] = s.cols[c.ID]
	}
	list, _ := selectList(items, out, nil, "", true)
	visible := "TRUE"
	if len(s.vis) > 0 {
		visible = strings.Join(s.vis, " AND ")
	}
	if vis != "" {
		list += ", " + visible + " AS " + vis
	}
	sql := list + " FROM (" + in.sql + ") AS " + a
	if len(s.vis) > 0 {
		sql += " WHERE " + visible
	}
	return sql, nil
}

// setOperation writes ins combined by op (UNION ALL, INTERSECT ALL...)
// with cols as its columns.
func (w *writer) setOperation(op string, nodes []planner.Node, cols []planner.Column, top bool) (*rel, error) {
	if err := w.checkTypes(cols); err != nil {
		return nil, err
	}
	ins := make([]*rel, len(nodes))
	carried := false
	for i, n := range nodes {
		in, err := w.node(n, false)
		if err != nil {
			return nil, err
		}
		ins[i] = in
		carried = carried || len(in.vis) > 0
	}
	var vis []visibility
	name := ""
	if carried && !top {
		w.visible++
		name = "__sqe_visible_" + strconv.Itoa(w.visible)
		vis = []visibility{{name: name}}
	}
	branches := make([]string, len(ins))
	for i, in := range ins {
		b, err := w.setBranch(in, cols, name)
		if err != nil {
			return nil, err
		}
		branches[i] = b
	}
	return &rel{sql: strings.Join(branches, " "+op+" "), cols: cols, vis: vis}, nil
}

func (w *writer) appendRows(x *planner.Append, top bool) (*rel, error) {
	if len(x.Ins) == 0 {
		return nil, pgerror.Unsupported("a UNION ALL without inputs cannot be written as SQL")
	}
	return w.setOperation("UNION ALL", x.Ins, x.Cols, top)
}

func (w *writer) setOp(x *planner.SetOp, top bool) (*rel, error) {
	if w.d == Trino {
		// SQE and PostgreSQL match 0 with -0 and NaN with NaN when they
		// compare rows; that Trino does so is not established.
		for _, c := range x.Cols {
			if c.Type.OID == types.OIDFloat4 || c.Type.OID == types.OIDFloat8 {
				return nil, pgerror.Unsupported("INTERSECT or EXCEPT over %s cannot be written as SQL for %s", c.Type.Name(), w.d)
			}
		}
	}
	op := "INTERSECT"
	if x.Kind == planner.Except {
		op = "EXCEPT"
	}
	if x.All {
		op += " ALL"
	} else {
		op += " DISTINCT"
	}
	return w.setOperation(op, []planner.Node{x.Left, x.Right}, x.Cols, top)
}
