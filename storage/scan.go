package storage

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"iter"
	"math"
	"runtime"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// defaultBatchSize is the batch size of iceberg-go's reader when the
// request names none. Smaller than iceberg-go's 131072 so that the first
// rows reach the client sooner and a scan holds less decoded data at once.
const defaultBatchSize = 8192

// ScanRequest says what a scan reads.
type ScanRequest struct {
	// Columns selects fields by name; nil or empty means all fields in
	// schema order. The stream keeps the requested order.
	Columns []string
	// Filter prunes files by partition and column statistics and is applied
	// to every row; nil means no filter.
	Filter iceberg.BooleanExpression
	// PruneOnly uses Filter to prune files only and returns their rows
	// unfiltered, for a caller that evaluates the same predicate on every
	// row itself: iceberg-go's row filter copies every column of every
	// batch, even when every row passes.
	PruneOnly bool
	// Limit > 0 stops the scan after that many rows.
	Limit int64
	// BatchSize caps rows per batch. 0 means a whole decoded piece of a
	// row group (decodeRows) when SQE's reader decodes the scan, 8192
	// when iceberg-go reads it (a row filter to apply, delete files).
	BatchSize int
	// MorselRows is about how many rows a morsel gathers (Morsels joins
	// adjacent row groups of a file up to it); 0 means 65,536.
	MorselRows int64
	// Decimal64 returns decimal columns of precision 18 or less as
	// decimal64 instead of the table schema's decimal128 (decimal64.go).
	Decimal64 bool
}

// RecordStream is a table scan's result, pulled batch by batch.
type RecordStream interface {
	Schema() *arrow.Schema
	// Next returns the next batch or (nil, io.EOF) at the end. The caller
	// releases each batch. A cancelled context ends the stream with its
	// error.
	Next() (arrow.RecordBatch, error)
	// Close stops the scan and frees what it holds. It is safe to call more
	// than once and after Next returned io.EOF.
	Close() error
}

// Scan streams the table as of this Table's snapshot. Batches come in
// table order: data files oldest commit first, rows in file order.
func (t *Table) Scan(ctx context.Context, req ScanRequest) (RecordStream, error) {
	outSchema, wanted, err := t.projection(req)
	if err != nil {
		return nil, err
	}
	batchSize := req.BatchSize
	if batchSize <= 0 {
		batchSize = defaultBatchSize
	}
	opts := []table.ScanOption{
		table.WithArrowBatchSize(batchSize),
		table.WithMaxConcurrency(runtime.GOMAXPROCS(0)),
	}
	if len(req.Columns) > 0 {
		opts = append(opts, table.WithSelectedFields(wanted...))
	}
	if req.Filter != nil && !req.PruneOnly {
		opts = append(opts, table.WithRowFilter(req.Filter))
	}
	if req.Limit > 0 {
		opts = append(opts, table.WithLimit(req.Limit))
	}

	// The scan's own context lets Close stop iceberg-go's readers even when
	// the caller's context lives on.
	scanCtx, cancel := context.WithCancel(ctx)
	scan := t.tbl.Scan(opts...)
	cols := t.decodedColumns(wanted, req)
	gotSchema, records, err := t.readInCommitOrder(scanCtx, scan, req, cols)
	if err != nil {
		cancel()
		_ = scan.Close()
		return nil, objectStoreFailure(fmt.Errorf("scan %s: %w", t.ident, err), "read", t.ident.Namespace+"."+t.ident.Table)
	}
	positions, err := columnPositions(outSchema, gotSchema)
	if err != nil {
		cancel()
		_ = scan.Close()
		return nil, objectStoreFailure(fmt.Errorf("scan %s: %w", t.ident, err), "read", t.ident.Namespace+"."+t.ident.Table)
	}
	next, stop := iter.Pull2(records)
	return &recordStream{
		table:     t.ident.Namespace + "." + t.ident.Table,
		ctx:       scanCtx,
		cancel:    cancel,
		scan:      scan,
		next:      next,
		stop:      stop,
		schema:    outSchema,
		positions: positions,
		remaining: req.Limit,
		limited:   req.Limit > 0,
	}, nil
}

// readInCommitOrder plans the scan and reads its files oldest commit first,
// then the staged files. iceberg-go lists the newest manifest first, so
// without this a table would return the rows of its latest INSERT before
// those of its first.
func (t *Table) readInCommitOrder(ctx context.Context, scan *table.Scan, req ScanRequest, cols *readColumns) (*arrow.Schema, iter.Seq2[arrow.RecordBatch, error], error) {
	// With a limit iceberg-go plans only the newest files that hold
	// enough rows; when staged changes removed some of those, fewer would
	// remain, so such a table plans all its files.
	limit := req.Limit
	if len(t.hidden) > 0 {
		limit = 0
	}
	tasks, err := t.planInCommitOrder(ctx, req.Filter, limit)
	if err != nil {
		return nil, nil, err
	}
	tasks = t.prunedTasks(ctx, append(t.visible(tasks), t.stagedTasks()...), t.rowGroupFilter(req.Filter))
	if cols != nil {
		return cols.schema, t.readTasks(ctx, scan, tasks, cols, req.BatchSize), nil
	}
	return scan.ReadTasks(ctx, tasks)
}

// decodedColumns returns the columns SQE's own reader decodes for a scan
// of the distinct columns wanted (nil: all), or nil when iceberg-go reads
// the scan: it has a row filter to apply, or a column SQE's reader does
// not decode (nativeColumns).
func (t *Table) decodedColumns(wanted []string, req ScanRequest) *readColumns {
	if req.Filter != nil && !req.PruneOnly {
		return nil
	}
	got := t.schema
	if len(wanted) > 0 {
		fields := make([]arrow.Field, len(wanted))
		for i, name := range wanted {
			fields[i] = t.schema.Field(t.schema.FieldIndices(name)[0])
		}
		got = arrow.NewSchema(fields, nil)
	}
	if req.Decimal64 {
		got = narrowedSchema(got)
	}
	cols, ok := t.nativeColumns(got)
	if !ok {
		return nil
	}
	return cols
}

