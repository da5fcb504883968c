package exec

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// BenchmarkHashAggregateIntKey: SELECT id, count(*) GROUP BY id, one
// group per row (a high-cardinality grouping such as TPC-H Q18's).
func BenchmarkHashAggregateIntKey(b *testing.B) {
	t := newBenchTable(b, benchRows)
	scan, c := benchScan(t, "id")
	plan := &planner.Aggregate{
		Input:     scan,
		Groups:    []planner.Expr{c["id"]},
		GroupCols: []planner.Column{{ID: 100, Name: "id", Type: types.Int8}},
		Aggs:      []*planner.AggCall{{Func: benchAgg(b, "count"), Out: planner.Column{ID: 101, Name: "count", Type: types.Int8}}},
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var rows int64
		groups := benchDrain(b, plan, func(out arrow.RecordBatch) {
			for _, v := range out.Column(1).(*array.Int64).Int64Values() {
				rows += v
			}
		})
		if groups != t.rows || rows != t.rows {
			b.Fatalf("got %d groups over %d rows, want %d", groups, rows, t.rows)
		}
		n++
	}
	reportRowsPerSec(b, t.rows, n)
}

// BenchmarkHashAggregateCompositeKey: SELECT region, quantity, count(*)
// GROUP BY region, quantity, 80 groups of a text and an integer key.
func BenchmarkHashAggregateCompositeKey(b *testing.B) {
	t := newBenchTable(b, benchRows)
	scan, c := benchScan(t, "region", "quantity")
	plan := &planner.Aggregate{
		Input:  scan,
		Groups: []planner.Expr{c["region"], c["quantity"]},
		GroupCols: []planner.Column{{ID: 100, Name: "region", Type: types.Text},
			{ID: 101, Name: "quantity", Type: types.Int4}},
		Aggs: []*planner.AggCall{{Func: benchAgg(b, "count"), Out: planner.Column{ID: 102, Name: "count", Type: types.Int8}}},
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var rows int64
		groups := benchDrain(b, plan, func(out arrow.RecordBatch) {
			for _, v := range out.Column(2).(*array.Int64).Int64Values() {
				rows += v
			}
		})
		if groups != int64(len(benchRegions))*20 || rows != t.rows {
			b.Fatalf("got %d groups over %d rows", groups, rows)
		}
		n++
	}
	reportRowsPerSec(b, t.rows, n)
}

// BenchmarkHashJoinIntKey joins probe rows on id against a build side
// of unique ids, each probe row matching at most one build row: small,
// 1M probe rows against 100k build rows (the table in cache); large,
// 6M against 1.5M (TPC-H SF1's lineitem against orders, the table
// past the caches).
func BenchmarkHashJoinIntKey(b *testing.B) {
	for _, size := range []struct {
		name         string
		probe, build int
	}{{"small", benchRows, benchSortRows}, {"large", 6_000_000, 1_500_000}} {
		b.Run(size.name, func(b *testing.B) {
			probe := newBenchTable(b, size.probe)
			build := newBenchTable(b, size.build)
			left, lc := benchScan(probe, "id", "val")
			right := &planner.Scan{Table: build, TableColumns: []int{0, 1}, Cols: []planner.Column{
				{ID: 200, Name: "id", Type: types.Int8}, {ID: 201, Name: "region", Type: types.Text, Nullable: true}}}
			plan := &planner.Join{Left: left, Right: right, Kind: planner.InnerJoin, On: &planner.BinOp{
				Op: benchOp(b, "="), L: lc["id"], R: &planner.ColRef{ID: 200, Name: "id", Typ: types.Int8}, Typ: types.Bool}}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				rows := benchDrain(b, plan, func(out arrow.RecordBatch) {
					l, r := out.Column(0).(*array.Int64), out.Column(2).(*array.Int64)
					for i := 0; i < int(out.NumRows()); i++ {
						if l.Value(i) != r.Value(i) {
							b.Fatalf("joined %d with %d", l.Value(i), r.Value(i))
						}
					}
				})
				if rows != build.rows {
					b.Fatalf("join produced %d rows, want %d", rows, build.rows)
				}
				n++
			}
			reportRowsPerSec(b, probe.rows, n)
		})
	}
}

