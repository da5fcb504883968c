package exec

import (
	"context"
	"fmt"
	"hash/maphash"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// hashJoin joins its left (probe) input against its right (build) input,
// which it holds in memory: the operator's state. Equality conjuncts of
// the ON condition whose sides each read one input become hash keys; the
// rest is evaluated on each candidate pair. Without keys every pair is a
// candidate (a nested-loop join), produced in bounded chunks. A semi or
// anti join only marks the probe rows that have a match and passes on
// those (or the others) as they are.
type hashJoin struct {
	node     *planner.Join
	left     Operator
	kind     planner.JoinKind
	leftKeys []evaluator
	residual evaluator
	schema   *arrow.Schema
	// pairSchema is a candidate pair's: left columns then right ones. It
	// is schema except for a semi or anti join, which outputs left rows.
	pairSchema *arrow.Schema
	leftTypes  []arrow.DataType

	// build is the right input in memory. A join whose probe side runs in
	// a Gather's workers shares one build with the other workers (shared):
	// the Gather closes it, and the join's output ends with each morsel of
	// its left input, the next morsel's rows following on the next Next.
	build  *joinBuild
	shared bool
	ready  bool // the build is done

	rightMatched []bool
	rightPos     int // the next right row emitUnmatchedRight looks at
	// existsOnBuild: a semi or anti join hashing its left input
	// (planner.Join.HashLeft). Probes mark the build rows that match, in
	// rightMatched, and the join emits the marked rows (semi) or the
	// others (anti) once every probe row has been seen.
	existsOnBuild bool

	// probe is the left batch being joined, resumed by each Next so one
	// call produces at most one batch of candidate pairs.
	probe probeState
	// Scratch reused across probes: key lookups, key ids and pair indexes
	// (gathering copies out of them), and a probed selection.
	scratch                      keyScratch
	idsBuf, liBuf, riBuf, selBuf []int32

	// selecting is the left input when it is a filter whose selection
	// an inner join probes in place (startProbe); nil otherwise.
	selecting *filter

	out      []arrow.RecordBatch
	leftDone bool
	finished bool
	// grace is the join of the partitions, when the build went to disk.
	grace *partitionedJoin
}

// joinBuild is a join's right input held in memory, with its keys hashed.
// Once built it is only read, so several probing goroutines may share it.
type joinBuild struct {
	right      Operator
	rightKeys  []evaluator
	rightTypes []arrow.DataType

	once  sync.Once
	err   error
	rcols []arrow.Array
	rrows int
	// table gives each distinct build key an id; groupRows lays out
	// which build rows have key id (offs, rows; unique when each has one).
	table      *keyTable
	offs, rows []int32
	unique     bool
	// keysAreColumns: every key is a column of the build rows, whose
	// range keyRange may read before the keys are inserted.
	keysAreColumns bool
	// intKeys: every key is an integer column (indexOneKey).
	intKeys bool
	// With several integer keys, the table may index one of them alone
	// when its values are dense and each row's own, as a primary key is
	// (TPC-H Q5's c_custkey beside c_nationkey): indexBy is that key, -1
	// when the table takes every key together, and checks hold the other
	// keys' values by build row, compared with a probe row's after its
	// lookup (check.keep). An index by key is an array read per probe
	// where a composite key is hashed, and its build hashes nothing.
	indexBy int
	checks  []keyCheck
	// mem is what the build side holds of the query's memory budget.
	mem reservation
	// peers are the builds shared with this one by a Gather's workers
	// (nil for a join's own build), started together (startAll).
	peers *sharedBuilds

	// A build past the budget partitions its rows to disk instead
	// (join_spill.go): spill is where, nil when it may not; parts are
	// the right side's partitions once written.
	node  *planner.Join
	depth int
	spill *SpillArea
	ins   *Instrumentation
	seed  maphash.Seed
	parts []*spillFile
}

// probeState is a left batch part-way through its probe: its keys, the
// row reached, and that row's matches not yet paired.
type probeState struct {
	batch arrow.RecordBatch
	// sel are the batch's rows probed (a filter's selection), nil for
	// all: probe row r is the batch's row sel[r].
	sel         []int32
	keys        []arrow.Array
	ids         []int32 // each row's build key id, -1 for none
	row         int
	matches     []int32
	haveMatches bool
	// one holds the match of a unique build's key (joinBuild.rowsOf).
	one         [1]int32
	leftMatched []bool
}

func (p *probeState) release() {
	if p.batch != nil {
		p.batch.Release()
	}
	releaseAll(p.keys)
	*p = probeState{}
}

func newHashJoin(ctx context.Context, n *planner.Join) (Operator, error) {
	if g, ok := existenceProbedInWorkers(n); ok {
		return newExistenceInWorkers(ctx, n, g)
	}
	lk, rk, _ := splitJoinKeys(n)
	reg := sharedBuildsFrom(ctx)
	probeSide, buildSide := joinSides(n)
	left, err := Build(ctx, probeSide)
	if err != nil {
		return nil, err
	}
	var build *joinBuild
	shared := reg.probesInWorkers(n)
	if shared {
		build, err = reg.buildFor(ctx, n, rk)
	} else {
		var right Operator
		if right, err = Build(ctx, buildSide); err == nil {
			build, err = newJoinBuild(ctx, n, right, rk, len(lk) > 0, 0)
		}
	}
	if err != nil {
		left.Close()
		return nil, err
	}
	return newHashJoinOver(ctx, n, left, build, shared)
}

// newHashJoinOver is the join n of left with build, which it closes unless
// shared.
func newHashJoinOver(ctx context.Context, n *planner.Join, left Operator, build *joinBuild, shared bool) (*hashJoin, error) {
	lk, _, rest := splitJoinKeys(n)
	probeSide, buildSide := joinSides(n)
	pairCols := append(append([]planner.Column(nil), probeSide.Columns()...), buildSide.Columns()...)
	j := &hashJoin{node: n, left: left, kind: n.Kind, schema: schemaOf(n.Columns()), pairSchema: schemaOf(pairCols),
		build: build, shared: shared, existsOnBuild: n.HashLeft && n.Kind.Existence()}
	fail := func(err error) (*hashJoin, error) {
		j.Close()
		return nil, err
	}
	for _, c := range probeSide.Columns() {
		j.leftTypes = append(j.leftTypes, c.Type.Arrow())
	}
	for i := range lk {
		le, err := compile(lk[i], probeSide.Columns())
		if err != nil {
			return fail(err)
		}
		j.leftKeys = append(j.leftKeys, le)
	}
	if rest != nil {
		var err error
		if j.residual, err = compile(rest, pairCols); err != nil {
			return fail(err)
		}
	}
	if f, ok := left.(*filter); ok && n.Kind == planner.InnerJoin && allEvaluateAside(lk) {
		j.selecting = f
	}
	return j, nil
}

// allEvaluateAside reports whether every expression may be evaluated on
// rows a filter rejected (planner.EvaluatesAside).
func allEvaluateAside(exprs []planner.Expr) bool {
	for _, e := range exprs {
		if !planner.EvaluatesAside(e) {
			return false
		}
	}
	return true
}

// nextLeft is the left input's next batch and the rows of it to probe:
// nil for all of them.
func (j *hashJoin) nextLeft(ctx context.Context) (arrow.RecordBatch, []int32, error) {
	if j.selecting != nil {
		return j.selecting.nextSelected(ctx)
	}
	b, err := j.left.Next(ctx)
	return b, nil, err
}

// newJoinBuild is the build side of n over its right input, which it
// closes. A build with keys may spill (join_spill.go): depth counts the
// partitionings above it.
func newJoinBuild(ctx context.Context, n *planner.Join, right Operator, rightKeys []planner.Expr, mayPartition bool, depth int) (*joinBuild, error) {
	b := &joinBuild{right: right, mem: newReservation(ctx, "HashJoin"), node: n, depth: depth, indexBy: -1}
	if mayPartition && depth < maxJoinSpillDepth {
		b.spill, b.ins = spillAreaFor(ctx), instrumentationFrom(ctx)
	}
	_, buildSide := joinSides(n)
	for _, c := range buildSide.Columns() {
		b.rightTypes = append(b.rightTypes, c.Type.Arrow())
	}
	for _, k := range rightKeys {
		e, err := compile(k, buildSide.Columns())
		if err != nil {
			b.close()
			return nil, err
		}
		b.rightKeys = append(b.rightKeys, e)
	}
	// A column reads the same values each time keyRange and the inserts
	// evaluate it; an expression might not (random()).
	b.keysAreColumns, b.intKeys = len(rightKeys) > 0, len(rightKeys) > 0
	for _, k := range rightKeys {
		_, isColumn := k.(*planner.ColRef)
		b.keysAreColumns = b.keysAreColumns && isColumn
		b.intKeys = b.intKeys && isColumn && intKeyType(k.Type().Arrow())
	}
	return b, nil
}

// joinSides are n's probe side, streamed, and build side, hashed: left
// and right, unless n hashes its left input (planner.Join.HashLeft).
func joinSides(n *planner.Join) (probe, build planner.Node) {
	if n.HashLeft {
		return n.Right, n.Left
	}
	return n.Left, n.Right
}

// splitJoinKeys finds the equality conjuncts usable as hash keys: one side
// reads only probe-side columns, the other only build-side columns, and
// both have the same Arrow type (so equal values encode equally). left
// are the probe side's keys, right the build side's (joinSides).
func splitJoinKeys(n *planner.Join) (left, right []planner.Expr, residual planner.Expr) {
	if n.On == nil {
		return nil, nil, nil
	}
	probeSide, _ := joinSides(n)
	leftIDs := map[planner.ColumnID]bool{}
	for _, c := range probeSide.Columns() {
		leftIDs[c.ID] = true
	}
	side := func(e planner.Expr) int { // 1 left, 2 right, 0 mixed or none
		cols := map[planner.ColumnID]bool{}
		planner.ExprColumns(e, cols)
		l, r := 0, 0
		for id := range cols {
			if leftIDs[id] {
				l++
			} else {
				r++
			}
		}
		switch {
		case l > 0 && r == 0:
			return 1
		case r > 0 && l == 0:
			return 2
		}
		return 0
	}
	var rest []planner.Expr
	for _, c := range planner.SplitConjuncts(n.On) {
		b, ok := c.(*planner.BinOp)
		if ok && b.Op.Name == "=" && arrow.TypeEqual(b.L.Type().Arrow(), b.R.Type().Arrow()) {
			ls, rs := side(b.L), side(b.R)
			switch {
			case ls == 1 && rs == 2:
				left, right = append(left, b.L), append(right, b.R)
				continue
			case ls == 2 && rs == 1:
				left, right = append(left, b.R), append(right, b.L)
				continue
			}
		}
		rest = append(rest, c)
	}
	and, _ := functions.LookupOperator("AND")
	for _, c := range rest {
		if residual == nil {
			residual = c
		} else {
			residual = &planner.BinOp{Op: and, L: residual, R: c, Typ: types.Bool}
		}
	}
	return left, right, residual
}

// reserveSampleRows is the fewest rows of a build's first batch whose
// share of distinct keys sizes its table for the whole input.
const reserveSampleRows = 4096

// build reads the right input into memory and hashes its keys, charging
// what it keeps to the query's memory budget.
func (b *joinBuild) build(ctx context.Context) error {
	var batches []arrow.RecordBatch
	var batchMem int64
	defer func() {
		for _, rb := range batches {
			rb.Release()
		}
		// The batches are now copied into rcols, which stay charged.
		b.mem.shrink(batchMem)
	}()
	// The whole input is read before any key is hashed, so that the
	// table is sized once for it (keyTable.reserve).
	total := 0
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rb, err := b.right.Next(ctx)
		if err != nil {
			return err
		}
		if rb == nil {
			break
		}
		size := batchBytes(rb)
		batches = append(batches, rb) // released with the others
		if err := b.mem.grow(size); err != nil {
			return b.partitionOrFail(ctx, err, batches, false)
		}
		batchMem += size
		total += int(rb.NumRows())
	}
	b.table = newKeyTable()
	if err := b.mem.grow(4 * int64(total)); err != nil {
		return b.partitionOrFail(ctx, err, batches, true)
	}
	rowIDs := make([]int32, total)
	heldBefore := b.mem.held
	if indexed, err := b.indexOneKey(ctx, batches, total); err != nil {
		return err
	} else if !indexed && len(b.rightKeys) == 1 {
		lo, hi, ok, err := b.keyRange(ctx, batches, 0)
		if err != nil {
			return err
		}
		if ok && b.table.indexesByKey(lo, hi, total) && b.mem.tryGrow(directBytes(lo, hi)) {
			b.table.indexByKey(lo, hi, total)
		} else if ok && presenceBytes(lo, hi, total) > 0 && b.mem.tryGrow(rankedBytes(lo, hi, total)) {
			b.table.rankKeys(lo, hi)
		}
	}
	numbered := false
	if b.table.ranked {
		var err error
		if numbered, err = b.rankRows(ctx, batches, rowIDs); err != nil {
			return err
		}
		if !numbered {
			b.mem.shrink(b.mem.held - heldBefore)
			b.table = newKeyTable()
		}
	}
	if !numbered {
		if overBudget, err := b.insertKeys(ctx, batches, rowIDs, total); overBudget {
			return b.partitionOrFail(ctx, err, batches, true)
		} else if err != nil {
			return err
		}
	}
	if b.indexBy >= 0 && !b.eachKeyOneRow(rowIDs) {
		// The indexed key repeats: the table takes every key after all.
		b.mem.shrink(b.mem.held - heldBefore)
		b.table, b.indexBy = newKeyTable(), -1
		if overBudget, err := b.insertKeys(ctx, batches, rowIDs, total); overBudget {
			return b.partitionOrFail(ctx, err, batches, true)
		} else if err != nil {
			return err
		}
	}
	if b.indexBy >= 0 {
		if err := b.keepChecks(ctx, batches, total); err != nil {
			return b.partitionOrFail(ctx, err, batches, true)
		}
	}
	if err := b.groupRows(rowIDs); err != nil {
		return b.partitionOrFail(ctx, err, batches, true)
	}
	b.mem.shrink(4 * int64(total))
	b.rrows = total
	b.rcols = make([]arrow.Array, len(b.rightTypes))
	for c, dt := range b.rightTypes {
		if len(batches) == 0 {
			b.rcols[c] = array.MakeArrayOfNull(memory.DefaultAllocator, dt, 0)
			continue
		}
		parts := make([]arrow.Array, len(batches))
		for i, rb := range batches {
			parts[i] = rb.Column(c)
		}
		if err := b.mem.grow(arraysBytes(parts)); err != nil {
			return b.partitionOrFail(ctx, err, batches, true)
		}
		col := parts[0]
		if len(parts) == 1 {
			// One batch is kept as it is: the batch itself is released.
			col.Retain()
		} else {
			var err error
			if col, err = array.Concatenate(parts, memory.DefaultAllocator); err != nil {
				return fmt.Errorf("join: %w", err)
			}
		}
		settleNullCounts(col.Data())
		b.rcols[c] = col
	}
	return nil
}

