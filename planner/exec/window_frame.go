package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// windowRows describes sorted window input: for each row, the bounds of
// its partition and of its peer group (the rows equal to it on every
// ORDER BY key; without ORDER BY the whole partition). Ends are
// exclusive.
type windowRows struct {
	n                  int
	partStart, partEnd []int
	peerStart, peerEnd []int
}

func newWindowRows(in *windowInput) (*windowRows, error) {
	r := &windowRows{
		n:         in.rows,
		partStart: make([]int, in.rows), partEnd: make([]int, in.rows),
		peerStart: make([]int, in.rows), peerEnd: make([]int, in.rows),
	}
	equal := func(arrs []arrow.Array) (func(i, j int) bool, error) { return equalRows(arrs, arrs) }
	samePart, err := equal(in.parts)
	if err != nil {
		return nil, err
	}
	samePeer, err := equal(in.orders)
	if err != nil {
		return nil, err
	}
	ps, qs := 0, 0
	for i := 0; i < r.n; i++ {
		if i > 0 && !samePart(i-1, i) {
			for j := ps; j < i; j++ {
				r.partEnd[j] = i
			}
			ps = i
		}
		if i > 0 && (ps == i || !samePeer(i-1, i)) {
			for j := qs; j < i; j++ {
				r.peerEnd[j] = i
			}
			qs = i
		}
		r.partStart[i], r.peerStart[i] = ps, qs
	}
	for j := ps; j < r.n; j++ {
		r.partEnd[j] = r.n
	}
	for j := qs; j < r.n; j++ {
		r.peerEnd[j] = r.n
	}
	return r, nil
}

// frameOffset evaluates a constant frame offset to a one-value array.
func frameOffset(ctx context.Context, e planner.Expr, which string) (arrow.Array, error) {
	ev, err := compile(e, nil)
	if err != nil {
		return nil, err
	}
	b := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer b.Release()
	a, err := ev.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	if a.IsNull(0) {
		a.Release()
		return nil, pgerror.New(pgerror.NullValueNotAllowed, "frame %s offset must not be null", which)
	}
	return a, nil
}

// rowsOffset reads a ROWS offset, which must not be negative.
func rowsOffset(a arrow.Array, which string) (int64, error) {
	v := intsOf(a)[0]
	if v < 0 {
		return 0, pgerror.New(errInvalidFrameSize, "frame %s offset must not be negative", which)
	}
	return v, nil
}

// errInvalidFrameSize is SQLSTATE invalid_preceding_or_following_size.
const errInvalidFrameSize = "22013"

// frameBounds gives each row's frame as [start, end) row positions; an
// empty frame has start == end. key is the sorted ORDER BY key a RANGE
// offset is measured on (nil without ORDER BY); a GROUPS offset counts
// peer groups. The EXCLUDE clause is applied on top (windowFrames).
func frameBounds(ctx context.Context, r *windowRows, f planner.WindowFrame, key arrow.Array, sk planner.SortKey) ([]int, []int, error) {
	var startOff, endOff int64
	var startRange, endRange func(i int) int
	for _, bd := range []struct {
		bound    planner.FrameBound
		which    string
		off      *int64
		rangeEnd *func(i int) int
		isEnd    bool
	}{{f.Start, "starting", &startOff, &startRange, false}, {f.End, "ending", &endOff, &endRange, true}} {
		if bd.bound.Offset == nil {
			continue
		}
		a, err := frameOffset(ctx, bd.bound.Offset, bd.which)
		if err != nil {
			return nil, nil, err
		}
		if f.Mode == planner.RangeFrame {
			*bd.rangeEnd, err = rangeBound(r, key, sk, a, bd.bound.Kind == planner.OffsetPreceding, bd.isEnd, timeZoneOf(ctx))
		} else {
			*bd.off, err = rowsOffset(a, bd.which)
		}
		a.Release()
		if err != nil {
			return nil, nil, err
		}
	}
	// back and ahead move i by off rows, clamped to the partition
	// [lo, hi], without overflowing on huge offsets.
	back := func(i, lo int, off int64) int {
		if off > int64(i-lo) {
			return lo
		}
		return i - int(off)
	}
	ahead := func(i, hi int, off int64) int {
		if off > int64(hi-i) {
			return hi
		}
		return i + int(off)
	}
	var groups *peerGroups
	if f.Mode == planner.GroupsFrame {
		groups = newPeerGroups(r)
	}
	start, end := make([]int, r.n), make([]int, r.n)
	for i := 0; i < r.n; i++ {
		ps, pe := r.partStart[i], r.partEnd[i]
		var s, e int
		switch {
		case f.Start.Kind == planner.UnboundedPreceding:
			s = ps
		case f.Start.Kind == planner.CurrentRow && f.Mode != planner.RowsFrame:
			s = r.peerStart[i]
		case groups != nil && f.Start.Kind == planner.OffsetPreceding:
			s = groups.first[groups.back(i, startOff)]
		case groups != nil && f.Start.Kind == planner.OffsetFollowing:
			if g, ok := groups.ahead(i, startOff); ok {
				s = groups.first[g]
			} else {
				s = pe
			}
		case f.Start.Kind == planner.CurrentRow:
			s = i
		case startRange != nil:
			s = startRange(i)
		case f.Start.Kind == planner.OffsetPreceding:
			s = back(i, ps, startOff)
		case f.Start.Kind == planner.OffsetFollowing:
			s = ahead(i, pe, startOff)
		default:
			return nil, nil, fmt.Errorf("frame start %d cannot be executed", f.Start.Kind)
		}
		switch {
		case f.End.Kind == planner.UnboundedFollowing:
			e = pe
		case f.End.Kind == planner.CurrentRow && f.Mode != planner.RowsFrame:
			e = r.peerEnd[i]
		case groups != nil && f.End.Kind == planner.OffsetPreceding:
			// The frame ends with the group off groups back; before the
			// partition's first group it is empty.
			if startOf := groups.group[ps]; endOff > int64(groups.group[i]-startOf) {
				e = ps
			} else {
				e = groups.first[groups.group[i]-int(endOff)+1]
			}
		case groups != nil && f.End.Kind == planner.OffsetFollowing:
			if g, ok := groups.ahead(i, endOff); ok {
				e = groups.first[g+1]
			} else {
				e = pe
			}
		case f.End.Kind == planner.CurrentRow:
			e = i + 1
		case endRange != nil:
			e = endRange(i)
		case f.End.Kind == planner.OffsetPreceding:
			// The last row is i-off, so the exclusive end is one past it;
			// before the partition the frame is empty.
			if endOff > int64(i-ps) {
				e = ps
			} else {
				e = i - int(endOff) + 1
			}
		case f.End.Kind == planner.OffsetFollowing:
			e = ahead(i, pe-1, endOff) + 1
		default:
			return nil, nil, fmt.Errorf("frame end %d cannot be executed", f.End.Kind)
		}
		if e < s {
			e = s
		}
		start[i], end[i] = s, e
	}
	return start, end, nil
}

