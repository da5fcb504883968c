package exec

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/storage/hugepages"
)

// keyTable gives each distinct key (one row of the key columns) a dense
// id, in order of first appearance: the hash table of a grouping or of a
// join's build side. It works a batch at a time and allocates nothing per
// row: an open-addressing table of ids, the keys themselves kept per id
// (typed int64s for a single integer key, the words of a short
// fixed-width composite key, else their encoded bytes in one arena). Keys
// compare as appendKey encodes them, so grouping and joining keep the
// equality they had with encoded string keys. A batch whose keys all
// encode to at most packedMaxLen bytes skips the encoding: pack builds
// those bytes' words straight from the columns (key_packed.go).
type keyTable struct {
	seed   maphash.Seed
	slots  []int32 // id+1 per slot, 0 for empty; len is a power of two
	hashes []uint64
	n      int

	// decided: intKey was chosen from the first batch's key types.
	decided bool
	// intKey: one integer-like key column, whose table is islots (slots
	// and hashes stay empty); nullID is the id of the NULL key, -1 until
	// one is seen.
	intKey bool
	islots []intSlot
	nullID int32
	// direct replaces islots in a table indexed by key (indexByKey): the
	// id+1 of key directMin+i is direct[i], 0 for none.
	direct    []int32
	directMin int64
	// byKey: a grouping's table, indexed by key while the keys it is
	// given stay dense (coverKeys), whose range is not known ahead.
	byKey bool
	// keysLo, keysHi: the least and greatest key a grouping's table
	// indexed by key holds (the index may reach past them, room to grow
	// into); valid once it holds one.
	keysLo, keysHi int64
	// ranked: a join build's table of one integer key column whose keys
	// span a range too wide to index by key, but not a bitmap of it
	// (rankKeys): present has a bit per key of the range from presentLo,
	// set for each key the build holds, and a key's id is its rank among
	// them, the bits before it (rankBefore counts those before each
	// word). A probe reads a bit and a count of a bitmap that stays in
	// the caches, in key order when the probe keys are (lineitem's
	// l_orderkey), where a hash table scatters them; absent keys (most
	// of a selective join's) stop at the bit.
	ranked     bool
	present    []uint64
	presentLo  int64
	rankBefore []int32

	// stride: the key columns are of fixed width and encode to at most
	// packedMaxLen bytes, each id's key being the stride words
	// words[id*stride:(id+1)*stride] (pack's, zero padded: equal words
	// are equal keys).
	stride int
	words  []uint64

	// Otherwise each id's encoded key is arena[offs[id]:offs[id+1]].
	arena []byte
	offs  []int

	// recent caches the ids of keys of one word the table inserted or
	// found while inserting (findPacked); nil until then.
	recent *recentKeys

	// own is insert's per-batch scratch; a lookup brings its own, so
	// several goroutines may look keys up at once in a table no longer
	// growing.
	own keyScratch
}

// intSlot is a slot of an integer key table: the key beside its id, so
// that a probe reads one cache line where a slot, a hash and a key by id
// were three lines in three arrays.
type intSlot struct {
	key int64
	id  int32 // id+1; 0 for an empty slot
}

// probeChunk is how many rows a find touches the slots of before
// probing them (touchInts), when the slots take touchMinBytes or more:
// a smaller table stays in the caches, where touching only costs.
const (
	probeChunk    = 256
	touchMinBytes = 256 << 10
)

// keyScratch is the per-batch working space of a find: a batch's integer
// keys widened, its short keys packed into words (pack), or its encoded
// keys.
type keyScratch struct {
	vals []int64
	// touched sums what touchInts and touchPacked read, so their loads
	// are not dropped; hashes are a packed batch's.
	touched uint64
	hashes  []uint64

	words []uint64
	lens  []uint8
	nulls []bool
	// same[i]: key column i's values all take the same bytes (pack).
	same []bool

	enc keyEncoder
}

func (s *keyScratch) memBytes() int64 {
	return int64(8*cap(s.vals)+8*cap(s.hashes)+8*cap(s.words)+cap(s.lens)+cap(s.nulls)) +
		int64(cap(s.enc.buf)+8*cap(s.enc.offs)+8*cap(s.enc.cur))
}

// newGroupingTable is the table of a grouping: one integer key column
// is indexed by key while its keys stay dense (coverKeys).
func newGroupingTable() *keyTable {
	t := newKeyTable()
	t.byKey = true
	return t
}

