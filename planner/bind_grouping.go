package planner

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// GROUP BY GROUPING SETS, ROLLUP and CUBE expand to a list of grouping
// sets, each a subset of the query's grouping keys. The Aggregate node
// groups its input once per set (in one pass) and tags each result row
// with its set's index, from which GROUPING(...) is computed.

// maxGroupingSets is PostgreSQL's limit on the sets a GROUP BY expands to.
const maxGroupingSets = 4096

// statementTooComplex is the SQLSTATE of too many grouping sets.
const statementTooComplex = "54001"

// groupingCall stands for GROUPING(...) when walkAST visits calls, so
// that containsAggregate sees it: like an aggregate it reads the grouped
// rows. It is never changed.
var groupingCall = &pg_query.FuncCall{}

// hasGroupingSets reports whether a GROUP BY list uses grouping sets (or
// a parenthesized row of keys, which PostgreSQL reads as one set).
func hasGroupingSets(list []*pg_query.Node) bool {
	for _, n := range list {
		if n.GetGroupingSet() != nil || isImplicitRow(n) {
			return true
		}
	}
	return false
}

func isImplicitRow(n *pg_query.Node) bool {
	r := n.GetRowExpr()
	return r != nil && r.RowFormat == pg_query.CoercionForm_COERCE_IMPLICIT_CAST
}

// bindGroupingSets binds a GROUP BY with grouping sets: the sets of the
// items are combined as a cartesian product, as PostgreSQL does for
// GROUP BY a, ROLLUP (b, c).
func (b *Binder) bindGroupingSets(s *pg_query.SelectStmt, ec *exprCtx) error {
	g := ec.group
	sets := [][]int{{}}
	for _, n := range s.GroupClause {
		item, err := b.groupingItemSets(s, n, g)
		if err != nil {
			return err
		}
		if len(sets)*len(item) > maxGroupingSets {
			return pgerror.New(statementTooComplex, "too many grouping sets present (maximum %d)", maxGroupingSets)
		}
		var product [][]int
		for _, a := range sets {
			for _, b := range item {
				product = append(product, append(append([]int(nil), a...), b...))
			}
		}
		sets = product
	}
	for i, set := range sets {
		slices.Sort(set)
		sets[i] = slices.Compact(set)
	}
	g.sets = sets
	// A key is NULL in the rows of the sets that leave it out.
	for i := range g.cols {
		g.cols[i].Nullable = true
	}
	g.setCol = b.newColumn("?grouping set?", Column{Type: types.Int4})
	return nil
}

// groupingItemSets expands one GROUP BY item to its grouping sets.
func (b *Binder) groupingItemSets(s *pg_query.SelectStmt, n *pg_query.Node, g *groupState) ([][]int, error) {
	gs := n.GetGroupingSet()
	if gs == nil {
		keys, err := b.groupingKeys(s, n, g)
		if err != nil {
			return nil, err
		}
		return [][]int{keys}, nil
	}
	switch gs.Kind {
	case pg_query.GroupingSetKind_GROUPING_SET_EMPTY:
		return [][]int{{}}, nil
	case pg_query.GroupingSetKind_GROUPING_SET_SIMPLE:
		var set []int
		for _, c := range gs.Content {
			keys, err := b.groupingKeys(s, c, g)
			if err != nil {
				return nil, err
			}
			set = append(set, keys...)
		}
		return [][]int{set}, nil
	case pg_query.GroupingSetKind_GROUPING_SET_ROLLUP, pg_query.GroupingSetKind_GROUPING_SET_CUBE:
		elems := make([][]int, len(gs.Content))
		for i, c := range gs.Content {
			keys, err := b.groupingKeys(s, c, g)
			if err != nil {
				return nil, err
			}
			elems[i] = keys
		}
		if gs.Kind == pg_query.GroupingSetKind_GROUPING_SET_ROLLUP {
			// ROLLUP (a, b, c) is (a, b, c), (a, b), (a), ().
			var sets [][]int
			for k := len(elems); k >= 0; k-- {
				sets = append(sets, slices.Concat(elems[:k]...))
			}
			return sets, nil
		}
		if len(elems) > 12 {
			return nil, pgerror.New(statementTooComplex, "too many grouping sets present (maximum %d)", maxGroupingSets)
		}
		// CUBE is every subset, the full set first.
		var sets [][]int
		full := 1<<len(elems) - 1
		for mask := full; mask >= 0; mask-- {
			var set []int
			for i, e := range elems {
				if mask&(1<<(len(elems)-1-i)) != 0 {
					set = append(set, e...)
				}
			}
			sets = append(sets, set)
		}
		return sets, nil
	case pg_query.GroupingSetKind_GROUPING_SET_SETS:
		var sets [][]int
		for _, c := range gs.Content {
			inner, err := b.groupingItemSets(s, c, g)
			if err != nil {
				return nil, err
			}
			sets = append(sets, inner...)
			if len(sets) > maxGroupingSets {
				return nil, pgerror.New(statementTooComplex, "too many grouping sets present (maximum %d)", maxGroupingSets)
			}
		}
		return sets, nil
	}
	return nil, pgerror.Unsupported("grouping set kind %s is not supported", gs.Kind)
}

