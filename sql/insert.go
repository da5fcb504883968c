package sql

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// insertTarget is an INSERT's or COPY FROM's resolved table.
type insertTarget struct {
	adapter *tableAdapter
	relname string
}

// resolveWriteTarget opens the table a statement writes into. Catalog
// relations (pg_catalog, information_schema) cannot be written.
func (s *Session) resolveWriteTarget(ctx context.Context, rv *pg_query.RangeVar, query string) (*insertTarget, error) {
	if err := refuseVersionedWrite(ctx, rv, query); err != nil {
		return nil, err
	}
	name := planner.TableName{Catalog: rv.Catalogname, Schema: rv.Schemaname, Name: rv.Relname}
	t, err := s.catalog.ResolveTable(ctx, name)
	if err != nil {
		var pe *pgerror.Error
		if errors.As(err, &pe) && pe.Position == 0 && rv.Location >= 0 {
			return nil, pe.WithPosition(queryPosition(query, rv.Location))
		}
		return nil, err
	}
	if _, ok := t.(*metadataTable); ok {
		return nil, pgerror.New(pgerror.WrongObjectType, "cannot change metadata table \"%s\"", rv.Relname).
			WithDetail("A table's metadata tables are read-only.")
	}
	a, ok := t.(*tableAdapter)
	if !ok {
		return nil, pgerror.New(pgerror.InsufficientPrivilege, "permission denied for table %s", rv.Relname)
	}
	return &insertTarget{adapter: a, relname: rv.Relname}, nil
}

// queryPosition is the 1-based character position of a byte offset.
func queryPosition(query string, loc int32) int32 {
	if int(loc) > len(query) {
		return 0
	}
	return int32(len([]rune(query[:loc]))) + 1
}

// columnDefaults parses the DEFAULT expressions kept in the table's
// properties, by column index.
func (t *insertTarget) columnDefaults() (map[int]*pg_query.Node, error) {
	props := t.adapter.t.Properties()
	out := map[int]*pg_query.Node{}
	for i, f := range t.adapter.t.Schema().Fields() {
		id := storage.FieldID(f.Metadata.ToMap())
		if id < 0 {
			continue
		}
		text, ok := props[storage.ColumnProperty(storage.DefaultKey, id)]
		if !ok {
			continue
		}
		tree, err := pg_query.Parse("SELECT " + text)
		if err != nil || len(tree.Stmts) != 1 {
			return nil, pgerror.New(pgerror.InternalError, "invalid DEFAULT for column \"%s\" of relation \"%s\": %s", f.Name, t.relname, text)
		}
		sel := tree.Stmts[0].Stmt.GetSelectStmt()
		if sel == nil || len(sel.TargetList) != 1 || len(sel.FromClause) > 0 {
			return nil, pgerror.New(pgerror.InternalError, "invalid DEFAULT for column \"%s\" of relation \"%s\": %s", f.Name, t.relname, text)
		}
		out[i] = sel.TargetList[0].GetResTarget().Val
	}
	return out, nil
}

// bindInsert binds an INSERT; params may be nil or being prepared.
func (s *Session) bindInsert(ctx context.Context, ins *pg_query.InsertStmt, query string, params *planner.Params) (*planner.InsertPlan, *insertTarget, error) {
	target, err := s.resolveRowTarget(ctx, ins.Relation, query)
	if err != nil {
		return nil, nil, err
	}
	defaults, err := target.columnDefaults()
	if err != nil {
		return nil, nil, err
	}
	b := s.newBinder(ctx, query, params)
	plan, err := b.BindInsert(ins, target.adapter, defaults)
	if err != nil {
		return nil, nil, err
	}
	return plan, target, nil
}

// runInsert runs INSERT: the source rows are computed batch by batch and
// written by storage as one commit, so a failing row commits nothing.
// The column tags the rows carry are added to the table first
// (carryTagsInto). RETURNING is computed from the written rows once they
// are committed.
func (s *Session) runInsert(ctx context.Context, ins *pg_query.InsertStmt, query string, params *planner.Params) (Result, error) {
	s.markQueried()
	plan, target, err := s.bindInsert(ctx, ins, query, params)
	if err != nil {
		return nil, err
	}
	callerCtx := s.callerContext(ctx)
	if err := s.carryTagsInto(callerCtx, target, plan.Source); err != nil {
		return nil, err
	}
	root, err := s.insertRoot(plan, target)
	if err != nil {
		return nil, err
	}
	src, err := newRowsResult(ctx, callerCtx, root, s.statementLimits())
	if err != nil {
		return nil, err
	}
	defer src.Close()
	rdr := newWriteReader(target.adapter.t.Schema(), target.relname, func() (arrow.RecordBatch, error) {
		return src.Next(ctx)
	})
	defer rdr.Release()
	rdr.keep = plan.Returning != nil
	defer rdr.releaseKept()
	if err := s.writeTable(callerCtx, target.adapter.t, rdr); err != nil {
		return nil, fmt.Errorf("insert into %s: %w", target.relname, err)
	}
	tag := "INSERT 0 " + strconv.FormatInt(rdr.rows, 10)
	if plan.Returning == nil {
		return commandResult(tag), nil
	}
	retCtx := exec.WithWorkTableRows(callerCtx, plan.Inserted, rdr.kept)
	rows, err := newRowsResult(ctx, retCtx, plan.Returning, s.statementLimits())
	if err != nil {
		return nil, err
	}
	// The returning rows read the kept batches, which rows now owns.
	kept := rdr.kept
	rdr.kept = nil
	return &returningResult{rowsResult: rows, tag: tag, kept: kept}, nil
}

// insertRoot is the optimized plan of the rows an INSERT writes, sorted
// by the table's sort order when it has one. With RETURNING they are
// written in the order given, which RETURNING answers in: clients that
// insert many rows match the rows returned to those they sent by
// position.
func (s *Session) insertRoot(plan *planner.InsertPlan, target *insertTarget) (planner.Node, error) {
	root := s.optimize(&planner.Plan{Root: plan.Source}).Root
	if plan.Returning != nil {
		return root, nil
	}
	names := make([]string, len(target.adapter.cols))
	for i, c := range target.adapter.cols {
		names[i] = c.Name
	}
	return writeSort(root, names, target.adapter.t.SortOrder())
}

// returningResult streams INSERT ... RETURNING's rows under the INSERT's
// command tag.
type returningResult struct {
	*rowsResult
	tag  string
	kept []arrow.RecordBatch
}

func (r *returningResult) CommandTag() string { return r.tag }

func (r *returningResult) Close() {
	r.rowsResult.Close()
	for _, b := range r.kept {
		b.Release()
	}
	r.kept = nil
}
