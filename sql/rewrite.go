package sql

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// rewriteInput is the target rows of a DELETE or UPDATE: every candidate
// data file's batches as stored, and the same batches with the columns
// presented as declared (smallint kept as int) and the row id column
// appended, for the statement's work table. Row ids number the rows of
// all files in order, so a row id names its file through starts.
type rewriteInput struct {
	files  [][]arrow.RecordBatch
	starts []int64 // first row id of each file
	total  int64
	work   []arrow.RecordBatch
}

// openRewrite begins a copy-on-write change of the target (pruned to the
// files that may match, nil: every file) and reads its candidate files.
// Inside a transaction block the change reads the block's view of the
// target and will be staged (finishRewrite). verb names the statement in
// errors ("delete from"). The caller closes rw and releases in.
func (s *Session) openRewrite(ctx, callerCtx context.Context, target *insertTarget, prune iceberg.BooleanExpression, verb string) (*storage.Rewrite, *rewriteInput, error) {
	begin := target.adapter.t.BeginRewrite
	if s.tx != nil {
		if err := s.tx.writes.checkTable(target.adapter.t); err != nil {
			return nil, nil, err
		}
		begin = target.adapter.t.BeginStagedRewrite
	}
	rw, err := begin(callerCtx, prune)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", verb, target.relname, err)
	}
	all := make([]int, len(target.adapter.Columns()))
	for i := range all {
		all[i] = i
	}
	in, err := loadRewriteInput(ctx, rw, target.adapter.castColumns(all))
	if err != nil {
		rw.Close()
		return nil, nil, fmt.Errorf("%s %s: %w", verb, target.relname, err)
	}
	return rw, in, nil
}

// finishRewrite commits the change at once outside a transaction block,
// and inside one stages it for COMMIT beside the block's other writes.
func (s *Session) finishRewrite(ctx context.Context, rw *storage.Rewrite, target *insertTarget, rewrites []storage.FileRewrite, added array.RecordReader) error {
	if s.tx == nil {
		_, err := rw.Commit(ctx, rewrites, added)
		return err
	}
	w, err := rw.Stage(ctx, rewrites, added)
	if err != nil {
		return err
	}
	if !w.Empty() {
		s.tx.writes.staged = append(s.tx.writes.staged, stagedWrite{table: target.adapter.t, w: w})
	}
	return nil
}

// loadRewriteInput reads every candidate file of rw; cast is the
// columns' presented types where they differ from the stored ones (nil:
// none does).
func loadRewriteInput(ctx context.Context, rw *storage.Rewrite, cast []arrow.DataType) (*rewriteInput, error) {
	in := &rewriteInput{}
	for i := 0; i < rw.Files(); i++ {
		batches, err := rw.ReadFile(ctx, i)
		if err != nil {
			in.release()
			return nil, err
		}
		in.files = append(in.files, batches)
		in.starts = append(in.starts, in.total)
		for _, b := range batches {
			w, err := presentedBatch(ctx, b, cast)
			if err != nil {
				in.release()
				return nil, err
			}
			in.work = append(in.work, withRowIDs(w, in.total))
			w.Release()
			in.total += b.NumRows()
		}
	}
	return in, nil
}

// presentedBatch is b with its columns as the table presents them and
// the engine holds them (decimals of precision 18 or less in 64 bits);
// the caller releases it.
func presentedBatch(ctx context.Context, b arrow.RecordBatch, cast []arrow.DataType) (arrow.RecordBatch, error) {
	if cast != nil {
		var err error
		if b, err = castBatch(ctx, b, cast); err != nil {
			return nil, err
		}
		defer b.Release()
	}
	return storage.NarrowedBatch(b)
}

// withRowIDs appends the row id column, numbering b's rows from first.
func withRowIDs(b arrow.RecordBatch, first int64) arrow.RecordBatch {
	n := int(b.NumRows())
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = first + int64(i)
	}
	idArr := array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(ids))}, nil, 0, 0))
	defer idArr.Release()
	fields := append(append([]arrow.Field(nil), b.Schema().Fields()...), arrow.Field{Name: "?row?", Type: arrow.PrimitiveTypes.Int64})
	cols := append(append([]arrow.Array(nil), b.Columns()...), idArr)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows())
}

func (in *rewriteInput) release() {
	for _, f := range in.files {
		for _, b := range f {
			b.Release()
		}
	}
	for _, b := range in.work {
		b.Release()
	}
	in.files, in.work = nil, nil
}

// rewriteMatches is what running a RewritePlan's Matches found: which
// target rows change and, for UPDATE, their new images.
type rewriteMatches struct {
	matched []bool
	count   int64
	// images are the new row images (table columns), one per matched
	// row, for UPDATE.
	images []arrow.RecordBatch
	// returned are the changed rows as RETURNING reads them (its
	// Changed work table): the image, then the other FROM items' values.
	returned []arrow.RecordBatch
}

func (m *rewriteMatches) release() {
	releaseBatches(m.images)
	releaseBatches(m.returned)
	m.images, m.returned = nil, nil
}

