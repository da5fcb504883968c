package exec

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// An aggregate call with FILTER, DISTINCT, ORDER BY or WITHIN GROUP reads
// more than its argument. Its inputs are evaluated together into one
// struct array (callInputs), which the Aggregate operator hands to the
// call's accumulator (callAcc) as if it were the argument. callAcc drops
// the rows the filter rejects; when the rows must be seen sorted it keeps
// them (rowBuffer) and, at the end, sorts each group's rows, removes
// duplicates for DISTINCT, and feeds them to the plain aggregate's
// accumulator in that order, or computes the ordered-set aggregate.

// needsCallInputs reports whether a call reads more than its argument
// and delimiter.
func needsCallInputs(a *planner.AggCall) bool {
	return a.Distinct || a.Filter != nil || len(a.OrderBy) > 0 || a.Func.OrderedSet
}

// compileAggCall compiles an aggregate call of an Aggregate node over
// input: the evaluator of what its accumulator is fed, the delimiter's
// evaluator for a plain delimited call (nil otherwise), and the
// accumulator.
func compileAggCall(a *planner.AggCall, input []planner.Column) (arg, delim evaluator, acc accumulator, err error) {
	if needsCallInputs(a) {
		arg, acc, err = compileCallInputs(a, input)
		return arg, nil, acc, err
	}
	if a.Arg != nil {
		if arg, err = compile(a.Arg, input); err != nil {
			return nil, nil, nil, err
		}
	}
	if a.Delim != nil {
		if delim, err = compile(a.Delim, input); err != nil {
			return nil, nil, nil, err
		}
	}
	acc, err = newAccumulator(a)
	return arg, delim, acc, err
}

// callLayout is where each input of a call sits in its struct array; -1
// when the call has no such input.
type callLayout struct {
	arg, delim, filter int
	order              []int
	row                []int // the fields of a row-valued argument
}

// callInputs evaluates a call's inputs into one struct array.
type callInputs struct {
	evs   []evaluator
	names []string
}

func (c *callInputs) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	cols := make([]arrow.Array, 0, len(c.evs))
	defer func() {
		for _, col := range cols {
			col.Release()
		}
	}()
	for _, ev := range c.evs {
		a, err := ev.eval(ctx, b)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	s, err := array.NewStructArray(cols, c.names)
	if err != nil {
		return nil, fmt.Errorf("aggregate inputs: %w", err)
	}
	return s, nil
}

// compileCallInputs compiles a call that reads more than its argument.
func compileCallInputs(a *planner.AggCall, input []planner.Column) (evaluator, accumulator, error) {
	in := &callInputs{}
	add := func(e planner.Expr) (int, error) {
		if e == nil {
			return -1, nil
		}
		ev, err := compile(e, input)
		if err != nil {
			return -1, err
		}
		in.evs = append(in.evs, ev)
		in.names = append(in.names, strconv.Itoa(len(in.names)))
		return len(in.evs) - 1, nil
	}
	var lay callLayout
	var err error
	if lay.arg, err = add(a.Arg); err != nil {
		return nil, nil, err
	}
	if lay.delim, err = add(a.Delim); err != nil {
		return nil, nil, err
	}
	if lay.filter, err = add(a.Filter); err != nil {
		return nil, nil, err
	}
	for _, k := range a.OrderBy {
		i, err := add(k.Expr)
		if err != nil {
			return nil, nil, err
		}
		lay.order = append(lay.order, i)
	}
	for _, e := range a.RowArgs {
		i, err := add(e)
		if err != nil {
			return nil, nil, err
		}
		lay.row = append(lay.row, i)
	}
	if len(in.evs) == 0 {
		// count(*) FILTER (...) always has its filter; this is a plan
		// that reads nothing at all.
		return nil, nil, fmt.Errorf("aggregate %s reads no input", a)
	}
	acc := &callAcc{call: a, lay: lay, buffered: a.Distinct || len(a.OrderBy) > 0}
	if a.Func.OrderedSet {
		if a.Direct != nil {
			f, null, err := constantFloat(a.Direct)
			if err != nil {
				return nil, nil, err
			}
			acc.fraction, acc.fractionNull = f, null
		}
	} else {
		plain := *a
		plain.Distinct, plain.Filter, plain.OrderBy = false, nil, nil
		if acc.inner, err = newAccumulator(&plain); err != nil {
			return nil, nil, err
		}
	}
	for _, e := range a.Exprs() {
		if e == a.Direct {
			continue
		}
		acc.types = append(acc.types, e.Type().Arrow())
	}
	return in, acc, nil
}

