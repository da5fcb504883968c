package exec

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
)

// rankedBytes is the memory a ranked table of keys from lo to hi takes:
// its bitmap and a count per word of it.
func rankedBytes(lo, hi int64, rows int) int64 {
	bitmap := presenceBytes(lo, hi, rows)
	return bitmap + bitmap/2
}

// rankKeys makes an empty table of one integer key column, whose keys
// will be at least lo and at most hi, a ranked one: markRanked sets its
// keys' bits, finishRanks numbers them. Such a table takes no NULL key
// and is only looked up once numbered.
func (t *keyTable) rankKeys(lo, hi int64) {
	span := uint64(hi) - uint64(lo) + 1
	t.present, t.presentLo = make([]uint64, (span+63)/64), lo
	t.decided, t.intKey, t.ranked = true, true, true
}

// markRanked sets the bits of the keys vals of a (NULLs aside). It
// reports false, setting nothing more, for a key outside the table's
// range, which its caller then builds as a hash table instead.
func (t *keyTable) markRanked(a arrow.Array, vals []int64) bool {
	nulls := a.NullN() > 0
	for r, v := range vals {
		if nulls && a.IsNull(r) {
			continue
		}
		off := uint64(v) - uint64(t.presentLo)
		w := off / 64
		if w >= uint64(len(t.present)) {
			return false
		}
		t.present[w] |= 1 << (off % 64)
	}
	return true
}

// finishRanks counts the keys before each word of the bitmap: the table
// then holds t.n keys, numbered in key order.
func (t *keyTable) finishRanks() {
	t.rankBefore = make([]int32, len(t.present))
	n := 0
	for w, word := range t.present {
		t.rankBefore[w] = int32(n)
		n += bits.OnesCount64(word)
	}
	t.n = n
}

// rankOf is key v's id, -1 when the table lacks it.
func (t *keyTable) rankOf(v int64) int32 {
	off := uint64(v) - uint64(t.presentLo)
	w := off / 64
	if w >= uint64(len(t.present)) {
		return -1
	}
	word, bit := t.present[w], uint64(1)<<(off%64)
	if word&bit == 0 {
		return -1
	}
	return t.rankBefore[w] + int32(bits.OnesCount64(word&(bit-1)))
}

// findRanked is findInts in a ranked table, given the batch's keys
// widened in s.vals: a NULL key, like an absent one, gets -1.
func (t *keyTable) findRanked(a arrow.Array, n int, ids []int32, s *keyScratch) {
	nulls := a.NullN() > 0
	for r, v := range s.vals[:n] {
		if nulls && a.IsNull(r) {
			ids[r] = -1
			continue
		}
		ids[r] = t.rankOf(v)
	}
}
