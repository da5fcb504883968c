package exec

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// keyCol builds a key column from values, nil meaning NULL.
func keyCol(t *testing.T, dt arrow.DataType, vals ...any) arrow.Array {
	t.Helper()
	b := array.NewBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			b.AppendNull()
		case int:
			switch bb := b.(type) {
			case *array.Int64Builder:
				bb.Append(int64(x))
			case *array.Int32Builder:
				bb.Append(int32(x))
			case *array.Date32Builder:
				bb.Append(arrow.Date32(x))
			default:
				t.Fatalf("int into %T", b)
			}
		case string:
			b.(*array.StringBuilder).Append(x)
		default:
			t.Fatalf("value %T", v)
		}
	}
	return b.NewArray()
}

func TestKeyTableAssignsIDsInFirstSeenOrder(t *testing.T) {
	tests := []struct {
		name      string
		cols      func(t *testing.T) []arrow.Array
		skipNulls bool
		want      []int32
		wantLen   int
	}{
		{
			name: "int64 key",
			cols: func(t *testing.T) []arrow.Array {
				return []arrow.Array{keyCol(t, arrow.PrimitiveTypes.Int64, 5, 7, 5, -1, 7, 0)}
			},
			want: []int32{0, 1, 0, 2, 1, 3}, wantLen: 4,
		},
		{
			name: "int64 key in runs, a NULL inside one",
			cols: func(t *testing.T) []arrow.Array {
				return []arrow.Array{keyCol(t, arrow.PrimitiveTypes.Int64, 4, 4, nil, 4, 9, 9, 4, nil)}
			},
			want: []int32{0, 0, 1, 0, 2, 2, 0, 1}, wantLen: 3,
		},
		{
			name: "int key NULL is a group",
			cols: func(t *testing.T) []arrow.Array {
				return []arrow.Array{keyCol(t, arrow.PrimitiveTypes.Int32, nil, 0, nil, 0, 3)}
			},
			want: []int32{0, 1, 0, 1, 2}, wantLen: 3,
		},
		{
			name: "int key NULL skipped",
			cols: func(t *testing.T) []arrow.Array {
				return []arrow.Array{keyCol(t, arrow.PrimitiveTypes.Int32, nil, 0, nil, 0)}
			},
			skipNulls: true,
			want:      []int32{-1, 0, -1, 0}, wantLen: 1,
		},
		{
			name: "date key",
			cols: func(t *testing.T) []arrow.Array {
				return []arrow.Array{keyCol(t, arrow.FixedWidthTypes.Date32, 9000, 9001, 9000)}
			},
			want: []int32{0, 1, 0}, wantLen: 2,
		},
		{
			name: "composite string and int",
			cols: func(t *testing.T) []arrow.Array {
				return []arrow.Array{
					keyCol(t, arrow.BinaryTypes.String, "A", "A", "B", "A", nil, nil),
					keyCol(t, arrow.PrimitiveTypes.Int64, 1, 2, 1, 1, 1, 1),
				}
			},
			want: []int32{0, 1, 2, 0, 3, 3}, wantLen: 4,
		},
		{
			name: "strings that concatenate alike stay apart",
			cols: func(t *testing.T) []arrow.Array {
				return []arrow.Array{
					keyCol(t, arrow.BinaryTypes.String, "ab", "a", "ab"),
					keyCol(t, arrow.BinaryTypes.String, "c", "bc", "c"),
				}
			},
			want: []int32{0, 1, 0}, wantLen: 2,
		},
		{
			name: "composite NULL skipped",
			cols: func(t *testing.T) []arrow.Array {
				return []arrow.Array{
					keyCol(t, arrow.BinaryTypes.String, "A", nil, "A"),
					keyCol(t, arrow.PrimitiveTypes.Int64, 1, 1, nil),
				}
			},
			skipNulls: true,
			want:      []int32{0, -1, -1}, wantLen: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cols := tc.cols(t)
			defer releaseAll(cols)
			n := cols[0].Len()
			kt := newKeyTable()
			ids := make([]int32, n)
			var newRows []int
			kt.insert(cols, n, ids, tc.skipNulls, func(id int32, r int) {
				if int(id) != len(newRows) {
					t.Fatalf("new id %d, want %d", id, len(newRows))
				}
				newRows = append(newRows, r)
			})
			if fmt.Sprint(ids) != fmt.Sprint(tc.want) || kt.len() != tc.wantLen || len(newRows) != tc.wantLen {
				t.Fatalf("ids %v len %d (%d new), want %v len %d", ids, kt.len(), len(newRows), tc.want, tc.wantLen)
			}
			// A lookup of the same rows finds the same ids, except NULLs.
			got := make([]int32, n)
			kt.lookup(cols, n, got, &keyScratch{})
			for r := range got {
				want := ids[r]
				for _, c := range cols {
					if c.IsNull(r) {
						want = -1
					}
				}
				if got[r] != want {
					t.Fatalf("lookup row %d = %d, want %d", r, got[r], want)
				}
			}
		})
	}
}

