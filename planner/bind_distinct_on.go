package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// SELECT DISTINCT ON (keys) keeps the first row of each group of equal
// keys, first in the ORDER BY order. It is planned with nodes that exist:
// row_number() OVER (PARTITION BY keys ORDER BY the ORDER BY keys), a
// filter on row number 1, then the sort; no new operator is needed.

// isDistinctOn reports SELECT DISTINCT ON (...); plain DISTINCT has a
// single nil entry in DistinctClause.
func isDistinctOn(s *pg_query.SelectStmt) bool {
	return len(s.DistinctClause) > 0 && s.DistinctClause[0] != nil && s.DistinctClause[0].Node != nil
}

// bindDistinctOnKeys binds the DISTINCT ON expressions as sort keys (so
// ordinals and output names work as in ORDER BY).
func (b *Binder) bindDistinctOnKeys(s *pg_query.SelectStmt, targets []target, ec *exprCtx) ([]SortKey, []target, error) {
	sortBys := make([]*pg_query.Node, len(s.DistinctClause))
	for i, n := range s.DistinctClause {
		sortBys[i] = &pg_query.Node{Node: &pg_query.Node_SortBy{SortBy: &pg_query.SortBy{Node: n, Location: -1}}}
	}
	return b.bindOrderBy(sortBys, targets, ec)
}

// distinctOn places the DISTINCT ON filter over proj (the projection of
// targets, hidden ORDER BY and DISTINCT ON columns). orderKeys and onKeys
// already refer to proj's columns. It returns the node and the sort keys
// the result must be ordered by.
func (b *Binder) distinctOn(proj *Project, onKeys, orderKeys []SortKey) (Node, []SortKey, error) {
	// The ORDER BY must start with the DISTINCT ON expressions (in any
	// order), as PostgreSQL requires.
	if len(orderKeys) > 0 {
		if len(orderKeys) < len(onKeys) {
			return nil, nil, errDistinctOnOrder()
		}
		for _, k := range orderKeys[:len(onKeys)] {
			found := false
			for _, o := range onKeys {
				if o.Expr.String() == k.Expr.String() {
					found = true
				}
			}
			if !found {
				return nil, nil, errDistinctOnOrder()
			}
		}
	} else {
		orderKeys = onKeys
	}
	part := make([]Expr, len(onKeys))
	for i, k := range onKeys {
		part[i] = k.Expr
	}
	rn := b.newColumn("row_number", Column{Type: types.Int8})
	w := &Window{
		Input:       proj,
		PartitionBy: part,
		OrderBy:     orderKeys,
		Frame:       WindowFrame{Mode: RangeFrame, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}},
		Funcs:       []*WindowCall{{Name: "row_number", Out: rn}},
	}
	eq, _ := functions.LookupOperator("=")
	first := &BinOp{Op: eq, L: &ColRef{ID: rn.ID, Name: rn.Name, Typ: rn.Type}, R: &Const{Typ: types.Int8, Value: int64(1)}, Typ: types.Bool}
	return &Filter{Input: w, Pred: first}, orderKeys, nil
}

func errDistinctOnOrder() error {
	return pgerror.New(pgerror.InvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions")
}
