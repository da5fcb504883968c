package sql

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// runMerge runs MERGE copy on write, in one snapshot: every file holding
// an updated or deleted row is replaced by one without it, and the new
// images of updated rows and the inserted rows are written as new files.
func (s *Session) runMerge(ctx context.Context, stmt *pg_query.MergeStmt, query string, params *planner.Params) (Result, error) {
	s.markQueried()
	target, err := s.resolveRowTarget(ctx, stmt.Relation, query)
	if err != nil {
		return nil, err
	}
	defaults, err := target.columnDefaults()
	if err != nil {
		return nil, err
	}
	b := s.newBinder(ctx, query, params)
	plan, err := b.BindMerge(stmt, target.adapter, defaults)
	if err != nil {
		return nil, err
	}
	callerCtx := s.callerContext(ctx)
	rw, in, err := s.openRewrite(ctx, callerCtx, target, nil, "merge into")
	if err != nil {
		return nil, err
	}
	defer rw.Close()
	defer in.release()
	m, count, err := s.runMergeMatches(ctx, callerCtx, plan, in)
	if err != nil {
		return nil, err
	}
	defer m.release()
	rewrites, err := fileRewrites(ctx, in, m)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, fr := range rewrites {
			releaseBatches(fr.Keep)
		}
	}()
	images := m.images
	m.images = nil
	defer func() { releaseBatches(images) }()
	rdr := newWriteReader(rw.Table().Schema(), target.relname, func() (arrow.RecordBatch, error) {
		if len(images) == 0 {
			return nil, nil
		}
		b := images[0]
		images = images[1:]
		return b, nil
	})
	defer rdr.Release()
	if err := s.finishRewrite(callerCtx, rw, target, rewrites, rdr); err != nil {
		return nil, fmt.Errorf("merge into %s: %w", target.relname, err)
	}
	return commandResult("MERGE " + strconv.FormatInt(count, 10)), nil
}

// runMergeMatches runs plan.Matches over in and applies PostgreSQL's
// rules: the first WHEN clause that holds acts; a target row updated or
// deleted twice fails the statement (21000); DO NOTHING counts nothing.
// It returns the changed target rows, the rows to write (new images and
// inserted rows) and the number of rows acted on.
func (s *Session) runMergeMatches(ctx, callerCtx context.Context, plan *planner.MergePlan, in *rewriteInput) (*rewriteMatches, int64, error) {
	workCtx := exec.WithWorkTableRows(callerCtx, plan.Target, in.work)
	res, err := newRowsResult(ctx, workCtx, s.optimize(&planner.Plan{Root: plan.Matches}).Root, s.statementLimits())
	if err != nil {
		return nil, 0, err
	}
	defer res.Close()
	m := &rewriteMatches{matched: make([]bool, in.total)}
	var count int64
	for {
		b, err := res.Next(ctx)
		if err != nil {
			m.release()
			return nil, 0, err
		}
		if b == nil {
			return m, count, nil
		}
		ids := b.Column(0).(*array.Int64)
		actions := b.Column(int(b.NumCols()) - 1).(*array.Int64)
		keep := array.NewBooleanBuilder(memory.DefaultAllocator)
		writes := 0
		for i := 0; i < ids.Len(); i++ {
			act := planner.MergeNothing
			if actions.IsValid(i) {
				act = plan.Actions[actions.Value(i)-1]
			}
			write := act == planner.MergeUpdate || act == planner.MergeInsert
			keep.Append(write)
			if write {
				writes++
			}
			if act == planner.MergeNothing {
				continue
			}
			count++
			if act == planner.MergeInsert {
				continue
			}
			id := ids.Value(i)
			if m.matched[id] {
				keep.Release()
				b.Release()
				m.release()
				return nil, 0, pgerror.New(pgerror.CardinalityViolation, "MERGE command cannot affect row a second time").
					WithHint("Ensure that not more than one source row matches any one target row.")
			}
			m.matched[id] = true
			m.count++
		}
		if writes > 0 {
			img, err := newImages(ctx, b, keep.NewBooleanArray(), true)
			if err != nil {
				keep.Release()
				b.Release()
				m.release()
				return nil, 0, err
			}
			m.images = append(m.images, img)
		}
		keep.Release()
		b.Release()
	}
}
