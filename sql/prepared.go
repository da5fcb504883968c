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
	// FromSQL marks a statement PREPARE made (pg_prepared_statements).
	FromSQL bool
	// Prepared is when it was prepared.
	Prepared time.Time

	stmt *Statement
	// runs counts its executions: SQE plans each one with its
	// parameter values, which PostgreSQL calls a custom plan.
	runs int64
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
	ctx = withStatementScope(ctx, s.scope)
	err := s.refreshRoles(ctx)
	var ps *PreparedStatement
	if err == nil {
		ps, err = s.prepare(ctx, query, paramOIDs)
	}
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
		return &PreparedStatement{SQL: query, Empty: true, Prepared: time.Now()}, nil
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
	ps, err := s.prepareStatement(ctx, stmts[0], params)
	if err != nil {
		return nil, err
	}
	ps.SQL = query
	for i, t := range ps.ParamTypes {
		if t.OID == types.OIDUnknown {
			ps.ParamTypes[i] = types.Text
		}
	}
	return ps, nil
}

// prepareStatement binds stmt once for its row shape and the types of its
// parameters: params holds those declared (Unknown = infer) and gets the
// inferred ones; a parameter nothing says the type of stays Unknown.
func (s *Session) prepareStatement(ctx context.Context, stmt *Statement, params *planner.Params) (*PreparedStatement, error) {
	ps := &PreparedStatement{SQL: stmt.SQL, stmt: stmt, Prepared: time.Now()}
	ctx, err := s.withTableVersions(ctx, stmt, params)
	if err != nil {
		return nil, err
	}
	if stmt.ext != nil {
		ps.Columns = accessColumns(stmt.ext)
		return ps, nil
	}
	n := stmt.node.raw
	switch x := n.Node.(type) {
	case *pg_query.Node_ExecuteStmt:
		target, err := s.prepared.Get(x.ExecuteStmt.Name)
		if err != nil {
			return nil, err
		}
		if err := checkExecuteArgCount(target, x.ExecuteStmt.Params); err != nil {
			return nil, err
		}
		if len(x.ExecuteStmt.Params) > 0 {
			// Bound for the types of the parameters the arguments use.
			b := s.newBinder(ctx, stmt.node.query, params)
			if _, err := b.BindExecuteParams(x.ExecuteStmt.Params, target.ParamTypes); err != nil {
				return nil, err
			}
		}
		ps.Columns = target.Columns
	case *pg_query.Node_SelectStmt:
		p, err := s.bindSelect(ctx, x.SelectStmt, stmt.node.query, params)
		if err != nil {
			return nil, err
		}
		ps.Columns = planColumns(p.Root)
	case *pg_query.Node_InsertStmt:
		p, _, err := s.bindInsert(ctx, x.InsertStmt, stmt.node.query, params)
		if err != nil {
			return nil, err
		}
		if p.Returning != nil {
			ps.Columns = planColumns(p.Returning)
		}
	case *pg_query.Node_DeleteStmt:
		p, _, err := s.bindDelete(ctx, x.DeleteStmt, stmt.node.query, params)
		if err != nil {
			return nil, err
		}
		if p.Returning != nil {
			ps.Columns = planColumns(p.Returning)
		}
	case *pg_query.Node_UpdateStmt:
		p, _, err := s.bindUpdate(ctx, x.UpdateStmt, stmt.node.query, params)
		if err != nil {
			return nil, err
		}
		if p.Returning != nil {
			ps.Columns = planColumns(p.Returning)
		}
	case *pg_query.Node_CallStmt:
		cols, err := s.describeCall(ctx, x.CallStmt, stmt.node.query, params)
		if err != nil {
			return nil, err
		}
		ps.Columns = cols
	case *pg_query.Node_DeclareCursorStmt:
		// Bound only for its parameter types; DECLARE returns no rows.
		if sel := x.DeclareCursorStmt.Query.GetSelectStmt(); sel != nil {
			if _, err := s.bindSelect(ctx, sel, stmt.node.query, params); err != nil {
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
	bound, err := s.decodeParams(ps.ParamTypes, params, paramFormats)
	if err != nil {
		return nil, err
	}
	stmt := ps.stmt
	cols := ps.Columns
	if f := stmt.node.raw.GetFetchStmt(); f != nil {
		// The cursor may have been declared again since Parse.
		cols = s.fetchColumns(f)
	}
	ps.runs++
	return &deferredResult{cols: cols, run: func(ctx context.Context) (Result, error) {
		return s.executeWithParams(ctx, stmt, bound)
	}}, nil
}

// decodeParams decodes parameter values (nil = NULL) of the given types,
// each in its format (paramFormats holds 0, 1 or one per value).
func (s *Session) decodeParams(paramTypes []types.T, params [][]byte, paramFormats []int16) (*planner.Params, error) {
	values := make([]any, len(params))
	typesNow := append([]types.T(nil), paramTypes...)
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
		v, t, err := types.DecodeParam(raw, format, paramTypes[i])
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
	return &planner.Params{Types: typesNow, Values: values}, nil
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
		if d.cols != nil && !sameRowShape(d.cols, r.Columns()) {
			r.Close()
			return nil, errResultTypeChanged()
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

// sameRowShape reports whether rows described as want can be sent as got:
// the same number of columns of the same types.
func sameRowShape(want, got []Column) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i].Type.OID != got[i].Type.OID {
			return false
		}
	}
	return true
}

// errResultTypeChanged refuses to run a prepared statement whose rows no
// longer have the shape it was described with (a column's type, or the
// columns the caller may see, changed since it was prepared), as
// PostgreSQL refuses a cached plan whose result type changed.
func errResultTypeChanged() error {
	return pgerror.New(pgerror.FeatureNotSupported, "cached plan must not change result type")
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
