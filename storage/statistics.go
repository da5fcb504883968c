package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/puffin"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

// ANALYZE's statistics are an Iceberg statistics file: a Puffin file
// registered in the table metadata's "statistics" list for the snapshot
// they describe. Each analyzed column gets an apache-datasketches-theta-v1
// blob with the "ndv" property, as the specification defines it and other
// engines read it, and SQE's own counts as further properties of that
// blob (row count, NULLs, average width: counts, no values). The least
// and greatest values are raw data, so they stay inside the file, in a
// blob of SQE's own type, and never in the metadata JSON that every
// reader of the table's metadata gets.
const (
	blobTypeBounds puffin.BlobType = "sqe-column-bounds-v1"

	propNDV      = "ndv"
	propRows     = "sqe.rows"
	propNulls    = "sqe.null-count"
	propAvgWidth = "sqe.avg-width"
)

// ColumnStatistics are what ANALYZE collected of one column.
type ColumnStatistics struct {
	FieldID int
	// Rows and Nulls are the rows of the snapshot and how many were NULL.
	Rows, Nulls int64
	// Distinct estimates the number of distinct non-null values.
	Distinct float64
	// AvgWidth is the average size in bytes of a non-null value in
	// Iceberg's single-value serialization (a string's UTF-8 bytes).
	AvgWidth float64
}

// TableStatistics are the statistics ANALYZE collected of one snapshot.
type TableStatistics struct {
	SnapshotID int64
	// Current tells whether SnapshotID is the table's current snapshot.
	Current bool
	Path    string
	// Columns are by Iceberg field id.
	Columns map[int]ColumnStatistics
}

// columnBounds is the payload of a bounds blob: the column's least and
// greatest non-null values in Iceberg's single-value serialization.
type columnBounds struct {
	Lower []byte `json:"lower"`
	Upper []byte `json:"upper"`
}

// Statistics are the statistics of the table's current snapshot or, when
// none were collected since the last write, of the newest snapshot before
// it that has them: appended rows change a column's distinct count
// little, and PostgreSQL too plans from its last ANALYZE. ok is false
// when no snapshot of the current one's history has statistics.
func (t *Table) Statistics() (TableStatistics, bool) {
	meta := t.tbl.Metadata()
	byID := map[int64]table.StatisticsFile{}
	for sf := range meta.Statistics() {
		byID[sf.SnapshotID] = sf
	}
	if len(byID) == 0 {
		return TableStatistics{}, false
	}
	current := t.SnapshotID()
	for s := meta.CurrentSnapshot(); s != nil; {
		if sf, ok := byID[s.SnapshotID]; ok {
			return readStatistics(sf, s.SnapshotID == current), true
		}
		if s.ParentSnapshotID == nil {
			break
		}
		s = meta.SnapshotByID(*s.ParentSnapshotID)
	}
	return TableStatistics{}, false
}

// readStatistics reads a statistics file's column statistics from its
// blob metadata in the table metadata; the file itself is not read. A
// blob whose properties do not parse is left out.
func readStatistics(sf table.StatisticsFile, current bool) TableStatistics {
	out := TableStatistics{SnapshotID: sf.SnapshotID, Current: current, Path: sf.StatisticsPath, Columns: map[int]ColumnStatistics{}}
	for _, b := range sf.BlobMetadata {
		if b.Type != table.BlobType(puffin.BlobTypeDataSketchesTheta) || len(b.Fields) != 1 {
			continue
		}
		ndv, err1 := strconv.ParseInt(b.Properties[propNDV], 10, 64)
		rows, err2 := strconv.ParseInt(b.Properties[propRows], 10, 64)
		nulls, err3 := strconv.ParseInt(b.Properties[propNulls], 10, 64)
		width, err4 := strconv.ParseFloat(b.Properties[propAvgWidth], 64)
		if err1 != nil || ndv < 0 {
			continue
		}
		cs := ColumnStatistics{FieldID: int(b.Fields[0]), Distinct: float64(ndv), Rows: -1, Nulls: -1, AvgWidth: -1}
		// Another engine's blob carries only ndv.
		if err2 == nil && err3 == nil && err4 == nil && rows >= 0 && nulls >= 0 && nulls <= rows && width >= 0 {
			cs.Rows, cs.Nulls, cs.AvgWidth = rows, nulls, width
		}
		out.Columns[cs.FieldID] = cs
	}
	return out
}