func newKeyTable() *keyTable {
	return &keyTable{seed: maphash.MakeSeed(), slots: make([]int32, 64), nullID: -1, offs: []int{0}}
}

// intKeyType reports whether a column's values widen losslessly to int64,
// so equal keys are equal int64s.
func intKeyType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT16, arrow.INT32, arrow.DATE32, arrow.UINT32, arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		return true
	}
	return false
}

// len is the number of distinct keys seen.
func (t *keyTable) len() int { return t.n }

// memBytes is what the table holds.
func (t *keyTable) memBytes() int64 {
	return int64(4*cap(t.slots)+8*cap(t.hashes)+16*cap(t.islots)+4*cap(t.direct)+8*cap(t.present)+4*cap(t.rankBefore)+8*cap(t.words)+cap(t.arena)+8*cap(t.offs)) + t.own.memBytes()
}

// insert sets ids[r] to the id of row r's key, adding keys not seen
// before; isNew is called with each new id and the row that introduced it.
// With skipNulls a row with a NULL key gets -1 and is not added (a join's
// NULL never equals anything); otherwise NULL is a key like any other.
func (t *keyTable) insert(keys []arrow.Array, n int, ids []int32, skipNulls bool, isNew func(id int32, row int)) {
	t.find(keys, n, ids, &t.own, true, skipNulls, isNew)
}

// lookup sets ids[r] to the id of row r's key, or -1 when the key was
// never inserted or has a NULL. It changes nothing in t: goroutines with
// their own scratch may look up at once while nothing inserts.
func (t *keyTable) lookup(keys []arrow.Array, n int, ids []int32, s *keyScratch) {
	if len(keys) > 0 && !t.decided {
		// Nothing was ever inserted.
		for r := range ids[:n] {
			ids[r] = -1
		}
		return
	}
	t.find(keys, n, ids, s, false, true, nil)
}

// probe sets ids[r] to the id of row r's key, or -1 when the key was
// never inserted; NULL is a key like any other (a grouping's).
func (t *keyTable) probe(keys []arrow.Array, n int, ids []int32) {
	if len(keys) > 0 && !t.decided {
		for r := range ids[:n] {
			ids[r] = -1
		}
		return
	}
	t.find(keys, n, ids, &t.own, false, false, nil)
}

func (t *keyTable) find(keys []arrow.Array, n int, ids []int32, s *keyScratch, add, skipNulls bool, isNew func(int32, int)) {
	if len(keys) == 0 {
		// Every row has the empty key.
		if t.n == 0 && add {
			t.n = 1
			if isNew != nil {
				isNew(0, 0)
			}
		}
		id := int32(0)
		if t.n == 0 {
			id = -1
		}
		for r := range ids[:n] {
			ids[r] = id
		}
		return
	}
	t.decide(keys)
	if t.intKey {
		t.findInts(keys[0], n, ids, s, add, skipNulls, isNew)
		return
	}
	anyNulls := false
	for _, k := range keys {
		anyNulls = anyNulls || k.NullN() > 0
	}
	nw, ok := s.pack(keys, rowSet{dense: true, n: n}, skipNulls && anyNulls)
	switch {
	case ok && (t.stride == 0 || nw == t.stride):
		t.findPacked(n, nw, ids, s, add, skipNulls, isNew)
	case t.stride > 0:
		panic(fmt.Sprintf("key table of %d-word keys given a batch of %d-word keys", t.stride, nw))
	default:
		t.findEncoded(keys, n, ids, s, add, skipNulls && anyNulls, isNew)
	}
}

// decide chooses, from the first batch's key types, how the table keeps
// its keys.
func (t *keyTable) decide(keys []arrow.Array) {
	if t.decided {
		return
	}
	t.intKey = len(keys) == 1 && intKeyType(keys[0].DataType())
	switch {
	case t.intKey && t.byKey:
		// coverKeys sizes the ids by key from the first batch.
		t.slots = nil
	case t.intKey:
		t.islots, t.slots = make([]intSlot, len(t.slots)), nil
	default:
		t.byKey = false
		t.stride = fixedPackedWords(keys)
	}
	t.decided = true
}

