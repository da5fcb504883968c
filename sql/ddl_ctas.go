package sql

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// runCreateTableAs runs CREATE TABLE ... AS SELECT.
func (s *Session) runCreateTableAs(ctx context.Context, st *pg_query.CreateTableAsStmt, query string) (Result, error) {
	if st.Objtype != pg_query.ObjectType_OBJECT_TABLE {
		return nil, pgerror.Unsupported("materialized views are not supported")
	}
	sel := st.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerror.Unsupported("CREATE TABLE AS of this statement is not supported")
	}
	return s.createFromQuery(ctx, st.Into, sel, query, st.IfNotExists)
}

// runSelectInto runs SELECT ... INTO new_table, which is CREATE TABLE AS.
func (s *Session) runSelectInto(ctx context.Context, sel *pg_query.SelectStmt, query string) (Result, error) {
	into := sel.IntoClause
	stripped := proto.Clone(sel).(*pg_query.SelectStmt)
	stripped.IntoClause = nil
	return s.createFromQuery(ctx, into, stripped, query, false)
}

// createFromQuery creates a table shaped like the query's result, its
// columns tagged with the column tags their values carry, and, unless
// WITH NO DATA, appends its rows. Creating and filling are two catalog
// commits; if filling fails the new table is dropped again, so no
// half-made table is left.
func (s *Session) createFromQuery(ctx context.Context, into *pg_query.IntoClause, sel *pg_query.SelectStmt, query string, ifNotExists bool) (Result, error) {
	switch {
	case into.AccessMethod != "":
		return nil, pgerror.Unsupported("table access methods are not supported")
	case into.TableSpaceName != "":
		return nil, pgerror.Unsupported("tablespaces are not supported")
	}
	cat, ns, err := s.creationSchema(ctx, into.Rel)
	if err != nil {
		return nil, err
	}
	name := into.Rel.Relname
	if ifNotExists {
		if _, err := cat.LoadTable(ctx, ns, name); err == nil {
			s.notice(pgerror.DuplicateTable, "", "relation \"%s\" already exists, skipping", name)
			return commandResult("CREATE TABLE AS"), nil
		}
	}
	p, err := s.bindSelect(ctx, sel, query, nil)
	if err != nil {
		return nil, err
	}
	tags, err := carriedTags(p.Root)
	if err != nil {
		return nil, err
	}
	p = s.optimize(p)
	cols := p.Root.Columns()
	if len(into.ColNames) > len(cols) {
		return nil, pgerror.New(pgerror.SyntaxError, "too many column names were specified")
	}
	opts, err := tableOptions(into.Options)
	if err != nil {
		return nil, err
	}
	fields, props, err := ctasColumns(cols, into.ColNames)
	if err != nil {
		return nil, err
	}
	opts.ColumnProperties = props
	if tags != nil {
		// The columns' tags are part of the table from its creation on.
		opts.FieldIDProperties = creationTags(fields, tags)
	}
	schema := arrow.NewSchema(fields, nil)
	tbl, err := cat.CreateTable(ctx, ns, name, schema, opts)
	if err != nil {
		return nil, relationErr(err, name)
	}
	if into.SkipData {
		return commandResult("CREATE TABLE AS"), nil
	}
	n, err := s.fillTable(ctx, tbl, p, schema)
	if err != nil {
		if dropErr := cat.DropTable(context.WithoutCancel(ctx), ns, name); dropErr != nil {
			return nil, errors.Join(err, fmt.Errorf("drop half-made table %s: %w", tbl.Ident(), dropErr))
		}
		return nil, err
	}
	return commandResult("SELECT " + strconv.FormatInt(n, 10)), nil
}

