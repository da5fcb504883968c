package planner

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go"
)

// MorselTable is a Table whose scan can be split into morsels (row groups
// or files) that can be read independently, on several goroutines at once.
// Reading the morsels in index order gives the rows Scan gives.
type MorselTable interface {
	Table
	ScanMorsels(ctx context.Context, columns []int, filter iceberg.BooleanExpression) (Morsels, error)
}

// Morsels is a planned scan split into morsels.
type Morsels interface {
	Len() int
	// Open starts reading morsel i; it is safe to call from several
	// goroutines, each stream then read by one goroutine.
	Open(ctx context.Context, i int) (RecordStream, error)
	Close() error
}

// Gather runs Input in Workers goroutines at once. Input is a pipeline
// (filters, projections and the probe side of hash joins over Scan, the
// table whose morsels the workers share) or an Aggregate over one. A
// pipeline's batches come out in morsel order, so the rows and their order
// are those of running Input alone; an Aggregate is computed per worker
// and the partial states are merged, its groups put back in the order the
// serial aggregate gives them, unless AnyOrder. The build side of a join
// in the pipeline is built once and probed by every worker.
type Gather struct {
	Input   Node
	Workers int
	Scan    *Scan
	// AnyOrder: nothing above observes the order of the rows
	// (markAnyOrderGathers), so a merged aggregate returns its groups as
	// they were merged.
	AnyOrder bool
}

func (g *Gather) Columns() []Column { return g.Input.Columns() }
func (g *Gather) Inputs() []Node    { return []Node{g.Input} }

func (g *Gather) explain() string {
	if _, ok := g.Input.(*Aggregate); ok {
		if g.AnyOrder {
			return fmt.Sprintf("Gather workers=%d (partial aggregates merged, in any order)", g.Workers)
		}
		return fmt.Sprintf("Gather workers=%d (partial aggregates merged)", g.Workers)
	}
	return fmt.Sprintf("Gather workers=%d", g.Workers)
}

// ParallelOptions say when Optimize runs part of a plan in parallel.
type ParallelOptions struct {
	// Workers is the degree of parallelism; 1 or less leaves the plan
	// serial.
	Workers int
	// MinRows is the least estimated row count of a table worth a parallel
	// scan (PostgreSQL's min_parallel_table_scan_size): below it, starting
	// workers costs more than it saves.
	MinRows int64
	// Mergeable reports whether an aggregate's partial states, computed by
	// several workers, can be merged into the state one worker would
	// have reached. An aggregate that cannot keeps its serial plan over a
	// parallel input.
	Mergeable func(*AggCall) bool
	// MaxSharedBuildBytes bounds the estimated memory of a join's build
	// side that parallel workers probe at once (0: no bound). A build
	// shared by workers cannot spill to disk, so one that may pass the
	// query's memory budget keeps the serial join, which can.
	MaxSharedBuildBytes int64
}

// parallelize puts a Gather over each pipeline of the plan that reads a
// large enough MorselTable, with the aggregate above it when every
// aggregate call merges. It does not enter subquery plans, the right side
// of a LATERAL join (run once per left row) nor a recursive query.
func parallelize(n Node, o ParallelOptions) Node {
	if o.Workers <= 1 {
		return n
	}
	return gatherPipelines(n, o)
}

func gatherPipelines(n Node, o ParallelOptions) Node {
	switch x := n.(type) {
	case *Aggregate:
		if scan := pipelineScan(x.Input, o); scan != nil {
			c := *x
			if x.Sets == nil && aggregateParallelSafe(x, o) {
				c.Input = gatherBuildSides(x.Input, o)
				return &Gather{Input: &c, Workers: o.Workers, Scan: scan}
			}
			c.Input = &Gather{Input: gatherBuildSides(x.Input, o), Workers: o.Workers, Scan: scan}
			return &c
		}
	case *Lateral:
		c := *x
		c.Left = gatherPipelines(x.Left, o)
		return &c
	case *RecursiveUnion, *Gather, *Sample:
		// A sample keeps rows by their order of arrival, which workers
		// would not keep.
		return n
	}
	if scan := pipelineScan(n, o); scan != nil {
		return &Gather{Input: gatherBuildSides(n, o), Workers: o.Workers, Scan: scan}
	}
	return mapInputs(n, func(c Node) Node { return gatherPipelines(c, o) })
}