// insertSelected is insert for the rows sel of keys (a filter's
// selection of a batch it did not copy): ids[j] is row sel[j]'s id, and
// isNew is given the column row. Keys that pack are packed from those
// rows directly; others are gathered first.
func (t *keyTable) insertSelected(ctx context.Context, keys []arrow.Array, sel []int32, ids []int32, isNew func(id int32, row int)) error {
	m := len(sel)
	atRow := func(id int32, j int) { isNew(id, int(sel[j])) }
	if len(keys) > 0 {
		t.decide(keys)
		if !t.intKey {
			nw, ok := t.own.pack(keys, rowSet{sel: sel, n: keys[0].Len()}, false)
			if ok && (t.stride == 0 || nw == t.stride) {
				t.findPacked(m, nw, ids, &t.own, true, false, atRow)
				return nil
			}
		}
	}
	picked, err := gatherColumns(ctx, keys, sel)
	if err != nil {
		return err
	}
	defer releaseAll(picked)
	t.find(picked, m, ids, &t.own, true, false, atRow)
	return nil
}

func (t *keyTable) findInts(a arrow.Array, n int, ids []int32, s *keyScratch, add, skipNulls bool, isNew func(int32, int)) {
	s.vals = intKeyValues(a, s.vals[:0])
	if t.ranked {
		// Built whole by rankKeys: only looked up.
		t.findRanked(a, n, ids, s)
		return
	}
	if t.byKey && add && !t.coverKeys(a, s.vals) {
		// Turned into a hash table: below.
	} else if t.direct != nil {
		t.findDirect(a, n, ids, s, add, skipNulls, isNew)
		return
	}
	hasNulls := a.NullN() > 0
	// Keys often come in runs (lineitem by l_orderkey, as written): a
	// row with the key of the row before gets its id without a probe.
	prevV, prevID, havePrev := int64(0), int32(0), false
	for lo := 0; lo < n; lo += probeChunk {
		hi := min(lo+probeChunk, n)
		s.touched += uint64(t.touchInts(s.vals[lo:hi]))
		for r := lo; r < hi; r++ {
			if hasNulls && a.IsNull(r) {
				ids[r] = -1
				if !skipNulls {
					ids[r] = t.nullKey(r, add, isNew)
				}
				continue
			}
			v := s.vals[r]
			if havePrev && v == prevV {
				ids[r] = prevID
				continue
			}
			mask := uint64(len(t.islots) - 1)
			i := mixInt(uint64(v)) & mask
			for {
				slot := &t.islots[i]
				if slot.id == 0 {
					if !add {
						ids[r] = -1
						break
					}
					id := int32(t.n)
					t.n++
					*slot = intSlot{key: v, id: id + 1}
					ids[r] = id
					if isNew != nil {
						isNew(id, r)
					}
					t.maybeGrowInts()
					break
				}
				if slot.key == v {
					ids[r] = slot.id - 1
					break
				}
				i = (i + 1) & mask
			}
			prevV, prevID, havePrev = v, ids[r], true
		}
	}
}

// touchInts reads the slot each key hashes to, deciding nothing on what
// it reads: the loads do not wait on each other, so the processor
// overlaps their cache misses, and the probes that follow find the
// slots in cache. A probe that read its slot first and branched on it
// waited out one miss after another (a large build side's lookups ran
// at one memory latency each).
//
// With a presence bitmap only the keys it holds are touched: the others
// are not probed.
func (t *keyTable) touchInts(vals []int64) int64 {
	if 16*len(t.islots) < touchMinBytes {
		return 0
	}
	mask := uint64(len(t.islots) - 1)
	var sum int64
	// A key like the one before it (the runs findInts skips) was touched
	// already.
	prev := int64(0)
	if len(vals) > 0 {
		prev = ^vals[0]
	}
	for _, v := range vals {
		if v == prev {
			continue
		}
		prev = v
		sum += t.islots[mixInt(uint64(v))&mask].key
	}
	return sum
}

// directMaxSpan is the widest key range a table is indexed by whatever
// its rows: 1 MiB of ids, which stays in cache.
const directMaxSpan = 1 << 18

// indexByKey makes an empty table of one integer key column, whose keys
// will be at least lo and at most hi, index its ids by key: the id+1 of
// key lo+i is direct[i]. An insert or probe then reads one 4-byte id at
// the key's offset, with no hash and no collisions to walk. It does so,
// and reports it, only when that array takes no more memory than a hash
// table of rows distinct keys would (4 bytes per key in the range
// against 16 per slot) or fits in directMaxSpan: keys such as order,
// customer or part numbers are dense. Such a table takes no NULL key
// (a join's build skips them).
func (t *keyTable) indexByKey(lo, hi int64, rows int) bool {
	if t.decided || hi < lo {
		return false
	}
	// The span in uint64, where hi-lo cannot overflow.
	span := uint64(hi) - uint64(lo) + 1
	if span == 0 || span > uint64(max(4*slotsFor(rows, len(t.slots)), directMaxSpan)) {
		return false
	}
	t.decided, t.intKey, t.slots = true, true, nil
	t.direct, t.directMin = make([]int32, span), lo
	return true
}

