package sql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// codeBadCopyFileFormat is SQLSTATE 22P04, bad_copy_file_format.
const codeBadCopyFileFormat = "22P04"

// A COPY FROM batch ends at this many rows or this many bytes of input,
// whichever comes first: memory stays bounded by the batch, whatever the
// size of the input.
const (
	copyBatchRows  = 16384
	copyBatchBytes = 8 << 20
)

// CopyInResult is a COPY ... FROM STDIN waiting for its data. pgwire
// answers CopyInResponse with CopyInFormat, then calls Load with a reader
// of the CopyData payloads, which ends at CopyDone. CommandTag is
// "COPY n" once Load returns. Columns is nil and Next returns nothing.
type CopyInResult interface {
	Result
	// CopyInFormat is the data format and the columns the data holds.
	CopyInFormat() CopyFormat
	// Load parses the data as it arrives into batches of bounded size,
	// writes them as data files and commits them as one snapshot at the
	// end. On any error (bad data, the reader failing because the client
	// sent CopyFail or went away) nothing is committed and the files
	// written so far are removed.
	Load(ctx context.Context, src io.Reader) error
	// Deadline is when the statement's timeout ends it, zero for none:
	// the data must have arrived by then, so whoever waits for the client
	// on Load's behalf waits no longer.
	Deadline() time.Time
}

// StartCopyIn returns res as a CopyInResult when it is a COPY ... FROM
// STDIN, or nil. A portal's result is started here, as StartCopyOut does.
func StartCopyIn(ctx context.Context, res Result) (CopyInResult, error) {
	inner := res
	if d, ok := inner.(*deferredResult); ok {
		if err := d.start(ctx); err != nil {
			return nil, err
		}
		if d.inner == nil {
			return nil, nil
		}
		inner = d.inner
	}
	var audit *statementAudit
	if t, ok := inner.(*trackedResult); ok {
		inner, audit = t.Result, t.audit
	}
	c, _ := inner.(CopyInResult)
	if c == nil {
		return nil, nil
	}
	if audit != nil {
		return auditedCopyIn{CopyInResult: c, audit: audit}, nil
	}
	return c, nil
}

// copyInResult is a COPY FROM STDIN statement, bound and waiting.
type copyInResult struct {
	s       *Session
	target  *insertTarget
	format  CopyFormat
	opts    *copyOptions
	listed  []int             // the table column each data field goes to
	defs    arrow.RecordBatch // one row of every column's default; nil when all are listed
	rows    int64
	tagDone bool
	// deadline ends the statement (statementLimits), zero for none.
	deadline time.Time
}

// copyFrom binds COPY table [(cols)] FROM STDIN. As in PostgreSQL the
// table is opened before the options are read and the column list after.
func (s *Session) copyFrom(ctx context.Context, c *pg_query.CopyStmt, query string) (Result, error) {
	if c.Relation == nil {
		return nil, pgerror.New(pgerror.SyntaxError, "COPY FROM requires a table")
	}
	if c.WhereClause != nil {
		return nil, pgerror.Unsupported("COPY FROM with WHERE is not supported yet")
	}
	target, err := s.resolveRowTarget(ctx, c.Relation, query)
	if err != nil {
		return nil, withoutPosition(err)
	}
	opts, err := parseCopyOptionsFor(c.Options, true)
	if err != nil {
		return nil, err
	}
	tcols := target.adapter.Columns()
	all := make([]Column, len(tcols))
	for i, tc := range tcols {
		all[i] = Column{Name: tc.Name, Type: tc.Type}
	}
	listed := make([]int, len(all))
	for i := range listed {
		listed[i] = i
	}
	if len(c.Attlist) > 0 {
		if listed, err = columnIndexes(listNames(c.Attlist), all, c.Relation.Relname); err != nil {
			return nil, err
		}
	}
	r := &copyInResult{s: s, target: target, opts: opts, listed: listed, format: opts.format, deadline: s.statementLimits().deadline}
	for _, i := range listed {
		r.format.Columns = append(r.format.Columns, all[i])
	}
	for _, force := range []struct {
		names []string
		what  string
	}{{opts.forceNotNull, "FORCE_NOT_NULL"}, {opts.forceNull, "FORCE_NULL"}} {
		if err := r.checkForced(force.names, all, force.what, c.Relation.Relname); err != nil {
			return nil, err
		}
	}
	if len(listed) < len(all) {
		if r.defs, err = s.defaultRow(ctx, c.Relation, query); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// checkForced checks FORCE_NOT_NULL or FORCE_NULL columns: each must be
// one of the columns copied.
func (r *copyInResult) checkForced(names []string, all []Column, what, relname string) error {
	idx, err := columnIndexes(names, all, relname)
	if err != nil {
		return err
	}
	for _, i := range idx {
		found := false
		for _, l := range r.listed {
			found = found || l == i
		}
		if !found {
			return pgerror.New(pgerror.InvalidColumnReference, "%s column \"%s\" not referenced by COPY", what, all[i].Name)
		}
	}
	return nil
}

// defaultRow computes one row of the table's column defaults (NULL where
// a column has none), as INSERT ... DEFAULT VALUES would write it.
func (s *Session) defaultRow(ctx context.Context, rel *pg_query.RangeVar, query string) (arrow.RecordBatch, error) {
	plan, _, err := s.bindInsert(ctx, &pg_query.InsertStmt{Relation: rel}, query, nil)
	if err != nil {
		return nil, err
	}
	rows, err := newRowsResult(ctx, s.callerContext(ctx), plan.Source, s.statementLimits())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	b, err := rows.Next(ctx)
	if err != nil {
		return nil, err
	}
	if b == nil || b.NumRows() != 1 {
		return nil, pgerror.New(pgerror.InternalError, "column defaults of %s gave no row", rel.Relname)
	}
	return b, nil
}

func (r *copyInResult) Columns() []Column                               { return nil }
func (r *copyInResult) Next(context.Context) (arrow.RecordBatch, error) { return nil, nil }
func (r *copyInResult) CopyInFormat() CopyFormat                        { return r.format }
func (r *copyInResult) CommandTag() string                              { return "COPY " + strconv.FormatInt(r.rows, 10) }

func (r *copyInResult) Close() {
	if r.defs != nil {
		r.defs.Release()
		r.defs = nil
	}
}

func (r *copyInResult) Deadline() time.Time { return r.deadline }

func (r *copyInResult) Load(ctx context.Context, src io.Reader) error {
	if !r.deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, r.deadline)
		defer cancel()
	}
	err := r.load(ctx, src)
	if err != nil {
		r.s.failTransaction()
	}
	return err
}

