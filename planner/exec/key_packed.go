package exec

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// packedMaxLen is the longest encoded key handled as words. Most
// composite keys are short (TPC-H Q1 groups by two one-character texts,
// 6 bytes; Q9 joins on two bigints, 18 bytes), and for them encoding
// each row's bytes, hashing them with maphash and comparing them with
// bytes.Equal costs more than the probe itself.
const packedMaxLen = 24

// keyHash is the table's hash of an encoded key. A key of at most
// packedMaxLen bytes hashes as its little-endian words, zero padded,
// which pack computes straight from the columns; a longer one hashes
// with maphash. Every path that inserts or looks up uses this one
// definition (maybeGrow rehashes from the stored hashes).
func (t *keyTable) keyHash(key []byte) uint64 {
	if len(key) > packedMaxLen {
		return maphash.Bytes(t.seed, key)
	}
	var w [3]uint64
	for i := 0; 8*i < len(key); i++ {
		w[i] = loadWord(key, 8*i, min(len(key)-8*i, 8))
	}
	return wordsHash(w[0], w[1], w[2], len(key))
}

// wordsHash mixes the words a key of l bytes takes. The encoding is
// prefix-free, so zero padding maps distinct keys to distinct words.
func wordsHash(w0, w1, w2 uint64, l int) uint64 {
	h := mixInt(w0)
	if l > 8 {
		h = mixInt(h ^ w1)
	}
	if l > 16 {
		h = mixInt(h ^ w2)
	}
	return h
}

// loadWord reads b[at:at+k] (1 <= k <= 8) as a little-endian word.
func loadWord(b []byte, at, k int) uint64 {
	if at+8 <= len(b) {
		return binary.LittleEndian.Uint64(b[at:at+8]) & (^uint64(0) >> (64 - 8*k))
	}
	var w uint64
	for i := k - 1; i >= 0; i-- {
		w = w<<8 | uint64(b[at+i])
	}
	return w
}

// packPut writes the k low bytes of v (its higher bytes zero) at byte
// position at of the key whose words start at words[base], zero there.
func packPut(words []uint64, base, at int, v uint64, k int) {
	i, sh := base+at>>3, uint(at&7)*8
	words[i] |= v << sh
	if sh+uint(8*k) > 64 {
		words[i+1] |= v >> (64 - sh)
	}
}

// packedWidth is the most bytes a value of k takes after its marker
// within its first n rows, or -1 when k's type is not packed or a value
// takes more than limit bytes; same: every value takes as many.
func packedWidth(k arrow.Array, n, limit int) (w int, same bool) {
	switch k.DataType().ID() {
	case arrow.STRING:
		offsets := k.(*array.String).ValueOffsets()[:n+1]
		longest, first := int32(0), int32(0)
		if n > 0 {
			first = offsets[1] - offsets[0]
		}
		same = true
		for r := range n {
			l := offsets[r+1] - offsets[r]
			longest = max(longest, l)
			same = same && l == first
		}
		// One byte of length: limit is below 128.
		if int(longest)+1 > limit {
			return -1, false
		}
		return int(longest) + 1, same
	case arrow.INTERVAL_MONTH_DAY_NANO:
		// Keyed by its span, which only appendKey computes.
		return -1, false
	}
	w = keyWidth(k.DataType())
	if w == 0 || w > limit {
		return -1, false
	}
	return w, true
}

// fixedPackedWords is the words a key of these columns takes when every
// column is of a fixed width pack takes and the key encodes to at most
// packedMaxLen bytes, else 0. Such keys always pack, whatever the batch.
func fixedPackedWords(keys []arrow.Array) int {
	l := 0
	for _, k := range keys {
		w := keyWidth(k.DataType())
		if w == 0 || k.DataType().ID() == arrow.INTERVAL_MONTH_DAY_NANO {
			return 0
		}
		l += 1 + w
	}
	if l > packedMaxLen {
		return 0
	}
	return (l + 7) / 8
}

