package storage

import (
	"errors"
	"slices"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// A rewrite races another process (a second catalog instance on the same
// files). Appends by the other process leave the rewrite valid: it
// commits on the newer metadata and both changes stand. A rewrite by the
// other process of the same file makes it a RerunConflict, with nothing
// committed.
func TestRewriteRacesAnotherProcess(t *testing.T) {
	for _, tc := range []struct {
		name      string
		other     func(t *testing.T, tbl *Table)
		wantIDs   []int64
		wantRerun bool
	}{
		{
			name: "the other appends",
			other: func(t *testing.T, tbl *Table) {
				if _, err := tbl.Append(adminCtx(t), idBatches(t, 100, 102, 10)); err != nil {
					t.Fatal(err)
				}
			},
			wantIDs: []int64{0, 2, 100, 101},
		},
		{
			name: "the other deletes from the same file",
			other: func(t *testing.T, tbl *Table) {
				deleteIDs(t, tbl, nil, 2)
			},
			wantIDs:   []int64{0, 1},
			wantRerun: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cat := openCatalog(t, "wh", dir, AllowAll{})
			other := openCatalog(t, "wh", dir, AllowAll{})
			ctx := adminCtx(t)
			tbl := createIDTable(t, cat, "ns", "t")
			tbl, err := tbl.Append(ctx, idBatches(t, 0, 3, 10))
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = deleteIDsAround(t, tbl, nil, func() {
				ot, err := other.LoadTable(ctx, "ns", "t")
				if err != nil {
					t.Fatal(err)
				}
				tc.other(t, ot)
			}, 1)
			var rerun *RerunConflict
			switch {
			case tc.wantRerun && !errors.As(err, &rerun):
				t.Fatalf("commit after a conflicting rewrite: %v, want a RerunConflict", err)
			case tc.wantRerun && (pgerror.Code(err) != pgerror.SerializationFailure || rerun.Limit < 1):
				t.Fatalf("RerunConflict %v: code %s, limit %d", err, pgerror.Code(err), rerun.Limit)
			case !tc.wantRerun && err != nil:
				t.Fatalf("commit after the other process appended: %v", err)
			}
			fresh, err := cat.LoadTable(ctx, "ns", "t")
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(t, fresh); !slices.Equal(got, tc.wantIDs) {
				t.Fatalf("ids after the race: %v, want %v", got, tc.wantIDs)
			}
		})
	}
}