func (r *copyInResult) load(ctx context.Context, src io.Reader) error {
	t := r.target.adapter
	schema := t.t.Schema()
	zone := r.s.settings.timeZone()
	cols := make([]*copyColumn, len(r.listed))
	for i, idx := range r.listed {
		tc := t.cols[idx]
		cols[i] = newCopyColumn(tc.Name, tc.Type, schema.Field(idx).Type, tc.Nullable, zone)
		defer cols[i].bld.Release()
	}
	for _, name := range r.opts.forceNotNull {
		for _, c := range cols {
			c.forceNotNull = c.forceNotNull || c.name == name
		}
	}
	for _, name := range r.opts.forceNull {
		for _, c := range cols {
			c.forceNull = c.forceNull || c.name == name
		}
	}
	var parse func() (int, error)
	if r.format.Mode == CopyBinary {
		parse = newBinaryCopyParser(src, cols, r.target.relname).parseBatch
	} else {
		parse = newTextCopyParser(src, &r.format, r.opts.headerMatch, cols, r.target.relname).parseBatch
	}
	next := func() (arrow.RecordBatch, error) {
		if err := ctx.Err(); err != nil {
			return nil, pgerror.From(err)
		}
		n, err := parse()
		if err != nil || n == 0 {
			return nil, err
		}
		return r.assemble(schema, cols, n)
	}
	parsed, stop := parseAhead(next)
	defer stop()
	pull := parsed
	if order := t.t.SortOrder(); len(order) > 0 {
		// A sorted table's rows are all parsed and sorted before the
		// first is written.
		sorted, err := newSortedStream(ctx, r.s.statementLimits(), schema, order, func(context.Context) (arrow.RecordBatch, error) { return parsed() })
		if err != nil {
			return fmt.Errorf("copy into %s: %w", r.target.relname, err)
		}
		defer sorted.Close()
		pull = sorted.Next
	}
	rdr := newWriteReader(schema, r.target.relname, pull)
	defer rdr.Release()
	err := r.s.writeTable(r.s.callerContext(ctx), t.t, rdr)
	stop()
	if err != nil {
		return fmt.Errorf("copy into %s: %w", r.target.relname, err)
	}
	r.rows = rdr.rows
	// Whatever follows the end marker up to CopyDone is not data.
	if _, err := io.Copy(io.Discard, src); err != nil {
		return err
	}
	return nil
}

