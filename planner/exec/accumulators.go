package exec

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// accumulator folds one aggregate per group. update sees a batch's
// argument (nil for count(*)) and the group of each row; ngroups is the
// number of groups so far, so state grows with new groups.
type accumulator interface {
	update(groups []int32, ngroups int, arg arrow.Array) error
	result(ngroups int) (arrow.Array, error)
	// memBytes estimates the memory the per-group state holds.
	memBytes() int64
}

func newAccumulator(a *planner.AggCall) (accumulator, error) {
	out := a.Out.Type
	if a.Arg != nil {
		if acc, ok := newGeneralAccumulator(a.Func.Name, a.Arg.Type()); ok {
			return acc, nil
		}
	}
	switch a.Func.Name {
	case "count":
		return &countAcc{}, nil
	case "sum", "avg":
		avg := a.Func.Name == "avg"
		switch in := a.Arg.Type(); in.Family() {
		case types.FamilyInt:
			if in.OID == types.OIDInt8 || avg {
				return &decimalSumAcc{out: out, avg: avg}, nil
			}
			return &intSumAcc{}, nil
		case types.FamilyNumeric:
			return &decimalSumAcc{out: out, avg: avg}, nil
		case types.FamilyFloat:
			return &floatSumAcc{out: out, avg: avg}, nil
		}
	case "min", "max":
		return &minMaxAcc{max: a.Func.Name == "max", out: out}, nil
	case "string_agg":
		return &stringAggAcc{}, nil
	}
	return newMoreAccumulator(a)
}

// grow extends s to n zeroed elements, at least doubling its capacity
// when it must move: a grouping adds a batch's new groups at a time,
// and append's growth of a quarter for large slices moved a million
// groups' state about five times over (a fifth of TPC-H Q18's time).
func grow[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	if n <= cap(s) {
		out := s[:n]
		clear(out[len(s):])
		return out
	}
	out := make([]T, n, max(n, 2*cap(s)))
	copy(out, s)
	return out
}

// countAcc counts rows (count(*)) or non-NULL values.
type countAcc struct{ counts []int64 }

func (c *countAcc) update(groups []int32, n int, arg arrow.Array) error {
	c.counts = grow(c.counts, n)
	if arg == nil || arg.NullN() == 0 {
		for _, g := range groups {
			c.counts[g]++
		}
		return nil
	}
	for i, g := range groups {
		if arg.IsValid(i) {
			c.counts[g]++
		}
	}
	return nil
}

func (c *countAcc) memBytes() int64 { return 8 * int64(cap(c.counts)) }

func (c *countAcc) result(n int) (arrow.Array, error) {
	c.counts = grow(c.counts, n)
	return newFixed(arrow.PrimitiveTypes.Int64, c.counts[:n], nil, 0), nil
}

// seenBitmap is the validity of a result: a group that saw no non-NULL
// value aggregates to NULL.
func seenBitmap(seen []bool, n int) ([]byte, int) {
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	nulls := 0
	for g := 0; g < n; g++ {
		if g < len(seen) && seen[g] {
			bitutil.SetBit(bits, g)
		} else {
			nulls++
		}
	}
	return bits, nulls
}

// intSumAcc sums smallint and integer into bigint.
type intSumAcc struct {
	sums []int64
	seen []bool
}

func (s *intSumAcc) update(groups []int32, n int, arg arrow.Array) error {
	s.sums, s.seen = grow(s.sums, n), grow(s.seen, n)
	vals := intsOf(arg)
	for i, g := range groups {
		if arg.IsNull(i) {
			continue
		}
		s.sums[g] += vals[i]
		s.seen[g] = true
	}
	return nil
}

func (s *intSumAcc) memBytes() int64 { return 8*int64(cap(s.sums)) + int64(cap(s.seen)) }

func (s *intSumAcc) result(n int) (arrow.Array, error) {
	s.sums = grow(s.sums, n)
	bits, nulls := seenBitmap(s.seen, n)
	return newFixed(arrow.PrimitiveTypes.Int64, s.sums[:n], bits, nulls), nil
}

