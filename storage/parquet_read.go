package storage

import (
	"context"
	"fmt"
	"iter"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// decodeRows is how many rows of a column chunk SQE's reader decodes at a
// time. Each piece is handed on as one batch (sliced further when the
// request asks for smaller ones), so a scan pays the per-batch cost of
// the operators above it once per 65,536 rows, while the first rows of a
// large row group arrive without decoding all of it.
const decodeRows = 65_536

// fieldIDKey is the Arrow field metadata key that carries the Iceberg
// field id, in the table schema and in Parquet files alike.
const fieldIDKey = "PARQUET:field_id"

// readColumns are the columns a scan decodes itself: the distinct
// requested fields as the table schema has them, and their field ids.
type readColumns struct {
	schema *arrow.Schema
	ids    []int
}

// nativeColumns returns the columns of got (the distinct requested fields
// of the table schema) for SQE's own reader, or false when a column needs
// iceberg-go's: a nested or extension type, or a field with an initial
// default (a file written before it was added reads the default, not
// NULL).
func (t *Table) nativeColumns(got *arrow.Schema) (*readColumns, bool) {
	cols := &readColumns{schema: got, ids: make([]int, got.NumFields())}
	for i, f := range got.Fields() {
		if !flatReadType(f.Type) {
			return nil, false
		}
		v, ok := f.Metadata.GetValue(fieldIDKey)
		if !ok {
			return nil, false
		}
		id, err := strconv.Atoi(v)
		if err != nil {
			return nil, false
		}
		field, ok := t.tbl.Schema().FindFieldByID(id)
		if !ok || field.InitialDefault != nil {
			return nil, false
		}
		cols.ids[i] = id
	}
	return cols, true
}

// flatReadType reports whether a table column of type typ is one a Parquet
// file holds as a single leaf that pqarrow decodes to typ itself.
func flatReadType(typ arrow.DataType) bool {
	switch typ.ID() {
	case arrow.BOOL, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DECIMAL128, arrow.DATE32, arrow.TIME64, arrow.TIMESTAMP,
		arrow.STRING, arrow.BINARY, arrow.FIXED_SIZE_BINARY:
		return true
	}
	return false
}

// nativeTask reports whether SQE's reader can read task: a Parquet data
// file with no deletes to apply.
func nativeTask(task table.FileScanTask) bool {
	return task.File != nil && task.File.FileFormat() == iceberg.ParquetFile &&
		len(task.DeleteFiles) == 0 && len(task.EqualityDeleteFiles) == 0 && len(task.DeletionVectorFiles) == 0
}

// readTasks reads tasks in order into batches of cols.schema of at most
// batchRows rows. Parquet tasks without deletes are decoded here; runs of
// other tasks, and a file whose columns SQE's reader cannot map (no field
// ids, a type change that is not a promotion), are read by iceberg-go's
// scan, which must select the same columns and apply no row filter.
func (t *Table) readTasks(ctx context.Context, scan *table.Scan, tasks []table.FileScanTask, cols *readColumns, batchRows int) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		var fs iceio.IO
		for i := 0; i < len(tasks); {
			if !nativeTask(tasks[i]) {
				j := i + 1
				for j < len(tasks) && !nativeTask(tasks[j]) {
					j++
				}
				if !readByIceberg(ctx, scan, tasks[i:j], cols, yield) {
					return
				}
				i = j
				continue
			}
			if fs == nil {
				var err error
				if fs, err = t.tbl.FS(ctx); err != nil {
					yield(nil, fmt.Errorf("open file system: %w", err))
					return
				}
			}
			r, ok, err := openParquetTask(ctx, fs, tasks[i], cols)
			if err != nil {
				yield(nil, err)
				return
			}
			if !ok {
				if !readByIceberg(ctx, scan, tasks[i:i+1], cols, yield) {
					return
				}
				i++
				continue
			}
			more := r.read(ctx, batchRows, yield)
			r.close()
			if !more {
				return
			}
			i++
		}
	}
}

// readByIceberg reads tasks with iceberg-go's reader and passes its
// batches on under cols.schema. It returns false when the stream is to
// end (the consumer stopped or an error was passed on).
func readByIceberg(ctx context.Context, scan *table.Scan, tasks []table.FileScanTask, cols *readColumns, yield func(arrow.RecordBatch, error) bool) bool {
	got, records, err := scan.ReadTasks(ctx, tasks)
	if err != nil {
		yield(nil, err)
		return false
	}
	positions, err := columnPositions(cols.schema, got)
	if err != nil {
		yield(nil, err)
		return false
	}
	for rec, err := range records {
		if err != nil {
			yield(nil, err)
			return false
		}
		arrays := make([]arrow.Array, len(positions))
		for i, p := range positions {
			arrays[i] = rec.Column(p)
		}
		out := array.NewRecordBatch(cols.schema, arrays, rec.NumRows())
		rec.Release()
		if !yield(out, nil) {
			return false
		}
	}
	return true
}