// Analyze collects the statistics of the named columns (all top-level
// columns when none are named) from every row of the table's current
// snapshot, writes them as a statistics file and registers it for that
// snapshot, replacing the file an earlier ANALYZE registered for it. It
// is an update of the table (gate one's UPDATE_TABLE): the caller may
// change what every reader's plans are based on. Columns of nested types
// get no statistics. A table without snapshots has nothing to analyze.
// The table as of the commit is returned.
func (t *Table) Analyze(ctx context.Context, columns []string) (*Table, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, err
	}
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, err
	}
	snap := t.tbl.CurrentSnapshot()
	if snap == nil {
		return t, nil
	}
	collectors, err := t.collectStatistics(ctx, columns)
	if err != nil {
		return nil, err
	}
	if len(collectors) == 0 {
		return t, nil
	}
	fs, err := t.tbl.FS(ctx)
	if err != nil {
		return nil, fmt.Errorf("analyze %s: %w", t.ident, err)
	}
	var carried []*puffin.BlobData
	if len(columns) > 0 {
		carried = t.carriedBlobs(fs, collectors)
	}
	sf, data, err := statisticsFile(t.tbl.Metadata(), *snap, collectors, carried)
	if err != nil {
		return nil, fmt.Errorf("analyze %s: %w", t.ident, err)
	}
	wfs, ok := fs.(icebergio.WriteFileIO)
	if !ok {
		return nil, fmt.Errorf("analyze %s: file system is read-only", t.ident)
	}
	if err := wfs.WriteFile(sf.StatisticsPath, data); err != nil {
		return nil, t.host.commitError(ctx, t.ident, fmt.Errorf("analyze %s: write statistics file: %w", t.ident, err))
	}
	committed, replaced, err := t.commitStatistics(ctx, sf)
	if err != nil {
		_ = fs.Remove(sf.StatisticsPath)
		return nil, err
	}
	// The replaced file is referenced by no metadata from now on; planning
	// and pg_stats read the metadata only, so nothing reads it again.
	if replaced != "" && replaced != sf.StatisticsPath {
		_ = fs.Remove(replaced)
	}
	return committed, nil
}

// carriedBlobs are the blobs of the statistics in use (Statistics) for
// the columns of the table's schema that collectors do not analyze
// again: as in PostgreSQL, ANALYZE of some columns keeps the others'
// statistics. Each blob keeps the snapshot it was computed from. A file
// that cannot be read carries nothing over.
func (t *Table) carriedBlobs(fs icebergio.IO, collectors []*columnCollector) []*puffin.BlobData {
	st, ok := t.Statistics()
	if !ok {
		return nil
	}
	keep := map[int32]bool{}
	for _, f := range t.tbl.Schema().Fields() {
		keep[int32(f.ID)] = true
	}
	for _, c := range collectors {
		keep[int32(c.fieldID)] = false
	}
	f, err := fs.Open(st.Path)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil
	}
	r, err := puffin.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	blobs, err := r.ReadAllBlobs()
	if err != nil {
		return nil
	}
	var out []*puffin.BlobData
	for _, b := range blobs {
		if len(b.Metadata.Fields) == 1 && keep[b.Metadata.Fields[0]] {
			out = append(out, b)
		}
	}
	return out
}

// collectStatistics scans the named columns of the current snapshot's
// committed rows.
func (t *Table) collectStatistics(ctx context.Context, columns []string) ([]*columnCollector, error) {
	sc := t.tbl.Schema()
	if len(columns) == 0 {
		for _, f := range sc.Fields() {
			columns = append(columns, f.Name)
		}
	}
	var names []string
	var collectors []*columnCollector
	for _, name := range columns {
		f, ok := sc.FindFieldByName(name)
		if !ok {
			return nil, unknownColumn(t.ident, name)
		}
		if _, nested := f.Type.(iceberg.NestedType); nested {
			continue
		}
		names = append(names, name)
		collectors = append(collectors, newColumnCollector(f.ID))
	}
	if len(names) == 0 {
		return nil, nil
	}
	committed := &Table{host: t.host, ident: t.ident, tbl: t.tbl, schema: t.schema}
	st, err := committed.Scan(ctx, ScanRequest{Columns: names})
	if err != nil {
		return nil, fmt.Errorf("analyze %s: %w", t.ident, err)
	}
	defer st.Close()
	for {
		rec, err := st.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("analyze %s: %w", t.ident, err)
		}
		for i, c := range collectors {
			c.add(rec.Column(i))
		}
		rec.Release()
	}
	out := collectors[:0]
	for _, c := range collectors {
		if !c.unsupported {
			out = append(out, c)
		}
	}
	return out, nil
}

