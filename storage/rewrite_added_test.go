package storage

import (
	"slices"
	"testing"
)

// TestRewriteWritesAddedRowsBesideOneFile checks where a rewrite puts the
// rows it adds: with the kept rows of the one file it rewrites (a one-row
// UPDATE replaces one file by one), apart when it rewrites several files
// or keeps no row of its one file.
func TestRewriteWritesAddedRowsBesideOneFile(t *testing.T) {
	tests := []struct {
		name      string
		deleted   []int64 // ids the rewrite removes
		wantFiles int     // data files after the rewrite
		wantKept  int     // of the three files before it
	}{
		{name: "one file rewritten", deleted: []int64{13}, wantFiles: 3, wantKept: 2},
		{name: "two files rewritten", deleted: []int64{3, 13}, wantFiles: 4, wantKept: 1},
		{name: "one file emptied", deleted: []int64{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}, wantFiles: 3, wantKept: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tbl := threeFileIDTable(t)
			before := dataFilePaths(t, tbl)
			tbl, _, err := rewriteIDs(t, tbl, nil, nil, idBatches(t, 100, 102, 1), tc.deleted...)
			if err != nil {
				t.Fatal(err)
			}
			after := dataFilePaths(t, tbl)
			kept := 0
			for _, p := range before {
				if slices.Contains(after, p) {
					kept++
				}
			}
			if len(after) != tc.wantFiles || kept != tc.wantKept {
				t.Errorf("%d data files, %d of the old ones kept; want %d and %d", len(after), kept, tc.wantFiles, tc.wantKept)
			}
			var want []int64
			for i := int64(0); i < 30; i++ {
				if !slices.Contains(tc.deleted, i) {
					want = append(want, i)
				}
			}
			want = append(want, 100, 101)
			if got := ids(t, tbl); !slices.Equal(got, want) {
				t.Errorf("ids %v, want %v", got, want)
			}
		})
	}
}
