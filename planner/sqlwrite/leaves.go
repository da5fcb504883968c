package sqlwrite

import (
	"strings"

	"github.com/sqe-db/sqe/planner"
)

// oneRow writes the single row of a SELECT without FROM; it has no
// columns, so a projection above reads nothing of it.
func (w *writer) oneRow() *rel {
	return &rel{sql: "SELECT 1 AS c"}
}

// values writes a VALUES list as a derived table of its columns. Its
// rows hold no stored value, so nothing in it is guarded but by the left
// rows of a LATERAL join it may read.
func (w *writer) values(v *planner.Values, top bool) (*rel, error) {
	if err := w.checkTypes(v.Cols); err != nil {
		return nil, err
	}
	rows := make([]string, len(v.Rows))
	for i, row := range v.Rows {
		items := make([]string, len(row))
		for j, e := range row {
			var err error
			if items[j], err = w.guarded(e, &scope{}); err != nil {
				return nil, err
			}
		}
		rows[i] = "(" + strings.Join(items, ", ") + ")"
	}
	a := w.alias()
	names := make([]string, len(v.Cols))
	refs := make([]string, len(v.Cols))
	for i, c := range v.Cols {
		names[i] = colName(c.ID)
		refs[i] = a + "." + names[i]
	}
	list, _ := selectList(refs, v.Cols, nil, a, top)
	return &rel{sql: list + " FROM (VALUES " + strings.Join(rows, ", ") + ") AS " + a + "(" + strings.Join(names, ", ") + ")", cols: v.Cols}, nil
}