// TestKeyTableGrowsAndMisses inserts enough keys to grow the table many
// times, then checks every key keeps its id and unseen keys miss.
func TestKeyTableGrowsAndMisses(t *testing.T) {
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String} {
		t.Run(dt.String(), func(t *testing.T) {
			const n = 50_000
			mk := func(lo int) arrow.Array {
				vals := make([]any, n)
				for i := range vals {
					if dt.ID() == arrow.STRING {
						vals[i] = fmt.Sprint(lo + i)
					} else {
						vals[i] = (lo + i) * 7919
					}
				}
				return keyCol(t, dt, vals...)
			}
			kt := newKeyTable()
			in := mk(0)
			defer in.Release()
			ids := make([]int32, n)
			kt.insert([]arrow.Array{in}, n, ids, false, nil)
			for r, id := range ids {
				if int(id) != r {
					t.Fatalf("row %d got id %d", r, id)
				}
			}
			again := make([]int32, n)
			kt.insert([]arrow.Array{in}, n, again, false, nil)
			if fmt.Sprint(again) != fmt.Sprint(ids) || kt.len() != n {
				t.Fatalf("re-insert changed ids or grew the table to %d", kt.len())
			}
			miss := mk(n)
			defer miss.Release()
			kt.lookup([]arrow.Array{miss}, n, again, &keyScratch{})
			for r, id := range again {
				if id != -1 {
					t.Fatalf("unseen key %d found as %d", r, id)
				}
			}
			if kt.memBytes() <= 0 {
				t.Fatal("table reports no memory")
			}
		})
	}
}

func TestKeyTableWithoutKeys(t *testing.T) {
	kt := newKeyTable()
	ids := []int32{9, 9, 9}
	kt.lookup(nil, 3, ids, &keyScratch{})
	if fmt.Sprint(ids) != "[-1 -1 -1]" {
		t.Fatalf("lookup in an empty keyless table: %v", ids)
	}
	kt.insert(nil, 3, ids, true, nil)
	if fmt.Sprint(ids) != "[0 0 0]" || kt.len() != 1 {
		t.Fatalf("keyless insert: %v, len %d", ids, kt.len())
	}
}

// TestKeyTableReserve sizes a table after its first keys for all of
// them: inserting the rest moves nothing, and reserveBytes said what the
// slots took. Integer, short packed and long encoded keys alike.
func TestKeyTableReserve(t *testing.T) {
	for _, tc := range []struct {
		name string
		dt   arrow.DataType
		key  func(i int) any
	}{
		{"int", arrow.PrimitiveTypes.Int64, func(i int) any { return i * 7919 }},
		{"packed", arrow.BinaryTypes.String, func(i int) any { return fmt.Sprint(i) }},
		{"encoded", arrow.BinaryTypes.String, func(i int) any { return fmt.Sprintf("a key longer than any packed one %d", i) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const first, n = 1000, 40_000
			vals := make([]any, n)
			for i := range vals {
				vals[i] = tc.key(i)
			}
			col := keyCol(t, tc.dt, vals...)
			defer col.Release()
			kt := newKeyTable()
			ids := make([]int32, n)
			head := array.NewSlice(col, 0, first)
			defer head.Release()
			kt.insert([]arrow.Array{head}, first, ids[:first], false, nil)
			before := kt.memBytes()
			want := kt.reserveBytes(n)
			kt.reserve(n)
			if got := kt.memBytes() - before; got != want {
				t.Fatalf("reserve took %d bytes, reserveBytes said %d", got, want)
			}
			slots := len(kt.slots) + len(kt.islots)
			tail := array.NewSlice(col, first, n)
			defer tail.Release()
			kt.insert([]arrow.Array{tail}, n-first, ids[first:], false, nil)
			if now := len(kt.slots) + len(kt.islots); now != slots {
				t.Fatalf("the table grew from %d to %d slots after reserving", slots, now)
			}
			for r, id := range ids {
				if int(id) != r {
					t.Fatalf("row %d got id %d", r, id)
				}
			}
			again := make([]int32, n)
			kt.lookup([]arrow.Array{col}, n, again, &keyScratch{})
			if fmt.Sprint(again) != fmt.Sprint(ids) {
				t.Fatal("lookups after reserving found other ids")
			}
		})
	}
}

