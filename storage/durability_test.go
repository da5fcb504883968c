package storage

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage/s3fake"
)

// syncRecorder is a fileSyncer that records what it is asked to flush,
// and fails on the paths fail selects.
type syncRecorder struct {
	fail func(path string) bool

	mu    sync.Mutex
	paths []string
}

func (r *syncRecorder) syncOpen(f openFile) error { return r.syncPath(f.Name()) }

func (r *syncRecorder) syncPath(path string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.paths = append(r.paths, path)
	if r.fail != nil && r.fail(path) {
		return errors.New("injected fsync failure")
	}
	return nil
}

func (r *syncRecorder) synced() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.paths)
}

// durabilityFixture is an embedded catalog with tables a (three one-row
// commits, then one of rows 10 to 12) and b (empty) in namespace ns.
type durabilityFixture struct {
	cat       *embeddedCatalog
	warehouse string // local path
	a, b      *Table
}

func newDurabilityFixture(t *testing.T) *durabilityFixture {
	t.Helper()
	cat := openCatalog(t, "wh", "", AllowAll{}).(*embeddedCatalog)
	wh, ok := localPath(cat.props.Get("warehouse", ""))
	if !ok {
		t.Fatalf("warehouse %q is not local", cat.props.Get("warehouse", ""))
	}
	a, err := appendOneByOne(t, createIDTable(t, cat, "ns", "a"), 0, 3).Append(adminCtx(t), idBatches(t, 10, 13, 10))
	if err != nil {
		t.Fatal(err)
	}
	b := createIDTable(t, cat, "ns", "b")
	return &durabilityFixture{cat: cat, warehouse: wh, a: a, b: b}
}

// tableDir is the local path of a table's location.
func (f *durabilityFixture) tableDir(t *testing.T, tbl *Table) string {
	t.Helper()
	p, ok := localPath(tbl.tbl.Location())
	if !ok {
		t.Fatalf("table location %q is not local", tbl.tbl.Location())
	}
	return p
}

// filesUnder lists the regular files under dir.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// durabilityOps are the changes that commit, as the SQL layer makes them:
// INSERT and COPY append (or stage, in a transaction block), UPDATE and
// DELETE rewrite files, and the maintenance procedures; on table a, and
// on b too for a block that writes both.
var durabilityOps = []struct {
	name string
	run  func(t *testing.T, f *durabilityFixture) error
}{
	{"insert", func(t *testing.T, f *durabilityFixture) error {
		_, err := f.a.Append(adminCtx(t), idBatches(t, 100, 103, 2))
		return err
	}},
	{"transaction block on one table", func(t *testing.T, f *durabilityFixture) error {
		w, err := f.a.Stage(adminCtx(t), idBatches(t, 100, 103, 10))
		if err != nil {
			return err
		}
		return CommitStagedTables(adminCtx(t), []*StagedWrite{w})
	}},
	{"transaction block on two tables", func(t *testing.T, f *durabilityFixture) error {
		wa, err := f.a.Stage(adminCtx(t), idBatches(t, 100, 103, 10))
		if err != nil {
			return err
		}
		wb, err := f.b.Stage(adminCtx(t), idBatches(t, 200, 201, 10))
		if err != nil {
			return err
		}
		return CommitStagedTables(adminCtx(t), []*StagedWrite{wa, wb})
	}},
	{"delete", func(t *testing.T, f *durabilityFixture) error {
		_, _, err := deleteIDsAround(t, f.a, nil, nil, 11)
		return err
	}},
	{"update", func(t *testing.T, f *durabilityFixture) error {
		_, _, err := rewriteIDs(t, f.a, nil, nil, idBatches(t, 111, 112, 1), 11)
		return err
	}},
	{"truncate", func(t *testing.T, f *durabilityFixture) error {
		_, err := f.a.Truncate(adminCtx(t))
		return err
	}},
	{"rewrite_data_files", func(t *testing.T, f *durabilityFixture) error {
		_, _, err := f.a.RewriteDataFiles(adminCtx(t), nil)
		return err
	}},
	{"expire_snapshots", func(t *testing.T, f *durabilityFixture) error {
		_, _, err := f.a.ExpireSnapshots(adminCtx(t), ExpireOptions{OlderThan: time.Now().Add(time.Hour), RetainLast: 1})
		return err
	}},
}

// Every commit flushes exactly the files it created (metadata file,
// manifest lists, manifests, data files) and the directories from each up
// to the table's location, each once.
func TestCommitSyncsTheFilesItCreated(t *testing.T) {
	for _, op := range durabilityOps {
		t.Run(op.name, func(t *testing.T) {
			f := newDurabilityFixture(t)
			before := filesUnder(t, f.warehouse)
			rec := &syncRecorder{}
			f.cat.sync = rec
			if err := op.run(t, f); err != nil {
				t.Fatal(err)
			}
			roots := []string{f.tableDir(t, f.a), f.tableDir(t, f.b)}
			var want []string
			for _, p := range filesUnder(t, f.warehouse) {
				if slices.Contains(before, p) {
					continue
				}
				want = append(want, p)
				i := slices.IndexFunc(roots, func(r string) bool { return strings.HasPrefix(p, r+string(filepath.Separator)) })
				if i < 0 {
					t.Fatalf("new file %s outside the tables", p)
				}
				for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
					want = append(want, dir)
					if dir == roots[i] {
						break
					}
				}
			}
			if len(want) == 0 {
				t.Fatal("the change created no file")
			}
			got := rec.synced()
			if dups := len(got) - len(slices.Compact(slices.Sorted(slices.Values(got)))); dups != 0 {
				t.Errorf("%d paths flushed more than once: %v", dups, got)
			}
			slices.Sort(got)
			want = slices.Compact(slices.Sorted(slices.Values(want)))
			got = slices.Compact(got)
			if !slices.Equal(got, want) {
				t.Errorf("flushed:\n %s\nwant:\n %s", strings.Join(got, "\n "), strings.Join(want, "\n "))
			}
		})
	}
}

