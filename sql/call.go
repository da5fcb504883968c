package sql

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// runCall runs CALL system.<procedure>(...): the arguments are matched,
// type-checked and evaluated, then the procedure runs and answers its
// row. Procedures change tables with commits of their own that ROLLBACK
// could not undo, so, like VACUUM in PostgreSQL, they refuse to run in a
// transaction block.
func (s *Session) runCall(ctx context.Context, stmt *pg_query.CallStmt, query string, params *planner.Params) (Result, error) {
	bc, err := s.bindCallStmt(ctx, stmt, query, params)
	if err != nil {
		return nil, err
	}
	if s.tx != nil {
		return nil, pgerror.New(pgerror.ActiveSQLTransaction, "%s cannot run inside a transaction block", bc.proc.name)
	}
	args, err := s.evaluate(ctx, bc, query, params)
	if err != nil {
		return nil, err
	}
	row, err := bc.proc.run(ctx, s, args)
	if err != nil {
		return nil, err
	}
	return newCallResult(bc.proc.columns, row)
}

// describeCall checks a CALL at Parse time (extended protocol) and gives
// the row it will answer.
func (s *Session) describeCall(ctx context.Context, stmt *pg_query.CallStmt, query string, params *planner.Params) ([]Column, error) {
	bc, err := s.bindCallStmt(ctx, stmt, query, params)
	if err != nil {
		return nil, err
	}
	return bc.proc.columns, nil
}

// bindCallStmt finds the procedure a CALL names and binds its arguments.
// A procedure is named system.<name>, optionally prefixed by the
// session's database.
func (s *Session) bindCallStmt(ctx context.Context, stmt *pg_query.CallStmt, query string, params *planner.Params) (*boundCall, error) {
	fc := stmt.Funccall
	if fc == nil {
		return nil, pgerror.New(pgerror.SyntaxError, "CALL names no procedure")
	}
	name := funcName(fc)
	if len(fc.Funcname) == 3 {
		if db := fc.Funcname[0].GetString_().GetSval(); db != s.database {
			return nil, pgerror.New(pgerror.FeatureNotSupported, "cross-database references are not implemented: %s", name).
				WithPosition(positionOf(query, fc.Location))
		}
		name = strings.TrimPrefix(name, fc.Funcname[0].GetString_().GetSval()+".")
	}
	p, ok := s.engine.procedures[name]
	if !ok {
		return nil, pgerror.New(pgerror.UndefinedFunction, "procedure %s does not exist", name).
			WithPosition(positionOf(query, fc.Location))
	}
	return s.bindCall(ctx, p, fc, query, params)
}

// positionOf is the 1-based character position of a byte offset of
// query, 0 when the offset is unknown (-1).
func positionOf(query string, loc int32) int32 {
	if loc < 0 {
		return 0
	}
	return queryPosition(query, loc)
}

// callResult is a procedure's one-row answer.
type callResult struct {
	textResult
}

// newCallResult builds the row of cols from row's Go values (int32,
// int64 or string, by column type).
func newCallResult(cols []Column, row []any) (*callResult, error) {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.Arrow(), Nullable: true}
	}
	if len(row) != len(cols) {
		return nil, pgerror.New(pgerror.InternalError, "procedure answered %d values for %d columns", len(row), len(cols))
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for i, v := range row {
		ok := false
		switch fb := b.Field(i).(type) {
		case *array.Int32Builder:
			var x int32
			if x, ok = v.(int32); ok {
				fb.Append(x)
			}
		case *array.Int64Builder:
			var x int64
			if x, ok = v.(int64); ok {
				fb.Append(x)
			}
		case *array.StringBuilder:
			var x string
			if x, ok = v.(string); ok {
				fb.Append(x)
			}
		}
		if !ok {
			return nil, pgerror.New(pgerror.InternalError, "procedure answered %T for column %s of type %s", v, cols[i].Name, cols[i].Type.Name())
		}
	}
	return &callResult{textResult{cols: cols, batch: b.NewRecordBatch(), tag: "CALL"}}, nil
}

// CommandTag is PostgreSQL's for CALL, without a row count.
func (r *callResult) CommandTag() string { return "CALL" }
