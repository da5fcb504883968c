package storage

import (
	"cmp"
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

// The listings below describe a table's Iceberg metadata, one row per
// snapshot, history entry, reference, manifest, file or partition, as the
// SQL layer's metadata tables ("orders$files") show them. What a caller
// may learn from them is decided by a MetadataView: statistics and
// partition values are values of the table's rows, and counts of rows
// tell of rows a caller may not see, so each listing shows of a column
// only what the view allows and leaves the rest out. The zero view names
// no column and shows no statistic, partition value or row count.

// MetadataView says what the listings may show of the table's columns
// (indices into Schema).
type MetadataView struct {
	// Named are the columns the listings may name; the others are left
	// out, as though the table did not have them.
	Named map[int]bool
	// Described are the named columns whose statistics (sizes, counts,
	// bounds) and partition values the listings may show; those of the
	// others are NULL.
	Described map[int]bool
	// RowCounts says whether the listings may show counts of rows: of a
	// file, a partition, a manifest, a snapshot, or a column's values.
	RowCounts bool
}

// OpenMetadataView shows everything of t.
func OpenMetadataView(t *Table) MetadataView {
	v := MetadataView{Named: map[int]bool{}, Described: map[int]bool{}, RowCounts: true}
	for i := range t.Schema().Fields() {
		v.Named[i], v.Described[i] = true, true
	}
	return v
}

// everything reports whether v shows all of the columns of sc.
func (v MetadataView) everything(sc *iceberg.Schema) bool {
	if !v.RowCounts {
		return false
	}
	for i := range sc.Fields() {
		if !v.Named[i] || !v.Described[i] {
			return false
		}
	}
	return true
}

// SnapshotRow is one snapshot of the table ($snapshots).
type SnapshotRow struct {
	CommittedAt  time.Time
	SnapshotID   int64
	ParentID     *int64
	Operation    string
	ManifestList string
	// Summary is the snapshot's summary. A view that does not show
	// everything keeps only the counts of files and their sizes (and of
	// records when it shows row counts): other keys may hold partition
	// values ("partitions.region=US").
	Summary map[string]string
}

// summaryFileKeys are the summary keys that count files or their bytes.
var summaryFileKeys = []string{
	"added-data-files", "deleted-data-files", "total-data-files",
	"added-delete-files", "removed-delete-files", "total-delete-files",
	"added-equality-delete-files", "removed-equality-delete-files",
	"added-position-delete-files", "removed-position-delete-files",
	"added-files-size", "removed-files-size", "total-files-size",
	"changed-partition-count",
}

// summaryRecordKeys are the summary keys that count rows.
var summaryRecordKeys = []string{
	"added-records", "deleted-records", "total-records",
	"added-position-deletes", "removed-position-deletes", "total-position-deletes",
	"added-equality-deletes", "removed-equality-deletes", "total-equality-deletes",
}

// SnapshotRows lists the snapshots the metadata keeps, oldest first.
func (t *Table) SnapshotRows(v MetadataView) []SnapshotRow {
	md := t.tbl.Metadata()
	open := v.everything(t.tbl.Schema())
	var out []SnapshotRow
	for _, s := range md.Snapshots() {
		r := SnapshotRow{
			CommittedAt: time.UnixMilli(s.TimestampMs).UTC(), SnapshotID: s.SnapshotID,
			ParentID: s.ParentSnapshotID, ManifestList: s.ManifestList, Summary: map[string]string{},
		}
		if s.Summary != nil {
			r.Operation = string(s.Summary.Operation)
			props := s.Summary.Properties
			switch {
			case open:
				maps.Copy(r.Summary, props)
			default:
				keep := summaryFileKeys
				if v.RowCounts {
					keep = append(slices.Clone(keep), summaryRecordKeys...)
				}
				for _, k := range keep {
					if val, ok := props[k]; ok {
						r.Summary[k] = val
					}
				}
			}
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b SnapshotRow) int { return a.CommittedAt.Compare(b.CommittedAt) })
	return out
}

// HistoryRow is one entry of the table's snapshot log ($history).
type HistoryRow struct {
	MadeCurrentAt time.Time
	SnapshotID    int64
	ParentID      *int64
	// IsCurrentAncestor says whether the snapshot is the current one or
	// one of its ancestors (false for one a rollback left behind).
	IsCurrentAncestor bool
}

// HistoryRows lists the snapshot log, oldest first.
func (t *Table) HistoryRows() []HistoryRow {
	md := t.tbl.Metadata()
	ancestors := map[int64]bool{}
	for s := md.CurrentSnapshot(); s != nil && !ancestors[s.SnapshotID]; {
		ancestors[s.SnapshotID] = true
		if s.ParentSnapshotID == nil {
			break
		}
		s = md.SnapshotByID(*s.ParentSnapshotID)
	}
	var out []HistoryRow
	for e := range md.SnapshotLogs() {
		r := HistoryRow{MadeCurrentAt: time.UnixMilli(e.TimestampMs).UTC(), SnapshotID: e.SnapshotID,
			IsCurrentAncestor: ancestors[e.SnapshotID]}
		if s := md.SnapshotByID(e.SnapshotID); s != nil {
			r.ParentID = s.ParentSnapshotID
		}
		out = append(out, r)
	}
	return out
}

// RefRow is one branch or tag of the table ($refs).
type RefRow struct {
	Name               string
	Type               string // BRANCH or TAG
	SnapshotID         int64
	MaxReferenceAgeMs  *int64
	MinSnapshotsToKeep *int32
	MaxSnapshotAgeMs   *int64
}

// RefRows lists the table's references by name.
func (t *Table) RefRows() []RefRow {
	var out []RefRow
	for name, ref := range t.tbl.Metadata().Refs() {
		r := RefRow{Name: name, Type: strings.ToUpper(string(ref.SnapshotRefType)), SnapshotID: ref.SnapshotID,
			MaxReferenceAgeMs: ref.MaxRefAgeMs, MaxSnapshotAgeMs: ref.MaxSnapshotAgeMs}
		if ref.MinSnapshotsToKeep != nil {
			n := int32(*ref.MinSnapshotsToKeep)
			r.MinSnapshotsToKeep = &n
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b RefRow) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// ManifestRow is one manifest of the current snapshot ($manifests).
type ManifestRow struct {
	Path                   string
	Length                 int64
	PartitionSpecID        int32
	AddedSnapshotID        int64
	AddedDataFilesCount    int32
	ExistingDataFilesCount int32
	DeletedDataFilesCount  int32
	// The row counts are nil when the view shows none.
	AddedRowsCount, ExistingRowsCount, DeletedRowsCount *int64
	// PartitionSummaries summarise each partition field's values in the
	// manifest, in the spec's order; a field whose source column the
	// view does not name is left out.
	PartitionSummaries []PartitionSummary
}

// PartitionSummary is a manifest's summary of one partition field. Its
// values are nil when the view does not describe the field's source.
type PartitionSummary struct {
	Field        string
	ContainsNull *bool
	ContainsNaN  *bool
	LowerBound   *string
	UpperBound   *string
}

// ManifestRows lists the manifests of the current snapshot.
func (t *Table) ManifestRows(ctx context.Context, v MetadataView) ([]ManifestRow, error) {
	cols, err := newMetadataColumns(t.tbl, v)
	if err != nil {
		return nil, err
	}
	mans, _, err := t.currentManifests(ctx)
	if err != nil {
		return nil, err
	}
	var out []ManifestRow
	for _, m := range mans {
		r := ManifestRow{
			Path: m.FilePath(), Length: m.Length(), PartitionSpecID: m.PartitionSpecID(), AddedSnapshotID: m.SnapshotID(),
			AddedDataFilesCount: m.AddedDataFiles(), ExistingDataFilesCount: m.ExistingDataFiles(), DeletedDataFilesCount: m.DeletedDataFiles(),
		}
		if v.RowCounts {
			r.AddedRowsCount, r.ExistingRowsCount, r.DeletedRowsCount = ptr(m.AddedRows()), ptr(m.ExistingRows()), ptr(m.DeletedRows())
		}
		fields := cols.partitionFields(int(m.PartitionSpecID()))
		sums := m.Partitions()
		for i, f := range fields {
			if !f.named {
				continue
			}
			ps := PartitionSummary{Field: f.field.Name}
			if f.described && i < len(sums) {
				s := sums[i]
				ps.ContainsNull = ptr(s.ContainsNull)
				ps.ContainsNaN = s.ContainsNaN
				if s.LowerBound != nil {
					ps.LowerBound = boundText(f.resultType, *s.LowerBound)
				}
				if s.UpperBound != nil {
					ps.UpperBound = boundText(f.resultType, *s.UpperBound)
				}
			}
			r.PartitionSummaries = append(r.PartitionSummaries, ps)
		}
		out = append(out, r)
	}
	return out, nil
}

// FileRow is one live data or delete file of the current snapshot
// ($files).
type FileRow struct {
	Content int32 // 0 data, 1 position deletes, 2 equality deletes
	// FilePath is nil when the file's partition has a value the view does
	// not show: a partitioned file's path holds its partition values.
	FilePath        *string
	FileFormat      string
	SpecID          int32
	Partition       []PartitionValue
	RecordCount     *int64
	FileSizeInBytes int64
	// Columns are the file's metrics of each named column it keeps any
	// for, in field id order (a nested field under its dotted name).
	Columns      []ColumnMetrics
	KeyMetadata  []byte
	SplitOffsets []int64
	// EqualityIDs are the field ids of an equality delete file's key,
	// those of columns the view does not name left out.
	EqualityIDs []int32
	SortOrderID *int32
}

// PartitionValue is a file's value of one partition field. Value is nil
// for NULL and when the view does not describe the field's source; it is
// a bool, int64, float64 or string.
type PartitionValue struct {
	Field string
	Value any
}

// ColumnMetrics are a file's statistics of one column; nil where the file
// keeps none or the view does not show them.
type ColumnMetrics struct {
	Name                                        string
	ColumnSize, ValueCount, NullCount, NaNCount *int64
	LowerBound, UpperBound                      *string
}

// FileRows lists the live files of the current snapshot, data files
// first in manifest order.
func (t *Table) FileRows(ctx context.Context, v MetadataView) ([]FileRow, error) {
	cols, err := newMetadataColumns(t.tbl, v)
	if err != nil {
		return nil, err
	}
	files, err := t.currentFiles(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]FileRow, 0, len(files))
	for _, df := range files {
		out = append(out, cols.fileRow(df))
	}
	return out, nil
}

// PartitionRow is one partition of the current snapshot's data files
// ($partitions): the files whose shown partition values are equal.
type PartitionRow struct {
	Partition   []PartitionValue
	RecordCount *int64 // nil when the view shows no row counts
	FileCount   int64
	TotalSize   int64
	// Columns summarise each named column's metrics over the files.
	Columns []ColumnSummary
}

// ColumnSummary is a partition's summary of one column's metrics; nil
// where a file keeps none or the view does not show them.
type ColumnSummary struct {
	Name                string
	Min, Max            *string
	NullCount, NaNCount *int64
}

// PartitionRows lists the partitions of the current snapshot's data files
// in the order they are first met. Partitions are grouped by the values
// the view shows, so partitions told apart only by a value it hides are
// one row.
func (t *Table) PartitionRows(ctx context.Context, v MetadataView) ([]PartitionRow, error) {
	cols, err := newMetadataColumns(t.tbl, v)
	if err != nil {
		return nil, err
	}
	files, err := t.currentFiles(ctx)
	if err != nil {
		return nil, err
	}
	type acc struct {
		row   PartitionRow
		lower map[int]iceberg.Literal
		upper map[int]iceberg.Literal
		// unknown marks the bounds and counts some file lacks.
		unknownLower, unknownUpper, unknownNulls, unknownNaNs map[int]bool
		nulls, nans                                           map[int]int64
	}
	var order []string
	parts := map[string]*acc{}
	for _, df := range files {
		if df.ContentType() != iceberg.EntryContentData {
			continue
		}
		pv := cols.partitionValues(df)
		key := fmt.Sprintf("%#v", pv)
		a, ok := parts[key]
		if !ok {
			a = &acc{row: PartitionRow{Partition: pv}, lower: map[int]iceberg.Literal{}, upper: map[int]iceberg.Literal{},
				unknownLower: map[int]bool{}, unknownUpper: map[int]bool{}, unknownNulls: map[int]bool{}, unknownNaNs: map[int]bool{},
				nulls: map[int]int64{}, nans: map[int]int64{}}
			if v.RowCounts {
				a.row.RecordCount = ptr(int64(0))
			}
			parts[key] = a
			order = append(order, key)
		}
		a.row.FileCount++
		a.row.TotalSize += df.FileSizeBytes()
		if a.row.RecordCount != nil {
			*a.row.RecordCount += df.Count()
		}
		for _, c := range cols.leaves {
			if !c.described {
				continue
			}
			a.lower[c.id], a.unknownLower[c.id] = extreme(a.lower[c.id], a.unknownLower[c.id], c.typ, df.LowerBoundValues()[c.id], -1)
			a.upper[c.id], a.unknownUpper[c.id] = extreme(a.upper[c.id], a.unknownUpper[c.id], c.typ, df.UpperBoundValues()[c.id], 1)
			if n, ok := df.NullValueCounts()[c.id]; ok {
				a.nulls[c.id] += n
			} else {
				a.unknownNulls[c.id] = true
			}
			if n, ok := df.NaNValueCounts()[c.id]; ok {
				a.nans[c.id] += n
			} else {
				a.unknownNaNs[c.id] = true
			}
		}
	}
	out := make([]PartitionRow, 0, len(order))
	for _, key := range order {
		a := parts[key]
		for _, c := range cols.leaves {
			if !c.named {
				continue
			}
			s := ColumnSummary{Name: c.name}
			if c.described {
				if lo := a.lower[c.id]; lo != nil && !a.unknownLower[c.id] {
					s.Min = literalText(lo, c.typ)
				}
				if hi := a.upper[c.id]; hi != nil && !a.unknownUpper[c.id] {
					s.Max = literalText(hi, c.typ)
				}
				if v.RowCounts && !a.unknownNulls[c.id] {
					s.NullCount = ptr(a.nulls[c.id])
				}
				if v.RowCounts && !a.unknownNaNs[c.id] {
					s.NaNCount = ptr(a.nans[c.id])
				}
			}
			a.row.Columns = append(a.row.Columns, s)
		}
		out = append(out, a.row)
	}
	return out, nil
}

// extreme folds one file's bound into a partition's lowest (dir -1) or
// highest (dir 1) bound so far. A file without a bound, or one that
// cannot be read or compared, makes the partition's unknown.
func extreme(cur iceberg.Literal, unknown bool, typ iceberg.Type, raw []byte, dir int) (iceberg.Literal, bool) {
	if unknown {
		return nil, true
	}
	lit, ok := boundLiteral(typ, raw)
	if !ok {
		return nil, true
	}
	if cur == nil {
		return lit, false
	}
	c, ok := compareBounds(lit, cur)
	if !ok {
		return nil, true
	}
	if c*dir > 0 {
		return lit, false
	}
	return cur, false
}

// currentManifests reads the current snapshot's manifest list, with the
// table's file IO; no snapshot has no manifests.
func (t *Table) currentManifests(ctx context.Context) ([]iceberg.ManifestFile, *table.Snapshot, error) {
	snap := t.tbl.CurrentSnapshot()
	if snap == nil {
		return nil, nil, nil
	}
	fs, err := t.tbl.FS(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("open file IO of %s: %w", t.ident, err)
	}
	mans, err := snap.Manifests(fs)
	if err != nil {
		return nil, nil, fmt.Errorf("read manifest list of %s: %w", t.ident, err)
	}
	return mans, snap, nil
}

// currentFiles reads the live files of the current snapshot, data
// manifests first.
func (t *Table) currentFiles(ctx context.Context) ([]iceberg.DataFile, error) {
	mans, _, err := t.currentManifests(ctx)
	if err != nil || len(mans) == 0 {
		return nil, err
	}
	fs, err := t.tbl.FS(ctx)
	if err != nil {
		return nil, fmt.Errorf("open file IO of %s: %w", t.ident, err)
	}
	slices.SortStableFunc(mans, func(a, b iceberg.ManifestFile) int {
		return cmp.Compare(a.ManifestContent(), b.ManifestContent())
	})
	var out []iceberg.DataFile
	for _, m := range mans {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		entries, err := m.FetchEntries(fs, true)
		if err != nil {
			return nil, fmt.Errorf("read manifest %s of %s: %w", m.FilePath(), t.ident, err)
		}
		for _, e := range entries {
			out = append(out, e.DataFile())
		}
	}
	return out, nil
}

// metadataColumns maps the field ids the metadata speaks of to the
// table's current columns and to what the view shows of them. A field id
// the current schema does not hold (a dropped column) is neither named
// nor described.
type metadataColumns struct {
	tbl    *table.Table
	view   MetadataView
	byID   map[int]*metadataLeaf
	leaves []*metadataLeaf // in field id order
	specs  map[int][]specField
}

// metadataLeaf is one field of the current schema (a column or a field
// nested in one).
type metadataLeaf struct {
	id               int
	name             string
	typ              iceberg.Type
	named, described bool
}

// specField is one partition field of a spec and what the view shows of
// it: it is named only when all its sources are, and described only when
// all its sources are.
type specField struct {
	field            iceberg.PartitionField
	resultType       iceberg.Type
	named, described bool
}

func newMetadataColumns(tbl *table.Table, v MetadataView) (*metadataColumns, error) {
	sc := tbl.Schema()
	parents, err := iceberg.IndexParents(sc)
	if err != nil {
		return nil, fmt.Errorf("index schema of %s: %w", tbl.Identifier(), err)
	}
	top := map[int]int{}
	for i, f := range sc.Fields() {
		top[f.ID] = i
	}
	byID, err := iceberg.IndexByID(sc)
	if err != nil {
		return nil, fmt.Errorf("index schema of %s: %w", tbl.Identifier(), err)
	}
	c := &metadataColumns{tbl: tbl, view: v, byID: map[int]*metadataLeaf{}, specs: map[int][]specField{}}
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		root := id
		for seen := 0; seen <= len(byID); seen++ {
			p, ok := parents[root]
			if !ok {
				break
			}
			root = p
		}
		col, ok := top[root]
		if !ok {
			continue
		}
		name, ok := sc.FindColumnName(id)
		if !ok {
			continue
		}
		leaf := &metadataLeaf{id: id, name: name, typ: byID[id].Type, named: v.Named[col]}
		leaf.described = leaf.named && v.Described[col]
		c.byID[id] = leaf
		if _, nested := byID[id].Type.(iceberg.NestedType); !nested {
			c.leaves = append(c.leaves, leaf)
		}
	}
	return c, nil
}

// leaf is the field id's leaf, one neither named nor described when the
// current schema has no such field.
func (c *metadataColumns) leaf(id int) *metadataLeaf {
	if l, ok := c.byID[id]; ok {
		return l
	}
	return &metadataLeaf{id: id}
}

// partitionFields are the fields of partition spec id with what the view
// shows of each; an unknown spec has none.
func (c *metadataColumns) partitionFields(id int) []specField {
	if fs, ok := c.specs[id]; ok {
		return fs
	}
	spec := c.tbl.Metadata().PartitionSpecByID(id)
	var out []specField
	if spec != nil {
		for _, f := range spec.Fields() {
			sf := specField{field: f, named: true, described: true}
			ids := f.SourceIDs
			if len(ids) == 0 {
				ids = []int{f.SourceID()}
			}
			var srcType iceberg.Type = iceberg.PrimitiveTypes.String
			for _, src := range ids {
				l := c.leaf(src)
				sf.named = sf.named && l.named
				sf.described = sf.described && l.described
				if l.typ != nil {
					srcType = l.typ
				}
			}
			sf.resultType = f.Transform.ResultType(srcType)
			out = append(out, sf)
		}
	}
	c.specs[id] = out
	return out
}

// partitionValues are df's shown partition values, in its spec's order.
func (c *metadataColumns) partitionValues(df iceberg.DataFile) []PartitionValue {
	vals := df.Partition()
	var out []PartitionValue
	for _, f := range c.partitionFields(int(df.SpecID())) {
		if !f.named {
			continue
		}
		pv := PartitionValue{Field: f.field.Name}
		if f.described {
			pv.Value = partitionJSON(vals[f.field.FieldID], f.resultType)
		}
		out = append(out, pv)
	}
	return out
}

// hidesPartition reports whether df has a partition value the view does
// not show, which its path may hold.
func (c *metadataColumns) hidesPartition(df iceberg.DataFile) bool {
	vals := df.Partition()
	for _, f := range c.partitionFields(int(df.SpecID())) {
		if !f.described && vals[f.field.FieldID] != nil {
			return true
		}
	}
	return false
}

func (c *metadataColumns) fileRow(df iceberg.DataFile) FileRow {
	r := FileRow{
		Content: int32(df.ContentType()), FileFormat: string(df.FileFormat()), SpecID: df.SpecID(),
		Partition: c.partitionValues(df), FileSizeInBytes: df.FileSizeBytes(),
		KeyMetadata: df.KeyMetadata(), SplitOffsets: df.SplitOffsets(),
	}
	if !c.hidesPartition(df) {
		r.FilePath = ptr(df.FilePath())
	}
	if c.view.RowCounts {
		r.RecordCount = ptr(df.Count())
	}
	if so := df.SortOrderID(); so != nil {
		r.SortOrderID = ptr(int32(*so))
	}
	for _, id := range df.EqualityFieldIDs() {
		if c.leaf(id).named {
			r.EqualityIDs = append(r.EqualityIDs, int32(id))
		}
	}
	sizes, values, nulls, nans := df.ColumnSizes(), df.ValueCounts(), df.NullValueCounts(), df.NaNValueCounts()
	lower, upper := df.LowerBoundValues(), df.UpperBoundValues()
	ids := map[int]bool{}
	for _, m := range []map[int]int64{sizes, values, nulls, nans} {
		for id := range m {
			ids[id] = true
		}
	}
	for _, m := range []map[int][]byte{lower, upper} {
		for id := range m {
			ids[id] = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(ids)) {
		l := c.leaf(id)
		if !l.named {
			continue
		}
		m := ColumnMetrics{Name: l.name}
		if l.described {
			m.ColumnSize = lookup(sizes, id)
			if c.view.RowCounts {
				m.ValueCount, m.NullCount, m.NaNCount = lookup(values, id), lookup(nulls, id), lookup(nans, id)
			}
			if raw, ok := lower[id]; ok {
				m.LowerBound = boundText(l.typ, raw)
			}
			if raw, ok := upper[id]; ok {
				m.UpperBound = boundText(l.typ, raw)
			}
		}
		r.Columns = append(r.Columns, m)
	}
	return r
}

func lookup(m map[int]int64, id int) *int64 {
	if v, ok := m[id]; ok {
		return &v
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// boundText is a bound, in Iceberg's single-value serialization, as text
// in the column type's form; nil when it cannot be read.
func boundText(typ iceberg.Type, raw []byte) *string {
	lit, ok := boundLiteral(typ, raw)
	if !ok {
		return nil
	}
	return literalText(lit, typ)
}

// literalText is a literal of type typ as text: bytes in PostgreSQL's
// hex form, a timestamp with time zone with its UTC offset.
func literalText(lit iceberg.Literal, typ iceberg.Type) *string {
	var s string
	switch x := lit.(type) {
	case iceberg.BinaryLiteral:
		s = `\x` + hex.EncodeToString(x)
	case iceberg.FixedLiteral:
		s = `\x` + hex.EncodeToString(x)
	default:
		s = lit.String()
		switch typ.(type) {
		case iceberg.TimestampTzType, iceberg.TimestampTzNsType:
			s += "+00"
		}
	}
	return &s
}

// partitionJSON is a partition value as JSON would hold it: numbers and
// booleans as themselves, anything else as text in its type's form.
func partitionJSON(v any, typ iceberg.Type) any {
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		return x
	case int32:
		if _, date := typ.(iceberg.DateType); date {
			return iceberg.DateLiteral(x).String()
		}
		return int64(x)
	case int64:
		switch typ.(type) {
		case iceberg.TimestampType, iceberg.TimestampTzType:
			return *literalText(iceberg.TimestampLiteral(x), typ)
		}
		return x
	case float32:
		return float64(x)
	case float64:
		return x
	case string:
		return x
	case []byte:
		return `\x` + hex.EncodeToString(x)
	case [16]byte:
		return uuid.UUID(x).String()
	case uuid.UUID:
		return x.String()
	case iceberg.Date:
		return iceberg.DateLiteral(x).String()
	case iceberg.Timestamp:
		return *literalText(iceberg.TimestampLiteral(x), typ)
	case iceberg.Decimal:
		return iceberg.DecimalLiteral(x).String()
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05.999999")
	}
	return fmt.Sprint(v)
}