// parquetTask is one scan task's Parquet file, open, with the row groups
// the task covers and where each requested column is in the file.
type parquetTask struct {
	path   string
	cols   *readColumns
	rdr    *file.Reader
	fr     *pqarrow.FileReader
	groups []int
	// Per requested column: its field's index among the file's top-level
	// fields (-1 when the file lacks the field id: a column added after
	// the file was written, read as NULL), and whether the decoded chunk
	// is cast to the table type (a promoted type).
	field []int
	cast  []bool
}

// openParquetTask opens task's file and maps the requested columns to it
// by field id. ok is false when this reader cannot map them: the file
// carries no field ids (iceberg-go applies the table's name mapping), a
// column is nested in the file, or its type differs from the table's by
// more than a promotion.
func openParquetTask(ctx context.Context, fs iceio.IO, task table.FileScanTask, cols *readColumns) (_ *parquetTask, ok bool, err error) {
	path := task.File.FilePath()
	in, err := fs.Open(path)
	if err != nil {
		return nil, false, fmt.Errorf("open %s: %w", path, err)
	}
	rdr, err := file.NewParquetReader(in)
	if err != nil {
		_ = in.Close()
		return nil, false, fmt.Errorf("read footer of %s: %w", path, err)
	}
	defer func() {
		if err != nil || !ok {
			_ = rdr.Close()
		}
	}()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, false, fmt.Errorf("read schema of %s: %w", path, err)
	}
	r := &parquetTask{path: path, cols: cols, rdr: rdr, fr: fr,
		field: make([]int, len(cols.ids)), cast: make([]bool, len(cols.ids))}
	byID := make(map[int]int, len(fr.Manifest.Fields))
	root := rdr.MetaData().Schema.Root()
	for i := range root.NumFields() {
		if id := root.Field(i).FieldID(); id >= 0 {
			byID[int(id)] = i
		}
	}
	if len(byID) == 0 && root.NumFields() > 0 {
		return nil, false, nil
	}
	for c, id := range cols.ids {
		i, found := byID[id]
		if !found {
			r.field[c] = -1
			continue
		}
		sf := fr.Manifest.Fields[i]
		if !sf.IsLeaf() {
			return nil, false, nil
		}
		cast, readable := readableAs(sf.Field.Type, cols.schema.Field(c).Type)
		if !readable {
			return nil, false, nil
		}
		r.field[c], r.cast[c] = i, cast
	}
	if r.groups, err = taskRowGroups(task, rdr.MetaData()); err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	return r, true, nil
}

// readableAs reports whether a column the file decodes as from reads as
// the table type to, and whether that takes a cast: the promotions
// Iceberg allows (int to long, float to double, a decimal's precision
// widened).
func readableAs(from, to arrow.DataType) (cast, ok bool) {
	if arrow.TypeEqual(from, to) {
		return false, true
	}
	switch {
	case from.ID() == arrow.INT32 && to.ID() == arrow.INT64,
		from.ID() == arrow.FLOAT32 && to.ID() == arrow.FLOAT64:
		return true, true
	case from.ID() == arrow.DECIMAL128 && to.ID() == arrow.DECIMAL128:
		f, t := from.(*arrow.Decimal128Type), to.(*arrow.Decimal128Type)
		return true, f.Scale == t.Scale && f.Precision <= t.Precision
	}
	return false, false
}