// CREATE TABLE flushes the first metadata file and the directories up to
// the warehouse, which the creation made.
func TestCreateTableSyncsItsFiles(t *testing.T) {
	f := newDurabilityFixture(t)
	rec := &syncRecorder{}
	f.cat.sync = rec
	c := createIDTable(t, f.cat, "ns", "c")
	dir := f.tableDir(t, c)
	meta, _ := localPath(c.tbl.MetadataLocation())
	want := []string{meta, filepath.Join(dir, "metadata"), dir, filepath.Dir(dir), f.warehouse}
	slices.Sort(want)
	if got := slices.Sorted(slices.Values(rec.synced())); !slices.Equal(got, want) {
		t.Errorf("flushed %v, want %v", got, want)
	}
}

// A failed flush fails the commit with 58030 before any pointer moves:
// every table stays at its metadata and rows.
func TestSyncFailureCommitsNothing(t *testing.T) {
	failures := []struct {
		name string
		fail func(path string) bool
	}{
		{"metadata file", func(p string) bool { return strings.HasSuffix(p, ".metadata.json") }},
		{"manifest list", func(p string) bool { return strings.HasPrefix(filepath.Base(p), "snap-") }},
		{"data file", func(p string) bool { return strings.HasSuffix(p, ".parquet") }},
		{"directory", func(p string) bool { return filepath.Base(p) == "metadata" }},
	}
	for _, op := range durabilityOps {
		for _, fl := range failures {
			if op.name == "expire_snapshots" && fl.name != "metadata file" && fl.name != "directory" {
				continue // it writes a metadata file only
			}
			if op.name == "truncate" && fl.name == "data file" {
				continue // it writes no data file
			}
			t.Run(op.name+"/"+fl.name, func(t *testing.T) {
				f := newDurabilityFixture(t)
				ctx := adminCtx(t)
				type state struct {
					loc  string
					rows int
				}
				read := func() []state {
					var out []state
					for _, name := range []string{"a", "b"} {
						tbl, err := f.cat.LoadTable(ctx, "ns", name)
						if err != nil {
							t.Fatal(err)
						}
						out = append(out, state{tbl.tbl.MetadataLocation(), countRows(t, tbl)})
					}
					return out
				}
				before := read()
				rec := &syncRecorder{fail: fl.fail}
				f.cat.sync = rec
				err := op.run(t, f)
				if err == nil {
					t.Fatalf("the commit succeeded; flushed %v", rec.synced())
				}
				if code := pgerror.Code(err); code != pgerror.IOError {
					t.Errorf("SQLSTATE %s, want %s: %v", code, pgerror.IOError, err)
				}
				if after := read(); !slices.Equal(after, before) {
					t.Errorf("tables moved: %v, before %v", after, before)
				}
			})
		}
	}
}

// Files in an object store are durable once written: nothing is flushed.
func TestRemoteFilesAreNotSynced(t *testing.T) {
	fake := s3fake.Start(t, "bucket")
	cat, _ := openS3Catalog(t, fakeS3Properties(fake))
	rec := &syncRecorder{}
	cat.(*embeddedCatalog).sync = rec
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Append(adminCtx(t), idBatches(t, 0, 3, 2))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := deleteIDsAround(t, tbl, nil, nil, 1); err != nil {
		t.Fatal(err)
	}
	if got := rec.synced(); len(got) != 0 {
		t.Errorf("flushed %v in an object store", got)
	}
}

// SkipFsync turns flushing off; by default the catalog flushes.
func TestSkipFsync(t *testing.T) {
	for _, skip := range []bool{false, true} {
		cat, err := OpenEmbeddedWith(context.Background(), "wh", t.TempDir(), AllowAll{}, EmbeddedOptions{SkipFsync: skip})
		if err != nil {
			t.Fatal(err)
		}
		if got := cat.(*embeddedCatalog).sync == nil; got != skip {
			t.Errorf("SkipFsync %v: syncer absent = %v", skip, got)
		}
		if err := cat.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLocalPath(t *testing.T) {
	for _, tc := range []struct {
		loc   string
		path  string
		local bool
	}{
		{"file:///wh/ns.db/t/data/f.parquet", "/wh/ns.db/t/data/f.parquet", true},
		{"file://localhost/wh/t", "/wh/t", true},
		{"file:/wh/t", "/wh/t", true},
		{"file:///wh/a%20b", "/wh/a b", true},
		{"/wh/ns.db/t/", "/wh/ns.db/t", true},
		{"s3://bucket/wh/t", "", false},
		{"gs://bucket/t", "", false},
		{"file://otherhost/wh/t", "", false},
	} {
		path, local := localPath(tc.loc)
		if path != tc.path || local != tc.local {
			t.Errorf("localPath(%q) = %q, %v; want %q, %v", tc.loc, path, local, tc.path, tc.local)
		}
	}
}
