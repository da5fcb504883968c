package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/puffin"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage/theta"
)

// namesBatch is ids 0..len(names)-1 with the given names, "" as NULL.
func namesBatch(t *testing.T, first int64, names ...string) array.RecordReader {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, idSchema)
	defer b.Release()
	for i, n := range names {
		b.Field(0).(*array.Int64Builder).Append(first + int64(i))
		if n == "" {
			b.Field(1).(*array.StringBuilder).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(n)
		}
	}
	rdr, err := array.NewRecordReader(idSchema, []arrow.RecordBatch{b.NewRecordBatch()})
	if err != nil {
		t.Fatal(err)
	}
	return rdr
}

// readPuffin reads the statistics file at path through the table's file
// system.
func readPuffin(t *testing.T, tbl *Table, path string) (*puffin.Reader, int64) {
	t.Helper()
	fs, err := tbl.tbl.FS(adminCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	f, err := fs.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	r, err := puffin.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("puffin reader: %v", err)
	}
	return r, int64(len(data))
}

// TestAnalyzeWritesPuffinStatistics: ANALYZE's statistics file is a
// valid Puffin file, registered for the analyzed snapshot, whose theta
// blobs carry the field, the snapshot, the ndv property and a sketch of
// that estimate, and whose counts are exact on a small table.
func TestAnalyzeWritesPuffinStatistics(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl, err := createIDTable(t, cat, "ns", "t").Append(adminCtx(t), namesBatch(t, 0, "a", "bb", "a", "", "c", "bb", "", "a", "d", "a"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tbl.Statistics(); ok {
		t.Fatal("statistics before ANALYZE")
	}
	analyzed, err := tbl.Analyze(adminCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := analyzed.Statistics()
	if !ok || st.SnapshotID != tbl.SnapshotID() || !st.Current {
		t.Fatalf("statistics %+v, %v; want of snapshot %d", st, ok, tbl.SnapshotID())
	}
	want := map[int]ColumnStatistics{
		1: {FieldID: 1, Rows: 10, Nulls: 0, Distinct: 10, AvgWidth: 8},
		2: {FieldID: 2, Rows: 10, Nulls: 2, Distinct: 4, AvgWidth: 1.25},
	}
	for id, w := range want {
		if st.Columns[id] != w {
			t.Errorf("field %d: %+v, want %+v", id, st.Columns[id], w)
		}
	}

	var registered int
	for sf := range analyzed.tbl.Metadata().Statistics() {
		registered++
		r, size := readPuffin(t, analyzed, sf.StatisticsPath)
		if sf.FileSizeInBytes != size || sf.FileFooterSizeInBytes <= 0 || sf.FileFooterSizeInBytes >= size {
			t.Errorf("file size %d, footer %d; the file has %d bytes", sf.FileSizeInBytes, sf.FileFooterSizeInBytes, size)
		}
		blobs, err := r.ReadAllBlobs()
		if err != nil {
			t.Fatal(err)
		}
		sketches := 0
		for _, b := range blobs {
			md := b.Metadata
			if md.SnapshotID != tbl.SnapshotID() || len(md.Fields) != 1 {
				t.Errorf("blob %+v: want one field of snapshot %d", md, tbl.SnapshotID())
			}
			field := int(md.Fields[0])
			switch md.Type {
			case puffin.BlobTypeDataSketchesTheta:
				sketches++
				c, err := theta.Decode(b.Data)
				if err != nil {
					t.Fatal(err)
				}
				if c.Estimate() != want[field].Distinct || md.Properties["ndv"] != map[int]string{1: "10", 2: "4"}[field] {
					t.Errorf("field %d: sketch estimates %v, ndv %q", field, c.Estimate(), md.Properties["ndv"])
				}
			case blobTypeBounds:
				var bounds columnBounds
				if err := json.Unmarshal(b.Data, &bounds); err != nil {
					t.Fatal(err)
				}
				lower, upper := string(bounds.Lower), string(bounds.Upper)
				if field == 1 {
					lower = string(binary.LittleEndian.AppendUint64(nil, 0))
					upper = string(binary.LittleEndian.AppendUint64(nil, 9))
				}
				if string(bounds.Lower) != map[int]string{1: lower, 2: "a"}[field] || string(bounds.Upper) != map[int]string{1: upper, 2: "d"}[field] {
					t.Errorf("field %d: bounds %q..%q", field, bounds.Lower, bounds.Upper)
				}
			default:
				t.Errorf("blob of type %s", md.Type)
			}
		}
		if sketches != 2 {
			t.Errorf("%d theta blobs, want 2", sketches)
		}
		// No raw value is in the table metadata's copy of the blobs.
		for _, b := range sf.BlobMetadata {
			if b.Type == "sqe-column-bounds-v1" && len(b.Properties) > 0 {
				t.Errorf("bounds blob metadata has properties %v", b.Properties)
			}
		}
	}
	if registered != 1 {
		t.Fatalf("%d statistics files registered, want 1", registered)
	}
}

// TestAnalyzeReplacesAndAges: a second ANALYZE of the same snapshot
// replaces its statistics file (the old one is removed); after a write,
// the statistics of the snapshot before it are used, marked not current,
// until ANALYZE collects the new snapshot's; an ANALYZE of some columns
// carries the others' statistics over.
func TestAnalyzeReplacesAndAges(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl, err := createIDTable(t, cat, "ns", "t").Append(adminCtx(t), namesBatch(t, 0, "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	first, err := tbl.Analyze(adminCtx(t), []string{"name"})
	if err != nil {
		t.Fatal(err)
	}
	st1, _ := first.Statistics()
	if _, ok := st1.Columns[1]; ok || st1.Columns[2].Distinct != 2 {
		t.Fatalf("ANALYZE (name): %+v", st1.Columns)
	}
	second, err := first.Analyze(adminCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	st2, _ := second.Statistics()
	if st2.Path == st1.Path || len(st2.Columns) != 2 || countStatistics(second) != 1 {
		t.Fatalf("second ANALYZE: %+v, %d files", st2, countStatistics(second))
	}
	fs, _ := second.tbl.FS(adminCtx(t))
	if _, err := fs.Open(st1.Path); err == nil {
		t.Error("the replaced statistics file is still there")
	}

	grown, err := second.Append(adminCtx(t), namesBatch(t, 2, "c", "d", "e"))
	if err != nil {
		t.Fatal(err)
	}
	aged, ok := grown.Statistics()
	if !ok || aged.Current || aged.SnapshotID != st2.SnapshotID || aged.Columns[2].Distinct != 2 {
		t.Fatalf("after a write: %+v, %v; want the earlier snapshot's, not current", aged, ok)
	}
	third, err := grown.Analyze(adminCtx(t), []string{"name"})
	if err != nil {
		t.Fatal(err)
	}
	st3, _ := third.Statistics()
	if !st3.Current || st3.Columns[2].Distinct != 5 || st3.Columns[1].Distinct != 2 || countStatistics(third) != 2 {
		t.Fatalf("ANALYZE (name) after the write: %+v, %d files", st3, countStatistics(third))
	}
	// The id column's blob is carried over, labelled with the snapshot it
	// was computed from.
	r, _ := readPuffin(t, third, st3.Path)
	for _, b := range r.Blobs() {
		want := third.SnapshotID()
		if b.Fields[0] == 1 {
			want = st2.SnapshotID
		}
		if b.SnapshotID != want {
			t.Errorf("blob %s of field %d: snapshot %d, want %d", b.Type, b.Fields[0], b.SnapshotID, want)
		}
	}
}

func countStatistics(tbl *Table) int {
	n := 0
	for range tbl.tbl.Metadata().Statistics() {
		n++
	}
	return n
}

// TestAnalyzeNeedsUpdate: ANALYZE is refused, before reading a row,
// without UPDATE_TABLE, and an empty table has nothing to analyze.
func TestAnalyzeNeedsUpdate(t *testing.T) {
	dir := t.TempDir()
	cat := openCatalog(t, "wh", dir, AllowAll{})
	empty := createIDTable(t, cat, "ns", "e")
	if got, err := empty.Analyze(adminCtx(t), nil); err != nil || countStatistics(got) != 0 {
		t.Fatalf("ANALYZE of an empty table: %v", err)
	}
	if _, err := createIDTable(t, cat, "ns", "t").Append(adminCtx(t), namesBatch(t, 0, "a")); err != nil {
		t.Fatal(err)
	}
	readOnly := openCatalog(t, "wh", dir, &refuser{refuse: ActionUpdateTable})
	ro, err := readOnly.LoadTable(adminCtx(t), "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ro.Analyze(adminCtx(t), nil); pgerror.Code(err) != pgerror.InsufficientPrivilege {
		t.Fatalf("ANALYZE by a non-writer: %v, want 42501", err)
	}
	if _, err := ro.Analyze(adminCtx(t), []string{"nope"}); pgerror.Code(err) != pgerror.InsufficientPrivilege {
		t.Fatalf("ANALYZE of a missing column by a non-writer: %v, want 42501", err)
	}
}
