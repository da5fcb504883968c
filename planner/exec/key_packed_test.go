package exec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/types"
)

// keyRows builds a batch's key columns from rows of values (nil: NULL).
// With sliced the arrays are slices of longer ones, so their values and
// validity bitmaps start at an offset.
func keyRows(t *testing.T, typs []types.T, rows [][]any, sliced bool) []arrow.Array {
	t.Helper()
	cols := make([]arrow.Array, len(typs))
	for c, typ := range typs {
		var vals []any
		if sliced {
			vals = append(vals, nil, rows[0][c], nil)
		}
		for _, row := range rows {
			vals = append(vals, row[c])
		}
		a := arrayOf(t, typ, vals)
		if sliced {
			cols[c] = array.NewSlice(a, 3, int64(len(vals)))
			a.Release()
		} else {
			cols[c] = a
		}
	}
	return cols
}

// TestKeyTablePackedMatchesEncoded: batches that pack (every key at most
// packedMaxLen bytes) and batches that do not give a key the same id
// whichever path met it first, as a map from appendKey's bytes would;
// lookups and probes, packed or through findEncoded, find those ids, and
// keys never inserted are not found.
func TestKeyTablePackedMatchesEncoded(t *testing.T) {
	long := strings.Repeat("x", 30)
	negZero := math.Copysign(0, -1)
	dec := func(hi int64, lo uint64) decimal128.Num { return decimal128.New(hi, lo) }
	// Random batches of many keys (the table grows), every other one
	// with texts too long to pack.
	rng := rand.New(rand.NewPCG(7, 8))
	randomText := func(mayBeLong bool) any {
		switch rng.IntN(8) {
		case 0:
			return nil
		case 1:
			if mayBeLong {
				return strings.Repeat("é", 1+rng.IntN(12))
			}
			return strings.Repeat("é", rng.IntN(5))
		default:
			return fmt.Sprint(rng.IntN(10_000_000))
		}
	}
	var randomBatches [][][]any
	var randomPacks []bool
	for b := range 6 {
		rows := [][]any{{"", long}}
		if b%2 == 0 {
			rows = nil
		}
		for range 3000 {
			rows = append(rows, []any{randomText(b%2 == 1), randomText(b%2 == 1)})
		}
		randomBatches = append(randomBatches, rows)
		randomPacks = append(randomPacks, b%2 == 0)
	}

	tests := []struct {
		name    string
		typs    []types.T
		batches [][][]any
		// packs: whether each batch takes the packed path.
		packs  []bool
		absent [][]any
		// stride: the words per key of a fixed-width table, else 0.
		stride int
	}{
		{
			name: "two texts, short and long batches",
			typs: []types.T{types.Text, types.Text},
			batches: [][][]any{
				{{"A", "F"}, {"N", "O"}, {"R", "F"}, {"A", "F"}, {nil, "O"}, {"", ""}, {"", nil}},
				{{"A", "F"}, {long, "O"}, {"N", "O"}, {nil, "O"}, {"", ""}, {"R", long}},
				{{"R", long}, {"N", "O"}, {"é", "ñ"}, {"", nil}},
			},
			packs:  []bool{true, false, false},
			absent: [][]any{{"A", "O"}, {"F", "A"}, {"", "A"}, {"A", ""}, {nil, nil}, {long, long}, {"é", "n"}},
		},
		{
			name: "one text at the one-word boundary",
			typs: []types.T{types.Text},
			batches: [][][]any{
				{{"abcdef"}, {"ñéa"}, {""}, {nil}, {"abcde"}},
				{{"abcdefg"}, {"abcdef"}, {"ñéa"}, {"abcde"}},
				{{"abcdefg"}, {"abcdef"}},
			},
			// 1+1+6 = 8 bytes: one word; 1+1+7: two.
			packs:  []bool{true, true, true},
			absent: [][]any{{"abcdeg"}, {"abcdefgh"}, {"ñé"}, {"a"}},
		},
		{
			name: "one text at the packed boundary",
			typs: []types.T{types.Text},
			batches: [][][]any{
				{{strings.Repeat("z", 22)}, {strings.Repeat("z", 21)}, {strings.Repeat("é", 11)}},
				{{strings.Repeat("z", 23)}, {strings.Repeat("z", 22)}, {strings.Repeat("é", 11)}, {strings.Repeat("z", 21)}},
				{{strings.Repeat("z", 22)}, {strings.Repeat("z", 23)}},
			},
			// 1+1+22 = 24 bytes packs; 1+1+23 does not.
			packs:  []bool{true, false, false},
			absent: [][]any{{strings.Repeat("z", 20)}, {strings.Repeat("z", 24)}, {strings.Repeat("é", 10) + "e"}},
		},
		{
			name: "text and int, 9 to 17 bytes",
			typs: []types.T{types.Text, types.Int4},
			batches: [][][]any{
				{{"EU", int64(-1)}, {"LATAM", int64(3)}, {"EU", int64(-1)}, {nil, int64(3)}, {"EU", nil}, {"", int64(0)}},
				{{long, int64(1)}, {"LATAM", int64(3)}, {"EU", nil}, {"", int64(0)}, {"EU", int64(-1)}},
				{{"LATAM", int64(3)}, {nil, int64(3)}, {long, int64(1)}},
			},
			packs:  []bool{true, false, false},
			absent: [][]any{{"EU", int64(1)}, {"EU", int64(-2)}, {"LATA", int64(3)}, {nil, nil}},
		},
		{
			name: "two bigints",
			typs: []types.T{types.Int8, types.Int8},
			batches: [][][]any{
				{{int64(1), int64(2)}, {int64(-1), int64(2)}, {int64(1), int64(2)}, {int64(math.MinInt64), int64(math.MaxInt64)}, {nil, int64(2)}, {int64(0), int64(0)}},
				{{int64(1), int64(2)}, {int64(2), int64(1)}, {int64(1), nil}, {nil, nil}, {int64(0), int64(0)}},
			},
			packs:  []bool{true, true},
			absent: [][]any{{int64(2), int64(2)}, {int64(1), int64(-2)}, {int64(math.MaxInt64), int64(math.MinInt64)}, {int64(0), nil}},
			stride: 3,
		},
		{
			name: "smallint, integer and date",
			typs: []types.T{types.Int2, types.Int4, types.Date},
			batches: [][][]any{
				{{int64(-3), int64(-70000), int32(1)}, {int64(3), int64(70000), int32(-1)}, {nil, int64(0), int32(0)}, {int64(-3), int64(-70000), int32(1)}},
				{{int64(3), int64(70000), int32(-1)}, {int64(0), nil, int32(0)}, {nil, int64(0), int32(0)}},
			},
			packs:  []bool{true, true},
			absent: [][]any{{int64(3), int64(-70000), int32(1)}, {int64(0), int64(0), nil}},
			stride: 2,
		},
		{
			name: "bool, float8 and smallint",
			typs: []types.T{types.Bool, types.Float8, types.Int2},
			batches: [][][]any{
				{{true, 0.0, int64(1)}, {false, negZero, int64(-1)}, {true, math.NaN(), int64(1)}, {nil, 1.5, nil}},
				{{true, negZero, int64(1)}, {true, math.NaN(), int64(1)}, {false, 0.0, int64(-1)}, {nil, 1.5, nil}},
			},
			packs:  []bool{true, true},
			absent: [][]any{{false, 0.0, int64(1)}, {true, -1.5, int64(1)}, {true, 0.0, nil}},
			stride: 2,
		},
		{
			name: "numeric and bool",
			typs: []types.T{numeric382, types.Bool},
			batches: [][][]any{
				{{dec(0, 1), true}, {dec(-1, 0), true}, {dec(0, 1), true}, {nil, false}},
				{{dec(0, 1), false}, {dec(-1, 0), true}, {nil, false}, {dec(0, 1), nil}},
			},
			packs:  []bool{true, true},
			absent: [][]any{{dec(1, 1), true}, {dec(-1, math.MaxUint64), true}, {nil, true}},
			stride: 3,
		},
		{
			name: "numeric and bigint encode past the words",
			typs: []types.T{numeric382, types.Int8},
			batches: [][][]any{
				{{dec(0, 5), int64(1)}, {dec(-1, 5), int64(1)}, {nil, int64(1)}, {dec(0, 5), int64(1)}},
				{{nil, int64(1)}, {dec(0, 5), nil}},
			},
			packs:  []bool{false, false},
			absent: [][]any{{dec(0, 5), int64(2)}},
		},
		{
			name: "flags, as TPC-H Q1 groups",
			typs: []types.T{types.Text, types.Text},
			batches: [][][]any{
				{{"A", "F"}, {"N", "O"}, {"R", "F"}, {"N", "F"}, {"A", "F"}},
				{{"N", "O"}, {"A", "F"}, {"R", "O"}},
				{{"AB", "F"}, {"A", "BF"}, {"N", "O"}},
			},
			packs:  []bool{true, true, true},
			absent: [][]any{{"A", "O"}, {"F", "A"}, {"AB", "O"}, {"ABF", ""}},
		},
		{
			name: "texts of one length, a date, a smallint, then texts of several",
			typs: []types.T{types.Text, types.Date, types.Int2, types.Text},
			batches: [][][]any{
				{{"abc", int32(3), int64(-2), "xy"}, {"abd", int32(-3), int64(2), "x"}, {"abc", int32(3), int64(-2), "xy"}},
				{{"abd", int32(-3), int64(2), "x"}, {"abc", int32(3), int64(-2), "xz"}},
				{{"abd", int32(-3), int64(2), "x"}, {"abc", int32(3), int64(-2), "xy"}},
			},
			packs:  []bool{true, true, true},
			absent: [][]any{{"abc", int32(3), int64(-2), "x"}, {"abd", int32(-3), int64(-2), "x"}},
		},
		{
			name: "bigint and text",
			typs: []types.T{types.Int8, types.Text},
			batches: [][][]any{
				{{int64(7), "EU"}, {int64(-7), "US"}, {int64(7), "EU"}},
				{{int64(-7), "US"}, {int64(7), "EUR"}, {int64(7), "EU"}},
			},
			packs:  []bool{true, true},
			absent: [][]any{{int64(7), "US"}, {int64(7), "E"}},
		},
		{
			name:    "random texts, some multibyte, some long",
			typs:    []types.T{types.Text, types.Text},
			batches: randomBatches,
			packs:   randomPacks,
			absent:  [][]any{{"d", ""}, {"", "d"}, {long, nil}},
		},
	}
	for _, tc := range tests {
		for _, skipNulls := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/skipNulls=%v", tc.name, skipNulls), func(t *testing.T) {
				var batches [][]arrow.Array
				for i, rows := range tc.batches {
					batches = append(batches, keyRows(t, tc.typs, rows, i%2 == 1))
				}
				defer func() {
					for _, b := range batches {
						releaseAll(b)
					}
				}()
				// want is what a map from appendKey's bytes gives.
				ref := map[string]int32{}
				hasNull := func(cols []arrow.Array, r int) bool {
					for _, c := range cols {
						if c.IsNull(r) {
							return true
						}
					}
					return false
				}
				want := func(cols []arrow.Array, r int, add, skip bool) int32 {
					if skip && hasNull(cols, r) {
						return -1
					}
					var key []byte
					for _, c := range cols {
						key = appendKey(key, c, r)
					}
					id, ok := ref[string(key)]
					if !ok {
						if !add {
							return -1
						}
						id = int32(len(ref))
						ref[string(key)] = id
					}
					return id
				}
				kt := newKeyTable()
				newIDs := 0
				for b, cols := range batches {
					n := cols[0].Len()
					if _, ok := (&keyScratch{}).pack(cols, rowSet{dense: true, n: n}, false); ok != tc.packs[b] {
						t.Fatalf("batch %d packs %v, want %v", b, ok, tc.packs[b])
					}
					ids := make([]int32, n)
					kt.insert(cols, n, ids, skipNulls, func(id int32, r int) {
						if int(id) != newIDs || ids[r] != id {
							t.Fatalf("batch %d row %d: new id %d (ids[r] %d), want %d", b, r, id, ids[r], newIDs)
						}
						newIDs++
					})
					for r := range n {
						if w := want(cols, r, true, skipNulls); ids[r] != w {
							t.Fatalf("batch %d row %d: insert gave %d, want %d", b, r, ids[r], w)
						}
					}
				}
				if kt.len() != len(ref) || newIDs != len(ref) {
					t.Fatalf("%d keys (%d new), want %d", kt.len(), newIDs, len(ref))
				}
				if kt.stride != tc.stride {
					t.Fatalf("stride %d, want %d", kt.stride, tc.stride)
				}
				absent := keyRows(t, tc.typs, tc.absent, false)
				defer releaseAll(absent)
				var s keyScratch
				for b, cols := range append(batches, absent) {
					n := cols[0].Len()
					got := make([]int32, n)
					kt.lookup(cols, n, got, &s)
					probed := make([]int32, n)
					kt.probe(cols, n, probed)
					encoded := make([]int32, n)
					if kt.stride == 0 {
						kt.findEncoded(cols, n, encoded, &keyScratch{}, false, true, nil)
					}
					for r := range n {
						if w := want(cols, r, false, true); got[r] != w || kt.stride == 0 && encoded[r] != w {
							t.Fatalf("batch %d row %d: lookup %d, encoded lookup %d, want %d", b, r, got[r], encoded[r], w)
						}
						if w := want(cols, r, false, false); probed[r] != w {
							t.Fatalf("batch %d row %d: probe %d, want %d", b, r, probed[r], w)
						}
					}
				}
			})
		}
	}
}