// addOverflowed reports whether a+b wrapped around 128 bits.
func addOverflowed(a, b, sum decimal128.Num) bool {
	return a.Sign() == b.Sign() && a.Sign() != 0 && sum.Sign() != a.Sign()
}

// decimalSumAcc sums bigint and numeric exactly (sum and avg). A
// group's sum is held in two parts: small, in 64 bits, takes each value
// that fits while the sum stays in 64 bits (every value of a
// numeric(18,s) column, until a group's total passes 9.2e18 units); on
// overflow it is folded into the 128-bit part wide, which also takes
// the values past 64 bits directly. The sum is wide + small. wide is
// made only when a group first needs it: most groupings never do, and
// at 16 bytes a group it was the largest array of one by order number.
type decimalSumAcc struct {
	out    types.T
	avg    bool
	scale  int32
	small  []int64
	wide   []decimal128.Num
	counts []int64
}

// addWide adds v to group g's 128-bit part; 22003 when it wraps.
func (s *decimalSumAcc) addWide(g int32, v decimal128.Num) error {
	if len(s.wide) <= int(g) {
		s.wide = grow(s.wide, len(s.small))
	}
	sum := s.wide[g].Add(v)
	if addOverflowed(s.wide[g], v, sum) {
		return errNumericOverflow()
	}
	s.wide[g] = sum
	return nil
}

// spill folds group g's 64-bit part into its 128-bit part and restarts
// the 64-bit part at x, whose addition overflowed it.
func (s *decimalSumAcc) spill(g int32, x int64) error {
	if err := s.addWide(g, decimal128.FromI64(s.small[g])); err != nil {
		return err
	}
	s.small[g] = x
	return nil
}

// total is group g's sum.
func (s *decimalSumAcc) total(g int32) (decimal128.Num, error) {
	small := decimal128.FromI64(s.small[g])
	if len(s.wide) <= int(g) {
		return small, nil
	}
	sum := s.wide[g].Add(small)
	if addOverflowed(s.wide[g], small, sum) {
		return sum, errNumericOverflow()
	}
	return sum, nil
}

func (s *decimalSumAcc) update(groups []int32, n int, arg arrow.Array) error {
	return s.updateSelected(groups, n, arg, nil)
}