// taskRowGroups is the row groups of the file task covers. A task over
// the whole file covers them all; a byte range covers the groups that
// start in it, by the split offsets the manifest recorded when they name
// every group, else by the footer's (as iceberg-go decides).
func taskRowGroups(task table.FileScanTask, meta *metadata.FileMetaData) ([]int, error) {
	n := meta.NumRowGroups()
	if task.Start == 0 && (task.Length == 0 || task.Length == task.File.FileSizeBytes()) {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	size := meta.GetSourceFileSize()
	start, length := task.Start, task.Length
	if start >= 0 && start <= size && length > size-start {
		length = size - start
	}
	if start < 0 || length <= 0 || start > size {
		return nil, fmt.Errorf("invalid row-group range: start=%d, length=%d, file size=%d", task.Start, task.Length, size)
	}
	offsets := task.File.SplitOffsets()
	if !validSplitOffsets(offsets, n, size) {
		offsets = make([]int64, n)
		for i := range offsets {
			offsets[i] = rowGroupOffset(meta.RowGroup(i))
		}
	}
	var groups []int
	for i, o := range offsets {
		if o >= start && o < start+length {
			groups = append(groups, i)
		}
	}
	return groups, nil
}

func validSplitOffsets(offsets []int64, groups int, size int64) bool {
	if len(offsets) != groups {
		return false
	}
	for i, o := range offsets {
		if o < 0 || o >= size || (i > 0 && o <= offsets[i-1]) {
			return false
		}
	}
	return true
}

// rowGroupOffset is where a row group's first page starts, the offset
// split offsets record (RowGroup.file_offset is optional in Parquet).
func rowGroupOffset(rg *metadata.RowGroupMetaData) int64 {
	if rg.NumColumns() > 0 {
		if first, err := rg.ColumnChunk(0); err == nil {
			data := first.DataPageOffset()
			if first.HasDictionaryPage() {
				if dict := first.DictionaryPageOffset(); dict >= 0 && (data < 0 || dict < data) {
					return dict
				}
			}
			if data >= 0 {
				return data
			}
		}
	}
	return rg.FileOffset()
}

// read decodes the task's row groups piece by piece and yields each piece
// as batches of at most batchRows rows (zero-copy slices of the piece).
// It returns false when the stream is to end.
func (r *parquetTask) read(ctx context.Context, batchRows int, yield func(arrow.RecordBatch, error) bool) bool {
	for _, g := range r.groups {
		rows := r.rdr.MetaData().RowGroup(g).NumRows()
		if rows == 0 {
			continue
		}
		chunks := make([]columnChunk, len(r.cols.ids))
		release := func() {
			for i := range chunks {
				chunks[i].release()
			}
		}
		for c := range chunks {
			if err := r.startChunk(ctx, &chunks[c], c, g); err != nil {
				release()
				yield(nil, err)
				return false
			}
		}
		arrays := make([]arrow.Array, len(chunks))
		for off := int64(0); off < rows; off += decodeRows {
			n := min(decodeRows, rows-off)
			for c := range chunks {
				a, err := chunks[c].next(ctx, n)
				if err != nil {
					for _, done := range arrays[:c] {
						done.Release()
					}
					release()
					yield(nil, fmt.Errorf("read %s, row group %d, column %q: %w", r.path, g, r.cols.schema.Field(c).Name, err))
					return false
				}
				arrays[c] = a
			}
			rec := array.NewRecordBatch(r.cols.schema, arrays, n)
			for _, a := range arrays {
				a.Release()
			}
			if !yieldSlices(rec, batchRows, yield) {
				release()
				return false
			}
		}
		release()
	}
	return true
}

// yieldSlices yields rec whole or, when it has more than batchRows rows,
// as zero-copy slices of batchRows rows. It takes over rec.
func yieldSlices(rec arrow.RecordBatch, batchRows int, yield func(arrow.RecordBatch, error) bool) bool {
	n := rec.NumRows()
	if batchRows <= 0 || n <= int64(batchRows) {
		return yield(rec, nil)
	}
	defer rec.Release()
	for lo := int64(0); lo < n; lo += int64(batchRows) {
		if !yield(rec.NewSlice(lo, min(lo+int64(batchRows), n)), nil) {
			return false
		}
	}
	return true
}

// startChunk prepares column c of row group g for decoding.
func (r *parquetTask) startChunk(ctx context.Context, ch *columnChunk, c, g int) error {
	ch.typ = r.cols.schema.Field(c).Type
	i := r.field[c]
	if i < 0 {
		return nil
	}
	leaf := r.fr.Manifest.Fields[i].ColIndex
	cr, err := r.fr.GetFieldReader(ctx, i, map[int]bool{leaf: true}, []int{g})
	if err != nil {
		return fmt.Errorf("read %s, row group %d, column %q: %w", r.path, g, r.cols.schema.Field(c).Name, err)
	}
	ch.reader, ch.cast = cr, r.cast[c]
	return nil
}

func (r *parquetTask) close() { _ = r.rdr.Close() }

// columnChunk decodes one column of one row group piece by piece; with no
// reader it is a column the file lacks and reads as NULL.
type columnChunk struct {
	typ    arrow.DataType
	reader *pqarrow.ColumnReader
	cast   bool
}

// next decodes the chunk's next n values as one array of the table type.
func (ch *columnChunk) next(ctx context.Context, n int64) (out arrow.Array, err error) {
	if ch.reader == nil {
		return array.MakeArrayOfNull(memory.DefaultAllocator, ch.typ, int(n)), nil
	}
	defer func() {
		// A corrupt page can make the decoder panic; it is this read's
		// failure, not the server's.
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("decode: %v", p)
		}
	}()
	chunked, err := ch.reader.NextBatch(n)
	if err != nil {
		return nil, err
	}
	defer chunked.Release()
	if int64(chunked.Len()) != n {
		return nil, fmt.Errorf("decoded %d values, the row group has %d", chunked.Len(), n)
	}
	var a arrow.Array
	if parts := chunked.Chunks(); len(parts) == 1 {
		a = parts[0]
		a.Retain()
	} else if a, err = array.Concatenate(parts, memory.DefaultAllocator); err != nil {
		return nil, err
	}
	if !ch.cast {
		return a, nil
	}
	defer a.Release()
	return compute.CastArray(ctx, a, compute.SafeCastOptions(ch.typ))
}

func (ch *columnChunk) release() {
	if ch.reader != nil {
		ch.reader.Release()
		ch.reader = nil
	}
}
