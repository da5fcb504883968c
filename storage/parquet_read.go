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
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/sqe-db/sqe/storage/bufferpool"
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
	// buffers is the memory the scan decodes into, reused piece after
	// piece (storage/bufferpool).
	buffers *bufferpool.Pool
}

// nativeColumns returns the columns of got (the distinct requested fields
// of the table schema) for SQE's own reader, or false when a column needs
// iceberg-go's: a nested or extension type, or a field with an initial
// default (a file written before it was added reads the default, not
// NULL).
func (t *Table) nativeColumns(got *arrow.Schema) (*readColumns, bool) {
	cols := &readColumns{schema: got, ids: make([]int, got.NumFields()), buffers: bufferpool.New()}
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
		arrow.DECIMAL128, arrow.DECIMAL64, arrow.DATE32, arrow.TIME64, arrow.TIMESTAMP,
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
			r, ok, err := openParquetTask(ctx, fs, t.host.chunkCache(), tasks[i], cols)
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
		out, err := reshape(cols.schema, positions, rec)
		rec.Release()
		if err != nil {
			yield(nil, err)
			return false
		}
		if !yield(out, nil) {
			return false
		}
	}
	return true
}

// parquetTask is one scan task's Parquet file with the row groups the
// task covers and where each requested column is in the file. The file
// is opened only when a chunk is not in the cache.
type parquetTask struct {
	file  fileKey
	fs    iceio.IO
	cache *ChunkCache // nil: none
	cols  *readColumns
	meta  *metadata.FileMetaData
	// rdr and fr read the file, nil until a chunk is decoded.
	rdr    *file.Reader
	fr     *pqarrow.FileReader
	groups []int
	// Per requested column: its field's index among the file's top-level
	// fields (-1 when the file lacks the field id: a column added after
	// the file was written, read as NULL), and whether the decoded chunk
	// is cast to the table type (a promoted type).
	field []int
	cast  []bool
	// decimal64 is how a column the scan holds as decimal64 is read.
	decimal64 []decimal64Read
	// retyped marks a column decoded as its physical integers and handed
	// out as its type over the same buffers (dates, times of day), which
	// pqarrow would copy value by value.
	retyped []bool
	// leaf is each requested column's leaf column index in the file.
	leaf []int
}

// openParquetTask reads task's footer (or takes it from cache) and maps
// the requested columns to the file by field id. ok is false when this
// reader cannot map them: the file carries no field ids (iceberg-go
// applies the table's name mapping), a column is nested in the file, or
// its type differs from the table's by more than a promotion.
func openParquetTask(ctx context.Context, fs iceio.IO, cache *ChunkCache, task table.FileScanTask, cols *readColumns) (_ *parquetTask, ok bool, err error) {
	r := &parquetTask{file: fileKey{path: task.File.FilePath(), size: task.File.FileSizeBytes()},
		fs: fs, cache: cache, cols: cols, field: make([]int, len(cols.ids)), cast: make([]bool, len(cols.ids)), leaf: make([]int, len(cols.ids)),
		decimal64: make([]decimal64Read, len(cols.ids)), retyped: make([]bool, len(cols.ids))}
	defer func() {
		if err != nil || !ok {
			r.close()
		}
	}()
	var footer *parquetFooter
	if cache != nil {
		footer, _ = cache.footer(r.file)
	}
	if footer == nil {
		if err := r.open(); err != nil {
			return nil, false, err
		}
		if footer, err = newParquetFooter(r.rdr.MetaData()); err != nil {
			return nil, false, fmt.Errorf("read schema of %s: %w", r.file.path, err)
		}
		if cache != nil {
			cache.keepFooter(r.file, footer)
		}
	}
	r.meta = footer.meta
	manifest := footer.manifest
	byID := make(map[int]int, len(manifest.Fields))
	root := r.meta.Schema.Root()
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
		sf := manifest.Fields[i]
		if !sf.IsLeaf() {
			return nil, false, nil
		}
		want := cols.schema.Field(c).Type
		if want.ID() == arrow.DECIMAL64 {
			if !narrowsTo(sf.Field.Type, want) {
				return nil, false, nil
			}
			r.decimal64[c] = decimal64ReadOf(r.meta.Schema.Column(sf.ColIndex).PhysicalType())
			r.field[c], r.leaf[c] = i, sf.ColIndex
			continue
		}
		cast, readable := readableAs(sf.Field.Type, want)
		if !readable {
			return nil, false, nil
		}
		r.field[c], r.cast[c], r.leaf[c] = i, cast, sf.ColIndex
		r.retyped[c] = !cast && sameAsInteger(want, r.meta.Schema.Column(sf.ColIndex).PhysicalType())
	}
	if r.groups, err = taskRowGroups(task, r.meta); err != nil {
		return nil, false, fmt.Errorf("read %s: %w", r.file.path, err)
	}
	return r, true, nil
}

