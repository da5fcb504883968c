package storage

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// historyTable is ids 0-9, then 10-19 appended, then 0-4 deleted: three
// snapshots, returned oldest first with the table as it ends.
func historyTable(t *testing.T) (*Table, []int64) {
	t.Helper()
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	var snaps []int64
	var err error
	for _, lo := range []int64{0, 10} {
		if tbl, err = tbl.Append(adminCtx(t), idBatches(t, lo, lo+10, 10)); err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, tbl.SnapshotID())
	}
	tbl, _ = deleteIDs(t, tbl, nil, 0, 1, 2, 3, 4)
	return tbl, append(snaps, tbl.SnapshotID())
}

func TestAtVersionReadsEachSnapshot(t *testing.T) {
	tbl, snaps := historyTable(t)
	wants := [][]int64{idRange(0, 10), idRange(0, 20), idRange(5, 20)}
	for i, id := range snaps {
		past, err := tbl.AtVersion(Version{SnapshotID: id})
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(t, past); !slices.Equal(got, wants[i]) {
			t.Errorf("snapshot %d: ids %v, want %v", i, got, wants[i])
		}
		if past.SnapshotID() != id {
			t.Errorf("snapshot %d: SnapshotID %d, want %d", i, past.SnapshotID(), id)
		}
		if i == 0 && past.RowCountEstimate() != 10 {
			t.Errorf("row estimate as of the first snapshot %d, want 10", past.RowCountEstimate())
		}
	}
	// The table itself is unchanged.
	if got := ids(t, tbl); !slices.Equal(got, wants[2]) {
		t.Errorf("current ids %v", got)
	}
}

