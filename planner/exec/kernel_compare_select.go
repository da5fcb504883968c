package exec

import (
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// cmpSelect is a comparison of a column with a constant, or of two
// columns of one type, run by a filter over the typed value buffers: it
// narrows a selection of rows without building a boolean array, and a
// column-versus-constant test on integers, dates, timestamps and decimals
// that fit in 64 bits is one unsigned range check per row.
type cmpSelect struct {
	// acc is the answer for a three-way comparison of -1, 0 and 1.
	acc   [3]bool
	op    string
	left  int // column index of the left operand
	right int // column index of the right operand; -1 for the constant
	// castDate: the left column is a date compared as a timestamp
	// (date::timestamp), each value converted as castDatetime does.
	castDate bool
	konst    any   // the constant, in the constant representation; never nil
	kscale   int32 // the constant's scale, for numeric
	kfloat32 bool  // the constant is a real (compared at float32 precision)
	// also: comparisons of the same column with constants, ANDed with
	// this one (x >= a AND x < b), tested with it as one range per row.
	also []*cmpSelect
}

func cmpAccept(op string) ([3]bool, bool) {
	switch op {
	case "=":
		return [3]bool{false, true, false}, true
	case "<>":
		return [3]bool{true, false, true}, true
	case "<":
		return [3]bool{true, false, false}, true
	case "<=":
		return [3]bool{true, true, false}, true
	case ">":
		return [3]bool{false, false, true}, true
	case ">=":
		return [3]bool{false, true, true}, true
	}
	return [3]bool{}, false
}

// columnOperand finds the input column an operand reads: a column, a
// lossless integer widening of one (compared as int64 either way), or a
// date column cast to timestamp.
func columnOperand(e planner.Expr, input []planner.Column) (idx int, castDate, ok bool) {
	if c, isCast := e.(*planner.Cast); isCast {
		from, to := c.Arg.Type(), c.To
		switch {
		case from.OID == types.OIDDate && to.OID == types.OIDTimestamp:
			castDate = true
		case from.Family() == types.FamilyInt && to.Family() == types.FamilyInt && from.OID != types.OIDOid && to.OID != types.OIDOid && planner.IntWidening(from, to):
		default:
			return 0, false, false
		}
		e = c.Arg
	}
	ref, isRef := e.(*planner.ColRef)
	if !isRef {
		return 0, false, false
	}
	for i, c := range input {
		if c.ID == ref.ID {
			return i, castDate, true
		}
	}
	return 0, false, false
}

// newCmpSelect recognises a comparison a filter can run as a typed
// selection; l and r are the operands' compiled evaluators (a folded
// constant is a *constEval). It returns nil for any other expression.
func newCmpSelect(x *planner.BinOp, l, r evaluator, input []planner.Column) *cmpSelect {
	if x.Op.Kind != functions.Comparison || x.L.Type().OID == types.OIDJSONB {
		return nil
	}
	op := x.Op.Name
	lexpr, rexpr := x.L, x.R
	if _, ok := l.(*constEval); ok {
		// k op col is col op' k.
		op, lexpr, rexpr, l, r = planner.FlipComparison(op), x.R, x.L, r, l
	}
	acc, ok := cmpAccept(op)
	if !ok {
		return nil
	}
	li, castDate, ok := columnOperand(lexpr, input)
	if !ok {
		return nil
	}
	s := &cmpSelect{acc: acc, op: op, left: li, right: -1, castDate: castDate}
	if k, ok := r.(*constEval); ok {
		if k.value == nil {
			return nil
		}
		s.konst, s.kscale = k.value, k.typ.Scale
		s.kfloat32 = k.typ.OID == types.OIDFloat4
		return s
	}
	ri, rcast, ok := columnOperand(rexpr, input)
	if !ok || castDate || rcast || lexpr.Type().OID != rexpr.Type().OID {
		return nil
	}
	s.right = ri
	return s
}

// bitmapOf returns a's validity bitmap and offset, or nil when a has no
// NULL.
func bitmapOf(a arrow.Array) ([]byte, int) {
	if a.NullN() == 0 {
		return nil, 0
	}
	return a.NullBitmapBytes(), a.Data().Offset()
}

// rowSet is the rows a selection runs over: sel, or every row below n
// when dense. out collects the rows where the test is true; when nulls
// is not nil a row where it is NULL is kept too and marked there.
type rowSet struct {
	sel   []int32
	dense bool
	n     int
	nulls []bool
}

// selectRows appends to out the rows of rs where the comparison is true
// (and the NULL rows, marked, when rs.nulls is set). ok is false when
// the batch's types have no typed loop; the caller then evaluates the
// comparison as an array.
func (s *cmpSelect) selectRows(b arrow.RecordBatch, rs rowSet, out []int32) ([]int32, bool) {
	col := b.Column(s.left)
	if s.right >= 0 {
		return s.selectColumns(col, b.Column(s.right), rs, out)
	}
	bm, off := bitmapOf(col)
	if r, ok := s.rangeOf(col); ok {
		for _, m := range s.also {
			mr, ok := m.rangeOf(col)
			if !ok {
				return out, false
			}
			if r, ok = r.and(mr); !ok {
				return out, false
			}
		}
		return selectColumnRange(col, r, bm, off, rs, out), true
	}
	if len(s.also) > 0 {
		return out, false
	}
	switch id := col.DataType().ID(); id {
	case arrow.DECIMAL128, arrow.DECIMAL64:
		if d, ok := s.konst.(*apd.Decimal); ok {
			return selectDecimalGeneral(decimalValues(col), decimalScale(col), d, s.op, bm, off, rs, out)
		}
		k, ok := s.konst.(decimal128.Num)
		if !ok {
			return out, false
		}
		cs := decimalScale(col)
		if s.kscale > cs {
			return out, false
		}
		if k, ok = rescaleDecimal(k, s.kscale, cs); !ok {
			return out, false
		}
		return selectDecimal(decimalValues(col), k, s.op, s.acc, bm, off, rs, out), true
	case arrow.FLOAT32, arrow.FLOAT64:
		k, ok := s.konst.(float64)
		if !ok {
			return out, false
		}
		if id == arrow.FLOAT32 {
			if !s.kfloat32 {
				return out, false
			}
			return selectFloat(values[float32](col), float64(float32(k)), s.acc, bm, off, rs, out), true
		}
		return selectFloat(values[float64](col), k, s.acc, bm, off, rs, out), true
	case arrow.STRING:
		k, ok := s.konst.(string)
		if !ok {
			return out, false
		}
		return selectString(col.(*array.String), k, s.acc, bm, off, rs, out), true
	}
	return out, false
}

// rangeOf is the comparison as a range of col's values, for the types
// whose values compare as integers: integers, dates, timestamps, times,
// and 64-bit decimals with a constant at or below the column's scale
// that fits in 64 bits there. A date compared as a timestamp gets the
// range of dates whose timestamps the comparison accepts.
func (s *cmpSelect) rangeOf(col arrow.Array) (intRange, bool) {
	id := col.DataType().ID()
	if !comparesAsInts(id) {
		return intRange{}, false
	}
	switch id {
	case arrow.DECIMAL64:
		k, ok := s.konst.(decimal128.Num)
		cs := decimalScale(col)
		if !ok || s.kscale > cs {
			return intRange{}, false
		}
		if k, ok = rescaleDecimal(k, s.kscale, cs); !ok {
			return intRange{}, false
		}
		k64, ok := int64Of(k)
		if !ok {
			return intRange{}, false
		}
		return newIntRange(s.op, k64), true
	default:
		k, ok := s.konst.(int64)
		if d, isDate := s.konst.(int32); isDate && id == arrow.DATE32 && !s.castDate {
			k, ok = int64(d), true
		}
		if !ok || (s.castDate && id != arrow.DATE32) {
			return intRange{}, false
		}
		if s.castDate {
			return datesCastInto(newIntRange(s.op, k)), true
		}
		return newIntRange(s.op, k), true
	}
}

// comparesAsInts reports whether a column of type id has its values
// compared as int64s by a range (rangeOf, selectColumnRange): integers,
// dates, timestamps, times and 64-bit decimals.
func comparesAsInts(id arrow.Type) bool {
	switch id {
	case arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64, arrow.DECIMAL64:
		return true
	}
	return false
}

// selectColumnRange keeps the rows of rs whose value of col is in r,
// reading col's values at their width.
func selectColumnRange(col arrow.Array, r intRange, bm []byte, off int, rs rowSet, out []int32) []int32 {
	switch col.DataType().ID() {
	case arrow.INT16:
		return selectRange(values[int16](col), r, bm, off, rs, out)
	case arrow.INT32, arrow.DATE32:
		return selectRange(values[int32](col), r, bm, off, rs, out)
	}
	return selectRange(values[int64](col), r, bm, off, rs, out)
}

// intRange is the set of int64 values a comparison with a constant
// accepts: lo <= v <= lo+span (unsigned), or its complement when neg.
type intRange struct {
	lo   int64
	span uint64
	neg  bool
}

// between is lo..hi, for lo <= hi.
func between(lo, hi int64) intRange { return intRange{lo: lo, span: uint64(hi) - uint64(lo)} }

// noValue is the range no value is in.
func noValue() intRange { return intRange{lo: math.MinInt64, span: math.MaxUint64, neg: true} }

func newIntRange(op string, k int64) intRange {
	everything, nothing := intRange{lo: math.MinInt64, span: math.MaxUint64}, noValue()
	switch op {
	case "=":
		return between(k, k)
	case "<>":
		r := between(k, k)
		r.neg = true
		return r
	case "<":
		if k == math.MinInt64 {
			return nothing
		}
		return between(math.MinInt64, k-1)
	case "<=":
		return between(math.MinInt64, k)
	case ">":
		if k == math.MaxInt64 {
			return nothing
		}
		return between(k+1, math.MaxInt64)
	case ">=":
		return between(k, math.MaxInt64)
	}
	return everything
}

func (r intRange) has(v int64) bool { return (uint64(v)-uint64(r.lo) <= r.span) != r.neg }

// hi is the last value of a range that is not a complement.
func (r intRange) hi() int64 { return int64(uint64(r.lo) + r.span) }

// and is the range of the values both r and o accept. ok is false when
// either is the complement of a range (a <>) other than noValue.
func (r intRange) and(o intRange) (intRange, bool) {
	switch {
	case r == noValue() || o == noValue():
		return noValue(), true
	case r.neg || o.neg:
		return intRange{}, false
	}
	lo, hi := max(r.lo, o.lo), min(r.hi(), o.hi())
	if lo > hi {
		return noValue(), true
	}
	return between(lo, hi), true
}

// datesCastInto is the range of dates (days, as int64) whose
// date::timestamp r accepts, in PostgreSQL's order of dates among
// timestamps (dateAsTimestamp). That order never decreases with the
// date, so the dates a range accepts are a range, found by bisection.
func datesCastInto(r intRange) intRange {
	if r.neg {
		p := datesCastInto(intRange{lo: r.lo, span: r.span})
		p.neg = !p.neg
		return p
	}
	lo := firstDate(func(d int32) bool { return dateAsTimestamp(d) >= r.lo })
	hi := firstDate(func(d int32) bool { return dateAsTimestamp(d) > r.hi() }) - 1
	if lo > hi {
		return noValue()
	}
	return between(lo, hi)
}

// firstDate is the least date (days, as int64) for which after holds,
// after being false then true as dates grow; MaxInt32+1 when it never
// holds.
func firstDate(after func(int32) bool) int64 {
	lo, hi := int64(math.MinInt32), int64(math.MaxInt32)+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if after(int32(mid)) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// dateAsTimestamp places a date among timestamps as PostgreSQL's
// date-timestamp comparisons do: the infinities at the ends, a date past
// the timestamps' range after every finite timestamp (before infinity),
// one before it before them, and any other at its midnight.
func dateAsTimestamp(d int32) int64 {
	switch {
	case d == types.DateNegInfinity:
		return types.TimestampNegInfinity
	case d == types.DatePosInfinity:
		return types.TimestampPosInfinity
	case int64(d) > types.MaxTimestampMicros/types.MicrosPerDay:
		return types.TimestampPosInfinity - 1
	case int64(d) < types.MinTimestampMicros/types.MicrosPerDay:
		return types.TimestampNegInfinity + 1
	}
	return int64(d) * types.MicrosPerDay
}

// keptBy is 1 for a row a test keeps, else 0. The range selections write
// every row's index and advance past the kept ones: a filter keeping
// about half the rows at random (TPC-H Q3's date) mispredicted a branch
// per row.
func keptBy(keep bool) int {
	if keep {
		return 1
	}
	return 0
}

func validBit(bm []byte, off, i int) bool { return bitutil.BitIsSet(bm, off+i) }

// keepNull handles a NULL row: kept and marked when the caller tracks
// NULLs, dropped otherwise.
func keepNull(rs rowSet, i int32, out []int32) []int32 {
	if rs.nulls != nil {
		rs.nulls[i] = true
		out = append(out, i)
	}
	return out
}

func selectRange[T int16 | int32 | int64](vals []T, r intRange, bm []byte, off int, rs rowSet, out []int32) []int32 {
	switch {
	case rs.dense && bm == nil:
		k, out := len(out), slices.Grow(out, rs.n)[:len(out)+rs.n]
		for i, v := range vals[:rs.n] {
			out[k] = int32(i)
			k += keptBy(r.has(int64(v)))
		}
		return out[:k]
	case bm == nil:
		k, out := len(out), slices.Grow(out, len(rs.sel))[:len(out)+len(rs.sel)]
		for _, i := range rs.sel {
			out[k] = i
			k += keptBy(r.has(int64(vals[i])))
		}
		return out[:k]
	default:
		for j, rows := 0, rowsIn(rs); j < rows; j++ {
			i := rowAt(rs, j)
			switch {
			case !validBit(bm, off, int(i)):
				out = keepNull(rs, i, out)
			case r.has(int64(vals[i])):
				out = append(out, i)
			}
		}
	}
	return out
}

// selectDecimal compares decimals with k, already at the column's scale.
// When k fits in 64 bits, so do nearly all values: those take the int64
// range test, and a value past 64 bits is decided by its sign alone.
func selectDecimal(vals []decimal128.Num, k decimal128.Num, op string, acc [3]bool, bm []byte, off int, rs rowSet, out []int32) []int32 {
	test := func(v decimal128.Num) bool { return acc[v.Cmp(k)+1] }
	if k64, ok := int64Of(k); ok {
		r := newIntRange(op, k64)
		above, below := acc[2], acc[0]
		test = func(v decimal128.Num) bool {
			lo, hi := v.LowBits(), v.HighBits()
			if hi == int64(lo)>>63 {
				return r.has(int64(lo))
			}
			if hi >= 0 {
				return above
			}
			return below
		}
		if bm == nil {
			// The common case, without a call per row.
			if rs.dense {
				for i := range vals[:rs.n] {
					lo, hi := vals[i].LowBits(), vals[i].HighBits()
					if (hi == int64(lo)>>63 && r.has(int64(lo))) || (hi != int64(lo)>>63 && ((hi >= 0 && above) || (hi < 0 && below))) {
						out = append(out, int32(i))
					}
				}
				return out
			}
			for _, i := range rs.sel {
				lo, hi := vals[i].LowBits(), vals[i].HighBits()
				if (hi == int64(lo)>>63 && r.has(int64(lo))) || (hi != int64(lo)>>63 && ((hi >= 0 && above) || (hi < 0 && below))) {
					out = append(out, i)
				}
			}
			return out
		}
	}
	for j, rows := 0, rowsIn(rs); j < rows; j++ {
		i := rowAt(rs, j)
		switch {
		case bm != nil && !validBit(bm, off, int(i)):
			out = keepNull(rs, i, out)
		case test(vals[i]):
			out = append(out, i)
		}
	}
	return out
}

// selectFloat orders NaN as compareFloat does.
func selectFloat[T float32 | float64](vals []T, k float64, acc [3]bool, bm []byte, off int, rs rowSet, out []int32) []int32 {
	for j, rows := 0, rowsIn(rs); j < rows; j++ {
		i := rowAt(rs, j)
		switch {
		case bm != nil && !validBit(bm, off, int(i)):
			out = keepNull(rs, i, out)
		case acc[floatCmp(float64(vals[i]), k)+1]:
			out = append(out, i)
		}
	}
	return out
}

// selectString compares bytewise, as compareArrays does.
func selectString(col *array.String, k string, acc [3]bool, bm []byte, off int, rs rowSet, out []int32) []int32 {
	if acc[1] != acc[0] || acc[1] != acc[2] {
		if acc == [3]bool{false, true, false} || acc == [3]bool{true, false, true} {
			return selectStringEqual(col, k, acc[1], bm, off, rs, out)
		}
	}
	for j, rows := 0, rowsIn(rs); j < rows; j++ {
		i := rowAt(rs, j)
		switch {
		case bm != nil && !validBit(bm, off, int(i)):
			out = keepNull(rs, i, out)
		case acc[strCmp(col.Value(int(i)), k)+1]:
			out = append(out, i)
		}
	}
	return out
}

// selectStringEqual keeps the rows equal to k (or, with !eq, unequal),
// straight from the offsets and bytes: a value of another length is
// decided by its length, and a one-byte constant (a flag, a status) by
// one byte.
func selectStringEqual(col *array.String, k string, eq bool, bm []byte, off int, rs rowSet, out []int32) []int32 {
	offs, data := col.ValueOffsets(), col.ValueBytes()
	base, kl := offs[0], int32(len(k))
	match := func(i int32) bool {
		from, to := offs[i]-base, offs[i+1]-base
		if to-from != kl {
			return false
		}
		if kl == 1 {
			return data[from] == k[0]
		}
		return string(data[from:to]) == k
	}
	if bm == nil && rs.dense && kl == 1 && len(data) > 0 {
		// A flag (l_returnflag = 'R'): a length and a byte per row, kept
		// without a branch (keptBy); an empty last value reads the byte
		// before it, which its length rules out.
		k0, last, flip := k[0], int32(len(data)-1), keptBy(!eq)
		j, out := len(out), slices.Grow(out, rs.n)[:len(out)+rs.n]
		for i := range int32(rs.n) {
			from := min(offs[i]-base, last)
			out[j] = i
			j += keptBy(offs[i+1]-offs[i] == 1)&keptBy(data[from] == k0) ^ flip
		}
		return out[:j]
	}
	if bm == nil && rs.dense {
		for i := range int32(rs.n) {
			if match(i) == eq {
				out = append(out, i)
			}
		}
		return out
	}
	for j, rows := 0, rowsIn(rs); j < rows; j++ {
		i := rowAt(rs, j)
		switch {
		case bm != nil && !validBit(bm, off, int(i)):
			out = keepNull(rs, i, out)
		case match(i) == eq:
			out = append(out, i)
		}
	}
	return out
}

func strCmp(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// selectColumns compares two columns of one type row by row.
func (s *cmpSelect) selectColumns(l, r arrow.Array, rs rowSet, out []int32) ([]int32, bool) {
	id := l.DataType().ID()
	if id != r.DataType().ID() {
		return out, false
	}
	lbm, loff := bitmapOf(l)
	rbm, roff := bitmapOf(r)
	var test func(i int32) bool
	switch id {
	case arrow.INT16:
		return selectOrdered(values[int16](l), values[int16](r), s.acc, lbm, loff, rbm, roff, rs, out), true
	case arrow.INT32, arrow.DATE32:
		return selectOrdered(values[int32](l), values[int32](r), s.acc, lbm, loff, rbm, roff, rs, out), true
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		return selectOrdered(values[int64](l), values[int64](r), s.acc, lbm, loff, rbm, roff, rs, out), true
	case arrow.FLOAT64:
		lv, rv := values[float64](l), values[float64](r)
		test = func(i int32) bool { return s.acc[floatCmp(lv[i], rv[i])+1] }
	case arrow.DECIMAL128, arrow.DECIMAL64:
		if decimalScale(l) != decimalScale(r) || r.DataType().ID() != id {
			return out, false
		}
		if id == arrow.DECIMAL64 {
			return selectOrdered(values[int64](l), values[int64](r), s.acc, lbm, loff, rbm, roff, rs, out), true
		}
		lv, rv := values[decimal128.Num](l), values[decimal128.Num](r)
		test = func(i int32) bool { return s.acc[lv[i].Cmp(rv[i])+1] }
	case arrow.STRING:
		ls, rstr := l.(*array.String), r.(*array.String)
		test = func(i int32) bool { return s.acc[strCmp(ls.Value(int(i)), rstr.Value(int(i)))+1] }
	default:
		return out, false
	}
	for j, rows := 0, rowsIn(rs); j < rows; j++ {
		i := rowAt(rs, j)
		switch {
		case (lbm != nil && !validBit(lbm, loff, int(i))) || (rbm != nil && !validBit(rbm, roff, int(i))):
			out = keepNull(rs, i, out)
		case test(i):
			out = append(out, i)
		}
	}
	return out, true
}

// selectOrdered compares two integer columns row by row: without NULLs
// in one loop and no call per row.
func selectOrdered[T int16 | int32 | int64](l, r []T, acc [3]bool, lbm []byte, loff int, rbm []byte, roff int, rs rowSet, out []int32) []int32 {
	test := func(a, b T) bool {
		c := 0
		if a < b {
			c = -1
		} else if a > b {
			c = 1
		}
		return acc[c+1]
	}
	if lbm == nil && rbm == nil {
		if rs.dense {
			for i := range l[:rs.n] {
				if test(l[i], r[i]) {
					out = append(out, int32(i))
				}
			}
			return out
		}
		for _, i := range rs.sel {
			if test(l[i], r[i]) {
				out = append(out, i)
			}
		}
		return out
	}
	for j, rows := 0, rowsIn(rs); j < rows; j++ {
		i := rowAt(rs, j)
		switch {
		case (lbm != nil && !validBit(lbm, loff, int(i))) || (rbm != nil && !validBit(rbm, roff, int(i))):
			out = keepNull(rs, i, out)
		case test(l[i], r[i]):
			out = append(out, i)
		}
	}
	return out
}

// rowsIn is the number of rows of rs; rowAt the k-th of them. A loop
// over them costs a predictable branch per row, not a call.
func rowsIn(rs rowSet) int {
	if rs.dense {
		return rs.n
	}
	return len(rs.sel)
}

func rowAt(rs rowSet, k int) int32 {
	if rs.dense {
		return int32(k)
	}
	return rs.sel[k]
}
