package sqlwrite

import (
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// A recursive union (WITH RECURSIVE) is written for PostgreSQL, whose
// rounds and UNION's duplicate removal are SQE's, as a WITH RECURSIVE
// query named r<n>. Its two branches keep only their visible rows, as a
// set operation's do (setBranch): a row carried to the next round is
// compared and read again, so it must be one the caller may see. Its
// rows carry no visibility column. The work table the recursive branch
// reads is the query itself. Trino's recursion is bounded by a session
// property, so it is not written for Trino.

// workTable is what a recursive union's work table is written as.
type workTable struct {
	name string
	cols []planner.Column
}

func (w *writer) recursiveUnion(x *planner.RecursiveUnion, top bool) (*rel, error) {
	if w.d != PostgreSQL {
		return nil, pgerror.Unsupported("a recursive WITH query cannot be written as SQL for %s", w.d)
	}
	if err := w.checkTypes(x.Cols); err != nil {
		return nil, err
	}
	w.aliases++
	name := "r" + strconv.Itoa(w.aliases)
	anchor, err := w.node(x.Anchor, false)
	if err != nil {
		return nil, err
	}
	first, err := w.setBranch(anchor, x.Cols, "")
	if err != nil {
		return nil, err
	}
	if w.works == nil {
		w.works = map[*planner.WorkTable]workTable{}
	}
	w.works[x.Work] = workTable{name: name, cols: x.Cols}
	recursive, err := w.node(x.Recursive, false)
	if err != nil {
		return nil, err
	}
	next, err := w.setBranch(recursive, x.Cols, "")
	if err != nil {
		return nil, err
	}
	op := " UNION "
	if x.All {
		op = " UNION ALL "
	}
	names := make([]string, len(x.Cols))
	refs := make([]string, len(x.Cols))
	for i, c := range x.Cols {
		names[i] = colName(c.ID)
		refs[i] = name + "." + names[i]
	}
	list, _ := selectList(refs, x.Cols, nil, name, true)
	sql := "WITH RECURSIVE " + name + "(" + strings.Join(names, ", ") + ") AS (" + first + op + next + ") " + list + " FROM " + name
	return &rel{sql: sql, cols: x.Cols}, nil
}

// workTableScan writes the recursive branch's read of the rows of the
// previous round.
func (w *writer) workTableScan(x *planner.WorkTable) (*rel, error) {
	wt, ok := w.works[x]
	if !ok || x.Guard != nil || len(wt.cols) != len(x.Cols) {
		return nil, pgerror.Unsupported("work table %s cannot be written as SQL", x.Name)
	}
	refs := make([]string, len(x.Cols))
	for i := range x.Cols {
		refs[i] = wt.name + "." + colName(wt.cols[i].ID)
	}
	list, _ := selectList(refs, x.Cols, nil, wt.name, true)
	return &rel{sql: list + " FROM " + wt.name, cols: x.Cols}, nil
}
