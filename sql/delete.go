package sql

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
)

// bindDelete binds a DELETE; params may be nil or being prepared.
func (s *Session) bindDelete(ctx context.Context, stmt *pg_query.DeleteStmt, query string, params *planner.Params) (*planner.RewritePlan, *insertTarget, error) {
	target, err := s.resolveRowTarget(ctx, stmt.Relation, query)
	if err != nil {
		return nil, nil, err
	}
	b := s.newBinder(ctx, query, params)
	plan, err := b.BindDelete(stmt, target.adapter)
	if err != nil {
		return nil, nil, err
	}
	return plan, target, nil
}

// runDelete runs DELETE copy on write: the data files that may hold
// matching rows are read, the statement picks the rows to delete, and
// every file that loses a row is replaced by one without it, all in one
// snapshot. Files without a matching row stay as they are. RETURNING
// reads the deleted rows, with the USING items' values, as the
// statement picked them.
func (s *Session) runDelete(ctx context.Context, stmt *pg_query.DeleteStmt, query string, params *planner.Params) (Result, error) {
	s.markQueried()
	plan, target, err := s.bindDelete(ctx, stmt, query, params)
	if err != nil {
		return nil, err
	}
	callerCtx := s.callerContext(ctx)
	rw, in, err := s.openRewrite(ctx, callerCtx, target, plan.Prune, "delete from")
	if err != nil {
		return nil, err
	}
	defer rw.Close()
	defer in.release()
	m, err := s.runMatches(ctx, callerCtx, plan, in, false, target.relname)
	if err != nil {
		return nil, err
	}
	defer m.release()
	tag := "DELETE " + strconv.FormatInt(m.count, 10)
	rewrites, err := fileRewrites(ctx, in, m)
	if err != nil {
		return nil, err
	}
	err = s.finishRewrite(callerCtx, rw, target, rewrites, nil)
	for _, fr := range rewrites {
		releaseBatches(fr.Keep)
	}
	if err != nil {
		return nil, fmt.Errorf("delete from %s: %w", target.relname, err)
	}
	deleted := m.returned
	m.returned = nil
	return s.rewriteResult(ctx, callerCtx, plan, tag, deleted)
}

// rewriteResult is the statement's outcome: its command tag, and with
// RETURNING the rows computed from changed, which the result then owns.
func (s *Session) rewriteResult(ctx, callerCtx context.Context, plan *planner.RewritePlan, tag string, changed []arrow.RecordBatch) (Result, error) {
	if plan.Returning == nil {
		return commandResult(tag), nil
	}
	retCtx := exec.WithWorkTableRows(callerCtx, plan.Changed, changed)
	rows, err := newRowsResult(ctx, retCtx, plan.Returning, s.statementLimits())
	if err != nil {
		releaseBatches(changed)
		return nil, err
	}
	return &returningResult{rowsResult: rows, tag: tag, kept: changed}, nil
}

func releaseBatches(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}
