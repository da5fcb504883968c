package sql

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
)

// bindUpdate binds an UPDATE; params may be nil or being prepared.
func (s *Session) bindUpdate(ctx context.Context, stmt *pg_query.UpdateStmt, query string, params *planner.Params) (*planner.RewritePlan, *insertTarget, error) {
	target, err := s.resolveRowTarget(ctx, stmt.Relation, query)
	if err != nil {
		return nil, nil, err
	}
	defaults, err := target.columnDefaults()
	if err != nil {
		return nil, nil, err
	}
	b := s.newBinder(ctx, query, params)
	plan, err := b.BindUpdate(stmt, target.adapter, defaults)
	if err != nil {
		return nil, nil, err
	}
	return plan, target, nil
}

// runUpdate runs UPDATE copy on write: as DELETE, every file holding an
// updated row is replaced by one without it, and the new row images are
// written as new files, all in one snapshot. The images pass the same
// NOT NULL check as INSERT's rows.
func (s *Session) runUpdate(ctx context.Context, stmt *pg_query.UpdateStmt, query string, params *planner.Params) (Result, error) {
	s.markQueried()
	plan, target, err := s.bindUpdate(ctx, stmt, query, params)
	if err != nil {
		return nil, err
	}
	callerCtx := s.callerContext(ctx)
	rw, in, err := s.openRewrite(ctx, callerCtx, target, plan.Prune, "update")
	if err != nil {
		return nil, err
	}
	defer rw.Close()
	defer in.release()
	m, err := s.runMatches(ctx, callerCtx, plan, in, true, target.relname)
	if err != nil {
		return nil, err
	}
	defer m.release()
	tag := "UPDATE " + strconv.FormatInt(m.count, 10)
	rewrites, err := fileRewrites(ctx, in, m)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, fr := range rewrites {
			releaseBatches(fr.Keep)
		}
	}()
	// The writer takes the images over one by one.
	images := m.images
	m.images = nil
	rdr := newWriteReader(rw.Table().Schema(), target.relname, func() (arrow.RecordBatch, error) {
		if len(images) == 0 {
			return nil, nil
		}
		b := images[0]
		images = images[1:]
		return b, nil
	})
	defer rdr.Release()
	defer func() { releaseBatches(images) }()
	if err := s.finishRewrite(callerCtx, rw, target, rewrites, rdr); err != nil {
		return nil, fmt.Errorf("update %s: %w", target.relname, err)
	}
	// RETURNING reads the new rows, with the FROM items' values.
	changed := m.returned
	m.returned = nil
	return s.rewriteResult(ctx, callerCtx, plan, tag, changed)
}