// indexesByKey reports whether indexByKey(lo, hi, rows) would index the
// table by key, so that its memory is charged only when it will be taken.
func (t *keyTable) indexesByKey(lo, hi int64, rows int) bool {
	span := uint64(hi) - uint64(lo) + 1
	return !t.decided && hi >= lo && span != 0 && span <= uint64(max(4*slotsFor(rows, len(t.slots)), directMaxSpan))
}

// directBytes is the memory indexByKey takes for keys from lo to hi.
func directBytes(lo, hi int64) int64 {
	return 4 * int64(uint64(hi)-uint64(lo)+1)
}

// presenceMaxBytes bounds a presence bitmap: past a few MiB it leaves the
// caches as the hash table does.
const presenceMaxBytes = 4 << 20

// presenceBytes is the bitmap of a ranked table of rows keys from lo to
// hi, or 0 when the table would not be ranked: a bitmap past
// presenceMaxBytes, or larger than a hash table of the keys would be
// (keys rarer than one in 256 of the range). TPC-H Q21's 65,000 orders
// of its EXISTS spread over 6M order numbers take a bitmap of 750 KiB
// where a hash table took 2 MiB, and 96% of the 10M lineitem rows probing
// them are absent.
func presenceBytes(lo, hi int64, rows int) int64 {
	span := uint64(hi) - uint64(lo) + 1
	bytes := 8 * ((span + 63) / 64)
	if hi < lo || span == 0 || bytes > presenceMaxBytes || bytes > 16*uint64(slotsFor(rows, 1)) {
		return 0
	}
	return int64(bytes)
}

// findDirect is findInts in a table indexed by key (indexByKey, or a
// grouping's while its keys stay dense: coverKeys), given the batch's
// keys widened in s.vals.
func (t *keyTable) findDirect(a arrow.Array, n int, ids []int32, s *keyScratch, add, skipNulls bool, isNew func(int32, int)) {
	hasNulls := a.NullN() > 0
	span, base := uint64(len(t.direct)), uint64(t.directMin)
	touch := 4*len(t.direct) >= touchMinBytes
	for lo := 0; lo < n; lo += probeChunk {
		hi := min(lo+probeChunk, n)
		if touch {
			s.touched += t.touchDirect(s.vals[lo:hi])
		}
		for r := lo; r < hi; r++ {
			if hasNulls && a.IsNull(r) {
				ids[r] = -1
				if !skipNulls {
					ids[r] = t.nullKey(r, add, isNew)
				}
				continue
			}
			// A key below directMin wraps past span.
			off := uint64(s.vals[r]) - base
			if off >= span {
				if add {
					panic("key table indexed by key given a key outside its range")
				}
				ids[r] = -1
				continue
			}
			id := t.direct[off]
			if id == 0 && add {
				id = int32(t.n) + 1
				t.n++
				t.direct[off] = id
				if isNew != nil {
					isNew(id-1, r)
				}
			}
			ids[r] = id - 1
		}
	}
}

