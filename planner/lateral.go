package planner

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Lateral is a join whose right side is a subquery that reads the left
// side's current row (FROM a, LATERAL (SELECT ... a.x ...) b): the right
// plan is run once per left row with Outer bound to that row's values,
// and its rows are joined to it. Kind is InnerJoin or LeftJoin (a left
// row without right rows is kept with NULLs).
type Lateral struct {
	Left, Right Node
	Outer       []Column
	Kind        JoinKind
}

func (l *Lateral) Columns() []Column {
	return append(append([]Column(nil), l.Left.Columns()...), l.Right.Columns()...)
}
func (l *Lateral) Inputs() []Node { return []Node{l.Left, l.Right} }

func (l *Lateral) explain() string {
	return fmt.Sprintf("Lateral%s outer=%v", l.Kind, colNames(l.Outer))
}

// isLateral reports a FROM item marked LATERAL.
func isLateral(item *pg_query.Node) bool {
	switch x := item.Node.(type) {
	case *pg_query.Node_RangeSubselect:
		return x.RangeSubselect.Lateral
	case *pg_query.Node_RangeFunction:
		return x.RangeFunction.Lateral
	}
	return false
}

// bindLateral binds a LATERAL FROM item with left's scope visible to it,
// and joins it to left.
func (b *Binder) bindLateral(left Node, ls *scope, item *pg_query.Node, kind JoinKind) (Node, *scope, error) {
	inner := &Binder{ctx: b.ctx, catalog: b.catalog, security: b.security, query: b.query,
		nextID: b.nextID, params: b.params, session: b.session, outer: append(append([]*scope(nil), b.outer...), ls),
		ctes: b.ctes, workTables: b.workTables, recursive: b.recursive, withQueries: b.withQueries}
	var right Node
	var rs *scope
	var err error
	switch x := item.Node.(type) {
	case *pg_query.Node_RangeSubselect:
		right, rs, err = inner.bindSubselectItem(x.RangeSubselect)
	case *pg_query.Node_RangeFunction:
		return nil, nil, pgerror.Unsupported("LATERAL function calls are not supported yet")
	}
	b.nextID = inner.nextID
	if err != nil {
		return nil, nil, err
	}
	own := map[ColumnID]bool{}
	for _, c := range ls.cols {
		own[c.ID] = true
	}
	// Columns from queries further out are outer references of this
	// query too; all of them are bound per left row.
	var outer []Column
	for _, c := range inner.correlated {
		if !own[c.ID] {
			b.noteCorrelated(c)
		}
		outer = append(outer, c)
	}
	if err := checkDistinctQualifiers(ls, rs); err != nil {
		return nil, nil, err
	}
	if len(outer) == 0 {
		// Not correlated after all: a plain join.
		return &Join{Left: left, Right: right, Kind: kind}, ls.concat(rs), nil
	}
	return &Lateral{Left: left, Right: right, Outer: outer, Kind: kind}, ls.concat(rs), nil
}

// bindLateralJoin binds a JOIN LATERAL (...) ON cond: for an inner join
// the condition filters the joined rows; a LEFT JOIN LATERAL takes only
// ON true (a condition would have to decide which left rows get NULLs).
func (b *Binder) bindLateralJoin(j *pg_query.JoinExpr, left Node, ls *scope, kind JoinKind) (Node, *scope, error) {
	if len(j.UsingClause) > 0 || j.IsNatural {
		return nil, nil, pgerror.Unsupported("USING and NATURAL with LATERAL are not supported yet")
	}
	node, sc, err := b.bindLateral(left, ls, j.Rarg, kind)
	if err != nil {
		return nil, nil, err
	}
	if j.Quals == nil {
		return node, sc, nil
	}
	on, err := b.bindExpr(j.Quals, &exprCtx{scope: sc, clause: "JOIN/ON"})
	if err != nil {
		return nil, nil, err
	}
	if on, err = b.requireBool(on, 0, "JOIN/ON"); err != nil {
		return nil, nil, err
	}
	if c, ok := on.(*Const); ok && c.Value == true {
		return node, sc, nil
	}
	if kind == LeftJoin {
		return nil, nil, pgerror.Unsupported("LEFT JOIN LATERAL with a condition other than ON true is not supported yet")
	}
	return &Filter{Input: node, Pred: on}, sc, nil
}
