package planner

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// bindSetOp binds UNION / INTERSECT / EXCEPT: both sides are bound as
// queries, their columns converted to common types, and ORDER BY and
// LIMIT of the statement apply to the combined rows.
func (b *Binder) bindSetOp(s *pg_query.SelectStmt) (Node, error) {
	b.keepUnknown = true
	left, err := b.bindSelect(s.Larg)
	if err != nil {
		return nil, err
	}
	b.keepUnknown = true
	right, err := b.bindSelect(s.Rarg)
	if err != nil {
		return nil, err
	}
	name := map[pg_query.SetOperation]string{
		pg_query.SetOperation_SETOP_UNION: "UNION", pg_query.SetOperation_SETOP_INTERSECT: "INTERSECT",
		pg_query.SetOperation_SETOP_EXCEPT: "EXCEPT"}[s.Op]
	lc, rc := left.Columns(), right.Columns()
	if len(lc) != len(rc) {
		return nil, pgerror.New(pgerror.SyntaxError, "each %s query must have the same number of columns", name)
	}
	outTypes := make([]types.T, len(lc))
	for i := range lc {
		t, ok := setOpColumnType(lc[i].Type, rc[i].Type)
		if !ok {
			return nil, pgerror.New(pgerror.DatatypeMismatch, "%s types %s and %s cannot be matched", name, lc[i].Type.Name(), rc[i].Type.Name())
		}
		if t.OID == types.OIDUnknown {
			t = types.Text
		}
		outTypes[i] = t
	}
	if left, err = b.resolveUnknownColumns(left, outTypes); err != nil {
		return nil, err
	}
	if right, err = b.resolveUnknownColumns(right, outTypes); err != nil {
		return nil, err
	}
	if left, err = b.convertColumns(left, outTypes); err != nil {
		return nil, err
	}
	if right, err = b.convertColumns(right, outTypes); err != nil {
		return nil, err
	}
	cols := make([]Column, len(lc))
	for i, c := range lc {
		cols[i] = b.newColumn(c.Name, Column{Type: outTypes[i], Nullable: true})
	}
	var node Node
	switch s.Op {
	case pg_query.SetOperation_SETOP_UNION:
		node = &Append{Ins: []Node{left, right}, Cols: cols}
		if !s.All {
			node = distinctOf(node, cols)
		}
	case pg_query.SetOperation_SETOP_INTERSECT:
		node = &SetOp{Kind: Intersect, All: s.All, Left: left, Right: right, Cols: cols}
	case pg_query.SetOperation_SETOP_EXCEPT:
		node = &SetOp{Kind: Except, All: s.All, Left: left, Right: right, Cols: cols}
	default:
		return nil, pgerror.Unsupported("set operation %s is not supported", s.Op)
	}
	return b.bindSetOpTail(s, node)
}

// distinctOf removes duplicate rows, grouping by every column.
func distinctOf(n Node, cols []Column) Node {
	agg := &Aggregate{Input: n}
	for _, c := range cols {
		agg.Groups = append(agg.Groups, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
		agg.GroupCols = append(agg.GroupCols, c)
	}
	return agg
}

// convertColumns projects n's columns to the given types where they
// differ.
func (b *Binder) convertColumns(n Node, want []types.T) (Node, error) {
	cols := n.Columns()
	same := true
	for i, c := range cols {
		if c.Type != want[i] {
			same = false
		}
	}
	if same {
		return n, nil
	}
	proj := &Project{Input: n}
	for i, c := range cols {
		// coerceResult: every branch must come out at exactly the column's
		// type, a numeric's scale included.
		e, err := b.coerceResult(&ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}, want[i])
		if err != nil {
			return nil, err
		}
		proj.Exprs = append(proj.Exprs, e)
		proj.Cols = append(proj.Cols, b.newColumn(c.Name, Column{Type: want[i], Nullable: true}))
	}
	return proj, nil
}