// coverKeys readies a grouping's table (byKey) for a batch of keys
// vals (NULLs, where a has them, aside) before they are inserted: while
// the keys seen stay dense (the ids by key take no more memory than a
// hash table of the groups and the batch's rows), the ids stay
// indexed by key, the range growing to take the batch; once they would
// not, the table turns into a hash table for good. It reports whether
// the table is still indexed by key.
//
// A grown index has room past the keys it holds, on the side they grew
// (as much again, at least doubling, within the limit), so a grouping
// fed keys in order copies each id a bounded number of times. A batch
// whose keys alone span most of the new range (a parallel aggregate's
// merge of another worker's groups) gets no room: none is likely to
// follow, and room as large as the keys was most of what the merge of
// TPC-H Q18's groups by order number allocated.
func (t *keyTable) coverKeys(a arrow.Array, vals []int64) bool {
	lo, hi, found := keyBounds(a, vals, 0, 0, false)
	if !found {
		if t.direct == nil {
			// Only NULLs yet: an index of one key until others come.
			t.direct, t.directMin = make([]int32, 1), 0
			t.keysLo, t.keysHi = 1, 0
		}
		return true
	}
	batchLo, batchHi := lo, hi
	if t.direct != nil {
		if t.keysLo <= t.keysHi {
			lo, hi = min(lo, t.keysLo), max(hi, t.keysHi)
		}
		if end := t.directMin + int64(len(t.direct)) - 1; lo >= t.directMin && hi <= end {
			t.keysLo, t.keysHi = lo, hi
			return true
		}
	}
	span := uint64(hi) - uint64(lo) + 1
	// No floor of directMaxSpan here: a grouping charges its memory
	// after the batch, and under a small budget (a spilled partition's
	// keys are spread thin) a 1 MiB index would spill it again.
	limit := uint64(4 * slotsFor(t.n+len(vals), 64))
	if span == 0 || span > limit {
		t.hashByKey()
		return false
	}
	start, end := lo, hi
	if bulk := uint64(batchHi)-uint64(batchLo)+1 > span/2; t.direct != nil && !bulk {
		extra := min(max(span, 2*uint64(len(t.direct)))-span, limit-span)
		if hi > t.keysHi {
			end += int64(min(extra, uint64(math.MaxInt64-hi)))
		} else {
			start -= int64(min(extra, uint64(lo)-(1<<63))) // lo - MinInt64
		}
	}
	direct := make([]int32, uint64(end)-uint64(start)+1)
	if t.direct != nil {
		// Only the held keys' ids move; the old room was empty.
		if t.keysLo <= t.keysHi {
			from := uint64(t.keysLo) - uint64(t.directMin)
			copy(direct[uint64(t.keysLo)-uint64(start):], t.direct[from:from+uint64(t.keysHi)-uint64(t.keysLo)+1])
		}
	}
	t.direct, t.directMin = direct, start
	t.keysLo, t.keysHi = lo, hi
	return true
}