// groupingKeys binds the keys of one element of a grouping set: an
// expression, or a parenthesized row of them.
func (b *Binder) groupingKeys(s *pg_query.SelectStmt, n *pg_query.Node, g *groupState) ([]int, error) {
	if isImplicitRow(n) {
		var keys []int
		for _, a := range n.GetRowExpr().Args {
			k, err := b.bindGroupKey(s, a, g)
			if err != nil {
				return nil, err
			}
			keys = append(keys, k)
		}
		return keys, nil
	}
	if gs := n.GetGroupingSet(); gs != nil {
		if gs.Kind == pg_query.GroupingSetKind_GROUPING_SET_EMPTY {
			return nil, nil
		}
		return nil, b.errAt(gs.Location, pgerror.SyntaxError, "nested grouping sets are not allowed here")
	}
	k, err := b.bindGroupKey(s, n, g)
	if err != nil {
		return nil, err
	}
	return []int{k}, nil
}

// bindGroupingFunc binds GROUPING(a, b, ...): per result row, a bit per
// argument (the first the most significant), set when the row's grouping
// set leaves that key out.
func (b *Binder) bindGroupingFunc(gf *pg_query.GroupingFunc, ec *exprCtx) (Expr, error) {
	if ec.group == nil || ec.clause == "aggregate" || ec.clause == "FILTER" || ec.clause == "GROUP BY" {
		clause := ec.clause
		if clause == "aggregate" || clause == "FILTER" {
			return nil, b.errAt(gf.Location, pgerror.GroupingError, "aggregate function calls cannot contain grouping operations")
		}
		if clause == "SELECT" || clause == "HAVING" || clause == "ORDER BY" {
			return nil, b.errAt(gf.Location, pgerror.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level")
		}
		return nil, b.errAt(gf.Location, pgerror.GroupingError, "grouping operations are not allowed in %s", clause)
	}
	if len(gf.Args) > 31 {
		return nil, b.errAt(gf.Location, "54011", "GROUPING must have fewer than 32 arguments")
	}
	g := ec.group
	idx := make([]int, len(gf.Args))
	for i, a := range gf.Args {
		e, err := b.bindExpr(a, &exprCtx{scope: g.input, clause: "GROUPING"})
		if err != nil {
			return nil, err
		}
		idx[i] = -1
		for k, ge := range g.groups {
			if ge.String() == e.String() {
				idx[i] = k
				break
			}
		}
		if idx[i] < 0 {
			return nil, b.errAt(gf.Location, pgerror.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level")
		}
	}
	if g.sets == nil {
		return &Const{Typ: types.Int4, Value: int64(0)}, nil
	}
	masks := make([]int64, len(g.sets))
	for s, set := range g.sets {
		for i, k := range idx {
			if !slices.Contains(set, k) {
				masks[s] |= 1 << (len(idx) - 1 - i)
			}
		}
	}
	if len(slices.Compact(slices.Clone(masks))) == 1 {
		return &Const{Typ: types.Int4, Value: masks[0]}, nil
	}
	eq, _ := functions.LookupOperator("=")
	setRef := &ColRef{ID: g.setCol.ID, Name: g.setCol.Name, Typ: g.setCol.Type}
	c := &Case{Typ: types.Int4, Else: &Const{Typ: types.Int4, Value: masks[len(masks)-1]}}
	for s, m := range masks[:len(masks)-1] {
		c.Whens = append(c.Whens, When{
			Cond:   &BinOp{Op: eq, L: setRef, R: &Const{Typ: types.Int4, Value: int64(s)}, Typ: types.Bool},
			Result: &Const{Typ: types.Int4, Value: m},
		})
	}
	return c, nil
}