// constantFloat evaluates a constant double precision expression.
func constantFloat(e planner.Expr) (float64, bool, error) {
	ev, err := compile(e, nil)
	if err != nil {
		return 0, false, err
	}
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	a, err := ev.eval(context.Background(), one)
	if err != nil {
		return 0, false, err
	}
	defer a.Release()
	if a.IsNull(0) {
		return 0, true, nil
	}
	return floatsOf(a)[0], false, nil
}

// callAcc is the accumulator of a call with FILTER, DISTINCT, ORDER BY or
// WITHIN GROUP. Its argument is the struct array of callInputs.
type callAcc struct {
	call *planner.AggCall
	lay  callLayout
	// inner is the plain aggregate's accumulator; nil for an ordered-set
	// aggregate, which callAcc computes itself.
	inner accumulator
	// buffered: the rows are kept and sorted before they are aggregated.
	buffered bool
	rows     rowBuffer
	types    []arrow.DataType
	// fraction is a percentile's constant fraction.
	fraction     float64
	fractionNull bool
}

func (c *callAcc) update(groups []int32, n int, arg arrow.Array) error {
	s, ok := arg.(*array.Struct)
	if !ok {
		return fmt.Errorf("aggregate %s fed %s", c.call, arg.DataType())
	}
	cols := make([]arrow.Array, s.NumField())
	for i := range cols {
		cols[i] = s.Field(i)
	}
	// Keep the rows the filter accepts; ordered-set aggregates also
	// skip NULL values.
	var keep []int32
	filtering := c.lay.filter >= 0 || (c.call.Func.OrderedSet && cols[c.lay.arg].NullN() > 0)
	if filtering {
		var f *array.Boolean
		if c.lay.filter >= 0 {
			f = cols[c.lay.filter].(*array.Boolean)
		}
		for i := range groups {
			if f != nil && (f.IsNull(i) || !f.Value(i)) {
				continue
			}
			if c.call.Func.OrderedSet && cols[c.lay.arg].IsNull(i) {
				continue
			}
			keep = append(keep, int32(i))
		}
		if len(keep) == len(groups) {
			filtering = false
		}
	}
	if filtering {
		idx := newFixed(arrow.PrimitiveTypes.Int32, keep, nil, 0)
		defer idx.Release()
		taken := make([]arrow.Array, len(cols))
		defer func() {
			for _, t := range taken {
				if t != nil {
					t.Release()
				}
			}
		}()
		for i, col := range cols {
			t, err := takeArray(context.Background(), col, idx)
			if err != nil {
				return fmt.Errorf("aggregate filter: %w", err)
			}
			taken[i] = t
		}
		kept := make([]int32, len(keep))
		for i, r := range keep {
			kept[i] = groups[r]
		}
		return c.feed(kept, n, taken)
	}
	return c.feed(groups, n, cols)
}

// feed passes rows the filter accepted on: kept for later, or straight
// to the plain aggregate.
func (c *callAcc) feed(groups []int32, n int, cols []arrow.Array) error {
	if c.buffered {
		c.rows.add(groups, cols)
		return nil
	}
	return c.feedInner(groups, n, cols)
}

func (c *callAcc) feedInner(groups []int32, n int, cols []arrow.Array) error {
	var arg arrow.Array
	if c.lay.arg >= 0 {
		arg = cols[c.lay.arg]
	}
	if c.lay.delim >= 0 {
		da, ok := c.inner.(delimitedAccumulator)
		if !ok {
			return fmt.Errorf("aggregate %s takes no delimiter", c.call.Func.Name)
		}
		return da.updateDelimited(groups, n, arg, cols[c.lay.delim])
	}
	return c.inner.update(groups, n, arg)
}