// BenchmarkKeyTableLookupLarge probes a build side larger than the CPU's
// caches (TPC-H SF1's 1.5M order keys) with 6M keys, three in four of
// them present: the memory access pattern of a star join's probe.
func BenchmarkKeyTableLookupLarge(b *testing.B) {
	const buildRows, probeRows, batch = 1_500_000, 6_000_000, 65_536
	keys := func(n int, step int64) []arrow.Array {
		var out []arrow.Array
		for lo := 0; lo < n; lo += batch {
			bld := array.NewInt64Builder(memory.DefaultAllocator)
			for i := lo; i < min(lo+batch, n); i++ {
				bld.Append(int64(i) * step % (4 * buildRows))
			}
			out = append(out, bld.NewArray())
		}
		return out
	}
	build, probe := keys(buildRows, 4), keys(probeRows, 7)
	kt := newKeyTable()
	ids := make([]int32, batch)
	for _, a := range build {
		kt.insert([]arrow.Array{a}, a.Len(), ids, true, nil)
	}
	benchLookups(b, kt, probe, ids, probeRows)
}

// BenchmarkKeyTableLookupSelective probes 228,000 keys spread over 6M
// (TPC-H Q5's orders of one year, too sparse to index by key) with 6M
// keys, in a hash table and in a ranked one (rankKeys): scattered,
// one in 26 present, and as lineitem's l_orderkey comes, in order and in
// runs of four, one run in seven present.
func BenchmarkKeyTableLookupSelective(b *testing.B) {
	const buildRows, probeRows, span, batch = 228_000, 6_000_000, 6_000_000, 65_536
	// orderKey is TPC-H's numbering of the o-th order: 8 of every 32.
	orderKey := func(o int64) int64 { return o/8*32 + o%8 + 1 }
	for _, keys := range []string{"scattered", "ordered"} {
		var build, probe []arrow.Array
		for lo := 0; lo < probeRows; lo += batch {
			bld := array.NewInt64Builder(memory.DefaultAllocator)
			for i := lo; i < min(lo+batch, probeRows); i++ {
				if keys == "ordered" {
					bld.Append(orderKey(int64(i / 4)))
				} else {
					bld.Append(int64(i) * 7919 % span)
				}
			}
			probe = append(probe, bld.NewArray())
		}
		bld := array.NewInt64Builder(memory.DefaultAllocator)
		for i := range int64(buildRows) {
			if keys == "ordered" {
				bld.Append(orderKey(i * 6_000_000 / 4 / buildRows))
			} else {
				bld.Append(i * (span / buildRows))
			}
		}
		build = append(build, bld.NewArray())
		for _, ranked := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/ranked=%v", keys, ranked), func(b *testing.B) {
				kt := newKeyTable()
				ids := make([]int32, max(batch, buildRows))
				if ranked {
					if presenceBytes(0, span, buildRows) == 0 {
						b.Fatal("no ranked table")
					}
					kt.rankKeys(0, span)
					if !kt.markRanked(build[0], intKeyValues(build[0], nil)) {
						b.Fatal("a build key outside the range")
					}
					kt.finishRanks()
				} else {
					kt.insert(build, buildRows, ids, true, nil)
				}
				benchLookups(b, kt, probe, ids, probeRows)
			})
		}
	}
}

// BenchmarkKeyTableInsertRuns groups lineitem's l_orderkey as one of two
// workers does: TPC-H's order keys (8 of every 32 used, 1.5M of them
// over 6M) in runs of four rows, in order, every other batch of 65,536
// rows (the other worker takes the rest), into a grouping's table (Q18's
// subquery) and into a hash table (a join's build side, when its key
// range is not known first).
func BenchmarkKeyTableInsertRuns(b *testing.B) {
	const rows, batch = 6_000_000, 65_536
	var keys []arrow.Array
	for lo := 0; lo < rows; lo += 2 * batch {
		bld := array.NewInt64Builder(memory.DefaultAllocator)
		for i := lo; i < min(lo+batch, rows); i++ {
			order := int64(i / 4)
			bld.Append(order/8*32 + order%8 + 1)
		}
		keys = append(keys, bld.NewArray())
	}
	ids := make([]int32, batch)
	for _, tc := range []struct {
		name  string
		table func() *keyTable
	}{{"grouping", newGroupingTable}, {"hash", newKeyTable}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				kt := tc.table()
				for _, a := range keys {
					kt.insert([]arrow.Array{a}, a.Len(), ids, true, nil)
				}
			}
			reportRowsPerSec(b, rows/2, b.N)
		})
	}
}