// TestKeyTableIndexedByKey inserts and looks keys up in a table indexed
// by key when their range is dense (the smallest and largest key, keys
// between and outside them, NULL), and finds it left hashed when sparse;
// the ids are the hashed table's for the same keys.
func TestKeyTableIndexedByKey(t *testing.T) {
	for _, tc := range []struct {
		name   string
		keys   []any
		direct bool
	}{
		{"dense", []any{7, 9, 8, 12, nil, 10, 9}, true},
		{"negative", []any{-3, 2, -1}, true},
		{"sparse", []any{1, 1 << 40}, false},
		{"extremes", []any{math.MinInt64, math.MaxInt64}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			build := keyCol(t, arrow.PrimitiveTypes.Int64, tc.keys...)
			defer build.Release()
			lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
			for _, k := range tc.keys {
				if k != nil {
					lo, hi = min(lo, int64(k.(int))), max(hi, int64(k.(int)))
				}
			}
			hashed, kt := newKeyTable(), newKeyTable()
			if got := kt.indexByKey(lo, hi, len(tc.keys)); got != tc.direct {
				t.Fatalf("indexed by key: %v, want %v", got, tc.direct)
			}
			// The ids by key replace the empty table's 64 slots.
			if grew := kt.memBytes() - hashed.memBytes() + 4*64; tc.direct && grew != directBytes(lo, hi) {
				t.Errorf("the table grew by %d bytes, directBytes %d", grew, directBytes(lo, hi))
			}
			want, ids := make([]int32, build.Len()), make([]int32, build.Len())
			var news, hashedNews []int
			hashed.insert([]arrow.Array{build}, build.Len(), want, true, func(_ int32, r int) { hashedNews = append(hashedNews, r) })
			kt.insert([]arrow.Array{build}, build.Len(), ids, true, func(_ int32, r int) { news = append(news, r) })
			if fmt.Sprint(ids) != fmt.Sprint(want) || fmt.Sprint(news) != fmt.Sprint(hashedNews) {
				t.Fatalf("ids %v (new at rows %v), hashed %v (%v)", ids, news, want, hashedNews)
			}
			probeVals := append([]any{nil, -4, 11, 13, 0, 1 << 41, math.MinInt64, math.MaxInt64}, tc.keys...)
			probe := keyCol(t, arrow.PrimitiveTypes.Int64, probeVals...)
			defer probe.Release()
			got, exp := make([]int32, probe.Len()), make([]int32, probe.Len())
			kt.lookup([]arrow.Array{probe}, probe.Len(), got, &keyScratch{})
			hashed.lookup([]arrow.Array{probe}, probe.Len(), exp, &keyScratch{})
			if fmt.Sprint(got) != fmt.Sprint(exp) {
				t.Errorf("lookups %v, hashed %v", got, exp)
			}
		})
	}
}

// TestGroupingTableByKey feeds a grouping's table, which indexes its ids
// by key while the keys stay dense, batches of keys (NULLs among them,
// NULL a key like any other) and checks every id and new-key callback
// against a hash table fed the same batches, then lookups: keys rising
// and falling past the range, and batches whose keys turn it into a hash
// table part-way.
func TestGroupingTableByKey(t *testing.T) {
	rising := func(from, n, step int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = from + i*step
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		batches [][]any
		byKey   bool // still indexed by key at the end
	}{
		{"rising", [][]any{rising(1, 300, 4), append(rising(1201, 300, 4), nil), rising(2401, 5000, 4)}, true},
		{"falling", [][]any{rising(1000, 100, 1), {nil, 950, 999}, rising(700, 100, 3)}, true},
		{"only NULL first", [][]any{{nil, nil}, {3, nil, 2}}, true},
		{"turns sparse", [][]any{rising(1, 100, 1), {1 << 40, 7, nil}, rising(50, 100, 1)}, false},
		{"extremes", [][]any{{math.MinInt64, math.MaxInt64, 0}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			byKey, hashed := newGroupingTable(), newKeyTable()
			var probe []any
			for _, b := range tc.batches {
				col := keyCol(t, arrow.PrimitiveTypes.Int64, b...)
				got, want := make([]int32, len(b)), make([]int32, len(b))
				var gotNew, wantNew []string
				byKey.insert([]arrow.Array{col}, len(b), got, false, func(id int32, r int) { gotNew = append(gotNew, fmt.Sprint(id, "@", r)) })
				hashed.insert([]arrow.Array{col}, len(b), want, false, func(id int32, r int) { wantNew = append(wantNew, fmt.Sprint(id, "@", r)) })
				col.Release()
				if fmt.Sprint(got) != fmt.Sprint(want) || fmt.Sprint(gotNew) != fmt.Sprint(wantNew) {
					t.Fatalf("batch %v: ids %v new %v, hashed %v new %v", b, got, gotNew, want, wantNew)
				}
				probe = append(probe, b...)
			}
			if (byKey.direct != nil) != tc.byKey {
				t.Errorf("indexed by key at the end: %v, want %v", byKey.direct != nil, tc.byKey)
			}
			probe = append(probe, -1<<50, 1<<50, 0, 123456789, nil)
			col := keyCol(t, arrow.PrimitiveTypes.Int64, probe...)
			defer col.Release()
			got, want := make([]int32, len(probe)), make([]int32, len(probe))
			byKey.probe([]arrow.Array{col}, len(probe), got)
			hashed.probe([]arrow.Array{col}, len(probe), want)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("probes %v, hashed %v", got, want)
			}
		})
	}
}