func (c *callAcc) memBytes() int64 {
	n := c.rows.memBytes()
	if c.inner != nil {
		n += c.inner.memBytes()
	}
	return n
}

func (c *callAcc) result(n int) (arrow.Array, error) {
	if !c.buffered && !c.call.Func.OrderedSet {
		return c.inner.result(n)
	}
	groups := c.rows.groups
	c.rows.groups = nil
	cols, err := c.rows.take(c.types)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, col := range cols {
			col.Release()
		}
	}()
	perm, starts := groupOrder(groups, n)
	if err := c.sortGroups(cols, perm, starts); err != nil {
		return nil, err
	}
	if c.call.Distinct {
		perm, starts, err = c.distinct(cols, perm, starts)
		if err != nil {
			return nil, err
		}
	}
	if c.call.Func.OrderedSet {
		return c.orderedSet(cols[c.lay.arg], perm, starts)
	}
	// Feed the plain aggregate every row, in group and sort order.
	idx := newFixed(arrow.PrimitiveTypes.Int32, perm, nil, 0)
	defer idx.Release()
	sorted := make([]arrow.Array, len(cols))
	defer func() {
		for _, s := range sorted {
			if s != nil {
				s.Release()
			}
		}
	}()
	for i, col := range cols {
		if i != c.lay.arg && i != c.lay.delim {
			continue
		}
		if sorted[i], err = takeArray(context.Background(), col, idx); err != nil {
			return nil, fmt.Errorf("aggregate order: %w", err)
		}
	}
	ordered := make([]int32, len(perm))
	for g := 0; g < n; g++ {
		for k := starts[g]; k < starts[g+1]; k++ {
			ordered[k] = int32(g)
		}
	}
	if err := c.feedInner(ordered, n, sorted); err != nil {
		return nil, err
	}
	return c.inner.result(n)
}

