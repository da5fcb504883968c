package storage

import (
	"encoding/json"
	"strings"
	"testing"
)

// namePartitioned is idSchema partitioned by name, with rows 0..2 in one
// commit (a file per name) and row 3 in a second.
func namePartitioned(t *testing.T) *Table {
	t.Helper()
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.CreateTable(ctx, "ns", "p", idSchema, CreateTableOptions{
		Partitioning: []PartitionField{{Transform: "identity", Column: "name"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tbl = appendIDs(t, tbl, 0, 3)
	return appendIDs(t, tbl, 3, 4)
}

func TestMetadataListings(t *testing.T) {
	tbl := namePartitioned(t)
	ctx := adminCtx(t)
	open := OpenMetadataView(tbl)

	snaps := tbl.SnapshotRows(open)
	if len(snaps) != 2 || snaps[0].ParentID != nil || snaps[1].ParentID == nil || *snaps[1].ParentID != snaps[0].SnapshotID {
		t.Fatalf("snapshots %+v, want two, the second the child of the first", snaps)
	}
	if snaps[1].Operation != "append" || snaps[1].Summary["total-records"] != "4" || snaps[1].Summary["added-records"] != "1" ||
		!strings.HasSuffix(snaps[1].ManifestList, ".avro") {
		t.Errorf("second snapshot %+v", snaps[1])
	}
	hist := tbl.HistoryRows()
	if len(hist) != 2 || hist[1].SnapshotID != snaps[1].SnapshotID || !hist[0].IsCurrentAncestor || !hist[1].IsCurrentAncestor {
		t.Errorf("history %+v", hist)
	}
	refs := tbl.RefRows()
	if len(refs) != 1 || refs[0].Name != "main" || refs[0].Type != "BRANCH" || refs[0].SnapshotID != snaps[1].SnapshotID {
		t.Errorf("refs %+v", refs)
	}

	files, err := tbl.FileRows(ctx, open)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("%d files, want 4", len(files))
	}
	seen := map[string]bool{}
	for _, f := range files {
		if len(f.Partition) != 1 || f.Partition[0].Field != "name" || f.RecordCount == nil || *f.RecordCount != 1 ||
			f.FilePath == nil || f.FileFormat != "PARQUET" || len(f.Columns) != 2 {
			t.Fatalf("file %+v", f)
		}
		name := f.Partition[0].Value.(string)
		seen[name] = true
		if c := f.Columns[1]; c.Name != "name" || *c.LowerBound != name || *c.UpperBound != name || *c.NullCount != 0 || *c.ValueCount != 1 {
			t.Errorf("metrics of name %+v, want bounds %s", c, name)
		}
		if c := f.Columns[0]; c.Name != "id" || *c.LowerBound != strings.TrimPrefix(name, "n") {
			t.Errorf("metrics of id %+v in partition %s", c, name)
		}
	}
	if len(seen) != 4 {
		t.Errorf("partitions %v, want n0..n3", seen)
	}
	parts, err := tbl.PartitionRows(ctx, open)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 4 || parts[0].FileCount != 1 || *parts[0].RecordCount != 1 || len(parts[0].Columns) != 2 ||
		*parts[0].Columns[0].Min != *parts[0].Columns[0].Max {
		t.Errorf("partitions %+v", parts)
	}
	mans, err := tbl.ManifestRows(ctx, open)
	if err != nil {
		t.Fatal(err)
	}
	var added int64
	for _, m := range mans {
		added += *m.AddedRowsCount
		if len(m.PartitionSummaries) != 1 || m.PartitionSummaries[0].LowerBound == nil {
			t.Errorf("manifest %+v", m)
		}
	}
	if added != 4 {
		t.Errorf("manifests %+v add %d rows, want 4", mans, added)
	}
}

// TestMetadataListingsWithhold: a column the view does not describe has
// no statistic and no partition value anywhere, one it does not name is
// absent, and without row counts nothing counts rows.
func TestMetadataListingsWithhold(t *testing.T) {
	tbl := namePartitioned(t)
	ctx := adminCtx(t)
	cases := []struct {
		name string
		view MetadataView
	}{
		{"name withheld", MetadataView{Named: map[int]bool{0: true, 1: true}, Described: map[int]bool{0: true}, RowCounts: true}},
		{"name hidden, no row counts", MetadataView{Named: map[int]bool{0: true}, Described: map[int]bool{0: true}}},
		{"zero view", MetadataView{}},
	}
	for _, c := range cases {
		files, err := tbl.FileRows(ctx, c.view)
		if err != nil {
			t.Fatal(err)
		}
		parts, err := tbl.PartitionRows(ctx, c.view)
		if err != nil {
			t.Fatal(err)
		}
		mans, err := tbl.ManifestRows(ctx, c.view)
		if err != nil {
			t.Fatal(err)
		}
		snaps := tbl.SnapshotRows(c.view)
		text := strings.Join([]string{sprint(files), sprint(parts), sprint(mans), sprint(snaps)}, "\n")
		for _, secret := range []string{"n0", "n1", "n2", "n3"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s: %q shown:\n%s", c.name, secret, text)
			}
		}
		if len(parts) != 1 || parts[0].FileCount != 4 {
			t.Errorf("%s: partitions %+v, want the four as one", c.name, parts)
		}
		for _, f := range files {
			if f.FilePath != nil {
				t.Errorf("%s: path %s shown", c.name, *f.FilePath)
			}
			if (f.RecordCount != nil) != c.view.RowCounts {
				t.Errorf("%s: record count %v", c.name, f.RecordCount)
			}
			for _, m := range f.Columns {
				if m.Name == "name" && !c.view.Named[1] {
					t.Errorf("%s: hidden column named", c.name)
				}
				if m.Name == "id" && c.view.Described[0] && m.LowerBound == nil {
					t.Errorf("%s: bounds of id missing", c.name)
				}
			}
		}
		for _, m := range mans {
			if (m.AddedRowsCount != nil) != c.view.RowCounts {
				t.Errorf("%s: manifest rows %v", c.name, m.AddedRowsCount)
			}
		}
		for _, s := range snaps {
			if _, ok := s.Summary["total-records"]; ok != c.view.RowCounts {
				t.Errorf("%s: summary %v", c.name, s.Summary)
			}
			if _, ok := s.Summary["total-data-files"]; !ok {
				t.Errorf("%s: summary %v lost its file counts", c.name, s.Summary)
			}
		}
	}
}

// sprint is v as JSON, which follows pointers.
func sprint(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
