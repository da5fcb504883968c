package storage

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestStagedWriteIsInvisibleUntilCommitted(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	// The staged rows join a table that has no snapshot yet.
	w, err := tbl.Stage(ctx, idBatches(t, 0, 30, 10))
	if err != nil {
		t.Fatal(err)
	}
	if w.Rows() != 30 {
		t.Fatalf("Rows = %d, want 30", w.Rows())
	}
	fresh, err := cat.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, fresh); n != 0 {
		t.Fatalf("%d rows visible before the commit, want 0", n)
	}
	// The writer's own view reads them, with the filter applied to them.
	mine, err := fresh.WithStaged([]*StagedWrite{w})
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, mine, 30)
	_, rows := readAll(t, mine, ScanRequest{Columns: []string{"id"}, Filter: iceberg.GreaterThanEqual(iceberg.Reference("id"), int64(25))})
	if len(rows) != 5 {
		t.Fatalf("filtered staged scan: %d rows, want 5", len(rows))
	}
	m, err := mine.Morsels(ctx, ScanRequest{Columns: []string{"id"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() == 0 {
		t.Fatal("no morsels for the staged files")
	}
	_ = m.Close()

	committed, err := fresh.CommitStaged(ctx, []*StagedWrite{w})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(committed.tbl.Metadata().Snapshots()); n != 1 {
		t.Fatalf("%d snapshots after committing, want 1", n)
	}
	checkIDs(t, committed, 30)
	// Committed files belong to the table: a late Discard removes nothing.
	w.Discard(ctx)
	checkIDs(t, committed, 30)
}

func TestStagedWriteDiscardRemovesFiles(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	if _, err := tbl.Append(ctx, idBatches(t, 0, 10, 10)); err != nil {
		t.Fatal(err)
	}
	w, err := tbl.Stage(ctx, idBatches(t, 10, 20, 10))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range w.files {
		paths = append(paths, f.FilePath())
	}
	if len(paths) == 0 {
		t.Fatal("nothing staged")
	}
	w.Discard(ctx)
	for _, p := range paths {
		if _, err := os.Stat(trimFileScheme(p)); !os.IsNotExist(err) {
			t.Errorf("staged file %s still there after Discard (%v)", p, err)
		}
	}
	fresh, err := cat.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, fresh, 10)
}

func TestCommitStagedReplaysOnAnotherCatalogsCommit(t *testing.T) {
	dir := t.TempDir()
	a := openCatalog(t, "wh", dir, AllowAll{})
	b := openCatalog(t, "wh", dir, AllowAll{})
	ctx := adminCtx(t)
	ta := createIDTable(t, a, "ns", "t")
	w, err := ta.Stage(ctx, idBatches(t, 0, 10, 10))
	if err != nil {
		t.Fatal(err)
	}
	// Another process commits after the files were staged.
	tb, err := b.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Append(ctx, idBatches(t, 10, 20, 10)); err != nil {
		t.Fatal(err)
	}
	committed, err := ta.CommitStaged(ctx, []*StagedWrite{w})
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, committed, 20)
}

func TestCommitStagedRefusesRecreatedTable(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	w, err := tbl.Stage(ctx, idBatches(t, 0, 10, 10))
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.DropTable(ctx, "ns", "t"); err != nil {
		t.Fatal(err)
	}
	again := createIDTable(t, cat, "ns", "t")
	if _, err := again.CommitStaged(ctx, []*StagedWrite{w}); err == nil {
		t.Fatal("files staged for a dropped table were committed to its successor")
	}
	w.Discard(ctx)
	checkIDs(t, again, 0)
}

func TestEmbeddedOptionsValidate(t *testing.T) {
	if _, err := OpenEmbeddedWith(t.Context(), "wh", t.TempDir(), AllowAll{}, EmbeddedOptions{CommitRetries: -1}); err == nil {
		t.Fatal("negative commit retries accepted")
	}
	cat, err := OpenEmbeddedWith(t.Context(), "wh", t.TempDir(), AllowAll{}, EmbeddedOptions{CommitRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	if got := cat.(*embeddedCatalog).commitAttempts(); got != 1 {
		t.Fatalf("commitAttempts with 0 retries = %d, want 1", got)
	}
}

// trimFileScheme turns a file:// location into a local path.
func trimFileScheme(p string) string {
	if u, err := url.Parse(p); err == nil && u.Scheme == "file" {
		return u.Path
	}
	return p
}

// A data file that cannot be created fails the write, always: iceberg-go's
// partitioned writer sometimes ends without reporting it, and the row
// count check catches that.
func TestUnwritablePartitionFailsTheWrite(t *testing.T) {
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
	tbl, err = tbl.Append(ctx, idBatches(t, 0, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	var dataDir string
	for _, f := range dataFilePaths(t, tbl) {
		dataDir = filepath.Dir(filepath.Dir(trimFileScheme(f)))
	}
	if err := os.WriteFile(filepath.Join(dataDir, "name=n1"), []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if _, err := tbl.Append(ctx, idBatches(t, 1, 2, 1)); pgerror.Code(err) != pgerror.IOError {
			t.Fatalf("append %d into the blocked partition: %v (%s), want SQLSTATE 58030", i, err, pgerror.Code(err))
		}
		if _, err := tbl.Stage(ctx, idBatches(t, 0, 3, 3)); pgerror.Code(err) != pgerror.IOError {
			t.Fatalf("stage %d into the blocked partition: %v, want SQLSTATE 58030", i, err)
		}
	}
	fresh, err := cat.LoadTable(ctx, "ns", "p")
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, fresh, 1)
}