func TestAtVersionByTimeAndRef(t *testing.T) {
	tbl, snaps := historyTable(t)
	var firstAt, secondAt int64
	for e := range tbl.tbl.Metadata().SnapshotLogs() {
		switch e.SnapshotID {
		case snaps[0]:
			firstAt = e.TimestampMs
		case snaps[1]:
			secondAt = e.TimestampMs
		}
	}
	past, err := tbl.AtVersion(Version{AsOf: time.UnixMilli(firstAt)})
	if err != nil {
		t.Fatal(err)
	}
	if past.SnapshotID() != snaps[0] {
		t.Errorf("as of the first commit's time: snapshot %d, want %d", past.SnapshotID(), snaps[0])
	}
	if secondAt > firstAt {
		past, err = tbl.AtVersion(Version{AsOf: time.UnixMilli(secondAt - 1)})
		if err != nil || past.SnapshotID() != snaps[0] {
			t.Errorf("just before the second commit: snapshot %v (%v), want %d", past, err, snaps[0])
		}
	}
	_, err = tbl.AtVersion(Version{AsOf: time.UnixMilli(firstAt - 1)})
	wantCode(t, err, pgerror.InvalidParameterValue, "before the first snapshot")

	ctx := adminCtx(t)
	tbl, at, err := tbl.CreateRef(ctx, RefSpec{Name: "v1", SnapshotID: snaps[0]}, false)
	if err != nil || at != snaps[0] {
		t.Fatalf("create tag: %d, %v", at, err)
	}
	past, err = tbl.AtVersion(Version{Ref: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, past); !slices.Equal(got, idRange(0, 10)) {
		t.Errorf("as of tag v1: %v", got)
	}
	_, err = tbl.AtVersion(Version{Ref: "nope"})
	wantCode(t, err, pgerror.UndefinedObject, "unknown ref")
	_, err = tbl.AtVersion(Version{SnapshotID: 42})
	wantCode(t, err, pgerror.InvalidParameterValue, "unknown snapshot")
}

func TestPastVersionRefusesWrites(t *testing.T) {
	tbl, snaps := historyTable(t)
	past, err := tbl.AtVersion(Version{SnapshotID: snaps[0]})
	if err != nil {
		t.Fatal(err)
	}
	_, err = past.Append(adminCtx(t), idBatches(t, 100, 101, 1))
	wantCode(t, err, pgerror.FeatureNotSupported, "append to a past version")
	_, err = past.BeginRewrite(adminCtx(t), nil)
	wantCode(t, err, pgerror.FeatureNotSupported, "rewrite of a past version")
	if got := ids(t, tbl); !slices.Equal(got, idRange(5, 20)) {
		t.Errorf("table changed: %v", got)
	}
}

func TestExpiredSnapshotIsAnErrorNamingIt(t *testing.T) {
	tbl, snaps := historyTable(t)
	ctx := adminCtx(t)
	tbl, _, err := tbl.ExpireSnapshots(ctx, ExpireOptions{OlderThan: time.Now().Add(time.Hour), RetainLast: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tbl.AtVersion(Version{SnapshotID: snaps[0]})
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.InvalidParameterValue || !containsID(pe.Message, snaps[0]) {
		t.Fatalf("read of an expired snapshot: %v, want 22023 naming it", err)
	}
}

func TestRefsKeepTheirSnapshotsThroughExpiry(t *testing.T) {
	tbl, snaps := historyTable(t)
	ctx := adminCtx(t)
	tbl, _, err := tbl.CreateRef(ctx, RefSpec{Name: "release", SnapshotID: snaps[0]}, false)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tbl.CreateRef(ctx, RefSpec{Name: "release", SnapshotID: snaps[1]}, false)
	wantCode(t, err, pgerror.DuplicateObject, "second tag of one name")
	tbl, _, err = tbl.ExpireSnapshots(ctx, ExpireOptions{OlderThan: time.Now().Add(time.Hour), RetainLast: 1})
	if err != nil {
		t.Fatal(err)
	}
	past, err := tbl.AtVersion(Version{Ref: "release"})
	if err != nil {
		t.Fatalf("tagged snapshot after expiry: %v", err)
	}
	if got := ids(t, past); !slices.Equal(got, idRange(0, 10)) {
		t.Errorf("tagged snapshot after expiry: %v", got)
	}
	if tbl, err = tbl.DropRef(ctx, "release", false); err != nil {
		t.Fatal(err)
	}
	_, err = tbl.DropRef(ctx, "release", false)
	wantCode(t, err, pgerror.UndefinedObject, "drop of a dropped tag")
}

func TestFastForwardPublishesABranch(t *testing.T) {
	tbl, snaps := historyTable(t)
	ctx := adminCtx(t)
	tbl, _, err := tbl.CreateRef(ctx, RefSpec{Name: "audit", Branch: true, SnapshotID: snaps[0]}, false)
	if err != nil {
		t.Fatal(err)
	}
	// main is ahead of audit: audit moves forward to it, not back.
	tbl, from, to, err := tbl.FastForward(ctx, "audit", "main")
	if err != nil || from != snaps[0] || to != snaps[2] {
		t.Fatalf("fast-forward audit to main: %d -> %d, %v", from, to, err)
	}
	tbl, _, err = tbl.CreateRef(ctx, RefSpec{Name: "old", SnapshotID: snaps[1]}, false)
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, err = tbl.FastForward(ctx, "main", "old")
	wantCode(t, err, pgerror.ObjectNotInPrerequisiteState, "fast-forward main backwards")
	_, _, _, err = tbl.FastForward(ctx, "old", "main")
	wantCode(t, err, pgerror.WrongObjectType, "fast-forward a tag")
}

func wantCode(t *testing.T, err error, code, what string) {
	t.Helper()
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != code {
		t.Errorf("%s: %v, want SQLSTATE %s", what, err, code)
	}
}

func containsID(s string, id int64) bool {
	return strings.Contains(s, strconv.FormatInt(id, 10))
}

func TestBranchWritesLeaveMainUntilPublished(t *testing.T) {
	tbl, _ := historyTable(t) // ids 5-19
	ctx := adminCtx(t)
	tbl, _, err := tbl.CreateRef(ctx, RefSpec{Name: "audit", Branch: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	audit, err := tbl.OnBranch("audit")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := audit.Append(ctx, idBatches(t, 100, 103, 3)); err != nil {
		t.Fatal(err)
	}
	if audit, err = tbl.OnBranch("audit"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := deleteIDsAround(t, audit, nil, nil, 5, 6); err != nil {
		t.Fatal(err)
	}
	want := append(idRange(7, 20), 100, 101, 102)
	_, main, err := tbl.reload(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, main); !slices.Equal(got, idRange(5, 20)) {
		t.Errorf("main after branch writes: %v", got)
	}
	if audit, err = main.OnBranch("audit"); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, audit); !slices.Equal(got, want) {
		t.Errorf("branch: %v, want %v", got, want)
	}
	if main, _, _, err = main.FastForward(ctx, "main", "audit"); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, main); !slices.Equal(got, want) {
		t.Errorf("main after fast-forward: %v, want %v", got, want)
	}
	_, err = audit.Truncate(ctx)
	wantCode(t, err, pgerror.FeatureNotSupported, "truncate of a branch")
	_, err = main.OnBranch("nope")
	wantCode(t, err, pgerror.UndefinedObject, "unknown branch")

	// A transaction block's staged branch write is not main's.
	w, err := audit.Stage(ctx, idBatches(t, 200, 201, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Discard(ctx)
	seen, err := main.WithStaged([]*StagedWrite{w})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, seen); !slices.Equal(got, want) {
		t.Errorf("main with a branch's staged write: %v", got)
	}
	if main.CommitsWith(audit) {
		t.Error("main and a branch of it commit together")
	}
}

func TestReservedRefNames(t *testing.T) {
	tbl, _ := historyTable(t)
	ctx := adminCtx(t)
	for _, name := range []string{"main", LeaseRef, ""} {
		_, _, err := tbl.CreateRef(ctx, RefSpec{Name: name}, true)
		wantCode(t, err, pgerror.InvalidParameterValue, "create "+name)
	}
	_, err := tbl.DropRef(ctx, LeaseRef, false)
	wantCode(t, err, pgerror.InvalidParameterValue, "drop the lease tag")
}
