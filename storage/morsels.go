package storage

import (
	"context"
	"fmt"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// Morsels is a table scan split into independent pieces (morsels): runs
// of adjacent Parquet row groups the filter may match (rowGroupTasks,
// joinRowGroups), or one per data file when the file does not say where
// its row groups start. Morsel i holds the rows an ordered Scan would
// return after those of morsels 0..i-1, so reading the morsels in order
// gives the ordered scan's rows; reading them on several goroutines at
// once is what a parallel query does.
type Morsels struct {
	tbl   *Table
	ident Ident
	scan  *table.Scan
	// cols are the columns SQE's reader decodes, nil when iceberg-go
	// reads the morsels (decodedColumns).
	cols *readColumns
	// batchRows caps the rows of a batch (0: a decoded piece).
	batchRows int
	tasks     []table.FileScanTask
	// outSchema is the streams' schema: the requested columns in order.
	outSchema *arrow.Schema
}

// Morsels plans the scan of req (its Limit must be 0: a limit cannot be
// shared between streams read in parallel) and splits it into morsels.
// Nothing is read until a morsel is opened.
func (t *Table) Morsels(ctx context.Context, req ScanRequest) (*Morsels, error) {
	if req.Limit > 0 {
		return nil, fmt.Errorf("scan %s: a scan with a row limit cannot be split", t.ident)
	}
	outSchema, wanted, err := t.projection(req)
	if err != nil {
		return nil, err
	}
	batchSize := req.BatchSize
	if batchSize <= 0 {
		batchSize = defaultBatchSize
	}
	// Each morsel is read by one worker, so iceberg-go need not decode
	// files in parallel within one: the workers are the parallelism.
	opts := []table.ScanOption{
		table.WithArrowBatchSize(batchSize),
		table.WithMaxConcurrency(1),
	}
	if len(req.Columns) > 0 {
		opts = append(opts, table.WithSelectedFields(wanted...))
	}
	if req.Filter != nil && !req.PruneOnly {
		opts = append(opts, table.WithRowFilter(req.Filter))
	}
	tasks, err := t.planInCommitOrder(ctx, req.Filter, 0)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", t.ident, err)
	}
	scan := t.tbl.Scan(opts...)
	var morsels []table.FileScanTask
	bound, budget := t.rowGroupFilter(req.Filter), newPruneBudget()
	morselRows := req.MorselRows
	if morselRows <= 0 {
		morselRows = defaultMorselRows
	}
	for _, task := range append(t.visible(tasks), t.stagedTasks()...) {
		morsels = append(morsels, joinRowGroups(t.rowGroupTasks(ctx, task, bound, budget), morselRows)...)
	}
	return &Morsels{tbl: t, ident: t.ident, scan: scan, tasks: morsels, outSchema: outSchema,
		cols: t.decodedColumns(wanted, req), batchRows: req.BatchSize}, nil
}

// Len is the number of morsels.
func (m *Morsels) Len() int { return len(m.tasks) }

// Open starts reading morsel i. Several morsels may be open and read at
// once, each stream on one goroutine at a time.
func (m *Morsels) Open(ctx context.Context, i int) (RecordStream, error) {
	if i < 0 || i >= len(m.tasks) {
		return nil, fmt.Errorf("scan %s: no morsel %d of %d", m.ident, i, len(m.tasks))
	}
	outSchema := m.outSchema
	scanCtx, cancel := context.WithCancel(ctx)
	var (
		gotSchema *arrow.Schema
		records   iter.Seq2[arrow.RecordBatch, error]
		err       error
	)
	if m.cols != nil {
		gotSchema, records = m.cols.schema, m.tbl.readTasks(scanCtx, m.scan, m.tasks[i:i+1], m.cols, m.batchRows)
	} else {
		gotSchema, records, err = m.scan.ReadTasks(scanCtx, m.tasks[i:i+1])
	}
	if err != nil {
		cancel()
		return nil, fmt.Errorf("scan %s: %w", m.ident, err)
	}
	positions, err := columnPositions(outSchema, gotSchema)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("scan %s: %w", m.ident, err)
	}
	next, stop := iter.Pull2(records)
	return &morselStream{recordStream{
		table:     m.ident.Namespace + "." + m.ident.Table,
		ctx:       scanCtx,
		cancel:    cancel,
		scan:      m.scan,
		next:      next,
		stop:      stop,
		schema:    outSchema,
		positions: positions,
	}}, nil
}

