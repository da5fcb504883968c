package storage

import (
	"errors"
	"testing"

	"github.com/apache/iceberg-go/table"
)

func TestCommitStagedTablesCommitsEveryTable(t *testing.T) {
	dir := t.TempDir()
	cat := openCatalog(t, "wh", dir, AllowAll{})
	// A second instance on the same files stands for another process.
	other := openCatalog(t, "wh", dir, AllowAll{})
	ctx := adminCtx(t)
	a := createIDTable(t, cat, "ns", "a")
	b := createIDTable(t, cat, "ns", "b")

	wa, err := a.Stage(ctx, idBatches(t, 0, 3, 10))
	if err != nil {
		t.Fatal(err)
	}
	wb, err := b.Stage(ctx, idBatches(t, 10, 15, 10))
	if err != nil {
		t.Fatal(err)
	}
	// The other process moves a on between staging and commit: the group
	// commits on its newest metadata and keeps its rows.
	oa, err := other.LoadTable(ctx, "ns", "a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := oa.Append(ctx, idBatches(t, 100, 101, 1)); err != nil {
		t.Fatal(err)
	}
	if err := CommitStagedTables(ctx, []*StagedWrite{wa, wb}); err != nil {
		t.Fatalf("CommitStagedTables: %v", err)
	}
	for _, c := range []struct {
		name            string
		rows, snapshots int
	}{{"a", 4, 2}, {"b", 5, 1}} {
		// Read through the other instance: its cached metadata must not
		// hide the commit.
		tbl, err := other.LoadTable(ctx, "ns", c.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := countRows(t, tbl); got != c.rows {
			t.Errorf("%s: %d rows, want %d", c.name, got, c.rows)
		}
		if got := tbl.SnapshotCount(); got != c.snapshots {
			t.Errorf("%s: %d snapshots, want %d", c.name, got, c.snapshots)
		}
	}
}

// swapPointers moves all pointers or none: one stale pointer keeps every
// table where it was.
func TestSwapPointersAllOrNothing(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	a := createIDTable(t, cat, "ns", "a")
	b := createIDTable(t, cat, "ns", "b")
	ec := cat.(*embeddedCatalog)
	locA, locB := a.tbl.MetadataLocation(), b.tbl.MetadataLocation()
	err := ec.swapPointers(ctx, []pointerSwap{
		{ns: "ns", name: "a", from: locA, to: locA + ".next"},
		{ns: "ns", name: "b", from: "stale", to: locB + ".next"},
	})
	if !errors.Is(err, table.ErrCommitFailed) {
		t.Fatalf("swap with a stale pointer: %v, want ErrCommitFailed", err)
	}
	for id, want := range map[string]string{"a": locA, "b": locB} {
		got, err := ec.metadataLocation(ctx, Ident{Catalog: "wh", Namespace: "ns", Table: id})
		if err != nil || got != want {
			t.Errorf("%s points at %q (%v), want it unmoved at %q", id, got, err, want)
		}
	}
}

func TestCommitsWith(t *testing.T) {
	dir := t.TempDir()
	cat := openCatalog(t, "wh", dir, AllowAll{})
	second := openCatalog(t, "lake", "", AllowAll{})
	a := createIDTable(t, cat, "ns", "a")
	b := createIDTable(t, cat, "ns", "b")
	c := createIDTable(t, second, "ns", "c")
	for _, tc := range []struct {
		name string
		x, y *Table
		want bool
	}{
		{"same table", a, a, true},
		{"two tables of the embedded catalog", a, b, true},
		{"tables of two catalogs", a, c, false},
	} {
		if got := tc.x.CommitsWith(tc.y); got != tc.want {
			t.Errorf("%s: CommitsWith = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The metadata cache serves loads between commits and is bounded by its
// entries, by the versions of one table and by the snapshots they list in
// all.
func TestMetadataCacheBounded(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	a := createIDTable(t, cat, "ns", "a")
	for i := int64(0); i < 3; i++ {
		a = appendIDs(t, a, i, i+1)
	}
	b := appendIDs(t, createIDTable(t, cat, "ns", "b"), 0, 1)
	metas := map[byte]table.Metadata{'a': a.tbl.Metadata(), 'b': b.tbl.Metadata()} // weights 4 and 2
	if w := metadataWeight(metas['a']); w != 4 {
		t.Fatalf("three snapshots weigh %d, want 4", w)
	}
	tests := []struct {
		name                        string
		max, maxVersions, maxWeight int
		put                         []string // location, its first letter the table
		want                        []string // cached afterwards
		gone                        []string
	}{
		{"entries bound", 2, 10, 100, []string{"a1", "b1", "a2"}, []string{"b1", "a2"}, []string{"a1"}},
		{"versions of one table", 10, 2, 100, []string{"a1", "a2", "b1", "a3"}, []string{"a2", "a3", "b1"}, []string{"a1"}},
		{"a version used again is kept", 10, 2, 100, []string{"a1", "a2", "a1", "a3"}, []string{"a1", "a3"}, []string{"a2"}},
		{"snapshot bound", 100, 10, 9, []string{"a1", "a2", "a3"}, []string{"a2", "a3"}, []string{"a1"}},
		{"larger than the whole cache", 100, 10, 3, []string{"a1", "b1"}, []string{"b1"}, []string{"a1"}},
	}
	for _, tt := range tests {
		m := newMetadataCache(tt.max, tt.maxVersions, tt.maxWeight)
		for _, loc := range tt.put {
			if _, ok := m.get(loc); !ok {
				m.put(loc, metas[loc[0]])
			}
		}
		weight := 0
		for _, loc := range tt.want {
			if _, ok := m.get(loc); !ok {
				t.Errorf("%s: %s was evicted", tt.name, loc)
			}
			weight += metadataWeight(metas[loc[0]])
		}
		for _, loc := range tt.gone {
			if _, ok := m.get(loc); ok {
				t.Errorf("%s: %s was kept", tt.name, loc)
			}
		}
		if m.len() != len(tt.want) || m.weight != weight {
			t.Errorf("%s: %d entries of weight %d, want %d of weight %d", tt.name, m.len(), m.weight, len(tt.want), weight)
		}
	}
}