// keyRange is the smallest and largest value of the build rows' key k
// when the keys are columns, k an integer one, and a row has a key (ok).
func (b *joinBuild) keyRange(ctx context.Context, batches []arrow.RecordBatch, k int) (lo, hi int64, ok bool, err error) {
	if !b.keysAreColumns || len(batches) == 0 {
		return 0, 0, false, nil
	}
	var vals []int64
	for _, rb := range batches {
		keys, err := evalAll(ctx, b.rightKeys, rb)
		if err != nil {
			return 0, 0, false, err
		}
		k := keys[k]
		if !intKeyType(k.DataType()) {
			releaseAll(keys)
			return 0, 0, false, nil
		}
		vals = intKeyValues(k, vals[:0])
		lo, hi, ok = keyBounds(k, vals, lo, hi, ok)
		releaseAll(keys)
	}
	return lo, hi, ok, nil
}

// groupRows lays out the build rows by key id, from each row's id
// (rowIDs, -1 for a NULL key). When every key has one row, as a join on
// a primary key has, a key's row is rows[id], or id itself when no row
// was skipped, and a probe reads one array less per match; otherwise the
// rows of key id are rows[offs[id]:offs[id+1]] (a counting sort,
// stable).
func (b *joinBuild) groupRows(rowIDs []int32) error {
	keyed := keyedRows(rowIDs)
	b.unique = keyed == b.table.len()
	if b.unique {
		if keyed == len(rowIDs) {
			// Ids were given in row order, one per row.
			return nil
		}
		if err := b.mem.grow(4 * int64(keyed)); err != nil {
			return err
		}
		b.rows = make([]int32, keyed)
		for r, id := range rowIDs {
			if id >= 0 {
				b.rows[id] = int32(r)
			}
		}
		return nil
	}
	if err := b.mem.grow(4 * int64(b.table.len()+1+keyed)); err != nil {
		return err
	}
	b.offs = make([]int32, b.table.len()+1)
	for _, id := range rowIDs {
		if id >= 0 {
			b.offs[id+1]++
		}
	}
	for i := 1; i < len(b.offs); i++ {
		b.offs[i] += b.offs[i-1]
	}
	b.rows = make([]int32, keyed)
	fill := append([]int32(nil), b.offs[:len(b.offs)-1]...)
	for r, id := range rowIDs {
		if id >= 0 {
			b.rows[fill[id]] = int32(r)
			fill[id]++
		}
	}
	return nil
}