// sortGroups sorts each group's rows by the call's ORDER BY and, for
// DISTINCT, then by the arguments. The sort is stable: equal keys keep
// their input order.
func (c *callAcc) sortGroups(cols []arrow.Array, perm, starts []int32) error {
	keys := slices.Clip(c.call.OrderBy)
	pos := slices.Clip(c.lay.order)
	if c.call.Distinct {
		// Equal arguments must end up next to each other for distinct to
		// drop them: the arguments break the ORDER BY's ties, the second
		// (corr(DISTINCT y, x)'s x) too, or a row argument's fields.
		switch {
		case len(c.lay.row) > 0:
			for i, e := range c.call.RowArgs {
				keys = append(keys, planner.SortKey{Expr: e})
				pos = append(pos, c.lay.row[i])
			}
		default:
			keys = append(keys, planner.SortKey{Expr: c.call.Arg})
			pos = append(pos, c.lay.arg)
			if c.call.Delim != nil {
				keys = append(keys, planner.SortKey{Expr: c.call.Delim})
				pos = append(pos, c.lay.delim)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	cmps := make([]func(i, j int) int, len(keys))
	for k, key := range keys {
		cmp, err := typedComparator(cols[pos[k]], key.Expr.Type(), key.Desc, key.NullsFirst)
		if err != nil {
			return err
		}
		cmps[k] = cmp
	}
	less := func(i, j int32) int {
		for _, cmp := range cmps {
			if c := cmp(int(i), int(j)); c != 0 {
				return c
			}
		}
		return 0
	}
	for g := 0; g+1 < len(starts); g++ {
		slices.SortStableFunc(perm[starts[g]:starts[g+1]], less)
	}
	return nil
}

// distinct keeps the first of each run of equal arguments (and
// delimiters) in each sorted group.
func (c *callAcc) distinct(cols []arrow.Array, perm, starts []int32) ([]int32, []int32, error) {
	var eqs []func(i, j int) int
	for _, p := range append([]int{c.lay.arg, c.lay.delim}, c.lay.row...) {
		if p < 0 {
			continue
		}
		cmp, err := typedComparator(cols[p], c.exprType(p), false, false)
		if err != nil {
			return nil, nil, err
		}
		eqs = append(eqs, cmp)
	}
	same := func(i, j int32) bool {
		for _, eq := range eqs {
			if eq(int(i), int(j)) != 0 {
				return false
			}
		}
		return true
	}
	out := make([]int32, 0, len(perm))
	newStarts := make([]int32, len(starts))
	for g := 0; g+1 < len(starts); g++ {
		newStarts[g] = int32(len(out))
		for k := starts[g]; k < starts[g+1]; k++ {
			if k > starts[g] && same(perm[k], out[len(out)-1]) {
				continue
			}
			out = append(out, perm[k])
		}
	}
	newStarts[len(starts)-1] = int32(len(out))
	return out, newStarts, nil
}

// exprType is the SQL type of the argument or delimiter at struct
// position p.
func (c *callAcc) exprType(p int) types.T {
	if p == c.lay.delim {
		return c.call.Delim.Type()
	}
	for i, r := range c.lay.row {
		if p == r {
			return c.call.RowArgs[i].Type()
		}
	}
	return c.call.Arg.Type()
}

// orderedSet computes percentile_cont, percentile_disc or mode from each
// group's sorted, non-NULL values.
func (c *callAcc) orderedSet(vals arrow.Array, perm, starts []int32) (arrow.Array, error) {
	n := len(starts) - 1
	name := c.call.Func.Name
	if name != "mode" && n > 0 {
		if c.fractionNull {
			return array.MakeArrayOfNull(memory.DefaultAllocator, c.call.Out.Type.Arrow(), n), nil
		}
		if p := c.fraction; p < 0 || p > 1 || math.IsNaN(p) {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "percentile value %s is not between 0 and 1", strconv.FormatFloat(p, 'g', -1, 64))
		}
	}
	if name == "percentile_cont" {
		f := floatsOf(vals)
		out := make([]float64, n)
		seen := make([]bool, n)
		p := c.fraction
		for g := 0; g < n; g++ {
			lo, cnt := starts[g], starts[g+1]-starts[g]
			if cnt == 0 {
				continue
			}
			pos := p * float64(cnt-1)
			first, second := math.Floor(pos), math.Ceil(pos)
			v := f[perm[lo+int32(first)]]
			if second != first {
				hi := f[perm[lo+int32(second)]]
				v += (hi - v) * (pos - first)
			}
			out[g], seen[g] = v, true
		}
		bits, nulls := seenBitmap(seen, n)
		return newFixed(arrow.PrimitiveTypes.Float64, out, bits, nulls), nil
	}
	// percentile_disc and mode pick one row of each group.
	pick := make([]int32, n)
	seen := make([]bool, n)
	var eq func(i, j int) int
	if name == "mode" {
		var err error
		if eq, err = typedComparator(vals, c.call.Arg.Type(), false, false); err != nil {
			return nil, err
		}
	}
	for g := 0; g < n; g++ {
		lo, hi := starts[g], starts[g+1]
		cnt := hi - lo
		if cnt == 0 {
			continue
		}
		seen[g] = true
		if name == "percentile_disc" {
			row := int32(math.Ceil(c.fraction * float64(cnt)))
			pick[g] = perm[lo+max(row, 1)-1]
			continue
		}
		// mode: the longest run of equal values, the first on ties.
		best, bestLen := perm[lo], int32(0)
		for k := lo; k < hi; {
			end := k + 1
			for end < hi && eq(int(perm[k]), int(perm[end])) == 0 {
				end++
			}
			if end-k > bestLen {
				best, bestLen = perm[k], end-k
			}
			k = end
		}
		pick[g] = best
	}
	validity, nulls := seenBitmap(seen, n)
	idx := newFixed(arrow.PrimitiveTypes.Int32, pick, validity, nulls)
	defer idx.Release()
	out, err := takeArray(context.Background(), vals, idx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}
