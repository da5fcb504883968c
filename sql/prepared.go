package sql

import (
	"context"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// PreparedStatement is a statement parsed once (extended protocol Parse)
// and executed any number of times with parameter values (Bind).
type PreparedStatement struct {
	// Name is the client's name for the statement ("" for the unnamed
	// one), for error messages.
	Name string
	SQL  string
	// ParamTypes has one type per $n: the type the client gave, or the one
	// inferred from the parameter's use (text when nothing says).
	ParamTypes []types.T
	// Columns is the row shape, nil when the statement returns no rows.
	Columns []Column
	// Empty is an empty or comment-only query.
	Empty bool

	stmt *Statement
}

// Prepare parses and binds query once, inferring parameter types and the
// result's columns. paramOIDs are the types the client declared (0 =
// infer).
func (s *Session) Prepare(ctx context.Context, query string, paramOIDs []uint32) (*PreparedStatement, error) {
	var start time.Time
	if s.auditor() != nil {
		start = time.Now()
	}
	s.scope = &statementScope{}
	ps, err := s.prepare(withStatementScope(ctx, s.scope), query, paramOIDs)
	if err != nil {
		s.failTransaction()
		s.auditFailedStatement(query, start, err)
	}
	return ps, err
}

func (s *Session) prepare(ctx context.Context, query string, paramOIDs []uint32) (*PreparedStatement, error) {
	stmts, err := s.parse(query)
	if err != nil {
		return nil, err
	}
	if len(stmts) == 1 && !s.allowedInFailedBlock(stmts[0]) {
		return nil, errInFailedBlock()
	}
	switch len(stmts) {
	case 0:
		return &PreparedStatement{SQL: query, Empty: true}, nil
	case 1:
	default:
		return nil, pgerror.New(pgerror.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	params := &planner.Params{}
	for _, oid := range paramOIDs {
		t, err := paramType(oid)
		if err != nil {
			return nil, err
		}
		params.Types = append(params.Types, t)
	}
	ps := &PreparedStatement{SQL: query, stmt: stmts[0]}
	if ctx, err = s.withTableVersions(ctx, stmts[0]); err != nil {
		return nil, err
	}
	if stmts[0].ext != nil {
		ps.Columns = accessColumns(stmts[0].ext)
		return ps, nil
	}
	n := stmts[0].node.raw
	switch x := n.Node.(type) {
	case *pg_query.Node_SelectStmt:
		p, err := s.bindSelect(ctx, x.SelectStmt, stmts[0].node.query, params)
		if err != nil {
			return nil, err
		}
		ps.Columns = planColumns(p.Root)
	case *pg_query.Node_InsertStmt:
		p, _, err := s.bindInsert(ctx, x.InsertStmt, stmts[0].node.query, params)
		if err != nil {
			return nil, err
		}
		if p.Returning != nil {
			ps.Columns = planColumns(p.Returning)
		}
	case *pg_query.Node_DeleteStmt:
		p, _, err := s.bindDelete(ctx, x.DeleteStmt, stmts[0].node.query, params)
		if err != nil {
			return nil, err
		}
		if p.Returning != nil {
			ps.Columns = planColumns(p.Returning)
		}
	case *pg_query.Node_UpdateStmt:
		p, _, err := s.bindUpdate(ctx, x.UpdateStmt, stmts[0].node.query, params)
		if err != nil {
			return nil, err
		}
		if p.Returning != nil {
			ps.Columns = planColumns(p.Returning)
		}
	case *pg_query.Node_CallStmt:
		cols, err := s.describeCall(ctx, x.CallStmt, stmts[0].node.query, params)
		if err != nil {
			return nil, err
		}
		ps.Columns = cols
	case *pg_query.Node_DeclareCursorStmt:
		// Bound only for its parameter types; DECLARE returns no rows.
		if sel := x.DeclareCursorStmt.Query.GetSelectStmt(); sel != nil {
			if _, err := s.bindSelect(ctx, sel, stmts[0].node.query, params); err != nil {
				return nil, err
			}
		}
	case *pg_query.Node_FetchStmt:
		ps.Columns = s.fetchColumns(x.FetchStmt)
	case *pg_query.Node_ExplainStmt:
		ps.Columns = textColumns("QUERY PLAN")
	case *pg_query.Node_VariableShowStmt:
		if strings.EqualFold(x.VariableShowStmt.Name, "all") {
			ps.Columns = textColumns("name", "setting", "description")
		} else {
			ps.Columns = textColumns(displayName(strings.ToLower(x.VariableShowStmt.Name)))
		}
	}
	for i, t := range params.Types {
		if t.OID == types.OIDUnknown {
			params.Types[i] = types.Text
		}
	}
	ps.ParamTypes = params.Types
	return ps, nil
}

// paramType maps a parameter type OID a client declared.
func paramType(oid uint32) (types.T, error) {
	switch oid {
	case 0:
		return types.Unknown, nil
	case types.OIDBool, types.OIDInt2, types.OIDInt4, types.OIDInt8, types.OIDFloat4, types.OIDFloat8,
		types.OIDNumeric, types.OIDText, types.OIDVarchar, types.OIDDate, types.OIDTimestamp, types.OIDTimestampTZ,
		types.OIDUUID, types.OIDBytea, types.OIDJSON, types.OIDJSONB, types.OIDTime, types.OIDInterval, types.OIDBpchar:
		return types.T{OID: oid}, nil
	case types.OIDUnknown:
		return types.Unknown, nil
	}
	// One-dimensional arrays of the element types above.
	if elem, ok := (types.T{OID: oid}).Elem(); ok && oid != types.OIDInt2Vector && oid != types.OIDOidVector {
		if _, err := paramType(elem.OID); err == nil {
			return types.T{OID: oid}, nil
		}
	}
	return types.T{}, pgerror.Unsupported("parameters of type OID %d are not supported yet", oid)
}

// Bind decodes parameter values and returns the portal's result. Nothing
// runs until the result's first Next, so side effects happen at Execute.
func (s *Session) Bind(ctx context.Context, ps *PreparedStatement, params [][]byte, paramFormats []int16) (Result, error) {
	start := time.Now()
	res, err := s.bind(ps, params, paramFormats)
	if err != nil {
		s.failTransaction()
		// A statement whose parameters cannot be bound never runs, but
		// it was attempted: the audit log records it as failed.
		s.auditFailedStatement(ps.SQL, start, err)
	}
	return res, err
}

func (s *Session) bind(ps *PreparedStatement, params [][]byte, paramFormats []int16) (Result, error) {
	if ps.Empty {
		return emptyResult{}, nil
	}
	if !s.allowedInFailedBlock(ps.stmt) {
		return nil, errInFailedBlock()
	}
	if len(params) != len(ps.ParamTypes) {
		return nil, pgerror.New(pgerror.ProtocolViolation, "bind message supplies %d parameters, but prepared statement \"%s\" requires %d", len(params), ps.Name, len(ps.ParamTypes))
	}
	if len(paramFormats) > 1 && len(paramFormats) != len(params) {
		return nil, pgerror.New(pgerror.ProtocolViolation, "bind message has %d parameter formats but %d parameters", len(paramFormats), len(params))
	}
	values := make([]any, len(params))
	typesNow := append([]types.T(nil), ps.ParamTypes...)
	for i, raw := range params {
		if raw == nil {
			continue
		}
		format := int16(0)
		switch {
		case len(paramFormats) == 1:
			format = paramFormats[0]
		case len(paramFormats) > 1:
			format = paramFormats[i]
		}
		v, t, err := types.DecodeParam(raw, format, ps.ParamTypes[i])
		if err != nil {
			return nil, err
		}
		if format == 0 && t.OID == types.OIDTimestampTZ {
			// A timestamptz sent as text without an offset is a wall
			// clock in the session's zone.
			if v, err = types.ParseTimestampIn(string(raw), t, s.settings.timeZone()); err != nil {
				return nil, err
			}
		}
		values[i], typesNow[i] = v, t
	}
	bound := &planner.Params{Types: typesNow, Values: values}
	stmt := ps.stmt
	cols := ps.Columns
	if f := stmt.node.raw.GetFetchStmt(); f != nil {
		// The cursor may have been declared again since Parse.
		cols = s.fetchColumns(f)
	}
	return &deferredResult{cols: cols, run: func(ctx context.Context) (Result, error) {
		return s.executeWithParams(ctx, stmt, bound)
	}}, nil
}

func planColumns(root planner.Node) []Column {
	var cols []Column
	for _, c := range root.Columns() {
		cols = append(cols, Column{Name: c.Name, Type: c.Type, TableOID: c.TableOID, AttNum: c.AttNum})
	}
	return cols
}

func textColumns(names ...string) []Column {
	cols := make([]Column, len(names))
	for i, n := range names {
		cols[i] = Column{Name: n, Type: types.Text}
	}
	return cols
}

// deferredResult runs its statement at the first Next.
type deferredResult struct {
	cols  []Column
	run   func(context.Context) (Result, error)
	inner Result
	done  bool
}

func (d *deferredResult) Columns() []Column { return d.cols }

func (d *deferredResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if d.inner == nil {
		if d.done {
			return nil, nil
		}
		d.done = true
		r, err := d.run(ctx)
		if err != nil {
			return nil, err
		}
		d.inner = r
	}
	return d.inner.Next(ctx)
}

func (d *deferredResult) CommandTag() string {
	if d.inner == nil {
		return ""
	}
	return d.inner.CommandTag()
}

func (d *deferredResult) Close() {
	if d.inner != nil {
		d.inner.Close()
	}
}

// emptyResult is the result of an empty query.
type emptyResult struct{}

func (emptyResult) Columns() []Column                               { return nil }
func (emptyResult) Next(context.Context) (arrow.RecordBatch, error) { return nil, nil }
func (emptyResult) CommandTag() string                              { return "" }
func (emptyResult) Close()                                          {}

// allowedInFailedBlock reports whether stmt may run now: in a failed
// transaction block only COMMIT, ROLLBACK and ROLLBACK TO may, as in
// PostgreSQL, which checks at Parse and Bind too.
func (s *Session) allowedInFailedBlock(stmt *Statement) bool {
	if s.txStatus != 'E' || stmt == nil {
		return true
	}
	ts := stmt.node.raw.GetTransactionStmt()
	return ts != nil && endsTransaction(ts.Kind)
}

func errInFailedBlock() error {
	return pgerror.New(pgerror.InFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
}
