package sqlwrite

import (
	"context"
	"errors"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// sample writes a TABLESAMPLE that keeps every row (100 percent) or none
// (0 percent), which any engine draws alike; another percentage draws
// other rows there than SQE's sampler does, and is refused.
//
// Its arguments are checked here by exec.SampleArguments, as SQE checks
// them when the sample starts: an invalid one (NULL, NaN, outside 0 to
// 100, a NULL seed) is SQE's error, raised here in place of the
// statement. SQE raises it only when the sample is read, so it is
// raised here only for a sample the statement's first row request
// reaches (firstRead); elsewhere it is refused. Arguments are evaluated
// only when they are constants and operators over them (no function,
// whose answer could depend on the session or differ from call to call).
func (w *writer) sample(x *planner.Sample, top bool) (*rel, error) {
	if !plainConstant(x.Percent) || (x.Seed != nil && !plainConstant(x.Seed)) {
		return nil, pgerror.Unsupported("a TABLESAMPLE whose arguments are not constants cannot be written as SQL")
	}
	p, _, err := exec.SampleArguments(context.Background(), x)
	if err != nil {
		var pe *pgerror.Error
		if errors.As(err, &pe) && pe.Code != pgerror.FeatureNotSupported && w.firstRead[x] {
			return nil, err
		}
		return nil, pgerror.Unsupported("a TABLESAMPLE whose arguments fail, in a statement that may not read it, cannot be written as SQL")
	}
	if p != 0 && p != 100 {
		return nil, pgerror.Unsupported("a TABLESAMPLE of other than 0 or 100 percent cannot be written as SQL")
	}
	if p == 100 {
		return w.node(x.Input, top)
	}
	in, a, s, err := w.from(x.Input)
	if err != nil {
		return nil, err
	}
	list, vis := selectList(s.columnsOf(in), in.cols, in.vis, a, top)
	return &rel{sql: list + " FROM (" + in.sql + ") AS " + a + " WHERE FALSE", cols: in.cols, vis: vis}, nil
}

// plainConstant reports whether e is constants and operators over them,
// which evaluate alike anywhere, at any time.
func plainConstant(e planner.Expr) bool {
	switch e.(type) {
	case *planner.Const:
		return true
	case *planner.Func, *planner.ColRef:
		return false
	}
	children := exprChildren(e)
	if children == nil {
		return false
	}
	for _, c := range children {
		if !plainConstant(c) {
			return false
		}
	}
	return true
}

// firstRead is the set of nodes the first row request of a statement
// surely reaches, root first: each of these nodes asks its input for
// rows before it evaluates anything or returns a row. A node that may
// answer without reading its input (a LIMIT 0, a join whose other side
// is empty, a subquery) ends it.
func firstRead(root planner.Node) map[planner.Node]bool {
	read := map[planner.Node]bool{}
	n := root
	for {
		read[n] = true
		switch x := n.(type) {
		case *planner.Project:
			n = x.Input
		case *planner.Filter:
			n = x.Input
		case *planner.Aggregate:
			n = x.Input
		case *planner.Sort:
			n = x.Input
		case *planner.Gather:
			n = x.Input
		case *planner.Limit:
			if x.CountExpr != nil || x.OffsetExpr != nil || x.WithTies || x.Count == 0 {
				return read
			}
			n = x.Input
		default:
			return read
		}
	}
}