// BenchmarkKeyTableInsertShortText groups 6M rows by two one-character
// text columns into 4 groups: TPC-H Q1's GROUP BY l_returnflag,
// l_linestatus.
func BenchmarkKeyTableInsertShortText(b *testing.B) {
	const rows = 6_000_000
	rng := rand.New(rand.NewPCG(3, 4))
	var batches [][]arrow.Array
	for lo := 0; lo < rows; lo += benchBatchRows {
		flag, status := array.NewStringBuilder(memory.DefaultAllocator), array.NewStringBuilder(memory.DefaultAllocator)
		for range min(benchBatchRows, rows-lo) {
			f := "ANR"[rng.IntN(3)]
			s := "OF"[rng.IntN(2)]
			if f != 'N' {
				s = 'F'
			}
			flag.Append(string(f))
			status.Append(string(s))
		}
		batches = append(batches, []arrow.Array{flag.NewArray(), status.NewArray()})
	}
	b.Cleanup(func() {
		for _, keys := range batches {
			releaseAll(keys)
		}
	})
	ids := make([]int32, benchBatchRows)
	for b.Loop() {
		kt := newKeyTable()
		for _, keys := range batches {
			kt.insert(keys, keys[0].Len(), ids, false, nil)
		}
		if kt.len() != 4 {
			b.Fatalf("%d groups, want 4", kt.len())
		}
	}
	reportRowsPerSec(b, rows, b.N)
}

// BenchmarkKeyTableLookupTwoBigints builds 800k keys of two bigints and
// probes them with 6M, each present: TPC-H Q9's join of lineitem to
// partsupp on (l_partkey, l_suppkey).
func BenchmarkKeyTableLookupTwoBigints(b *testing.B) {
	const parts, suppsPerPart, probeRows = 200_000, 4, 6_000_000
	keys := func(n int, key func(i int) (int64, int64)) [][]arrow.Array {
		var out [][]arrow.Array
		for lo := 0; lo < n; lo += benchBatchRows {
			pk, sk := array.NewInt64Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
			for i := lo; i < min(lo+benchBatchRows, n); i++ {
				p, s := key(i)
				pk.Append(p)
				sk.Append(s)
			}
			out = append(out, []arrow.Array{pk.NewArray(), sk.NewArray()})
		}
		return out
	}
	supp := func(p, j int64) int64 { return 1 + (p+j*(10_000/suppsPerPart+(p-1)/10_000))%10_000 }
	build := keys(parts*suppsPerPart, func(i int) (int64, int64) {
		p := int64(i/suppsPerPart + 1)
		return p, supp(p, int64(i%suppsPerPart))
	})
	rng := rand.New(rand.NewPCG(5, 6))
	probe := keys(probeRows, func(int) (int64, int64) {
		p := 1 + rng.Int64N(parts)
		return p, supp(p, rng.Int64N(suppsPerPart))
	})
	b.Cleanup(func() {
		for _, k := range append(build, probe...) {
			releaseAll(k)
		}
	})
	kt := newKeyTable()
	ids := make([]int32, benchBatchRows)
	for _, k := range build {
		kt.insert(k, k[0].Len(), ids, true, nil)
	}
	if kt.len() != parts*suppsPerPart {
		b.Fatalf("%d build keys, want %d", kt.len(), parts*suppsPerPart)
	}
	var s keyScratch
	b.ResetTimer()
	for b.Loop() {
		for _, k := range probe {
			kt.lookup(k, k[0].Len(), ids, &s)
			for _, id := range ids[:k[0].Len()] {
				if id < 0 {
					b.Fatal("a present key missed")
				}
			}
		}
	}
	reportRowsPerSec(b, probeRows, b.N)
}

// BenchmarkKeyTableLookupMedium probes 6M keys against 230,000, about
// one in seven found: lineitem against a year's orders (Q5, Q12).
func BenchmarkKeyTableLookupMedium(b *testing.B) {
	const buildRows, probeRows, batch = 230_000, 6_000_000, 65_536
	rng := rand.New(rand.NewPCG(5, 6))
	var probe []arrow.Array
	for lo := 0; lo < probeRows; lo += batch {
		bld := array.NewInt64Builder(memory.DefaultAllocator)
		for range min(batch, probeRows-lo) {
			bld.Append(rng.Int64N(7 * buildRows))
		}
		probe = append(probe, bld.NewArray())
	}
	bld := array.NewInt64Builder(memory.DefaultAllocator)
	for i := range buildRows {
		bld.Append(int64(i) * 7)
	}
	build := bld.NewArray()
	kt := newKeyTable()
	ids := make([]int32, max(batch, buildRows))
	kt.insert([]arrow.Array{build}, build.Len(), ids, true, nil)
	benchLookups(b, kt, probe, ids, probeRows)
}

// benchLookups times looking up every key of probe (rows in all) in kt.
func benchLookups(b *testing.B, kt *keyTable, probe []arrow.Array, ids []int32, rows int64) {
	var s keyScratch
	b.ResetTimer()
	for b.Loop() {
		for _, a := range probe {
			kt.lookup([]arrow.Array{a}, a.Len(), ids, &s)
		}
	}
	reportRowsPerSec(b, rows, b.N)
}