// TestKeyTableEqualWords: a packed key equals its stored bytes and no
// key of another length or differing in any of its bytes, which the
// hash alone does not show.
func TestKeyTableEqualWords(t *testing.T) {
	var rows [][]any
	for l := range 23 { // keys of 2 to 24 bytes
		rows = append(rows, []any{strings.Repeat("q", l)})
	}
	cols := keyRows(t, []types.T{types.Text}, rows, false)
	defer releaseAll(cols)
	n := len(rows)
	kt := newKeyTable()
	ids := make([]int32, n)
	kt.insert(cols, n, ids, false, nil)
	var s keyScratch
	nw, ok := s.pack(cols, rowSet{dense: true, n: n}, false)
	if !ok || nw != 3 {
		t.Fatalf("pack gave %d words, %v", nw, ok)
	}
	for r, id := range ids {
		w := s.words[r*nw : r*nw+nw]
		l := int(s.lens[r])
		if l != 2+r || !kt.equalWords(id, l, w[0], w[1], w[2]) {
			t.Fatalf("key %d (%d bytes) differs from its own words", id, l)
		}
		if kt.equalWords(id, l+1, w[0], w[1], w[2]) || kt.equalWords(id, l-1, w[0], w[1], w[2]) {
			t.Fatalf("key %d equals a key of another length", id)
		}
		for b := range l {
			v := [3]uint64{w[0], w[1], w[2]}
			v[b/8] ^= 1 << (8*(b%8) + 1)
			if kt.equalWords(id, l, v[0], v[1], v[2]) {
				t.Fatalf("key %d equals a key differing in byte %d", id, b)
			}
		}
	}
}