// bindSetOpTail applies the statement's ORDER BY and LIMIT to a set
// operation's (or VALUES') rows: sort keys name output columns, by name
// or position.
func (b *Binder) bindSetOpTail(s *pg_query.SelectStmt, node Node) (Node, error) {
	cols := node.Columns()
	sc := &scope{cols: cols}
	var keys []SortKey
	for _, n := range s.SortClause {
		sb := n.GetSortBy()
		if sb == nil {
			return nil, b.unsupportedNode(n)
		}
		key := sortKeyOf(sb)
		if c := sb.Node.GetAConst(); c != nil && c.GetIval() != nil {
			pos := int(c.GetIval().Ival)
			if pos < 1 || pos > len(cols) {
				return nil, b.errAt(c.Location, pgerror.InvalidColumnReference, "ORDER BY position %d is not in select list", pos)
			}
			col := cols[pos-1]
			key.Expr = &ColRef{ID: col.ID, Name: col.Name, Typ: col.Type}
		} else {
			e, err := b.bindExpr(sb.Node, &exprCtx{scope: sc, clause: "ORDER BY"})
			if err != nil {
				return nil, err
			}
			if _, ok := e.(*ColRef); !ok {
				return nil, pgerror.Unsupported("ORDER BY on a UNION/INTERSECT/EXCEPT result must name an output column")
			}
			key.Expr = e
		}
		keys = append(keys, key)
	}
	if len(keys) > 0 {
		node = &Sort{Input: node, Keys: keys}
	}
	return b.applyLimit(s, node)
}

// applyLimit puts the statement's LIMIT / OFFSET, if any, above node.
func (b *Binder) applyLimit(s *pg_query.SelectStmt, node Node) (Node, error) {
	if s.LimitCount == nil && s.LimitOffset == nil {
		return node, nil
	}
	lim, err := b.bindLimit(s)
	if err != nil {
		return nil, err
	}
	lim.Input = node
	if s.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES {
		if err := withTies(lim); err != nil {
			return nil, err
		}
	}
	return lim, nil
}

// sortKeyOf reads a sort clause's direction and NULL placement, with
// PostgreSQL's default: NULLs sort as larger than any value.
func sortKeyOf(sb *pg_query.SortBy) SortKey {
	key := SortKey{Desc: sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC}
	key.NullsFirst = key.Desc
	switch sb.SortbyNulls {
	case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
		key.NullsFirst = true
	case pg_query.SortByNulls_SORTBY_NULLS_LAST:
		key.NullsFirst = false
	}
	return key
}

// bindValues binds VALUES (...), (...): each column takes the common type
// of its values; columns are named column1, column2, ...
func (b *Binder) bindValues(s *pg_query.SelectStmt) (Node, error) {
	var rows [][]Expr
	width := -1
	for _, l := range s.ValuesLists {
		items := l.GetList().GetItems()
		if width >= 0 && len(items) != width {
			return nil, pgerror.New(pgerror.SyntaxError, "VALUES lists must all be the same length")
		}
		width = len(items)
		row := make([]Expr, len(items))
		for i, it := range items {
			e, err := b.bindExpr(it, &exprCtx{scope: &scope{}, clause: "VALUES"})
			if err != nil {
				return nil, err
			}
			row[i] = e
		}
		rows = append(rows, row)
	}
	v := &Values{Rows: rows}
	for c := 0; c < width; c++ {
		col := make([]Expr, len(rows))
		for r := range rows {
			col[r] = rows[r][c]
		}
		t, err := b.resultType(col, "VALUES")
		if err != nil {
			return nil, err
		}
		for r := range rows {
			if rows[r][c], err = b.coerceResult(rows[r][c], t); err != nil {
				return nil, err
			}
		}
		v.Cols = append(v.Cols, b.newColumn(fmt.Sprintf("column%d", c+1), Column{Type: t, Nullable: true}))
	}
	return b.bindSetOpTail(s, v)
}