// pack writes each row's key as words, column by column straight from
// the arrays: row r's key is the s.lens[r] bytes appendKey gives it, read
// little-endian and zero padded into s.words[r*nw:(r+1)*nw]. With
// markNulls, s.nulls[r] tells whether a key column of row r is NULL. It
// reports ok false, having written nothing, when a row's key could take
// more than packedMaxLen bytes or a column is of a type it does not pack.
// The rows packed are rs's (a filter's selection, so packing gathers
// them too): packed row r is column row rowAt(rs, r).
func (s *keyScratch) pack(keys []arrow.Array, rs rowSet, markNulls bool) (nw int, ok bool) {
	n := rowsIn(rs)
	longest := 0
	s.same = s.same[:0]
	for _, k := range keys {
		w, same := packedWidth(k, rs.n, packedMaxLen-longest-1)
		if w < 0 {
			return 0, false
		}
		longest += 1 + w
		s.same = append(s.same, same && k.NullN() == 0)
	}
	nw = (longest + 7) / 8
	s.words = grow(s.words, n*nw)[:n*nw]
	clear(s.words)
	s.lens = grow(s.lens, n)[:n]
	clear(s.lens)
	s.nulls = s.nulls[:0]
	if markNulls {
		s.nulls = grow(s.nulls, n)[:n]
		clear(s.nulls)
	}
	// While every row's key so far takes the same bytes (at), a column
	// whose values all take the same bytes too is packed without
	// tracking each row's length (packSame).
	at := 0
	for i, k := range keys {
		if at >= 0 {
			if w, ok := s.packSame(k, rs, nw, at, s.same[i]); ok {
				at += w
				continue
			}
			fillLens(s.lens, at)
			at = -1
		}
		s.packColumn(k, rs, nw, markNulls)
	}
	if at >= 0 {
		fillLens(s.lens, at)
	}
	return nw, true
}

func fillLens(lens []uint8, at int) {
	for r := range lens {
		lens[r] = uint8(at)
	}
}

// packSame packs column k at byte at of every row's key when its values
// are all of one width (same) and short: a one-byte text (a flag), a
// text of up to six bytes, an integer, a date or a timestamp. It reports
// the bytes each row's key took, or ok false, having written nothing.
// Texts of one length sit in the values at r*len, so no offset is read.
func (s *keyScratch) packSame(k arrow.Array, rs rowSet, nw, at int, same bool) (w int, ok bool) {
	if !same {
		return 0, false
	}
	n := rowsIn(rs)
	words := s.words[:n*nw]
	switch k.DataType().ID() {
	case arrow.STRING:
		str := k.(*array.String)
		if rs.n == 0 {
			return 0, false
		}
		offsets := str.ValueOffsets()
		l := int(offsets[1] - offsets[0])
		if l > 6 {
			return 0, false
		}
		data := str.ValueBytes()
		head := uint64(1 | l<<8)
		switch {
		case l == 0:
			for r := range n {
				packPut(words, r*nw, at, head, 2)
			}
		case l == 1 && rs.dense:
			for r, c := range data[:n] {
				packPut(words, r*nw, at, head|uint64(c)<<16, 3)
			}
		case l == 1:
			for r, i := range rs.sel {
				packPut(words, r*nw, at, head|uint64(data[i])<<16, 3)
			}
		default:
			for r := range n {
				i := int(rowAt(rs, r))
				packPut(words, r*nw, at, head|loadWord(data, i*l, l)<<16, 2+l)
			}
		}
		return 2 + l, true
	case arrow.INT16:
		vals := values[uint16](k)
		for r := range n {
			packPut(words, r*nw, at, 1|uint64(vals[rowAt(rs, r)])<<8, 3)
		}
		return 3, true
	case arrow.INT32, arrow.DATE32, arrow.UINT32:
		vals := values[uint32](k)
		for r := range n {
			packPut(words, r*nw, at, 1|uint64(vals[rowAt(rs, r)])<<8, 5)
		}
		return 5, true
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		// A marker and eight bytes: the join keys of most schemas.
		vals := values[uint64](k)
		for r := range n {
			base := r * nw
			packPut(words, base, at, 1, 1)
			packPut(words, base, at+1, vals[rowAt(rs, r)], 8)
		}
		return 9, true
	}
	return 0, false
}