// open opens the file, parsing its footer unless r.meta holds it.
func (r *parquetTask) open() error {
	in, err := r.fs.Open(r.file.path)
	if err != nil {
		return fmt.Errorf("open %s: %w", r.file.path, err)
	}
	// A column chunk is read page by page into the page reader's own
	// buffer, not whole into a new one and then copied page by page; the
	// page readers' buffers come from the scan's pool too.
	props := parquet.NewReaderProperties(r.cols.buffers)
	props.BufferedStreamEnabled = true
	opts := []file.ReadOption{file.WithReadProps(props)}
	if r.meta != nil {
		opts = append(opts, file.WithMetadata(r.meta))
	}
	rdr, err := file.NewParquetReader(in, opts...)
	if err != nil {
		_ = in.Close()
		return fmt.Errorf("read footer of %s: %w", r.file.path, err)
	}
	r.rdr = rdr
	return nil
}

// fileReader is the file's pqarrow reader, opening the file on first use.
func (r *parquetTask) fileReader() (*pqarrow.FileReader, error) {
	if r.fr != nil {
		return r.fr, nil
	}
	if r.rdr == nil {
		if err := r.open(); err != nil {
			return nil, err
		}
	}
	// Text chunks that are dictionary encoded throughout are read as
	// dictionaries (parquet_dict.go).
	var props pqarrow.ArrowReadProperties
	for c, i := range r.field {
		if i < 0 || r.cast[c] {
			continue
		}
		switch r.cols.schema.Field(c).Type.ID() {
		case arrow.STRING, arrow.BINARY:
			if readsAsDictionary(r.rdr, r.leaf[c], r.groups) {
				props.SetReadDict(r.leaf[c], true)
			}
		}
	}
	fr, err := pqarrow.NewFileReader(r.rdr, props, r.cols.buffers)
	if err != nil {
		return nil, fmt.Errorf("read schema of %s: %w", r.file.path, err)
	}
	// A decimal stored as integers, and a retyped column, is decoded as
	// those integers: the reader's own manifest (this file reader's
	// alone) says so.
	for c, i := range r.field {
		if i >= 0 && (r.decimal64[c] == decimal64FromInts || r.retyped[c]) {
			f := *fr.Manifest.Fields[i].Field
			f.Type = integerOf(r.meta.Schema.Column(r.leaf[c]).PhysicalType())
			fr.Manifest.Fields[i].Field = &f
		}
	}
	r.fr = fr
	return fr, nil
}

// sameAsInteger reports whether a column of type typ stored as phys
// holds the integers of typ's Arrow layout: a date as INT32, a time of
// day in microseconds as INT64.
func sameAsInteger(typ arrow.DataType, phys parquet.Type) bool {
	switch typ.ID() {
	case arrow.DATE32:
		return phys == parquet.Types.Int32
	case arrow.TIME64:
		return phys == parquet.Types.Int64 && typ.(*arrow.Time64Type).Unit == arrow.Microsecond
	}
	return false
}

