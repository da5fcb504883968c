package planner

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// bindTableSample binds FROM t TABLESAMPLE method (percent) [REPEATABLE
// (seed)]. The table is bound as any reference is, into its secured
// relation (gate one, then gate two's barrier filter and masks), and the
// Sample goes above that: it draws from the rows the caller may see and
// never from those the barrier hides. As in PostgreSQL only a table can
// be sampled, not a view or a WITH query; the arguments are expressions
// over no columns, read as real and double precision and evaluated when
// the query runs.
func (b *Binder) bindTableSample(ts *pg_query.RangeTableSample) (Node, *scope, error) {
	rv := ts.Relation.GetRangeVar()
	if rv == nil {
		return nil, nil, b.errAt(ts.Location, pgerror.FeatureNotSupported, "TABLESAMPLE clause can only be applied to tables and materialized views")
	}
	names := make([]string, len(ts.Method))
	for i, n := range ts.Method {
		names[i] = n.GetString_().GetSval()
	}
	method := SampleMethod(strings.TrimPrefix(strings.Join(names, "."), "pg_catalog."))
	if method != SampleBernoulli && method != SampleSystem {
		return nil, nil, b.errAt(ts.Location, pgerror.UndefinedObject, "tablesample method %s does not exist", strings.Join(names, "."))
	}
	if len(ts.Args) != 1 {
		return nil, nil, b.errAt(ts.Location, pgerror.InvalidTablesampleArgument, "tablesample method %s requires 1 argument, not %d", method, len(ts.Args))
	}
	percent, err := b.bindSampleArg(ts.Args[0], types.Float4)
	if err != nil {
		return nil, nil, err
	}
	var seed Expr
	if ts.Repeatable != nil {
		if seed, err = b.bindSampleArg(ts.Repeatable, types.Float8); err != nil {
			return nil, nil, err
		}
	}
	node, sc, err := b.bindRangeVar(rv)
	if err != nil {
		return nil, nil, err
	}
	if !securedTable(node) {
		return nil, nil, b.errAt(rv.Location, pgerror.FeatureNotSupported, "TABLESAMPLE clause can only be applied to tables and materialized views")
	}
	return &Sample{Input: node, Method: method, Percent: percent, Seed: seed}, sc, nil
}

// bindSampleArg binds a TABLESAMPLE argument: an expression over no
// columns and without a subquery, converted to t.
func (b *Binder) bindSampleArg(n *pg_query.Node, t types.T) (Expr, error) {
	if sl := findParseNode(n, func(m proto.Message) bool { _, ok := m.(*pg_query.SubLink); return ok }); sl != nil {
		return nil, b.errAt(sl.(*pg_query.SubLink).Location, pgerror.FeatureNotSupported, "cannot use subquery in TABLESAMPLE")
	}
	e, err := b.bindExpr(n, &exprCtx{scope: &scope{}, clause: "TABLESAMPLE"})
	if err != nil {
		return nil, err
	}
	return b.coerce(e, t, exprLocation(n))
}

// securedTable reports whether n is a table's secured relation as
// bindRangeVar builds it: a scan, under its barrier filter and masking
// projection when the caller's policies put them there. A view, a WITH
// query or a work table binds to something else.
func securedTable(n Node) bool {
	for {
		switch x := n.(type) {
		case *Scan:
			return true
		case *Project:
			if !x.Masking {
				return false
			}
			n = x.Input
		case *Filter:
			if !x.Barrier {
				return false
			}
			n = x.Input
		default:
			return false
		}
	}
}