// ctasColumns are the new table's fields (all nullable, as PostgreSQL's
// CREATE TABLE AS adds no constraints) and per-column properties.
func ctasColumns(cols []planner.Column, names []*pg_query.Node) ([]arrow.Field, map[string]map[string]string, error) {
	fields := make([]arrow.Field, len(cols))
	props := map[string]map[string]string{}
	seen := map[string]bool{}
	for i, c := range cols {
		name := c.Name
		if i < len(names) {
			name = names[i].GetString_().GetSval()
		}
		if seen[name] {
			return nil, nil, pgerror.New(pgerror.DuplicateColumn, "column \"%s\" specified more than once", name)
		}
		seen[name] = true
		t := c.Type
		if t.OID == types.OIDUnknown {
			t = types.Text
		}
		var dt arrow.DataType
		if t.OID == types.OIDNumeric && t.Precision == 0 {
			// A computed numeric is held at the widest precision; it is
			// presented as plain numeric, as PostgreSQL declares it. One
			// whose values each have a scale is stored at the scale the
			// binder gave it.
			dt = types.Numeric(0, t.Scale).Arrow()
		} else {
			var err error
			if dt, err = storedType(t); err != nil {
				return nil, nil, err
			}
		}
		fields[i] = arrow.Field{Name: name, Type: dt, Nullable: true}
		if needsDeclaredType(t) || (t.OID == types.OIDNumeric && t.Precision == 0) {
			decl := t.Name()
			props[name] = map[string]string{propDeclaredType: decl}
		}
	}
	return fields, props, nil
}

// fillTable runs the planned query and appends its rows to tbl as one
// commit, returning how many there were. The rows are sorted by the
// table's sort order first, when it has one.
func (s *Session) fillTable(ctx context.Context, tbl *storage.Table, p *planner.Plan, schema *arrow.Schema) (int64, error) {
	names := make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		names[i] = f.Name
	}
	root, err := writeSort(p.Root, names, tbl.SortOrder())
	if err != nil {
		return 0, err
	}
	res, err := newRowsResult(ctx, s.callerContext(ctx), root, s.statementLimits())
	if err != nil {
		return 0, err
	}
	defer res.Close()
	rdr := &resultReader{ctx: ctx, res: res, schema: schema}
	if _, err := tbl.Append(ctx, rdr); err != nil {
		return 0, err
	}
	if rdr.err != nil {
		return 0, rdr.err
	}
	return rdr.rows, nil
}

// resultReader presents a running query as the record reader Append
// takes, renaming its columns to the new table's.
type resultReader struct {
	ctx    context.Context
	res    Result
	schema *arrow.Schema
	cur    arrow.RecordBatch
	rows   int64
	err    error
}

func (r *resultReader) Retain()               {}
func (r *resultReader) Release()              { r.release() }
func (r *resultReader) Schema() *arrow.Schema { return r.schema }
func (r *resultReader) Err() error            { return r.err }

func (r *resultReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch under its deprecated name.
func (r *resultReader) Record() arrow.RecordBatch { return r.cur }

func (r *resultReader) release() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *resultReader) Next() bool {
	r.release()
	if r.err != nil {
		return false
	}
	b, err := r.res.Next(r.ctx)
	if err != nil {
		r.err = err
		return false
	}
	if b == nil {
		return false
	}
	defer b.Release()
	fields := make([]arrow.Field, b.NumCols())
	cols := append([]arrow.Array(nil), b.Columns()...)
	for i := range fields {
		f := r.schema.Field(i)
		if g, ok := cols[i].(*types.NumericArray); ok {
			// A general numeric is stored at the column's fixed scale.
			dt, _ := f.Type.(arrow.DecimalType)
			if dt == nil {
				r.err = fmt.Errorf("column %s: a general numeric into %s", f.Name, f.Type)
				return false
			}
			fixed, err := types.NumericArrayToFixed(g, types.Numeric(dt.GetPrecision(), dt.GetScale()))
			if err != nil {
				r.err = err
				return false
			}
			defer fixed.Release()
			cols[i] = fixed
		}
		f.Type = cols[i].DataType()
		fields[i] = f
	}
	r.cur = array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows())
	r.rows += b.NumRows()
	return true
}
