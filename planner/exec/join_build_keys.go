package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// insertKeys gives every build row the id of its key (-1 for a NULL one)
// in rowIDs, the table taking the keys tableKeys picks. The first
// batch's share of distinct keys sizes the table for the whole input.
// overBudget reports that the table passed the memory budget (err says
// how); any other error is the keys' evaluation's.
func (b *joinBuild) insertKeys(ctx context.Context, batches []arrow.RecordBatch, rowIDs []int32, total int) (overBudget bool, err error) {
	row := 0
	for i, rb := range batches {
		keys, err := evalAll(ctx, b.rightKeys, rb)
		if err != nil {
			return false, err
		}
		n := int(rb.NumRows())
		before := b.table.memBytes()
		b.table.insert(b.tableKeys(keys), n, rowIDs[row:row+n], true, nil)
		releaseAll(keys)
		if i == 0 && n < total && n >= reserveSampleRows {
			// The first batch's share of distinct keys guesses the
			// input's; a table the budget cannot take at once grows as
			// keys come instead.
			guess := int(int64(b.table.len()) * int64(total) / int64(max(n, 1)))
			if more := b.table.reserveBytes(guess); b.mem.tryGrow(more) {
				b.table.reserve(guess)
				before += more
			}
		}
		row += n
		if err := b.mem.grow(b.table.memBytes() - before); err != nil {
			return true, err
		}
	}
	return false, nil
}

// rankRows numbers the keys of a ranked table (rankKeys) and gives each
// build row its key's id in rowIDs, -1 for a NULL one. It reports false
// when a key lies outside the range the table was made for (the keys
// are columns, read again: it cannot happen), leaving rowIDs unset.
func (b *joinBuild) rankRows(ctx context.Context, batches []arrow.RecordBatch, rowIDs []int32) (bool, error) {
	var s keyScratch
	for _, rb := range batches {
		keys, err := evalAll(ctx, b.rightKeys, rb)
		if err != nil {
			return false, err
		}
		s.vals = intKeyValues(keys[0], s.vals[:0])
		ok := b.table.markRanked(keys[0], s.vals)
		releaseAll(keys)
		if !ok {
			return false, nil
		}
	}
	b.table.finishRanks()
	row := 0
	for _, rb := range batches {
		keys, err := evalAll(ctx, b.rightKeys, rb)
		if err != nil {
			return false, err
		}
		n := int(rb.NumRows())
		b.table.lookup(keys, n, rowIDs[row:row+n], &s)
		releaseAll(keys)
		row += n
	}
	return true, nil
}

// tableKeys are the keys the table takes: the indexed one alone, or all.
func (b *joinBuild) tableKeys(keys []arrow.Array) []arrow.Array {
	if b.indexBy < 0 {
		return keys
	}
	return keys[b.indexBy : b.indexBy+1]
}

// indexOneKey picks, for a join on several integer column keys, the
// first key whose values are dense enough to index the table by (and
// whose index the budget takes), and readies the table for it; whether
// the key is each row's own is known only once inserted
// (eachKeyOneRow).
func (b *joinBuild) indexOneKey(ctx context.Context, batches []arrow.RecordBatch, total int) (bool, error) {
	if len(b.rightKeys) < 2 || !b.intKeys {
		return false, nil
	}
	for k := range b.rightKeys {
		lo, hi, ok, err := b.keyRange(ctx, batches, k)
		if err != nil {
			return false, err
		}
		if ok && b.table.indexesByKey(lo, hi, total) && b.mem.tryGrow(directBytes(lo, hi)) {
			b.table.indexByKey(lo, hi, total)
			b.indexBy = k
			return true, nil
		}
	}
	return false, nil
}

// eachKeyOneRow reports whether every key the table holds is one build
// row's, given the rows' ids.
func (b *joinBuild) eachKeyOneRow(rowIDs []int32) bool {
	return keyedRows(rowIDs) == b.table.len()
}

// keyedRows counts the rows with a key (an id, not -1).
func keyedRows(rowIDs []int32) int {
	keyed := 0
	for _, id := range rowIDs {
		if id >= 0 {
			keyed++
		}
	}
	return keyed
}

// keyCheck is a key the table does not index: its values by build row
// (nulls marks the NULL ones; nil when none is).
type keyCheck struct {
	key   int
	vals  []int64
	nulls []bool
}

// keepChecks records the values of every key but the indexed one.
func (b *joinBuild) keepChecks(ctx context.Context, batches []arrow.RecordBatch, total int) error {
	if err := b.mem.grow(int64(len(b.rightKeys)-1) * 9 * int64(total)); err != nil {
		return err
	}
	for k := range b.rightKeys {
		if k != b.indexBy {
			b.checks = append(b.checks, keyCheck{key: k, vals: make([]int64, total)})
		}
	}
	row := 0
	for _, rb := range batches {
		keys, err := evalAll(ctx, b.rightKeys, rb)
		if err != nil {
			return err
		}
		n := int(rb.NumRows())
		for i := range b.checks {
			c := &b.checks[i]
			a := keys[c.key]
			intKeyValues(a, c.vals[row:row+n])
			if a.NullN() == 0 {
				continue
			}
			if c.nulls == nil {
				c.nulls = make([]bool, total)
			}
			for r := range n {
				c.nulls[row+r] = a.IsNull(r)
			}
		}
		releaseAll(keys)
		row += n
	}
	return nil
}

// lookup sets ids[r] to the id of the build key equal to probe row r's
// keys, -1 for none.
func (b *joinBuild) lookup(keys []arrow.Array, n int, ids []int32, s *keyScratch) {
	b.table.lookup(b.tableKeys(keys), n, ids, s)
	for i := range b.checks {
		b.checks[i].keep(b, keys[b.checks[i].key], ids, s)
	}
}

// keep unsets the ids of the probe rows whose value of the check's key
// (a) is not their build row's: a NULL on either side equals nothing.
func (c *keyCheck) keep(b *joinBuild, a arrow.Array, ids []int32, s *keyScratch) {
	s.vals = intKeyValues(a, s.vals[:0])
	nulls := a.NullN() > 0
	for r, id := range ids {
		if id < 0 {
			continue
		}
		row := b.rowOf(id)
		if nulls && a.IsNull(r) || c.nulls != nil && c.nulls[row] || s.vals[r] != c.vals[row] {
			ids[r] = -1
		}
	}
}