// gatherBuildSides is the pipeline n with the build side of each of its
// joins parallelized in turn: a build side is a plan of its own, run once.
func gatherBuildSides(n Node, o ParallelOptions) Node {
	switch x := n.(type) {
	case *Filter:
		c := *x
		c.Input = gatherBuildSides(x.Input, o)
		return &c
	case *Project:
		c := *x
		c.Input = gatherBuildSides(x.Input, o)
		return &c
	case *Join:
		c := *x
		c.Left = gatherBuildSides(x.Left, o)
		c.Right = gatherPipelines(x.Right, o)
		return &c
	}
	return n
}

// pipelineScan returns the Scan at the bottom of a chain of filters and
// projections that may run in workers, or nil.
func pipelineScan(n Node, o ParallelOptions) *Scan {
	switch x := n.(type) {
	case *Scan:
		if _, ok := x.Table.(MorselTable); !ok {
			return nil
		}
		if r := x.Table.RowEstimate(); o.MinRows > 0 && r < o.MinRows {
			// An unknown estimate (-1) is small too.
			return nil
		}
		return x
	case *Filter:
		if !parallelSafe(x.Pred) {
			return nil
		}
		return pipelineScan(x.Input, o)
	case *Project:
		for _, e := range x.Exprs {
			if !parallelSafe(e) {
				return nil
			}
		}
		return pipelineScan(x.Input, o)
	case *Join:
		// Workers probe the left side's morsels against one shared build
		// of the right side. A RIGHT or FULL join also emits the build
		// rows no probe matched, which only one pass over every morsel
		// knows: it stays serial.
		if !probesInParallel(x, o) {
			return nil
		}
		return pipelineScan(x.Left, o)
	}
	return nil
}

// probesInParallel reports whether workers may probe j's build side at
// once, each joining its own left rows.
func probesInParallel(j *Join, o ParallelOptions) bool {
	if j.HashLeft {
		// Its left input is the one hashed; the rows it emits are known
		// only when every right row has been probed.
		return false
	}
	switch j.Kind {
	case InnerJoin, LeftJoin, SemiJoin, AntiJoin:
	default:
		return false
	}
	if o.MaxSharedBuildBytes > 0 && buildBytes(j.Right) > float64(o.MaxSharedBuildBytes) {
		return false
	}
	return j.On == nil || parallelSafe(j.On)
}

// hashEntryBytes is about what a build row costs beside its values: its
// slot, hash and key in the hash table, and its place in the row lists.
const hashEntryBytes = 40

// buildBytes is the estimated memory of n held as a join's build side.
func buildBytes(n Node) float64 {
	return estimateRows(n) * float64(rowWidth(n.Columns())+hashEntryBytes)
}

func aggregateParallelSafe(a *Aggregate, o ParallelOptions) bool {
	if o.Mergeable == nil {
		return false
	}
	for _, g := range a.Groups {
		if !parallelSafe(g) {
			return false
		}
	}
	for _, c := range a.Aggs {
		if !o.Mergeable(c) {
			return false
		}
		for _, e := range c.Exprs() {
			if !parallelSafe(e) {
				return false
			}
		}
	}
	return true
}

// parallelSafe reports whether e can be evaluated by several workers at
// once, each with its own compiled copy: not a subquery (run once per
// statement, its result shared) nor a function of the session's state.
func parallelSafe(e Expr) bool {
	return !anyExpr(e, func(e Expr) bool {
		switch x := e.(type) {
		case *Subquery, *OuterRef:
			return true
		case *Func:
			return x.Row != nil
		}
		return false
	})
}