// updateSelected folds the rows sel of arg (nil: all), the j-th of them
// into groups[j]. The loops are written out per case: this is the
// hottest loop of a grouping's sums.
func (s *decimalSumAcc) updateSelected(groups []int32, n int, arg arrow.Array, sel []int32) error {
	s.grow(n)
	bm, off := bitmapOf(arg)
	if arg.DataType().ID() == arrow.DECIMAL128 {
		s.scale = decimalScale(arg)
		vals := values[decimal128.Num](arg)
		if sel == nil {
			vals := vals[:len(groups)]
			for i, g := range groups {
				if bm != nil && !bitutil.BitIsSet(bm, off+i) {
					continue
				}
				s.counts[g]++
				if lo, hi := vals[i].LowBits(), vals[i].HighBits(); hi == int64(lo)>>63 && s.addSmall(g, int64(lo)) {
					continue
				}
				if err := s.addWideOrSpill(g, vals[i]); err != nil {
					return err
				}
			}
			return nil
		}
		for j, g := range groups {
			i := int(sel[j])
			if bm != nil && !bitutil.BitIsSet(bm, off+i) {
				continue
			}
			s.counts[g]++
			if lo, hi := vals[i].LowBits(), vals[i].HighBits(); hi == int64(lo)>>63 && s.addSmall(g, int64(lo)) {
				continue
			}
			if err := s.addWideOrSpill(g, vals[i]); err != nil {
				return err
			}
		}
		return nil
	}
	var vals []int64
	if arg.DataType().ID() == arrow.DECIMAL64 {
		s.scale, vals = decimalScale(arg), values[int64](arg)
	} else {
		vals = intsOf(arg)
	}
	if sel == nil {
		vals := vals[:len(groups)]
		for i, g := range groups {
			if bm != nil && !bitutil.BitIsSet(bm, off+i) {
				continue
			}
			s.counts[g]++
			if !s.addSmall(g, vals[i]) {
				if err := s.spill(g, vals[i]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for j, g := range groups {
		i := int(sel[j])
		if bm != nil && !bitutil.BitIsSet(bm, off+i) {
			continue
		}
		s.counts[g]++
		if !s.addSmall(g, vals[i]) {
			if err := s.spill(g, vals[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// addSmall adds x to group g's 64-bit part; false, changing nothing,
// when the part would overflow.
func (s *decimalSumAcc) addSmall(g int32, x int64) bool {
	sum, ok := addInt64(s.small[g], x)
	if ok {
		s.small[g] = sum
	}
	return ok
}

// addWideOrSpill adds v, which addSmall did not take, to group g: to its
// 128-bit part when v is past 64 bits, else by spilling the 64-bit part.
func (s *decimalSumAcc) addWideOrSpill(g int32, v decimal128.Num) error {
	lo, hi := v.LowBits(), v.HighBits()
	if hi != int64(lo)>>63 {
		return s.addWide(g, v)
	}
	return s.spill(g, int64(lo))
}

// grow makes room for n groups (and in wide once it is made).
func (s *decimalSumAcc) grow(n int) {
	s.small, s.counts = grow(s.small, n), grow(s.counts, n)
	if s.wide != nil {
		s.wide = grow(s.wide, n)
	}
}

func (s *decimalSumAcc) memBytes() int64 {
	return 8*int64(cap(s.small)) + 16*int64(cap(s.wide)) + 8*int64(cap(s.counts))
}

func (s *decimalSumAcc) result(n int) (arrow.Array, error) {
	s.grow(n)
	if s.out.IsGeneralNumeric() {
		return s.resultGeneral(n)
	}
	out := make([]decimal128.Num, n)
	seen := make([]bool, n)
	for g := 0; g < n; g++ {
		if s.counts[g] == 0 {
			continue
		}
		seen[g] = true
		v, err := s.total(int32(g))
		if err != nil {
			return nil, err
		}
		if s.avg {
			num := v.BigInt()
			num.Mul(num, types.Pow10(s.out.Scale-s.scale))
			var ok bool
			if v, ok = types.DivRound(num, big.NewInt(s.counts[g])); !ok {
				return nil, errNumericOverflow()
			}
		} else {
			var ok bool
			if v, ok = types.Rescale(v, s.scale, s.out.Scale); !ok {
				return nil, errNumericOverflow()
			}
		}
		if !v.FitsInPrecision(types.MaxNumericPrecision) {
			return nil, errNumericOverflow()
		}
		out[g] = v
	}
	bits, nulls := seenBitmap(seen, n)
	return newDecimal(s.out.Arrow(), out, bits, nulls), nil
}

// sumView answers a sum or average from the sums and counts another
// aggregate of the same argument keeps: TPC-H Q1's avg(l_quantity)
// beside sum(l_quantity) folds each row once. The aggregate updates and
// merges only the sums' owner (of); the view's own update and merge do
// nothing.
type sumView struct {
	of  *decimalSumAcc
	out types.T
	avg bool
}

// shareSums replaces each plain numeric sum or average whose argument an
// earlier one has (accs[i] of aggs[i]) with a view of the earlier one's
// sums.
func shareSums(aggs []*planner.AggCall, accs []accumulator) {
	for i, a := range aggs {
		s, ok := accs[i].(*decimalSumAcc)
		if !ok || a.Arg == nil {
			continue
		}
		for j := range i {
			if owner, ok := accs[j].(*decimalSumAcc); ok && aggs[j].Arg != nil && planner.SameExpr(aggs[j].Arg, a.Arg) {
				accs[i] = &sumView{of: owner, out: s.out, avg: s.avg}
				break
			}
		}
	}
}

func (v *sumView) update([]int32, int, arrow.Array) error { return nil }

func (v *sumView) updateSelected([]int32, int, arrow.Array, []int32) error { return nil }

func (v *sumView) merge(accumulator, []int32, int) error { return nil }

func (v *sumView) memBytes() int64 { return 0 }

func (v *sumView) result(n int) (arrow.Array, error) {
	sums := *v.of
	sums.out, sums.avg = v.out, v.avg
	return sums.result(n)
}

// floatSumAcc sums real and double precision (sum and avg).
type floatSumAcc struct {
	out    types.T
	avg    bool
	sums   []float64
	counts []int64
	// infinite marks the groups that summed an infinite input: their
	// infinite result is the answer, not an overflow (PostgreSQL's
	// float8_accum rule).
	infinite []bool
}

func (s *floatSumAcc) update(groups []int32, n int, arg arrow.Array) error {
	s.sums, s.counts, s.infinite = grow(s.sums, n), grow(s.counts, n), grow(s.infinite, n)
	vals := floatsOf(arg)
	for i, g := range groups {
		if arg.IsValid(i) {
			s.sums[g] += vals[i]
			s.counts[g]++
			if math.IsInf(vals[i], 0) {
				s.infinite[g] = true
			}
		}
	}
	return nil
}

func (s *floatSumAcc) memBytes() int64 {
	return 8*int64(cap(s.sums)) + 8*int64(cap(s.counts)) + int64(cap(s.infinite))
}

func (s *floatSumAcc) result(n int) (arrow.Array, error) {
	s.sums, s.counts, s.infinite = grow(s.sums, n), grow(s.counts, n), grow(s.infinite, n)
	seen := make([]bool, n)
	out := make([]float64, n)
	for g := 0; g < n; g++ {
		if s.counts[g] == 0 {
			continue
		}
		seen[g] = true
		out[g] = s.sums[g]
		if s.avg {
			out[g] /= float64(s.counts[g])
		}
		if math.IsInf(out[g], 0) && !s.infinite[g] {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
		}
	}
	bits, nulls := seenBitmap(seen, n)
	if s.out.OID == types.OIDFloat4 {
		f32 := make([]float32, n)
		for i, v := range out {
			f32[i] = float32(v)
		}
		return newFixed(s.out.Arrow(), f32, bits, nulls), nil
	}
	return newFixed(s.out.Arrow(), out, bits, nulls), nil
}

// minMaxAcc keeps the least or greatest value per group. Values are held
// in an Arrow builder-friendly form: the best row's value, by type.
type minMaxAcc struct {
	max  bool
	out  types.T
	seen []bool
	i64  []int64
	f64  []float64
	dec  []decimal128.Num
	str  []string
	bln  []bool
	// strBytes is the length of the strings in str.
	strBytes int64
}

func (m *minMaxAcc) better(c int) bool {
	if m.max {
		return c > 0
	}
	return c < 0
}

func (m *minMaxAcc) update(groups []int32, n int, arg arrow.Array) error {
	m.seen = grow(m.seen, n)
	switch arg.DataType().ID() {
	case arrow.INT16, arrow.INT32, arrow.INT64:
		m.i64 = grow(m.i64, n)
		vals := intsOf(arg)
		for i, g := range groups {
			if arg.IsValid(i) && (!m.seen[g] || m.better(cmp.Compare(vals[i], m.i64[g]))) {
				m.i64[g], m.seen[g] = vals[i], true
			}
		}
	case arrow.DATE32:
		m.i64 = grow(m.i64, n)
		vals := values[int32](arg)
		for i, g := range groups {
			if arg.IsValid(i) && (!m.seen[g] || m.better(cmp.Compare(int64(vals[i]), m.i64[g]))) {
				m.i64[g], m.seen[g] = int64(vals[i]), true
			}
		}
	case arrow.TIMESTAMP, arrow.TIME64:
		m.i64 = grow(m.i64, n)
		vals := values[int64](arg)
		for i, g := range groups {
			if arg.IsValid(i) && (!m.seen[g] || m.better(cmp.Compare(vals[i], m.i64[g]))) {
				m.i64[g], m.seen[g] = vals[i], true
			}
		}
	case arrow.FLOAT32, arrow.FLOAT64:
		m.f64 = grow(m.f64, n)
		vals := floatsOf(arg)
		for i, g := range groups {
			if arg.IsValid(i) && (!m.seen[g] || m.better(floatCmp(vals[i], m.f64[g]))) {
				m.f64[g], m.seen[g] = vals[i], true
			}
		}
	case arrow.DECIMAL128:
		m.dec = grow(m.dec, n)
		vals := values[decimal128.Num](arg)
		for i, g := range groups {
			if arg.IsValid(i) && (!m.seen[g] || m.better(vals[i].Cmp(m.dec[g]))) {
				m.dec[g], m.seen[g] = vals[i], true
			}
		}
	case arrow.DECIMAL64:
		m.dec = grow(m.dec, n)
		vals := values[int64](arg)
		for i, g := range groups {
			if arg.IsValid(i) && (!m.seen[g] || m.better(cmp.Compare(vals[i], int64(m.dec[g].LowBits())))) {
				m.dec[g], m.seen[g] = decimal128.FromI64(vals[i]), true
			}
		}
	case arrow.STRING:
		m.str = grow(m.str, n)
		s := arg.(*array.String)
		for i, g := range groups {
			if s.IsValid(i) && (!m.seen[g] || m.better(strings.Compare(s.Value(i), m.str[g]))) {
				// Clone: the batch's buffers are released after update.
				m.strBytes += int64(len(s.Value(i)) - len(m.str[g]))
				m.str[g], m.seen[g] = strings.Clone(s.Value(i)), true
			}
		}
	case arrow.BOOL:
		m.bln = grow(m.bln, n)
		b := arg.(*array.Boolean)
		for i, g := range groups {
			if b.IsValid(i) && (!m.seen[g] || m.better(boolCmp(b.Value(i), m.bln[g]))) {
				m.bln[g], m.seen[g] = b.Value(i), true
			}
		}
	default:
		return fmt.Errorf("min/max of %s is not implemented", arg.DataType())
	}
	return nil
}

func (m *minMaxAcc) memBytes() int64 {
	return int64(cap(m.seen)+cap(m.bln)) + 8*int64(cap(m.i64)+cap(m.f64)) +
		16*int64(cap(m.dec)+cap(m.str)) + m.strBytes
}

func (m *minMaxAcc) result(n int) (arrow.Array, error) {
	m.seen = grow(m.seen, n)
	bld := array.NewBuilder(memory.DefaultAllocator, m.out.Arrow())
	defer bld.Release()
	for g := 0; g < n; g++ {
		if !m.seen[g] {
			bld.AppendNull()
			continue
		}
		switch b := bld.(type) {
		case *array.Int16Builder:
			b.Append(int16(m.i64[g]))
		case *array.Int32Builder:
			b.Append(int32(m.i64[g]))
		case *array.Int64Builder:
			b.Append(m.i64[g])
		case *array.Date32Builder:
			b.Append(arrow.Date32(m.i64[g]))
		case *array.TimestampBuilder:
			b.Append(arrow.Timestamp(m.i64[g]))
		case *array.Time64Builder:
			b.Append(arrow.Time64(m.i64[g]))
		case *array.Float32Builder:
			b.Append(float32(m.f64[g]))
		case *array.Float64Builder:
			b.Append(m.f64[g])
		case *array.Decimal128Builder:
			b.Append(m.dec[g])
		case *array.Decimal64Builder:
			b.Append(decimal.Decimal64(m.dec[g].LowBits()))
		case *array.StringBuilder:
			b.Append(m.str[g])
		case *array.BooleanBuilder:
			b.Append(m.bln[g])
		default:
			return nil, fmt.Errorf("min/max result of %s is not implemented", m.out.Name())
		}
	}
	return bld.NewArray(), nil
}