// statisticsFile builds the Puffin file of the collected statistics of
// snap, with the carried blobs of earlier ones, and its entry for the
// table metadata. The file goes where the
// table's metadata files go, named as Iceberg's Java writers name theirs
// (<snapshot id>-<uuid>.stats).
func statisticsFile(meta table.Metadata, snap table.Snapshot, collectors []*columnCollector, carried []*puffin.BlobData) (table.StatisticsFile, []byte, error) {
	var buf bytes.Buffer
	w, err := puffin.NewWriter(&buf)
	if err != nil {
		return table.StatisticsFile{}, nil, err
	}
	if err := w.SetCreatedBy("SQE"); err != nil {
		return table.StatisticsFile{}, nil, err
	}
	var blobs []table.BlobMetadata
	end := int64(buf.Len())
	add := func(in puffin.BlobMetadataInput, data []byte) error {
		md, err := w.AddBlob(in, data)
		if err != nil {
			return err
		}
		end = md.Offset + md.Length
		blobs = append(blobs, table.BlobMetadata{
			Type: table.BlobType(md.Type), SnapshotID: md.SnapshotID, SequenceNumber: md.SequenceNumber,
			Fields: md.Fields, Properties: md.Properties,
		})
		return nil
	}
	for _, c := range collectors {
		nonNull := c.rows - c.nulls
		width := 0.0
		if nonNull > 0 {
			width = float64(c.width) / float64(nonNull)
		}
		props := map[string]string{
			propNDV:      strconv.FormatInt(int64(math.Round(c.sketch.Estimate())), 10),
			propRows:     strconv.FormatInt(c.rows, 10),
			propNulls:    strconv.FormatInt(c.nulls, 10),
			propAvgWidth: strconv.FormatFloat(width, 'g', -1, 64),
		}
		fields := []int32{int32(c.fieldID)}
		if err := add(puffin.BlobMetadataInput{
			Type: puffin.BlobTypeDataSketchesTheta, SnapshotID: snap.SnapshotID, SequenceNumber: snap.SequenceNumber,
			Fields: fields, Properties: props,
		}, c.sketch.Compact()); err != nil {
			return table.StatisticsFile{}, nil, err
		}
		lower, upper := c.bounds()
		if lower == nil {
			continue
		}
		payload, err := json.Marshal(columnBounds{Lower: lower, Upper: upper})
		if err != nil {
			return table.StatisticsFile{}, nil, err
		}
		if err := add(puffin.BlobMetadataInput{
			Type: blobTypeBounds, SnapshotID: snap.SnapshotID, SequenceNumber: snap.SequenceNumber, Fields: fields,
		}, payload); err != nil {
			return table.StatisticsFile{}, nil, err
		}
	}
	for _, b := range carried {
		md := b.Metadata
		if err := add(puffin.BlobMetadataInput{
			Type: md.Type, SnapshotID: md.SnapshotID, SequenceNumber: md.SequenceNumber, Fields: md.Fields, Properties: md.Properties,
		}, b.Data); err != nil {
			return table.StatisticsFile{}, nil, err
		}
	}
	if err := w.Finish(); err != nil {
		return table.StatisticsFile{}, nil, err
	}
	provider, err := table.LoadLocationProvider(meta.Location(), meta.Properties())
	if err != nil {
		return table.StatisticsFile{}, nil, err
	}
	sf := table.StatisticsFile{
		SnapshotID:            snap.SnapshotID,
		StatisticsPath:        provider.NewMetadataLocation(fmt.Sprintf("%d-%s.stats", snap.SnapshotID, uuid.NewString())),
		FileSizeInBytes:       int64(buf.Len()),
		FileFooterSizeInBytes: int64(buf.Len()) - end,
		BlobMetadata:          blobs,
	}
	return sf, buf.Bytes(), nil
}

// commitStatistics registers sf in the table's metadata, on whatever the
// table's newest metadata is (statistics describe their snapshot, so
// writes since do not conflict), and returns the table as committed and
// the path of the file it replaced for the same snapshot, if any.
func (t *Table) commitStatistics(ctx context.Context, sf table.StatisticsFile) (*Table, string, error) {
	replaced := ""
	committed, err := t.commitMetadata(ctx, "analyze", func(meta table.Metadata) ([]table.Update, []table.Requirement, error) {
		if meta.SnapshotByID(sf.SnapshotID) == nil {
			return nil, nil, fmt.Errorf("analyze %s: snapshot %d was expired meanwhile", t.ident, sf.SnapshotID)
		}
		replaced = ""
		for old := range meta.Statistics() {
			if old.SnapshotID == sf.SnapshotID {
				replaced = old.StatisticsPath
			}
		}
		reqs := []table.Requirement{table.AssertTableUUID(meta.TableUUID())}
		return []table.Update{table.NewSetStatisticsUpdate(sf)}, reqs, nil
	})
	if err != nil {
		return nil, "", err
	}
	return committed, replaced, nil
}
