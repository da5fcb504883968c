package storage

import "testing"

// BenchmarkPlanManyCommits plans a table of 2,000 single-row commits, one
// manifest each, as a table filled by single-row INSERTs is: "cold" plans
// it with an empty cache (every manifest read), "warm" from the cache,
// and "next snapshot" plans the 2,000th commit with the 1,999th cached.
func BenchmarkPlanManyCommits(b *testing.B) {
	const commits = 2000
	ctx := adminCtx(b)
	created := createIDTable(b, openCatalog(b, "wh", b.TempDir(), AllowAll{}), "ns", "t")
	// One transaction of appends makes the same snapshots, manifests and
	// files as that many INSERTs, without reading the growing metadata
	// back after each.
	tx := created.tbl.NewTransaction()
	for i := range int64(commits - 1) {
		if err := tx.Append(ctx, idBatches(b, i, i+1, 1), nil); err != nil {
			b.Fatal(err)
		}
	}
	committed, err := tx.Commit(ctx)
	if err != nil {
		b.Fatal(err)
	}
	prev, err := newTable(created.host, created.ident, committed)
	if err != nil {
		b.Fatal(err)
	}
	last := appendIDs(b, prev, commits-1, commits)
	prevKey, ok := planKeyFor(prev.tbl, nil, 0)
	if !ok {
		b.Fatal("no plan key")
	}
	prevTasks, err := planFiles(ctx, prev.tbl, nil, 0)
	if err != nil {
		b.Fatal(err)
	}

	plan := func(b *testing.B, cache *planCache) {
		tasks, err := cache.plan(ctx, last.tbl, nil, 0)
		if err != nil {
			b.Fatal(err)
		}
		if len(tasks) != commits {
			b.Fatalf("planned %d files, want %d", len(tasks), commits)
		}
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			plan(b, newPlanCache(planCacheEntries, planCacheTasks))
		}
	})
	b.Run("warm", func(b *testing.B) {
		cache := newPlanCache(planCacheEntries, planCacheTasks)
		plan(b, cache)
		for b.Loop() {
			plan(b, cache)
		}
	})
	b.Run("next snapshot", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			cache := newPlanCache(planCacheEntries, planCacheTasks)
			cache.put(prevKey, prevTasks)
			b.StartTimer()
			plan(b, cache)
		}
	})
}