// TestKeyTableRecentKeys: a grouping table inserting keys of one word
// finds repeated keys through its recent keys' cache; with thousands of
// distinct keys, which share the cache's 256 entries and grow the table,
// each key still gets the id it was first given, and a key of the same
// word but another length (a shorter text is zero padded) is another key.
func TestKeyTableRecentKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	want := map[string]int32{}
	tbl := newGroupingTable()
	for batch := range 4 {
		vals := make([]any, 5000)
		for i := range vals {
			k := fmt.Sprint(rng.IntN(4000))
			if i%97 == 0 {
				k = "" // the empty text: one word, like "0", of another length
			}
			vals[i] = k
		}
		cols := []arrow.Array{arrayOf(t, types.Text, vals)}
		ids := make([]int32, len(vals))
		tbl.insert(cols, len(vals), ids, false, nil)
		if tbl.recent == nil {
			t.Fatalf("batch %d: keys of one word did not use the recent keys", batch)
		}
		for i, v := range vals {
			k := v.(string)
			id, ok := want[k]
			if !ok {
				id = int32(len(want))
				want[k] = id
			}
			if ids[i] != id {
				t.Fatalf("batch %d row %d (%q): id %d, want %d", batch, i, k, ids[i], id)
			}
		}
		cols[0].Release()
	}
	if tbl.len() != len(want) {
		t.Fatalf("%d keys, want %d", tbl.len(), len(want))
	}
}

