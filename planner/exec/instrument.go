package exec

import (
	"context"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
)

// EXPLAIN ANALYZE runs the plan with every operator wrapped in a counter
// of the rows it returned and the time spent in its Next calls (its
// inputs' included, as PostgreSQL reports). The instrumentation travels in
// the context Build is given, so the plan and the operators are the ones
// a normal run uses.

// OperatorStats is what one plan node did: rows returned, the time to its
// first row and in total, how many times it ran (a LATERAL subquery's
// nodes run once per left row), and what it spilled to disk.
type OperatorStats struct {
	Rows  int64
	Loops int
	First time.Duration
	Total time.Duration
	// SpillBytes and SpillFiles are what a sort or an aggregate past its
	// memory budget wrote to spill files (PostgreSQL's "Disk: NkB").
	SpillBytes int64
	SpillFiles int
}

// Instrumentation collects OperatorStats per plan node.
type Instrumentation struct {
	mu    sync.Mutex
	stats map[planner.Node]*OperatorStats
}

// NewInstrumentation returns an empty collection.
func NewInstrumentation() *Instrumentation {
	return &Instrumentation{stats: map[planner.Node]*OperatorStats{}}
}

// Stats returns what node n did; ok is false when it never ran.
func (i *Instrumentation) Stats(n planner.Node) (OperatorStats, bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	s, ok := i.stats[n]
	if !ok {
		return OperatorStats{}, false
	}
	return *s, true
}

// addSpill counts a spill file of node n.
func (i *Instrumentation) addSpill(n planner.Node, bytes int64) {
	if i == nil {
		return
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	st, ok := i.stats[n]
	if !ok {
		st = &OperatorStats{}
		i.stats[n] = st
	}
	st.SpillBytes += bytes
	st.SpillFiles++
}

type instrumentationKey struct{}

// WithInstrumentation makes Build instrument every operator it builds.
func WithInstrumentation(ctx context.Context, i *Instrumentation) context.Context {
	return context.WithValue(ctx, instrumentationKey{}, i)
}

func instrumentationFrom(ctx context.Context) *Instrumentation {
	i, _ := ctx.Value(instrumentationKey{}).(*Instrumentation)
	return i
}

// instrument wraps op as node n's operator when ctx asks for it.
func instrument(ctx context.Context, n planner.Node, op Operator) Operator {
	ins := instrumentationFrom(ctx)
	if ins == nil {
		return op
	}
	ins.mu.Lock()
	st, ok := ins.stats[n]
	if !ok {
		st = &OperatorStats{}
		ins.stats[n] = st
	}
	st.Loops++
	ins.mu.Unlock()
	return &instrumented{Operator: op, ins: ins, st: st}
}

type instrumented struct {
	Operator
	ins      *Instrumentation
	st       *OperatorStats
	spent    time.Duration
	sawFirst bool
}

func (o *instrumented) Next(ctx context.Context) (arrow.RecordBatch, error) {
	start := time.Now()
	b, err := o.Operator.Next(ctx)
	d := time.Since(start)
	o.spent += d
	o.ins.mu.Lock()
	o.st.Total += d
	if b != nil && b.NumRows() > 0 {
		if !o.sawFirst {
			o.sawFirst = true
			o.st.First += o.spent
		}
		o.st.Rows += b.NumRows()
	}
	o.ins.mu.Unlock()
	return b, err
}