// sortByCommit orders tasks oldest commit first, keeping the planner's
// order among files of one commit.
func sortByCommit(tasks []table.FileScanTask) {
	slices.SortStableFunc(tasks, func(a, b table.FileScanTask) int {
		return cmp.Compare(sequenceOf(a), sequenceOf(b))
	})
}

func sequenceOf(task table.FileScanTask) int64 {
	if task.DataSequenceNumber == nil {
		return math.MaxInt64
	}
	return *task.DataSequenceNumber
}

// projection resolves the requested column names against the table schema.
// It returns the stream's schema (requested order, duplicates kept,
// decimals narrowed when asked) and the distinct names to ask iceberg-go
// for.
func (t *Table) projection(req ScanRequest) (*arrow.Schema, []string, error) {
	sc, wanted, err := t.projectColumns(req.Columns)
	if err != nil || !req.Decimal64 {
		return sc, wanted, err
	}
	return narrowedSchema(sc), wanted, nil
}

func (t *Table) projectColumns(columns []string) (*arrow.Schema, []string, error) {
	if len(columns) == 0 {
		return t.schema, nil, nil
	}
	fields := make([]arrow.Field, 0, len(columns))
	wanted := make([]string, 0, len(columns))
	seen := make(map[string]bool, len(columns))
	for _, name := range columns {
		idx := t.schema.FieldIndices(name)
		if len(idx) != 1 {
			return nil, nil, unknownColumn(t.ident, name)
		}
		fields = append(fields, t.schema.Field(idx[0]))
		if !seen[name] {
			seen[name] = true
			wanted = append(wanted, name)
		}
	}
	return arrow.NewSchema(fields, nil), wanted, nil
}

// columnPositions finds each output field in the schema iceberg-go returns
// and checks that the types agree (or that the column's decimals narrow
// to the output's), so that Next can rebuild batches in the requested
// order without copying data.
func columnPositions(want, got *arrow.Schema) ([]int, error) {
	pos := make([]int, want.NumFields())
	for i, f := range want.Fields() {
		idx := got.FieldIndices(f.Name)
		if len(idx) != 1 {
			return nil, fmt.Errorf("scan result lacks column %q", f.Name)
		}
		if g := got.Field(idx[0]).Type; !arrow.TypeEqual(g, f.Type) && !narrowsTo(g, f.Type) {
			return nil, fmt.Errorf("scan result column %q is %s, table says %s", f.Name, g, f.Type)
		}
		pos[i] = idx[0]
	}
	return pos, nil
}

type recordStream struct {
	ctx       context.Context
	cancel    context.CancelFunc
	scan      *table.Scan
	next      func() (arrow.RecordBatch, error, bool)
	stop      func()
	schema    *arrow.Schema
	positions []int
	remaining int64 // rows the limit still allows
	limited   bool  // the request has a limit
	done      bool
	table     string // "namespace.table", for errors
}

func (s *recordStream) Schema() *arrow.Schema { return s.schema }

func (s *recordStream) Next() (arrow.RecordBatch, error) {
	for {
		if s.done {
			return nil, io.EOF
		}
		if err := s.ctx.Err(); err != nil {
			s.finish()
			return nil, err
		}
		rec, err, ok := s.next()
		if !ok {
			s.finish()
			return nil, io.EOF
		}
		if err != nil {
			s.finish()
			return nil, objectStoreFailure(fmt.Errorf("read scan batch: %w", err), "read", s.table)
		}
		out, err := reshape(s.schema, s.positions, rec)
		rec.Release()
		if err != nil {
			s.finish()
			return nil, fmt.Errorf("read scan batch of %s: %w", s.table, err)
		}
		if out.NumRows() == 0 {
			out.Release()
			continue
		}
		return s.applyLimit(out), nil
	}
}

// reshape puts rec's columns at positions in order under schema (which
// carries the field ids), narrowing a decimal column the schema holds in
// 64 bits.
func reshape(schema *arrow.Schema, positions []int, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(positions))
	var narrowed []arrow.Array
	defer func() {
		for _, a := range narrowed {
			a.Release()
		}
	}()
	for i, p := range positions {
		cols[i] = rec.Column(p)
		if want := schema.Field(i).Type; !arrow.TypeEqual(cols[i].DataType(), want) {
			a, err := narrowDecimals(cols[i], want)
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", schema.Field(i).Name, err)
			}
			narrowed = append(narrowed, a)
			cols[i] = a
		}
	}
	return array.NewRecordBatch(schema, cols, rec.NumRows()), nil
}

// applyLimit trims the batch to the rows the limit still allows and ends
// the stream once the limit is reached. iceberg-go applies the limit too;
// this keeps the promise exact whatever it does.
func (s *recordStream) applyLimit(rec arrow.RecordBatch) arrow.RecordBatch {
	if !s.limited {
		return rec
	}
	if rec.NumRows() >= s.remaining {
		if rec.NumRows() > s.remaining {
			cut := rec.NewSlice(0, s.remaining)
			rec.Release()
			rec = cut
		}
		s.remaining = 0
		s.finish()
		return rec
	}
	s.remaining -= rec.NumRows()
	return rec
}

// finish stops the underlying iterator; later Next calls return io.EOF.
func (s *recordStream) finish() {
	if s.done {
		return
	}
	s.done = true
	s.stop()
	s.cancel()
}

func (s *recordStream) Close() error {
	s.finish()
	return s.scan.Close()
}