// assemble makes a batch in table order from the parsed columns and, for
// the columns not copied, their defaults.
func (r *copyInResult) assemble(schema *arrow.Schema, cols []*copyColumn, n int) (arrow.RecordBatch, error) {
	arrays := make([]arrow.Array, schema.NumFields())
	defer func() {
		for _, a := range arrays {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, idx := range r.listed {
		arrays[idx] = cols[i].bld.NewArray()
	}
	for idx := range arrays {
		if arrays[idx] != nil {
			continue
		}
		sc, err := scalar.GetScalar(r.defs.Column(idx), 0)
		if err != nil {
			return nil, fmt.Errorf("default of column %s: %w", schema.Field(idx).Name, err)
		}
		a, err := scalar.MakeArrayFromScalar(sc, n, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("default of column %s: %w", schema.Field(idx).Name, err)
		}
		arrays[idx] = a
	}
	fields := make([]arrow.Field, len(arrays))
	for i, a := range arrays {
		fields[i] = arrow.Field{Name: schema.Field(i).Name, Type: a.DataType(), Nullable: true}
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrays, int64(n)), nil
}

// textCopyParser reads text and csv COPY data into the columns' builders.
type textCopyParser struct {
	lines    *copyLineReader
	format   *CopyFormat
	cols     []*copyColumn
	relname  string
	header   bool // a header line is still to come
	match    bool // HEADER MATCH
	done     bool
	fields   []copyField
	scratch  []byte
	splitter func([]byte, *CopyFormat, []copyField, []byte) ([]copyField, []byte)
}

func newTextCopyParser(src io.Reader, f *CopyFormat, match bool, cols []*copyColumn, relname string) *textCopyParser {
	p := &textCopyParser{lines: newCopyLineReader(src, *f), format: f, cols: cols, relname: relname, header: f.Header, match: match, splitter: splitText}
	if f.Mode == CopyCSV {
		p.splitter = splitCSV
	}
	return p
}

// parseBatch parses up to a batch of rows and returns how many; 0 at the
// end of the data.
func (p *textCopyParser) parseBatch() (int, error) {
	n, size := 0, 0
	for !p.done && n < copyBatchRows && size < copyBatchBytes {
		line, err := p.lines.next()
		if errors.Is(err, io.EOF) {
			p.done = true
			break
		}
		var srcErr *copySourceError
		if errors.As(err, &srcErr) {
			// PostgreSQL names the line it was reading, without its text.
			if pe := pgerror.From(srcErr.err); pe.Code != pgerror.InternalError {
				return 0, pe.WithWhere("COPY %s, line %d", p.relname, p.lines.lineNo+1)
			}
			return 0, srcErr.err
		}
		if err != nil {
			return 0, p.lineError(err, p.lines.line)
		}
		if err := pgerror.CheckUTF8(bytesString(line)); err != nil {
			// As in PostgreSQL, the line is not quoted: it cannot be shown.
			return 0, pgerror.From(err).WithWhere("COPY %s, line %d", p.relname, p.lines.lineNo)
		}
		p.fields, p.scratch = p.splitter(line, p.format, p.fields, p.scratch)
		if p.header {
			p.header = false
			if err := p.checkHeader(line); err != nil {
				return 0, err
			}
			continue
		}
		if err := p.parseRow(line); err != nil {
			return 0, err
		}
		n++
		size += len(line)
	}
	return n, nil
}

func (p *textCopyParser) parseRow(line []byte) error {
	if len(p.fields) > len(p.cols) {
		return p.lineError(pgerror.New(codeBadCopyFileFormat, "extra data after last expected column"), line)
	}
	if len(p.fields) < len(p.cols) {
		return p.lineError(pgerror.New(codeBadCopyFileFormat, "missing data for column \"%s\"", p.cols[len(p.fields)].name), line)
	}
	for i, c := range p.cols {
		f := &p.fields[i]
		null := f.null
		value := f.value
		if null && c.forceNotNull {
			null, value = false, f.raw
		} else if !null && f.quoted && c.forceNull && string(f.value) == p.format.Null {
			null = true
		}
		if null {
			if !c.nullable {
				return p.lineError(pgerror.New(pgerror.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint", c.name, p.relname), line)
			}
			c.bld.AppendNull()
			continue
		}
		if err := c.appendText(value); err != nil {
			pe := pgerror.From(err)
			return pe.WithWhere("COPY %s, line %d, column %s: \"%s\"", p.relname, p.lines.lineNo, c.name, printable(value))
		}
	}
	return nil
}

// checkHeader skips the header line, or with HEADER MATCH checks that it
// names the columns copied.
func (p *textCopyParser) checkHeader(line []byte) error {
	if !p.match {
		return nil
	}
	if len(p.fields) != len(p.cols) {
		return p.lineError(pgerror.New(codeBadCopyFileFormat, "wrong number of fields in header line: got %d, expected %d", len(p.fields), len(p.cols)), line)
	}
	for i, c := range p.cols {
		f := p.fields[i]
		if f.null {
			return p.lineError(pgerror.New(codeBadCopyFileFormat, "column name mismatch in header line field %d: got null value (\"%s\"), expected \"%s\"", i+1, p.format.Null, c.name), line)
		}
		if string(f.value) != c.name {
			return p.lineError(pgerror.New(codeBadCopyFileFormat, "column name mismatch in header line field %d: got \"%s\", expected \"%s\"", i+1, f.value, c.name), line)
		}
	}
	return nil
}

// lineError puts PostgreSQL's CONTEXT for a line on err.
func (p *textCopyParser) lineError(err error, line []byte) error {
	pe := pgerror.From(err)
	if pe.Code == pgerror.InternalError {
		return err
	}
	return pe.WithWhere("COPY %s, line %d: \"%s\"", p.relname, p.lines.lineNo, printable(line))
}

// printable shortens a value or line for an error context as PostgreSQL
// does (limit_printout_length: 100 bytes, then "...").
func printable(b []byte) string {
	const limit = 100
	if len(b) <= limit {
		return string(b)
	}
	cut := limit
	for cut > 0 && b[cut]&0xC0 == 0x80 {
		cut--
	}
	return string(b[:cut]) + "..."
}
