package storage

import (
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// TestPageIndexesWritten checks that the files SQE writes carry a
// column index and an offset index for every column chunk, which name
// each page's first row and bounds, and that iceberg-go's writer (which
// has no setting for them) writes none.
func TestPageIndexesWritten(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cols  []string
		index bool
	}{
		{"written by SQE", []string{"b", "s", "n12"}, true},
		{"written by iceberg-go", []string{"b", "s"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tbl := bloomTable(t, tc.cols, false)
			ctx := adminCtx(t)
			tasks, err := tbl.planInCommitOrder(ctx, nil, 0)
			if err != nil || len(tasks) != 1 {
				t.Fatalf("%d files planned (%v), want 1", len(tasks), err)
			}
			fs, err := tbl.tbl.FS(ctx)
			if err != nil {
				t.Fatal(err)
			}
			in, err := fs.Open(tasks[0].File.FilePath())
			if err != nil {
				t.Fatal(err)
			}
			rdr, err := file.NewParquetReader(in)
			if err != nil {
				t.Fatal(err)
			}
			defer rdr.Close()
			meta := rdr.MetaData()
			if meta.NumRowGroups() != bloomRows/bloomGroupRows {
				t.Fatalf("%d row groups, want %d", meta.NumRowGroups(), bloomRows/bloomGroupRows)
			}
			for g := range meta.NumRowGroups() {
				rg, err := rdr.GetPageIndexReader().RowGroup(g)
				if err != nil {
					t.Fatal(err)
				}
				if !tc.index {
					if rg != nil {
						t.Errorf("row group %d has a page index", g)
					}
					continue
				}
				if rg == nil {
					t.Fatalf("row group %d has no page index", g)
				}
				for c := range meta.Schema.NumColumns() {
					oi, err := rg.GetOffsetIndex(c)
					if err != nil || oi == nil || len(oi.GetPageLocations()) == 0 || oi.GetPageLocations()[0].FirstRowIndex != 0 {
						t.Errorf("row group %d column %d: offset index %v, %v", g, c, oi, err)
					}
					ci, err := rg.GetColumnIndex(c)
					if err != nil || ci == nil {
						t.Errorf("row group %d column %d: column index %v, %v", g, c, ci, err)
					}
				}
				// Column 1 is b: its single page's bounds are the group's.
				ci, _ := rg.GetColumnIndex(1)
				if b, ok := ci.(*metadata.TypedColumnIndex[int64]); !ok || b.MinValues()[0] != 0 || b.MaxValues()[0] != 1000 {
					t.Errorf("row group %d: column index of b is %v, want bounds [0, 1000]", g, ci)
				}
			}
		})
	}
}