// keyBounds widens the bounds lo and hi (none yet unless found) to take
// the keys vals of a (NULLs aside).
func keyBounds(a arrow.Array, vals []int64, lo, hi int64, found bool) (int64, int64, bool) {
	nulls := a.NullN() > 0
	for r, v := range vals {
		if nulls && a.IsNull(r) {
			continue
		}
		if !found {
			lo, hi, found = v, v, true
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi, found
}

// nullKey is the id of a NULL key (NULL a key like any other, a
// grouping's) met at row r, added when add; -1 while none was.
func (t *keyTable) nullKey(r int, add bool, isNew func(int32, int)) int32 {
	if t.nullID < 0 && add {
		t.nullID = int32(t.n)
		t.n++
		if isNew != nil {
			isNew(t.nullID, r)
		}
	}
	return t.nullID
}

// hashByKey turns a grouping's table indexed by key into a hash table of
// the same ids, for keys too sparse to index.
func (t *keyTable) hashByKey() {
	t.byKey = false
	t.islots = make([]intSlot, slotsFor(t.n, 64))
	mask := uint64(len(t.islots) - 1)
	for off, id := range t.direct {
		if id == 0 {
			continue
		}
		key := int64(uint64(t.directMin) + uint64(off))
		i := mixInt(uint64(key)) & mask
		for t.islots[i].id != 0 {
			i = (i + 1) & mask
		}
		t.islots[i] = intSlot{key: key, id: id}
	}
	t.direct = nil
}

// touchDirect is touchInts for a table indexed by key.
func (t *keyTable) touchDirect(vals []int64) uint64 {
	span, base := uint64(len(t.direct)), uint64(t.directMin)
	var sum uint64
	for _, v := range vals {
		if off := uint64(v) - base; off < span {
			sum += uint64(t.direct[off])
		}
	}
	return sum
}

// maybeGrowInts is maybeGrow for an integer key table.
func (t *keyTable) maybeGrowInts() {
	if 2*t.n < len(t.islots) {
		return
	}
	t.resizeInts(2 * len(t.islots))
}

// resizeInts rehashes an integer key table into size slots.
func (t *keyTable) resizeInts(size int) {
	slots := make([]intSlot, size)
	if len(slots) >= 1<<18 {
		hugepages.Advise(unsafe.Pointer(&slots[0]), uintptr(len(slots))*unsafe.Sizeof(slots[0]))
	}
	mask := uint64(len(slots) - 1)
	for _, sl := range t.islots {
		if sl.id == 0 {
			continue
		}
		i := mixInt(uint64(sl.key)) & mask
		for slots[i].id != 0 {
			i = (i + 1) & mask
		}
		slots[i] = sl
	}
	t.islots = slots
}

// slotsFor is how many slots n keys take: the first power of two over
// 2n, where growing one key at a time would end.
func slotsFor(n, from int) int {
	size := max(from, 1)
	for 2*n >= size {
		size *= 2
	}
	return size
}

// reserveBytes is how many more bytes reserve(n) would take.
func (t *keyTable) reserveBytes(n int) int64 {
	if t.direct != nil {
		return 0
	}
	if t.intKey {
		return int64(16 * (slotsFor(n, len(t.islots)) - len(t.islots)))
	}
	return int64(4*(slotsFor(n, len(t.slots))-len(t.slots))) + int64(8*max(n-cap(t.hashes), 0))
}

// reserve sizes the table for n keys in all, once its first keys have
// decided its kind, so that inserting the rest rehashes nothing: growing
// a key at a time moves every key again at each doubling, and a large
// join build spent a sixth of its time so (BenchmarkHashJoinIntKey).
func (t *keyTable) reserve(n int) {
	if !t.decided || t.direct != nil {
		return
	}
	if t.intKey {
		if size := slotsFor(n, len(t.islots)); size > len(t.islots) {
			t.resizeInts(size)
		}
		return
	}
	if size := slotsFor(n, len(t.slots)); size > len(t.slots) {
		t.resizeSlots(size)
	}
	if n > cap(t.hashes) {
		t.hashes = append(make([]uint64, 0, n), t.hashes...)
	}
}

// findEncoded is find for keys pack does not take: their encoded bytes
// are hashed (keyHash) and compared whole. With skipNulls (only when a
// key column has NULLs) a row with a NULL key gets -1.
func (t *keyTable) findEncoded(keys []arrow.Array, n int, ids []int32, s *keyScratch, add, skipNulls bool, isNew func(int32, int)) {
	s.enc.encode(keys, n)
	buf, offs := s.enc.buf, s.enc.offs
rows:
	for r := 0; r < n; r++ {
		if skipNulls {
			for _, k := range keys {
				if k.IsNull(r) {
					ids[r] = -1
					continue rows
				}
			}
		}
		key := buf[offs[r]:offs[r+1]]
		h := t.keyHash(key)
		mask := uint64(len(t.slots) - 1)
		i := h & mask
		for {
			s := t.slots[i]
			if s == 0 {
				if !add {
					ids[r] = -1
					break
				}
				id := t.newID(h)
				t.arena = append(t.arena, key...)
				t.offs = append(t.offs, len(t.arena))
				t.slots[i] = id + 1
				ids[r] = id
				if isNew != nil {
					isNew(id, r)
				}
				t.maybeGrow()
				break
			}
			id := s - 1
			if t.hashes[id] == h && bytes.Equal(t.arena[t.offs[id]:t.offs[id+1]], key) {
				ids[r] = id
				break
			}
			i = (i + 1) & mask
		}
	}
}

// newID records a new key's hash and returns its id.
func (t *keyTable) newID(h uint64) int32 {
	id := int32(t.n)
	t.n++
	t.hashes = append(t.hashes, h)
	return id
}

// maybeGrow doubles the slots when they are half full, keeping probe
// sequences short.
func (t *keyTable) maybeGrow() {
	if 2*t.n < len(t.slots) {
		return
	}
	t.resizeSlots(2 * len(t.slots))
}

// resizeSlots rehashes the ids of a packed or encoded key table into
// size slots.
func (t *keyTable) resizeSlots(size int) {
	slots := make([]int32, size)
	mask := uint64(len(slots) - 1)
	for id, h := range t.hashes {
		i := h & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = int32(id) + 1
	}
	t.slots = slots
}

// mixInt spreads an integer's bits over the whole hash (the finaliser of
// splitmix64), so sequential keys do not cluster in the table.
func mixInt(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// intKeyValues widens an integer-like column's values to int64 (NULL
// slots hold whatever their buffer holds).
func intKeyValues(a arrow.Array, dst []int64) []int64 {
	n := a.Len()
	if cap(dst) < n {
		dst = make([]int64, n)
	}
	dst = dst[:n]
	switch a.DataType().ID() {
	case arrow.INT16:
		for i, v := range values[int16](a)[:n] {
			dst[i] = int64(v)
		}
	case arrow.INT32, arrow.DATE32:
		for i, v := range values[int32](a)[:n] {
			dst[i] = int64(v)
		}
	case arrow.UINT32:
		for i, v := range values[uint32](a)[:n] {
			dst[i] = int64(v)
		}
	default:
		copy(dst, values[int64](a)[:n])
	}
	return dst
}