// packColumn appends one column's bytes to every row's key words, with a
// loop typed once per batch; row r's value is the column's rowAt(rs, r).
func (s *keyScratch) packColumn(k arrow.Array, rs rowSet, nw int, markNulls bool) {
	n := rowsIn(rs)
	bm, off := bitmapOf(k)
	words, lens, nulls := s.words[:n*nw], s.lens[:n], s.nulls
	// null reports whether row r (column row i) is NULL there, then its
	// marker is written (a NULL's 0 is the words' zero).
	null := func(r, i int) bool {
		if bm != nil && !bitutil.BitIsSet(bm, off+i) {
			if markNulls {
				nulls[r] = true
			}
			lens[r]++
			return true
		}
		packPut(words, r*nw, int(lens[r]), 1, 1)
		lens[r]++
		return false
	}
	switch k.DataType().ID() {
	case arrow.BOOL:
		b := k.(*array.Boolean)
		for r := range n {
			i := int(rowAt(rs, r))
			if !null(r, i) {
				if b.Value(i) {
					packPut(words, r*nw, int(lens[r]), 1, 1)
				}
				lens[r]++
			}
		}
	case arrow.INT16:
		vals := values[uint16](k)
		for r := range n {
			if i := int(rowAt(rs, r)); !null(r, i) {
				packPut(words, r*nw, int(lens[r]), uint64(vals[i]), 2)
				lens[r] += 2
			}
		}
	case arrow.INT32, arrow.DATE32, arrow.UINT32:
		vals := values[uint32](k)
		for r := range n {
			if i := int(rowAt(rs, r)); !null(r, i) {
				packPut(words, r*nw, int(lens[r]), uint64(vals[i]), 4)
				lens[r] += 4
			}
		}
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		vals := values[uint64](k)
		for r := range n {
			if i := int(rowAt(rs, r)); !null(r, i) {
				packPut(words, r*nw, int(lens[r]), vals[i], 8)
				lens[r] += 8
			}
		}
	case arrow.FLOAT32:
		vals := values[float32](k)
		for r := range n {
			if i := int(rowAt(rs, r)); !null(r, i) {
				packPut(words, r*nw, int(lens[r]), math.Float64bits(canonicalFloat(float64(vals[i]))), 8)
				lens[r] += 8
			}
		}
	case arrow.FLOAT64:
		vals := values[float64](k)
		for r := range n {
			if i := int(rowAt(rs, r)); !null(r, i) {
				packPut(words, r*nw, int(lens[r]), math.Float64bits(canonicalFloat(vals[i])), 8)
				lens[r] += 8
			}
		}
	case arrow.DECIMAL128:
		// Low then high 64 bits, as appendKey writes them.
		vals := values[decimal128.Num](k)
		for r := range n {
			if i := int(rowAt(rs, r)); !null(r, i) {
				base, at := r*nw, int(lens[r])
				packPut(words, base, at, vals[i].LowBits(), 8)
				packPut(words, base, at+8, uint64(vals[i].HighBits()), 8)
				lens[r] += 16
			}
		}
	case arrow.DECIMAL64:
		vals := values[int64](k)
		for r := range n {
			if i := int(rowAt(rs, r)); !null(r, i) {
				base, at := r*nw, int(lens[r])
				packPut(words, base, at, uint64(vals[i]), 8)
				packPut(words, base, at+8, uint64(vals[i]>>63), 8)
				lens[r] += 16
			}
		}
	case arrow.STRING:
		str := k.(*array.String)
		offsets := str.ValueOffsets()
		data := str.ValueBytes()
		first := offsets[0]
		for r := range n {
			i := int(rowAt(rs, r))
			if bm != nil && !bitutil.BitIsSet(bm, off+i) {
				if markNulls {
					nulls[r] = true
				}
				lens[r]++
				continue
			}
			base, at := r*nw, int(lens[r])
			start, l := int(offsets[i]-first), int(offsets[i+1]-offsets[i])
			// The marker, the length (one byte: below 128) and the text.
			if l <= 6 {
				v := uint64(1 | l<<8)
				if l > 0 {
					v |= loadWord(data, start, l) << 16
				}
				packPut(words, base, at, v, 2+l)
			} else {
				packPut(words, base, at, uint64(1|l<<8), 2)
				for i := 0; i < l; i += 8 {
					c := min(l-i, 8)
					packPut(words, base, at+2+i, loadWord(data, start+i, c), c)
				}
			}
			lens[r] += uint8(2 + l)
		}
	default:
		panic("pack: unpacked key type " + k.DataType().String())
	}
}

// packedRow is row r of a batch pack wrote as words of nw, and its
// words (zero past nw).
func packedRow(words []uint64, r, nw int) (row []uint64, w0, w1, w2 uint64) {
	row = words[r*nw : r*nw+nw]
	w0 = row[0]
	if nw > 1 {
		w1 = row[1]
	}
	if nw > 2 {
		w2 = row[2]
	}
	return row, w0, w1, w2
}

// touchPacked hashes rows lo to hi of a packed batch into hashes and,
// in a table too large for the caches, reads, deciding nothing on what
// it reads, the slot each hashes to and then what the probe compares
// first at the id found there (the stored words, or the stored hash):
// touchInts for keys found in two steps.
func (t *keyTable) touchPacked(words []uint64, lens []uint8, nw, lo, hi int, hashes []uint64) uint64 {
	mask := uint64(len(t.slots) - 1)
	touch := t.touches()
	var sum uint64
	for r := lo; r < hi; r++ {
		_, w0, w1, w2 := packedRow(words, r, nw)
		h := wordsHash(w0, w1, w2, int(lens[r]))
		hashes[r] = h
		if touch {
			sum += uint64(t.slots[h&mask])
		}
	}
	if !touch {
		return sum
	}
	for r := lo; r < hi; r++ {
		id := int(t.slots[hashes[r]&mask]) - 1
		switch {
		case id < 0:
		case t.stride > 0:
			sum += t.words[id*t.stride]
		default:
			sum += t.hashes[id]
		}
	}
	return sum
}