// runMatches runs plan.Matches over in. A target row matched more than
// once counts once, with its first image, as in PostgreSQL. A new
// image the row policy rejects fails the statement (plan.Check). images
// keeps the new images to write (UPDATE); with RETURNING the changed
// rows are kept as it reads them.
func (s *Session) runMatches(ctx, callerCtx context.Context, plan *planner.RewritePlan, in *rewriteInput, images bool, relname string) (*rewriteMatches, error) {
	workCtx := exec.WithWorkTableRows(callerCtx, plan.Target, in.work)
	res, err := newRowsResult(ctx, workCtx, s.optimize(&planner.Plan{Root: plan.Matches}).Root, s.statementLimits())
	if err != nil {
		return nil, err
	}
	defer res.Close()
	width := 0
	if plan.Image {
		width = len(plan.Table.Columns())
	}
	keepRows := images || plan.Returning != nil
	m := &rewriteMatches{matched: make([]bool, in.total)}
	for {
		b, err := res.Next(ctx)
		if err != nil {
			m.release()
			return nil, err
		}
		if b == nil {
			return m, nil
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		if plan.Check {
			if err := checkPolicy(b, relname); err != nil {
				b.Release()
				m.release()
				return nil, err
			}
		}
		ids := b.Column(0).(*array.Int64)
		var keep *array.BooleanBuilder
		if keepRows {
			keep = array.NewBooleanBuilder(memory.DefaultAllocator)
		}
		for i := 0; i < ids.Len(); i++ {
			id := ids.Value(i)
			first := !m.matched[id]
			if first {
				m.matched[id] = true
				m.count++
			}
			if keep != nil {
				keep.Append(first)
			}
		}
		if keep != nil {
			rows, err := firstMatches(ctx, b, keep.NewBooleanArray(), 1+width+plan.Returned)
			keep.Release()
			if err != nil {
				b.Release()
				m.release()
				return nil, err
			}
			if images {
				m.images = append(m.images, batchColumns(rows, 0, width))
			}
			if plan.Returning != nil {
				rows.Retain()
				m.returned = append(m.returned, rows)
			}
			rows.Release()
		}
		b.Release()
	}
}

// firstMatches keeps the rows of a Matches batch that mask selects, with
// the columns after the row id up to end: the image and the values
// RETURNING reads.
func firstMatches(ctx context.Context, b arrow.RecordBatch, mask *array.Boolean, end int) (arrow.RecordBatch, error) {
	defer mask.Release()
	cols := batchColumns(b, 1, end)
	defer cols.Release()
	out, err := types.FilterRecordBatch(ctx, cols, mask)
	if err != nil {
		return nil, fmt.Errorf("select changed rows: %w", err)
	}
	return out, nil
}

// batchColumns is b's columns from through to-1, sharing their data.
func batchColumns(b arrow.RecordBatch, from, to int) arrow.RecordBatch {
	return array.NewRecordBatch(arrow.NewSchema(b.Schema().Fields()[from:to], nil), b.Columns()[from:to], b.NumRows())
}

// checkPolicy fails unless the last column of a Matches batch, the row
// policy applied to the new image, is true on every row.
func checkPolicy(b arrow.RecordBatch, relname string) error {
	ok, isBool := b.Column(int(b.NumCols()) - 1).(*array.Boolean)
	if !isBool {
		return pgerror.New(pgerror.InternalError, "row policy check of %s is not boolean", relname)
	}
	for i := 0; i < ok.Len(); i++ {
		if ok.IsNull(i) || !ok.Value(i) {
			return pgerror.New(pgerror.InsufficientPrivilege, "new row violates row-level security policy for table \"%s\"", relname)
		}
	}
	return nil
}

// newImages drops the row id column (and the policy check column) of a
// Matches batch and keeps the rows mask selects.
func newImages(ctx context.Context, b arrow.RecordBatch, mask *array.Boolean, check bool) (arrow.RecordBatch, error) {
	defer mask.Release()
	end := int(b.NumCols())
	if check {
		end--
	}
	cols := b.Columns()[1:end]
	fields := b.Schema().Fields()[1:end]
	img := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows())
	defer img.Release()
	out, err := types.FilterRecordBatch(ctx, img, mask)
	if err != nil {
		return nil, fmt.Errorf("select new row images: %w", err)
	}
	return out, nil
}

// fileRewrites lists, for each file holding a matched row, the rows it
// keeps. The kept batches belong to the caller.
func fileRewrites(ctx context.Context, in *rewriteInput, m *rewriteMatches) ([]storage.FileRewrite, error) {
	var out []storage.FileRewrite
	release := func() {
		for _, fr := range out {
			for _, b := range fr.Keep {
				b.Release()
			}
		}
	}
	for f, batches := range in.files {
		end := in.total
		if f+1 < len(in.starts) {
			end = in.starts[f+1]
		}
		if !anyMatched(m.matched[in.starts[f]:end]) {
			continue
		}
		fr := storage.FileRewrite{File: f}
		row := in.starts[f]
		for _, b := range batches {
			n := b.NumRows()
			kept, err := keptRows(ctx, b, m.matched[row:row+n])
			row += n
			if err != nil {
				release()
				return nil, err
			}
			if kept != nil {
				fr.Keep = append(fr.Keep, kept)
			}
		}
		out = append(out, fr)
	}
	return out, nil
}

func anyMatched(m []bool) bool {
	for _, v := range m {
		if v {
			return true
		}
	}
	return false
}

// keptRows is b without the matched rows; nil when none is left.
func keptRows(ctx context.Context, b arrow.RecordBatch, matched []bool) (arrow.RecordBatch, error) {
	bld := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer bld.Release()
	kept := 0
	for _, v := range matched {
		bld.Append(!v)
		if !v {
			kept++
		}
	}
	if kept == 0 {
		return nil, nil
	}
	if kept == len(matched) {
		b.Retain()
		return b, nil
	}
	mask := bld.NewBooleanArray()
	defer mask.Release()
	out, err := types.FilterRecordBatch(ctx, b, mask)
	if err != nil {
		return nil, fmt.Errorf("select kept rows: %w", err)
	}
	return out, nil
}
