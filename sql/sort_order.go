package sql

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/extgrammar"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// A table's Iceberg sort order is set with the sort_order table option
// (sorted_by, Trino's name, is taken too) of CREATE TABLE [AS] and ALTER
// TABLE SET / RESET, or with ALTER TABLE ... SET SORT ORDER. Every write
// that adds rows orders them by it first, with the engine's sort, which
// spills past the statement's memory limit: INSERT and CREATE TABLE AS
// put a Sort under the write, COPY FROM and CALL
// system.rewrite_data_files sort the rows they write through the same
// operator (SortStream). The files then roll in key order, so each holds
// a narrow range of the first sort column, and so does each row group:
// a lookup of one key reads one file's row group.

// Table options that hold the sort order.
const (
	optSortOrder = "sort_order"
	optSortedBy  = "sorted_by"
)

// isSortOrderOption reports whether a table option names the sort order.
func isSortOrderOption(key string) bool { return key == optSortOrder || key == optSortedBy }

// parseSortOrder reads the sort_order option: a comma-separated list of
// column [ASC | DESC] [NULLS FIRST | NULLS LAST], a column also written
// identity(column). NULLs come first ascending and last descending
// unless NULLS says otherwise, as in Iceberg. Column names follow SQL
// identifier rules. An empty list is no order.
func parseSortOrder(spec string) ([]storage.SortField, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	var out []storage.SortField
	for _, item := range splitTopLevel(spec) {
		f, err := parseSortField(strings.TrimSpace(item))
		if err != nil {
			return nil, err
		}
		for _, prev := range out {
			if prev.Column == f.Column {
				return nil, pgerror.New(pgerror.DuplicateColumn, "column \"%s\" appears twice in the sort order", f.Column)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

func parseSortField(item string) (storage.SortField, error) {
	bad := pgerror.New(pgerror.InvalidParameterValue, "invalid sort order \"%s\"", item).
		WithHint("Use a list of column [ASC | DESC] [NULLS FIRST | NULLS LAST], such as 'id, ts DESC'.")
	col, rest, ok := cutSortColumn(item)
	if !ok {
		return storage.SortField{}, bad
	}
	if strings.HasPrefix(rest, "(") {
		// A transform: only identity(col) is one SQE sorts by.
		transform := strings.ToLower(col)
		args, tail, closed := strings.Cut(rest[1:], ")")
		if !closed {
			return storage.SortField{}, bad
		}
		if transform != "identity" {
			return storage.SortField{}, pgerror.New(pgerror.FeatureNotSupported, "sort transform %s is not supported", transform).
				WithHint("SQE sorts by columns as they are (the identity transform).")
		}
		if col, ok = partitionIdent(args); !ok {
			return storage.SortField{}, bad
		}
		rest = tail
	}
	f := storage.SortField{Column: col, NullsFirst: true}
	words := strings.Fields(strings.ToLower(rest))
	if len(words) > 0 && (words[0] == "asc" || words[0] == "desc") {
		f.Descending, f.NullsFirst = words[0] == "desc", words[0] == "asc"
		words = words[1:]
	}
	if len(words) == 2 && words[0] == "nulls" && (words[1] == "first" || words[1] == "last") {
		f.NullsFirst = words[1] == "first"
		words = nil
	}
	if len(words) > 0 {
		return storage.SortField{}, bad
	}
	return f, nil
}

// cutSortColumn splits an item into its leading name (a column, or a
// transform before its parenthesis), read as partitionIdent reads one,
// and the rest.
func cutSortColumn(item string) (name, rest string, ok bool) {
	end := 0
	if strings.HasPrefix(item, `"`) {
		end = 1
		for end < len(item) {
			if item[end] == '"' {
				if end+1 < len(item) && item[end+1] == '"' {
					end += 2
					continue
				}
				end++
				break
			}
			end++
		}
	} else {
		end = strings.IndexFunc(item, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })
		if end < 0 {
			end = len(item)
		}
	}
	name, ok = partitionIdent(item[:end])
	return name, strings.TrimSpace(item[end:]), ok
}

// writeSort puts a Sort by order over src, a write's rows, whose columns
// are the table's, named names, one for one. The rows of a one-row
// VALUES need no sort.
func writeSort(src planner.Node, names []string, order []storage.SortField) (planner.Node, error) {
	if len(order) == 0 {
		return src, nil
	}
	if v, ok := src.(*planner.Values); ok && len(v.Rows) <= 1 {
		return src, nil
	}
	cols := src.Columns()
	keys := make([]planner.SortKey, len(order))
	for i, f := range order {
		pos := -1
		for j, n := range names {
			if n == f.Column {
				pos = j
			}
		}
		if pos < 0 || pos >= len(cols) {
			return nil, pgerror.New(pgerror.InternalError, "sort order column \"%s\" is not a column of the table", f.Column)
		}
		c := cols[pos]
		keys[i] = planner.SortKey{Expr: &planner.ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}, Desc: f.Descending, NullsFirst: f.NullsFirst}
	}
	return &planner.Sort{Input: src, Keys: keys}, nil
}

// sortedStream is the engine's sort over rows that do not come from a
// plan, under the statement's memory limit and spilling to [query]
// spill_dir past it, as a query's sort does.
type sortedStream struct {
	op     exec.Operator
	ctx    context.Context
	budget *exec.MemoryBudget
	spill  *exec.SpillArea
}

// newSortedStream sorts the batches next returns, of schema (a table's
// Arrow schema), by order.
func newSortedStream(ctx context.Context, limits queryLimits, schema *arrow.Schema, order []storage.SortField, next func(context.Context) (arrow.RecordBatch, error)) (*sortedStream, error) {
	cols := make([]planner.Column, schema.NumFields())
	for i, f := range schema.Fields() {
		typ, err := types.FromArrow(f.Type)
		if err != nil {
			typ = types.Text // the sort compares Arrow values; the type only names them
		}
		cols[i] = planner.Column{ID: planner.ColumnID(i + 1), Name: f.Name, Type: typ}
	}
	keys := make([]planner.SortKey, len(order))
	for i, f := range order {
		idx := schema.FieldIndices(f.Column)
		if len(idx) != 1 {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of the sort order does not exist", f.Column)
		}
		c := cols[idx[0]]
		keys[i] = planner.SortKey{Expr: &planner.ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}, Desc: f.Descending, NullsFirst: f.NullsFirst}
	}
	st := &sortedStream{budget: exec.NewMemoryBudget(limits.memory)}
	ctx = exec.WithMemoryBudget(ctx, st.budget)
	if limits.spill != nil {
		st.spill = limits.spill.NewArea()
		ctx = exec.WithSpillArea(ctx, st.spill)
	}
	op, err := exec.SortStream(ctx, schema, cols, keys, next)
	if err != nil {
		_ = st.spill.Close()
		return nil, err
	}
	st.op, st.ctx = op, ctx
	return st, nil
}

// Next returns the next sorted batch, nil at the end.
func (st *sortedStream) Next() (arrow.RecordBatch, error) { return st.op.Next(st.ctx) }

// Close ends the sort and removes what it spilled.
func (st *sortedStream) Close() {
	st.op.Close()
	_ = st.spill.Close()
}

// rowSorter is the storage.RowSorter a statement passes to a table
// rewrite: the engine's sort under the statement's limits.
func rowSorter(limits queryLimits) storage.RowSorter {
	return func(ctx context.Context, rdr array.RecordReader, order []storage.SortField) (array.RecordReader, error) {
		next := func(context.Context) (arrow.RecordBatch, error) {
			if !rdr.Next() {
				return nil, rdr.Err()
			}
			b := rdr.RecordBatch()
			b.Retain()
			return b, nil
		}
		st, err := newSortedStream(ctx, limits, rdr.Schema(), order, next)
		if err != nil {
			return nil, err
		}
		return &sortedReader{schema: rdr.Schema(), st: st, refs: 1}, nil
	}
}

// sortedReader presents a sortedStream as a record reader.
type sortedReader struct {
	schema *arrow.Schema
	st     *sortedStream
	cur    arrow.RecordBatch
	err    error
	refs   int
}

func (r *sortedReader) Retain()                        { r.refs++ }
func (r *sortedReader) Schema() *arrow.Schema          { return r.schema }
func (r *sortedReader) Err() error                     { return r.err }
func (r *sortedReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch under its deprecated name.
func (r *sortedReader) Record() arrow.RecordBatch { return r.cur }

func (r *sortedReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.err != nil {
		return false
	}
	b, err := r.st.Next()
	if err != nil {
		r.err = fmt.Errorf("sort: %w", err)
		return false
	}
	r.cur = b
	return b != nil
}

func (r *sortedReader) Release() {
	if r.refs--; r.refs > 0 {
		return
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.st.Close()
}

// runSetSortOrder runs ALTER TABLE ... SET SORT ORDER: one Iceberg
// metadata commit, which needs what every ALTER TABLE needs (storage
// asks gate one for UPDATE on the table), and like every DDL statement
// cannot run inside a transaction block.
func (s *Session) runSetSortOrder(ctx context.Context, st *extgrammar.SetSortOrder) (Result, error) {
	if s.tx != nil {
		return nil, pgerror.New(pgerror.ActiveSQLTransaction, "ALTER TABLE cannot run inside a transaction block")
	}
	rv, err := rangeVarFromParts(st.Table)
	if err != nil {
		return nil, err
	}
	ctx = s.callerContext(ctx)
	_, t, err := s.findTable(ctx, rv)
	if err != nil {
		return nil, relationErr(err, rv.Relname)
	}
	order := make([]storage.SortField, len(st.Fields))
	for i, f := range st.Fields {
		order[i] = storage.SortField{Column: f.Column, Descending: f.Descending, NullsFirst: f.NullsFirst}
	}
	if _, err := t.Alter(ctx, func(a *storage.Alteration) error { return a.SetSortOrder(order) }); err != nil {
		return nil, err
	}
	return commandResult("ALTER TABLE"), nil
}
