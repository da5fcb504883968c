package sqlwrite

import (
	"math"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// sample writes a TABLESAMPLE that keeps every row (100 percent) or none
// (0 percent), which any engine draws alike. Another percentage draws
// other rows there than SQE's sampler does, and an invalid one fails
// where SQE fails differently, so both are refused.
func (w *writer) sample(x *planner.Sample, top bool) (*rel, error) {
	v, ok := constantOf(x.Percent)
	var p float64
	switch n := v.(type) {
	case float64:
		p = n
	case int64:
		p = float64(n)
	default:
		ok = false
	}
	if !ok || math.IsNaN(p) || (p != 0 && p != 100) {
		return nil, pgerror.Unsupported("a TABLESAMPLE of other than 0 or 100 percent cannot be written as SQL")
	}
	if x.Seed != nil {
		if seed, isConst := constantOf(x.Seed); !isConst || seed == nil {
			return nil, pgerror.Unsupported("a TABLESAMPLE whose seed is not a constant cannot be written as SQL")
		}
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