// Close releases the plan. Streams already opened must be closed first.
func (m *Morsels) Close() error { return m.scan.Close() }

// morselStream is one morsel's stream: closing it stops its reader but
// leaves the shared scan to Morsels.Close.
type morselStream struct{ recordStream }

func (s *morselStream) Close() error {
	s.finish()
	return nil
}

// planInCommitOrder returns the committed files a scan of the table with
// filter (nil: every row) and limit (0: none) reads, oldest commit first,
// planned once per snapshot by the catalog's plan cache. Staged files are
// not among them: callers append those.
func (t *Table) planInCommitOrder(ctx context.Context, filter iceberg.BooleanExpression, limit int64) ([]table.FileScanTask, error) {
	return t.host.planCache().plan(ctx, t.tbl, filter, limit)
}

// defaultMorselRows is about how many rows a morsel gathers by default.
// Each morsel opens its file and reads its footer again, which costs
// about as much as decoding a few thousand rows, so a morsel of one small
// row group would spend a good part of its time on that; a few morsels
// per worker are enough to balance the work.
const defaultMorselRows = 65_536

// joinRowGroups joins adjacent row-group tasks of one file (rowGroupTasks)
// into tasks of about rows rows each, judging a group's rows as the
// file's rows shared evenly among its groups.
func joinRowGroups(parts []table.FileScanTask, rows int64) []table.FileScanTask {
	if len(parts) < 2 {
		return parts
	}
	f := parts[0].File
	perGroup := f.Count() / int64(max(len(f.SplitOffsets()), 1))
	out := parts[:0]
	var held int64 // rows of the last task of out
	for _, part := range parts {
		if n := len(out); n > 0 && held+perGroup <= rows && joins(out[n-1], part) {
			out[n-1].Length += part.Length
			held += perGroup
			continue
		}
		out = append(out, part)
		held = perGroup
	}
	return out
}

// splitByRowGroup splits a Parquet task into one task per row group,
// using the split offsets the file's manifest entry records (the byte
// where each row group starts); first is the index of the file's row
// group the first part reads and groups how many the offsets (or their
// absence, for a whole file: one) say the file has. iceberg-go reads a task with a byte range
// as the row groups starting in it, and plans a file larger than
// read.split.target-size as several tasks cut at those offsets: such a
// task splits into the groups it covers. A task whose range does not
// fall on the offsets, or a file without usable offsets, stays whole
// (first is -1, or 0 for a whole file without offsets, whose footer must
// then show one row group).
func splitByRowGroup(task table.FileScanTask) (parts []table.FileScanTask, first, groups int) {
	whole := []table.FileScanTask{task}
	f := task.File
	if f == nil || f.FileFormat() != iceberg.ParquetFile {
		return whole, -1, 0
	}
	size := f.FileSizeBytes()
	offs := f.SplitOffsets()
	if len(offs) < 2 {
		// One row group (or no offsets to tell): only the whole file is
		// known to be group 0.
		if task.Start == 0 && (task.Length == 0 || task.Length == size) {
			return whole, 0, 1
		}
		return whole, -1, 0
	}
	for i, o := range offs {
		if o < 0 || o >= size || (i > 0 && o <= offs[i-1]) {
			return whole, -1, 0
		}
	}
	// Group i spans [starts(i), starts(i+1)): the first from byte 0 so
	// nothing before the first recorded offset is lost, the last to the
	// end of the file.
	starts := func(i int) int64 {
		switch {
		case i == 0:
			return 0
		case i == len(offs):
			return size
		}
		return offs[i]
	}
	end := size
	if task.Length != 0 {
		end = task.Start + task.Length
	}
	first, last := -1, -1
	for i := 0; i <= len(offs); i++ {
		if starts(i) == task.Start || (i == 0 && task.Start == offs[0]) {
			first = i
		}
		if starts(i) == end {
			last = i
		}
	}
	if first < 0 || last <= first {
		return whole, -1, 0
	}
	parts = make([]table.FileScanTask, 0, last-first)
	for i := first; i < last; i++ {
		part := task
		part.Start, part.Length = starts(i), starts(i+1)-starts(i)
		parts = append(parts, part)
	}
	return parts, first, len(offs)
}
