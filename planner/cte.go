package planner

import (
	"fmt"
	"strings"
)

// CTE is a WITH query computed once for the statement (PostgreSQL's "CTE
// name" subplan): Def's rows are kept, in memory or spilled to disk, the
// first time one of the CTEScans in Input reads them, and every reference
// reads those same rows. The binder builds one for a WITH query that is
// referenced more than once, written AS MATERIALIZED, or that calls a
// volatile function, as PostgreSQL does; any other is inlined at its one
// reference. Its output is Input's.
//
// It is an optimization barrier: a reference is a leaf (CTEScan) that no
// rule sees through, so nothing pushed onto one reference reaches Def,
// which the other references read too. Def was secured when it was bound
// (barrier filters and masks inside it), and its rows are kept as Def
// returns them, above those gates.
type CTE struct {
	// ID names the query to its CTEScans; it is unique within the plan.
	ID   ColumnID
	Name string
	Def  Node
	// Input is the plan of the query the WITH clause belongs to, which
	// holds the references (in its nodes or in its subqueries' plans).
	Input Node
}

func (c *CTE) Columns() []Column { return c.Input.Columns() }
func (c *CTE) Inputs() []Node    { return []Node{c.Def, c.Input} }

// CTEScan reads the rows of the materialized WITH query CTE (PostgreSQL's
// "CTE Scan"). Cols are this reference's own columns; Source names, one
// for one, the column of the CTE's Def each reads.
type CTEScan struct {
	CTE    ColumnID
	Name   string
	Alias  string
	Cols   []Column
	Source []ColumnID
	// Rows is the estimated row count of the WITH query.
	Rows float64
}

func (s *CTEScan) Columns() []Column { return s.Cols }
func (s *CTEScan) Inputs() []Node    { return nil }

func (s *CTEScan) explain() string {
	out := "CTE Scan on " + s.Name
	if s.Alias != "" && s.Alias != s.Name {
		out += " " + s.Alias
	}
	return fmt.Sprintf("%s cols=%v", out, colNames(s.Cols))
}

// explainCTEs writes, as PostgreSQL does, the WITH queries n computes
// under the line of the plan that reads them: that plan's first node,
// then each query's "CTE name" and plan one level deeper, then that
// node's inputs.
func explainCTEs(b *strings.Builder, n *CTE, depth int, note func(Node) string) {
	var ctes []*CTE
	var body Node = n
	for {
		c, ok := body.(*CTE)
		if !ok {
			break
		}
		ctes = append(ctes, c)
		body = c.Input
	}
	if r, ok := body.(*RowCount); ok && r.RowFiltered() {
		body = r.Input
	}
	explainLine(b, body, depth, note)
	for _, c := range ctes {
		b.WriteString(strings.Repeat("  ", depth+1))
		b.WriteString("CTE " + c.Name + "\n")
		explain(b, c.Def, depth+2, note)
	}
	for _, in := range body.Inputs() {
		explain(b, in, depth+1, note)
	}
}

// narrowCTEScan is s reading only the columns used marks.
func narrowCTEScan(s *CTEScan, used map[ColumnID]bool) Node {
	var cols []Column
	var src []ColumnID
	for i, c := range s.Cols {
		if used[c.ID] {
			cols = append(cols, c)
			src = append(src, s.Source[i])
		}
	}
	if len(cols) == len(s.Cols) {
		return s
	}
	c := *s
	c.Cols, c.Source = cols, src
	return &c
}

// cteReads adds to read the Def columns the references to the CTE id
// under n read, in its nodes and in its expressions' subquery plans.
func cteReads(n Node, id ColumnID, read map[ColumnID]bool) {
	if s, ok := n.(*CTEScan); ok && s.CTE == id {
		for _, src := range s.Source {
			read[src] = true
		}
	}
	exprs, _ := nodeExprs(n)
	for _, e := range exprs {
		anyExpr(e, func(x Expr) bool {
			if sq, ok := x.(*Subquery); ok {
				cteReads(sq.Plan, id, read)
			}
			return false
		})
	}
	for _, in := range n.Inputs() {
		cteReads(in, id, read)
	}
}

// narrowCTEDef is def returning only the columns read marks, when def
// is a projection (which then computes only those); def otherwise.
func narrowCTEDef(def Node, read map[ColumnID]bool) Node {
	p, ok := def.(*Project)
	if !ok || p.Masking {
		return def
	}
	return keepProjectOutputs(p, func(i int) bool { return read[p.Cols[i].ID] })
}

// planVolatile reports whether the plan under n calls a volatile
// function (random()), in its nodes or in its subqueries' plans.
func planVolatile(n Node) bool {
	exprs, _ := nodeExprs(n)
	for _, e := range exprs {
		if anyExpr(e, func(x Expr) bool {
			switch y := x.(type) {
			case *Func:
				return volatileFunc(y.Name)
			case *Subquery:
				return planVolatile(y.Plan)
			}
			return false
		}) {
			return true
		}
	}
	for _, in := range n.Inputs() {
		if planVolatile(in) {
			return true
		}
	}
	return false
}
