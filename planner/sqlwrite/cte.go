package sqlwrite

import (
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// A WITH query is written as a WITH clause on the statement of the node
// it belongs to, which PostgreSQL and Trino both allow on a derived
// table. PostgreSQL is told MATERIALIZED, so the query runs once, as in
// SQE; Trino may run it once per reference, which gives the same rows
// unless it calls random(): such a query read more than once (or for
// each row of an enclosing query) is refused for Trino. The WITH query's
// visibility columns come along with its rows, and each reference
// renames them, so that a query reading it twice keeps two distinct
// columns.

// cteName is the name a WITH query is written under.
func cteName(id planner.ColumnID) string { return "w" + strconv.Itoa(int(id)) }

// cte writes the WITH query c.Def and the query c.Input that reads it.
func (w *writer) cte(c *planner.CTE, top bool) (*rel, error) {
	calls := w.volatileCalls
	def, err := w.node(c.Def, false)
	if err != nil {
		return nil, err
	}
	if w.ctes == nil {
		w.ctes = map[planner.ColumnID]*rel{}
		w.cteRefs = map[planner.ColumnID]int{}
		w.volatileCTEs = map[planner.ColumnID]bool{}
	}
	w.ctes[c.ID] = def
	w.volatileCTEs[c.ID] = w.volatileCalls > calls
	in, err := w.node(c.Input, top)
	if err != nil {
		return nil, err
	}
	if w.d == Trino && w.volatileCTEs[c.ID] && w.cteRefs[c.ID] > 1 {
		return nil, pgerror.Unsupported("a WITH query calling random() read more than once cannot be written as SQL for %s, which may compute it at each reference", w.d)
	}
	materialized := ""
	if w.d == PostgreSQL {
		materialized = "MATERIALIZED "
	}
	out := *in
	clause := cteName(c.ID) + " AS " + materialized + "(" + def.sql + ")"
	if rest, chained := strings.CutPrefix(in.sql, "WITH RECURSIVE "); chained {
		out.sql = "WITH RECURSIVE " + clause + ", " + rest
	} else if rest, chained := strings.CutPrefix(in.sql, "WITH "); chained {
		// A WITH query whose input has WITH queries of its own: one
		// clause, this one first, since the others may read it.
		out.sql = "WITH " + clause + ", " + rest
	} else {
		out.sql = "WITH " + clause + " " + in.sql
	}
	return &out, nil
}

// cteScan writes a reference to a WITH query: its columns under this
// reference's ids, and its visibility columns under new names.
func (w *writer) cteScan(s *planner.CTEScan, top bool) (*rel, error) {
	def, ok := w.ctes[s.CTE]
	if !ok {
		return nil, pgerror.Unsupported("a reference to WITH query %s outside it cannot be written as SQL", s.Name)
	}
	if err := w.checkTypes(s.Cols); err != nil {
		return nil, err
	}
	w.cteRefs[s.CTE]++
	if len(w.outer) > 0 {
		// Read for each row of an enclosing query: Trino may compute the
		// query again for each.
		w.cteRefs[s.CTE]++
	}
	if w.volatileCTEs[s.CTE] {
		// A WITH query reading this one computes its rows by random()
		// too.
		w.volatileCalls++
	}
	name := cteName(s.CTE)
	items := make([]string, len(s.Cols))
	for i, src := range s.Source {
		items[i] = name + "." + colName(src)
	}
	list, _ := selectList(items, s.Cols, nil, name, true)
	var b strings.Builder
	b.WriteString(list)
	var vis []visibility
	if !top {
		for _, v := range def.vis {
			w.visible++
			renamed := visibility{name: "__sqe_visible_" + strconv.Itoa(w.visible), nullable: v.nullable}
			b.WriteString(", " + name + "." + v.name + " AS " + renamed.name)
			vis = append(vis, renamed)
		}
	}
	b.WriteString(" FROM " + name)
	return &rel{sql: b.String(), cols: s.Cols, vis: vis}, nil
}