// findPacked is findEncoded for a batch pack wrote as words of nw: the
// same hashes, ids and arena bytes (or words, with a stride: nw is the
// stride then), without encoding, maphash or bytes.Equal.
func (t *keyTable) findPacked(n, nw int, ids []int32, s *keyScratch, add, skipNulls bool, isNew func(int32, int)) {
	words, lens := s.words[:n*nw], s.lens[:n]
	s.hashes = slices.Grow(s.hashes[:0], n)[:n]
	// Inserting keys of one word into a table that stays in cache (a
	// grouping by a few flags), a row finds its id in the recent keys'
	// cache (recentKeys) without hashing; the table, which alone inserts,
	// owns it.
	recent := add && nw == 1 && !t.touches()
	if recent && t.recent == nil {
		t.recent = new(recentKeys)
	}
	for r := range n {
		if r%probeChunk == 0 && !recent {
			s.touched += t.touchPacked(words, lens, nw, r, min(r+probeChunk, n), s.hashes)
		}
		if skipNulls && len(s.nulls) > 0 && s.nulls[r] {
			ids[r] = -1
			continue
		}
		row, w0, w1, w2 := packedRow(words, r, nw)
		l := int(lens[r])
		var h uint64
		var seen *recentKey
		if recent {
			seen = &t.recent[(w0*0x9E3779B97F4A7C15)>>(64-recentKeyBits)]
			if seen.id != 0 && seen.word == w0 && int(seen.len) == l {
				ids[r] = seen.id - 1
				continue
			}
			h = wordsHash(w0, w1, w2, l)
		} else {
			h = s.hashes[r]
		}
		mask := uint64(len(t.slots) - 1)
		i := h & mask
		for {
			slot := t.slots[i]
			if slot == 0 {
				if !add {
					ids[r] = -1
					break
				}
				id := t.newID(h)
				if t.stride > 0 {
					t.words = append(t.words, row...)
					t.slots[i] = id + 1
					ids[r] = id
					if isNew != nil {
						isNew(id, r)
					}
					t.maybeGrow()
					break
				}
				// The key's bytes are its words' first l; a zero word
				// after them leaves room for equalWords' loads.
				o := len(t.arena)
				t.arena = binary.LittleEndian.AppendUint64(t.arena, w0)
				t.arena = binary.LittleEndian.AppendUint64(t.arena, w1)
				t.arena = binary.LittleEndian.AppendUint64(t.arena, w2)
				t.arena = binary.LittleEndian.AppendUint64(t.arena, 0)
				t.arena = t.arena[:o+l]
				t.offs = append(t.offs, len(t.arena))
				t.slots[i] = id + 1
				ids[r] = id
				if isNew != nil {
					isNew(id, r)
				}
				t.maybeGrow()
				break
			}
			id := slot - 1
			if t.stride > 0 {
				// Equal words are equal keys: no need to read the hash.
				if t.equalStored(id, row) {
					ids[r] = id
					break
				}
			} else if t.hashes[id] == h && t.equalWords(id, l, w0, w1, w2) {
				ids[r] = id
				break
			}
			i = (i + 1) & mask
		}
		if seen != nil {
			*seen = recentKey{word: w0, len: uint8(l), id: ids[r] + 1}
		}
	}
}

// recentKeyBits sizes recentKeys: 256 entries, 4 KiB.
const recentKeyBits = 8

// recentKeys is a direct-mapped cache of keys of one word a table found
// or inserted last, by the word's multiplicative hash: a key's id, once
// given, never changes, so an entry stays true.
type recentKeys [1 << recentKeyBits]recentKey

type recentKey struct {
	word uint64
	len  uint8
	id   int32 // id+1; 0 for an empty entry
}

// touches reports whether the table is too large for the caches, so that
// a probe touches its slots ahead (touchPacked).
func (t *keyTable) touches() bool { return 4*len(t.slots) >= touchMinBytes }

// equalStored reports whether id's key words are row.
func (t *keyTable) equalStored(id int32, row []uint64) bool {
	stored := t.words[int(id)*len(row):][:len(row)]
	for i, w := range row {
		if stored[i] != w {
			return false
		}
	}
	return true
}

// equalWords reports whether id's key is the l bytes of words w0, w1, w2.
// It loads whole words up to the arena's capacity, masking what follows
// the key: nothing writes there while anyone looks up.
func (t *keyTable) equalWords(id int32, l int, w0, w1, w2 uint64) bool {
	o := t.offs[id]
	if t.offs[id+1]-o != l {
		return false
	}
	arena := t.arena[:cap(t.arena)]
	if loadWord(arena, o, min(l, 8)) != w0 {
		return false
	}
	if l > 8 && loadWord(arena, o+8, min(l-8, 8)) != w1 {
		return false
	}
	return l <= 16 || loadWord(arena, o+16, l-16) == w2
}