// retypedArray is a, an array of integers, as an array of type typ of the
// same layout, over a's buffers.
func retypedArray(a arrow.Array, typ arrow.DataType) arrow.Array {
	d := a.Data()
	data := array.NewData(typ, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
	defer data.Release()
	return array.MakeFromData(data)
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

// read decodes the task's row groups piece by piece (or takes them from
// the cache) and yields each piece as batches of at most batchRows rows
// (zero-copy slices of the piece). It returns false when the stream is
// to end.
func (r *parquetTask) read(ctx context.Context, batchRows int, yield func(arrow.RecordBatch, error) bool) bool {
	chunks := make([]columnChunk, len(r.cols.ids))
	arrays := make([]arrow.Array, len(chunks))
	fail := func(g, c int, err error) bool {
		for i := range chunks {
			chunks[i].release()
		}
		yield(nil, fmt.Errorf("read %s, row group %d, column %q: %w", r.file.path, g, r.cols.schema.Field(c).Name, err))
		return false
	}
	for _, g := range r.groups {
		rows := r.meta.RowGroup(g).NumRows()
		if rows == 0 {
			continue
		}
		for c := range chunks {
			if err := r.startChunk(ctx, &chunks[c], c, g); err != nil {
				return fail(g, c, err)
			}
		}
		for off := int64(0); off < rows; off += decodeRows {
			n := min(decodeRows, rows-off)
			for c := range chunks {
				a, err := chunks[c].next(ctx, n)
				if err != nil {
					for _, done := range arrays[:c] {
						done.Release()
					}
					return fail(g, c, err)
				}
				arrays[c] = a
			}
			rec := array.NewRecordBatch(r.cols.schema, arrays, n)
			for _, a := range arrays {
				a.Release()
			}
			if !yieldSlices(rec, batchRows, yield) {
				for i := range chunks {
					chunks[i].release()
				}
				return false
			}
		}
		for i := range chunks {
			chunks[i].finish(r.cache)
			chunks[i].release()
		}
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

// startChunk prepares column c of row group g: the cached pieces, or a
// decoder that also collects the pieces for the cache.
func (r *parquetTask) startChunk(ctx context.Context, ch *columnChunk, c, g int) error {
	*ch = columnChunk{typ: r.cols.schema.Field(c).Type}
	i := r.field[c]
	if i < 0 {
		return nil
	}
	ch.key = chunkKey{file: r.file, fieldID: r.cols.ids[c], rowGroup: g}
	if r.cache != nil {
		pieces, ok, seenAt := r.cache.chunk(ch.key, ch.typ)
		if ok {
			ch.cached = pieces
			return nil
		}
		if seenAt > 0 {
			ch.forCache, ch.seenAt = newChunkCopy(r.cache.budget), seenAt
		}
	}
	fr, err := r.fileReader()
	if err != nil {
		return err
	}
	leaf := fr.Manifest.Fields[i].ColIndex
	cr, err := fr.GetFieldReader(ctx, i, map[int]bool{leaf: true}, []int{g})
	if err != nil {
		return err
	}
	ch.reader, ch.cast, ch.decimal64, ch.retyped, ch.buffers = cr, r.cast[c], r.decimal64[c], r.retyped[c], r.cols.buffers
	return nil
}

func (r *parquetTask) close() {
	if r.rdr != nil {
		_ = r.rdr.Close()
	}
}

// columnChunk is one column of one row group, handed out piece by piece:
// pieces taken from the cache, or decoded (and, with a cache, collected
// for it). With neither it is a column the file lacks, read as NULL.
type columnChunk struct {
	typ       arrow.DataType
	key       chunkKey
	cached    []arrow.Array // the cache's pieces not yet handed out
	reader    *pqarrow.ColumnReader
	cast      bool
	decimal64 decimal64Read
	retyped   bool
	buffers   *bufferpool.Pool
	// forCache collects the decoded pieces for the cache; nil when the
	// chunk is not to be kept.
	forCache *chunkCopy
	// seenAt is when the cache saw the chunk read before (ChunkCache.keep).
	seenAt int64
}

// next returns the chunk's next n values as one array of the table type.
func (ch *columnChunk) next(ctx context.Context, n int64) (out arrow.Array, err error) {
	switch {
	case ch.cached != nil:
		if len(ch.cached) == 0 || int64(ch.cached[0].Len()) != n {
			return nil, fmt.Errorf("cached chunk does not match the row group")
		}
		out, ch.cached = ch.cached[0], ch.cached[1:]
		return out, nil
	case ch.reader == nil:
		return array.MakeArrayOfNull(memory.DefaultAllocator, ch.typ, int(n)), nil
	}
	out, err = ch.decode(ctx, n)
	if err != nil {
		return nil, err
	}
	if ch.forCache != nil {
		ch.forCache.add(out)
	}
	return out, nil
}

// decode decodes the next n values.
func (ch *columnChunk) decode(ctx context.Context, n int64) (out arrow.Array, err error) {
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
	parts := chunked.Chunks()
	if len(parts) > 0 && parts[0].DataType().ID() == arrow.DICTIONARY {
		plain := make([]arrow.Array, 0, len(parts))
		defer func() {
			for _, p := range plain {
				p.Release()
			}
		}()
		for _, p := range parts {
			d, ok := p.(*array.Dictionary)
			if !ok {
				return nil, fmt.Errorf("decoded %s among dictionary chunks", p.DataType())
			}
			a, err := plainFromDictionary(d, ch.typ, ch.buffers)
			if err != nil {
				return nil, err
			}
			plain = append(plain, a)
		}
		parts = plain
	}
	var a arrow.Array
	if len(parts) == 1 {
		a = parts[0]
		a.Retain()
	} else if a, err = array.Concatenate(parts, memory.DefaultAllocator); err != nil {
		return nil, err
	}
	switch {
	case ch.decimal64 == decimal64FromInts:
		defer a.Release()
		return decimal64FromIntegers(a, ch.typ)
	case ch.decimal64 == decimal64Narrowed:
		defer a.Release()
		return narrowDecimals(a, ch.typ)
	case ch.retyped:
		defer a.Release()
		return retypedArray(a, ch.typ), nil
	case !ch.cast:
		return a, nil
	}
	defer a.Release()
	return compute.CastArray(ctx, a, compute.SafeCastOptions(ch.typ))
}

// finish hands a wholly decoded chunk to the cache.
func (ch *columnChunk) finish(cache *ChunkCache) {
	if ch.forCache == nil {
		return
	}
	pieces := ch.forCache.arrays()
	ch.forCache = nil
	if pieces != nil {
		cache.keep(ch.key, pieces, ch.seenAt)
		for _, p := range pieces {
			p.Release()
		}
	}
}

// release drops what the chunk still holds.
func (ch *columnChunk) release() {
	if ch.reader != nil {
		ch.reader.Release()
		ch.reader = nil
	}
	for _, a := range ch.cached {
		a.Release()
	}
	if ch.forCache != nil {
		ch.forCache.release()
	}
	ch.cached, ch.forCache = nil, nil
}