// TestKeyTableInsertSelected: inserting the selected rows of a batch
// gives each the id inserting those rows, copied out, gives, and reports
// each new key at its row of the batch.
func TestKeyTableInsertSelected(t *testing.T) {
	tests := []struct {
		name string
		typs []types.T
		rows [][]any
	}{
		{"flags", []types.T{types.Text, types.Text}, [][]any{{"A", "F"}, {"N", "O"}, {"R", "F"}, {"N", "O"}, {"A", "O"}, {"A", "F"}}},
		{"texts of three bytes", []types.T{types.Text}, [][]any{{"abc"}, {"abd"}, {"abc"}, {"xyz"}, {"abd"}, {"qqq"}}},
		{"empty texts and an integer", []types.T{types.Text, types.Int4}, [][]any{{"", int64(1)}, {"", int64(2)}, {"", int64(1)}, {"", int64(3)}, {"", int64(2)}}},
		{"texts past one word", []types.T{types.Text}, [][]any{{"abcdefgh"}, {"abcdefgi"}, {"abcdefgh"}, {"zzzzzzzz"}, {"abcdefgi"}}},
		{"texts with NULLs", []types.T{types.Text, types.Text}, [][]any{{"A", nil}, {nil, "O"}, {"A", nil}, {"R", "F"}, {nil, "O"}}},
		{"texts too long to pack", []types.T{types.Text}, [][]any{{strings.Repeat("x", 30)}, {"y"}, {strings.Repeat("x", 30)}, {"z"}, {"y"}}},
		{"one bigint", []types.T{types.Int8}, [][]any{{int64(5)}, {int64(-5)}, {int64(5)}, {nil}, {int64(9)}, {int64(-5)}}},
	}
	for _, tc := range tests {
		for _, sliced := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/sliced=%v", tc.name, sliced), func(t *testing.T) {
				cols := keyRows(t, tc.typs, tc.rows, sliced)
				defer releaseAll(cols)
				var sel []int32
				for r := range tc.rows {
					if r%3 != 1 {
						sel = append(sel, int32(r))
					}
				}
				picked, err := gatherColumns(t.Context(), cols, sel)
				if err != nil {
					t.Fatal(err)
				}
				defer releaseAll(picked)
				want := make([]int32, len(sel))
				var wantNew []int
				newKeyTable().insert(picked, len(sel), want, false, func(_ int32, r int) { wantNew = append(wantNew, int(sel[r])) })
				got := make([]int32, len(sel))
				var gotNew []int
				if err := newKeyTable().insertSelected(t.Context(), cols, sel, got, func(_ int32, r int) { gotNew = append(gotNew, r) }); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) || !slices.Equal(gotNew, wantNew) {
					t.Fatalf("ids %v, new at rows %v; want %v, %v", got, gotNew, want, wantNew)
				}
			})
		}
	}
}