// rowOf is the build row of key id in a build whose keys are unique.
func (b *joinBuild) rowOf(id int32) int32 {
	if b.rows == nil {
		return id
	}
	return b.rows[id]
}

// rowsOf are the build rows of key id, in input order; one holds the
// unique build's row.
func (b *joinBuild) rowsOf(id int32, one *[1]int32) []int32 {
	if b.unique {
		one[0] = b.rowOf(id)
		return one[:]
	}
	return b.rows[b.offs[id]:b.offs[id+1]]
}

func (j *hashJoin) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !j.ready {
		if err := j.ensureBuilt(ctx); err != nil {
			return nil, err
		}
		j.ready = true
	}
	if j.build.parts != nil {
		return j.nextPartitioned(ctx)
	}
	for len(j.out) == 0 {
		if j.finished {
			return nil, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if j.probe.batch != nil {
			if err := j.probeSome(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if j.leftDone {
			done, err := j.emitUnmatchedRight(ctx)
			if err != nil {
				return nil, err
			}
			j.finished = done
			continue
		}
		b, sel, err := j.nextLeft(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			if j.shared {
				// The end of this worker's morsel: the next morsel's
				// rows come on the next call.
				return nil, nil
			}
			j.leftDone = true
			continue
		}
		if err := j.startProbe(ctx, b, sel); err != nil {
			return nil, err
		}
	}
	out := j.out[0]
	j.out = j.out[1:]
	return out, nil
}

// startProbe makes b the batch being probed: its rows sel (a filter's
// selection), or all of them when sel is nil. Of the selected rows only
// the keys are copied out, to be looked up; the joined rows are gathered
// from b's columns, so the columns of the many rows a selective join
// drops are never copied. The keys are evaluated on the whole batch: an
// error there may come from a row the filter rejected, so the kept rows
// are then copied and probed alone, raising only their own errors.
func (j *hashJoin) startProbe(ctx context.Context, b arrow.RecordBatch, sel []int32) error {
	keys, err := evalAll(ctx, j.leftKeys, b)
	if err != nil && sel != nil {
		kept, terr := takeBatch(ctx, b, sel)
		b.Release()
		if terr != nil {
			return terr
		}
		return j.startProbe(ctx, kept, nil)
	}
	if err != nil {
		b.Release()
		return err
	}
	n := int(b.NumRows())
	if sel != nil {
		picked, err := gatherColumns(ctx, keys, sel)
		releaseAll(keys)
		if err != nil {
			b.Release()
			return err
		}
		// The filter reuses its selection for its next batch.
		keys, n, sel = picked, len(sel), append(j.selBuf[:0], sel...)
		j.selBuf = sel
	}
	if cap(j.idsBuf) < n {
		j.idsBuf = make([]int32, n)
	}
	ids := j.idsBuf[:n]
	j.build.lookup(keys, n, ids, &j.scratch)
	j.probe = probeState{batch: b, sel: sel, keys: keys, ids: ids}
	if (j.kind == planner.LeftJoin || j.kind == planner.FullJoin || j.kind.Existence()) && !j.existsOnBuild {
		j.probe.leftMatched = make([]bool, b.NumRows())
	}
	return nil
}

// probeSome pairs the probed batch's rows with their matches until one
// output batch of candidates is full or the batch ends, and queues the
// joined rows. A key matching many build rows (or a join without keys,
// where every row matches) thus streams in bounded steps.
func (j *hashJoin) probeSome(ctx context.Context) error {
	p := &j.probe
	n := len(p.ids)
	if j.liBuf == nil {
		// Sized for the first batch: a catalog query joins batches of a
		// few rows, and allocating a whole output batch per join was
		// most of what it allocated. Larger batches grow the buffers.
		size := min(n, outputBatchRows)
		j.liBuf, j.riBuf = make([]int32, 0, size), make([]int32, 0, size)
	}
	li, ri := j.liBuf[:0], j.riBuf[:0]
	if j.kind.Existence() && j.residual == nil {
		// Every key match is a match: no pairs to build.
		if j.existsOnBuild {
			j.markKeyMatches(p.ids)
		} else {
			for r, id := range p.ids {
				p.leftMatched[r] = id >= 0
			}
		}
		p.row = n
	}
	if j.build.unique && !j.existsOnBuild {
		// One build row per key: pairs straight from the ids.
		b, existence := j.build, j.kind.Existence()
		for ; p.row < n && len(li) < outputBatchRows; p.row++ {
			if id := p.ids[p.row]; id >= 0 && !(existence && p.leftMatched[p.row]) {
				li, ri = append(li, int32(p.row)), append(ri, b.rowOf(id))
			}
		}
	}
	for p.row < n && len(li) < outputBatchRows {
		if !p.haveMatches {
			id := p.ids[p.row]
			// A semi or anti join needs one match per row: a row matched
			// by an earlier chunk pairs no further.
			if id < 0 || j.kind.Existence() && !j.existsOnBuild && p.leftMatched[p.row] {
				p.row++
				continue
			}
			p.matches, p.haveMatches = j.build.rowsOf(id, &p.one), true
		}
		take := min(len(p.matches), outputBatchRows-len(li))
		for _, m := range p.matches[:take] {
			if j.existsOnBuild && j.rightMatched[m] {
				// Already kept (or dropped): no need to test it again.
				continue
			}
			li, ri = append(li, int32(p.row)), append(ri, m)
		}
		p.matches = p.matches[take:]
		if len(p.matches) == 0 {
			p.row++
			p.haveMatches = false
		}
	}
	j.liBuf, j.riBuf = li[:0], ri[:0] // keep what appending grew
	if p.sel != nil {
		// Only an inner join probes a selection: li are not kept as
		// leftMatched's rows.
		for k, r := range li {
			li[k] = p.sel[r]
		}
	}
	if len(li) > 0 {
		if err := j.emitPairs(ctx, p.batch, li, ri, p.leftMatched); err != nil {
			return err
		}
	}
	if p.row < n {
		return nil
	}
	defer p.release()
	if p.leftMatched == nil {
		return nil
	}
	if j.kind.Existence() {
		return j.emitExisting(ctx, p)
	}
	var idx []int32
	for r, m := range p.leftMatched {
		if !m {
			idx = append(idx, int32(r))
		}
	}
	if len(idx) == 0 {
		return nil
	}
	lcols, err := takeColumns(ctx, p.batch.Columns(), idx)
	if err != nil {
		return err
	}
	j.queue(append(lcols, nullColumns(j.build.rightTypes, len(idx))...), len(idx))
	return nil
}

// emitPairs builds the joined rows of candidate pairs, keeps those the
// residual condition admits, and records which rows matched.
func (j *hashJoin) emitPairs(ctx context.Context, b arrow.RecordBatch, li, ri []int32, leftMatched []bool) error {
	lcols, err := takeColumns(ctx, b.Columns(), li)
	if err != nil {
		return err
	}
	rcols, err := takeColumns(ctx, j.build.rcols, ri)
	if err != nil {
		releaseAll(lcols)
		return err
	}
	joined := array.NewRecordBatch(j.pairSchema, append(lcols, rcols...), int64(len(li)))
	releaseAll(lcols)
	releaseAll(rcols)
	if j.residual == nil {
		for k := range li {
			j.mark(li[k], ri[k], leftMatched)
		}
		j.out = append(j.out, joined)
		return nil
	}
	mask, err := j.residual.eval(ctx, joined)
	if err != nil {
		joined.Release()
		return err
	}
	m := mask.(*array.Boolean)
	for k := range li {
		if m.IsValid(k) && m.Value(k) {
			j.mark(li[k], ri[k], leftMatched)
		}
	}
	if j.kind.Existence() {
		// The pairs only decide which left rows match.
		mask.Release()
		joined.Release()
		return nil
	}
	kept, err := filterBatch(ctx, joined, mask)
	mask.Release()
	joined.Release()
	if err != nil {
		return err
	}
	if kept.NumRows() == 0 {
		kept.Release()
		return nil
	}
	j.out = append(j.out, kept)
	return nil
}

func (j *hashJoin) mark(l, r int32, leftMatched []bool) {
	if leftMatched != nil {
		leftMatched[l] = true
	}
	if j.rightMatched != nil {
		j.rightMatched[r] = true
	}
}

// emitUnmatchedRight queues the next batch of build rows no probe row
// matched (RIGHT and FULL joins, an anti join hashing its left input) or,
// for a semi join hashing its left input, of those some probe row
// matched; it scans from rightPos, and done reports that none are left.
func (j *hashJoin) emitUnmatchedRight(ctx context.Context) (done bool, err error) {
	want := j.existsOnBuild && j.kind == planner.SemiJoin
	var idx []int32
	for ; j.rightPos < len(j.rightMatched) && len(idx) < outputBatchRows; j.rightPos++ {
		if j.rightMatched[j.rightPos] == want {
			idx = append(idx, int32(j.rightPos))
		}
	}
	if len(idx) > 0 {
		rcols, err := takeColumns(ctx, j.build.rcols, idx)
		if err != nil {
			return false, err
		}
		if !j.existsOnBuild {
			rcols = append(nullColumns(j.leftTypes, len(idx)), rcols...)
		}
		j.queue(rcols, len(idx))
	}
	return j.rightPos >= len(j.rightMatched), nil
}

// markKeyMatches marks, for a semi or anti join hashing its left input
// without a residual condition, every build row whose key a probe row
// (ids, its key ids) has.
func (j *hashJoin) markKeyMatches(ids []int32) {
	b := j.build
	var one [1]int32
	for _, id := range ids {
		if id < 0 {
			continue
		}
		rows := b.rowsOf(id, &one)
		if len(rows) == 0 || j.rightMatched[rows[0]] {
			// The key's rows are marked together.
			continue
		}
		for _, r := range rows {
			j.rightMatched[r] = true
		}
	}
}

func (j *hashJoin) queue(cols []arrow.Array, n int) {
	j.out = append(j.out, array.NewRecordBatch(j.schema, cols, int64(n)))
	releaseAll(cols)
}

func (j *hashJoin) Close() {
	j.probe.release()
	if !j.shared {
		j.grace.close(j.build)
	}
	if j.build != nil && !j.shared {
		j.build.close()
	}
	j.build = nil
	for _, b := range j.out {
		b.Release()
	}
	j.out = nil
	j.left.Close()
}

// ensureBuilt builds the right side, once however many workers share it,
// and sets up what this join keeps of its own about the build rows.
func (j *hashJoin) ensureBuilt(ctx context.Context) error {
	b := j.build
	if j.shared {
		b.peers.startAll(ctx)
		b.once.Do(func() { b.err = b.build(ctx) })
		if b.err != nil {
			return b.err
		}
	} else if err := b.build(ctx); err != nil {
		return err
	}
	if j.kind == planner.RightJoin || j.kind == planner.FullJoin || j.existsOnBuild {
		if err := b.mem.grow(int64(b.rrows)); err != nil {
			return err
		}
		j.rightMatched = make([]bool, b.rrows)
	}
	return nil
}

// settleNullCounts counts the nulls of d, its children and dictionary
// now. Arrow counts them lazily on first use and stores the count in the
// array's data: arrays several goroutines read must have it stored first.
func settleNullCounts(d arrow.ArrayData) {
	a := array.MakeFromData(d)
	a.NullN()
	a.Release()
	for _, c := range d.Children() {
		settleNullCounts(c)
	}
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		settleNullCounts(dict)
	}
}

// close releases the build rows and the right input.
func (b *joinBuild) close() {
	releaseAll(b.rcols)
	b.rcols = nil
	b.table, b.offs, b.rows, b.unique = nil, nil, nil, false
	b.mem.close()
	if b.right != nil {
		b.right.Close()
		b.right = nil
	}
}

func evalAll(ctx context.Context, evs []evaluator, b arrow.RecordBatch) ([]arrow.Array, error) {
	out := make([]arrow.Array, 0, len(evs))
	for _, e := range evs {
		a, err := e.eval(ctx, b)
		if err != nil {
			releaseAll(out)
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func releaseAll(arrs []arrow.Array) {
	for _, a := range arrs {
		if a != nil {
			a.Release()
		}
	}
}

// takeColumns gathers rows idx of each column.
func takeColumns(ctx context.Context, cols []arrow.Array, idx []int32) ([]arrow.Array, error) {
	if consecutive(idx) {
		// A run of rows (a probe batch every row of which found one
		// match) is a slice of the columns, not a copy.
		lo, hi := int64(idx[0]), int64(idx[0])+int64(len(idx))
		out := make([]arrow.Array, len(cols))
		for i, c := range cols {
			out[i] = array.NewSlice(c, lo, hi)
		}
		return out, nil
	}
	out, err := gatherColumns(ctx, cols, idx)
	if err != nil {
		return nil, fmt.Errorf("join: %w", err)
	}
	return out, nil
}

func nullColumns(dts []arrow.DataType, n int) []arrow.Array {
	out := make([]arrow.Array, len(dts))
	for i, dt := range dts {
		out[i] = array.MakeArrayOfNull(memory.DefaultAllocator, dt, n)
	}
	return out
}