// peerGroups numbers the peer groups of sorted window input, for GROUPS
// frames: group[i] is row i's group, counted across partitions, and
// first[g] the first row of group g (first[len] is one past the last
// row).
type peerGroups struct {
	r     *windowRows
	group []int
	first []int
}

func newPeerGroups(r *windowRows) *peerGroups {
	p := &peerGroups{r: r, group: make([]int, r.n)}
	g := -1
	for i := 0; i < r.n; i++ {
		if i == r.peerStart[i] {
			g++
			p.first = append(p.first, i)
		}
		p.group[i] = g
	}
	p.first = append(p.first, r.n)
	return p
}

// back is the group off groups before row i's, clamped to the first
// group of its partition.
func (p *peerGroups) back(i int, off int64) int {
	lo := p.group[p.r.partStart[i]]
	if off > int64(p.group[i]-lo) {
		return lo
	}
	return p.group[i] - int(off)
}

// ahead is the group off groups after row i's, false when that is past
// its partition's last group.
func (p *peerGroups) ahead(i int, off int64) (int, bool) {
	hi := p.group[p.r.partEnd[i]-1]
	if off > int64(hi-p.group[i]) {
		return 0, false
	}
	return p.group[i] + int(off), true
}

// windowFrames is each row's frame: the rows [start, end) of the sorted
// input less those the frame's EXCLUDE clause takes out.
type windowFrames struct {
	r          *windowRows
	start, end []int
	exclude    planner.FrameExclusion
}

// span is the run of rows [lo, hi).
type span struct{ lo, hi int }

// spans appends row i's frame to buf as ascending, disjoint, non-empty
// runs: at most three, as an exclusion cuts one hole, or two around a
// current row it keeps (EXCLUDE TIES).
func (f *windowFrames) spans(i int, buf []span) []span {
	s, e := f.start[i], f.end[i]
	add := func(lo, hi int) {
		if lo >= hi {
			return
		}
		if k := len(buf) - 1; k >= 0 && buf[k].hi == lo {
			buf[k].hi = hi
			return
		}
		buf = append(buf, span{lo, hi})
	}
	if f.exclude == planner.ExcludeNoOthers {
		add(s, e)
		return buf
	}
	xs, xe := i, i+1
	if f.exclude != planner.ExcludeCurrentRow {
		xs, xe = f.r.peerStart[i], f.r.peerEnd[i]
	}
	add(s, min(e, xs))
	if f.exclude == planner.ExcludeTies && s <= i && i < e {
		add(i, i+1)
	}
	add(max(s, xe), e)
	return buf
}