// TestKeyTableRanked: a ranked table (a join build's keys spread over a
// range too wide to index by key) numbers its keys in key order, one id
// per distinct key, NULLs aside; a lookup finds each build key's id, and
// -1 for a key it lacks (inside or outside the range) or a NULL; it is
// ranked only where its bitmap is no larger than a hash table.
func TestKeyTableRanked(t *testing.T) {
	const rows, span = 40_000, 1 << 22
	vals := make([]any, 0, rows+2)
	for i := range rows {
		vals = append(vals, (i*7919)%span)
	}
	vals = append(vals, nil, 7919) // a NULL, a key repeated
	build := keyCol(t, arrow.PrimitiveTypes.Int64, vals...)
	defer build.Release()
	lo, hi := int64(0), int64(span-1)
	if presenceBytes(lo, hi, rows) == 0 {
		t.Fatalf("no ranked table for %d keys over %d", rows, span)
	}
	if presenceBytes(0, 1<<40, rows) != 0 || presenceBytes(0, span, 10) != 0 || presenceBytes(5, 4, rows) != 0 {
		t.Fatal("a ranked table for a range too wide, a table too small, or no keys")
	}
	kt := newKeyTable()
	kt.rankKeys(lo, hi)
	if !kt.markRanked(build, intKeyValues(build, nil)) {
		t.Fatal("a build key outside the range")
	}
	kt.finishRanks()
	ids := make([]int32, build.Len())
	kt.lookup([]arrow.Array{build}, build.Len(), ids, &keyScratch{})
	idOf := map[int64]int32{}
	for r, v := range vals {
		switch {
		case v == nil:
			if ids[r] != -1 {
				t.Fatalf("the NULL key got id %d", ids[r])
			}
			continue
		case ids[r] < 0 || int(ids[r]) >= kt.len():
			t.Fatalf("key %v got id %d of %d", v, ids[r], kt.len())
		}
		k := int64(v.(int))
		if id, seen := idOf[k]; seen && id != ids[r] {
			t.Fatalf("key %d got ids %d and %d", k, id, ids[r])
		}
		idOf[k] = ids[r]
	}
	if len(idOf) != kt.len() {
		t.Fatalf("%d distinct keys, the table holds %d", len(idOf), kt.len())
	}
	keys := slices.Sorted(maps.Keys(idOf))
	for i, k := range keys {
		if idOf[k] != int32(i) {
			t.Fatalf("key %d, the %d-th smallest, has id %d", k, i, idOf[k])
		}
	}
	probeVals := []any{nil, -1, span, 1 << 41, math.MinInt64, math.MaxInt64, 0, 7919, 7919, 7920}
	for i := 0; i < 3*rows; i += 3 {
		probeVals = append(probeVals, i)
	}
	probe := keyCol(t, arrow.PrimitiveTypes.Int64, probeVals...)
	defer probe.Release()
	got := make([]int32, probe.Len())
	kt.lookup([]arrow.Array{probe}, probe.Len(), got, &keyScratch{})
	for r, v := range probeVals {
		want := int32(-1)
		if v != nil {
			var k int64
			switch x := v.(type) {
			case int:
				k = int64(x)
			case int64:
				k = x
			}
			if id, ok := idOf[k]; ok {
				want = id
			}
		}
		if got[r] != want {
			t.Fatalf("lookup of %v: id %d, want %d", v, got[r], want)
		}
	}
	// A key outside the range is refused, not marked.
	outside := keyCol(t, arrow.PrimitiveTypes.Int64, 5, span+1)
	defer outside.Release()
	if kt.markRanked(outside, intKeyValues(outside, nil)) {
		t.Fatal("a key outside the range was marked")
	}
}
