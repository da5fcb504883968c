package sqlwrite

import (
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// lateral writes a LATERAL join, for PostgreSQL, as
//
//	(left) AS l CROSS JOIN LATERAL (right) AS r
//	(left) AS l LEFT JOIN LATERAL (right) AS r ON TRUE
//
// The right plan reads the left row's columns as l.c<ID>, the correlated
// references a subquery makes (subquery.go); PostgreSQL runs it for each
// left row, as SQE does. Both sides' visibility columns pass up, the
// right side's nullable under a LEFT JOIN (a left row without right rows
// gets NULLs, and is not hidden for it). PostgreSQL may run the right
// plan for a left row its secured relation hides before that row is
// dropped (it may move the left side's WHERE), so every expression in the
// right plan that can raise an error is guarded by the left side's
// visibility too (outerVis), beside its own rows'.
//
// Trino turns a lateral subquery into a join and fails on the shapes it
// cannot turn (a LIMIT over a correlated filter among them), where SQE
// answers; which shapes it takes is not established, so LATERAL is
// refused for Trino.
func (w *writer) lateral(x *planner.Lateral, top bool) (*rel, error) {
	if w.d != PostgreSQL {
		return nil, pgerror.Unsupported("a LATERAL join cannot be written as SQL for %s", w.d)
	}
	kind := map[planner.JoinKind]string{planner.InnerJoin: "CROSS", planner.LeftJoin: "LEFT"}[x.Kind]
	if kind == "" {
		return nil, pgerror.Unsupported("a LATERAL %s join cannot be written as SQL", x.Kind)
	}
	l, err := w.node(x.Left, false)
	if err != nil {
		return nil, err
	}
	la := w.alias()
	s := &scope{}
	s.from(l, la)
	outer, outerVis := w.outer, w.outerVis
	w.outer = make(map[planner.ColumnID]string, len(outer)+len(x.Outer))
	for id, ref := range outer {
		w.outer[id] = ref
	}
	for _, c := range x.Outer {
		if ref, ok := s.cols[c.ID]; ok {
			w.outer[c.ID] = ref
		} else if _, further := outer[c.ID]; !further {
			w.outer = outer
			return nil, pgerror.Unsupported("a LATERAL subquery reading column %s cannot be written as SQL", c.Name)
		}
	}
	w.outerVis = append(append([]string(nil), outerVis...), s.vis...)
	r, err := w.node(x.Right, false)
	w.outer, w.outerVis = outer, outerVis
	if err != nil {
		return nil, err
	}
	ra := w.alias()
	s.from(r, ra)
	cols := x.Columns()
	items := make([]string, len(cols))
	for i, c := range cols {
		items[i] = s.cols[c.ID]
	}
	list, _ := selectList(items, cols, nil, "", true)
	var vis []visibility
	if !top {
		for _, v := range l.vis {
			list += ", " + la + "." + v.name + " AS " + v.name
			vis = append(vis, v)
		}
		for _, v := range r.vis {
			list += ", " + ra + "." + v.name + " AS " + v.name
			v.nullable = v.nullable || x.Kind == planner.LeftJoin
			vis = append(vis, v)
		}
	}
	sql := list + " FROM (" + l.sql + ") AS " + la + " " + kind + " JOIN LATERAL (" + r.sql + ") AS " + ra
	if x.Kind == planner.LeftJoin {
		sql += " ON TRUE"
	}
	return &rel{sql: sql, cols: cols, vis: vis}, nil
}
