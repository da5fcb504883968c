package sql

import (
	"context"
	"errors"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// maxExecuteDepth bounds EXECUTEs running inside each other: a statement
// the protocol prepared as an EXECUTE of another can be made to execute
// itself.
const maxExecuteDepth = 16

// runPrepare is PREPARE name [(types)] AS statement. The statement is bound
// now, as the caller, for its parameter types and row shape, and kept in
// the session's prepared statements beside the protocol's. Only its parse
// tree is kept: EXECUTE binds it again, as the caller then, so a policy
// or a table that changed in between applies. As in PostgreSQL, prepared
// statements are not transactional: a ROLLBACK keeps one PREPARE made.
func (s *Session) runPrepare(ctx context.Context, p *pg_query.PrepareStmt, stmt *Statement) (Result, error) {
	params := &planner.Params{}
	for _, tn := range p.Argtypes {
		t, err := planner.TypeFromName(tn.GetTypeName())
		if err != nil {
			var pe *pgerror.Error
			if errors.As(err, &pe) && pe.Position == 0 {
				return nil, pe.WithPosition(int32(tn.GetTypeName().GetLocation()) + 1)
			}
			return nil, err
		}
		params.Types = append(params.Types, t)
	}
	inner := &Statement{SQL: stmt.SQL, Offset: stmt.Offset, node: stmtNode{raw: p.Query, query: stmt.node.query, versions: stmt.node.versions}}
	ps, err := s.prepareStatement(ctx, inner, params)
	if err != nil {
		return nil, err
	}
	// A parameter whose type PREPARE did not declare and the statement
	// never refers to has none; one only the select list uses is text.
	refs := planner.ParamsReferenced(p.Query)
	for _, c := range stmt.node.versions {
		for _, n := range c.params {
			refs[n] = true
		}
	}
	for i, t := range ps.ParamTypes {
		if i >= len(p.Argtypes) && !refs[int32(i+1)] {
			return nil, pgerror.New(pgerror.IndeterminateDatatype, "could not determine data type of parameter $%d", i+1)
		}
		if t.OID == types.OIDUnknown {
			ps.ParamTypes[i] = types.Text
		}
	}
	ps.Name, ps.SQL, ps.FromSQL = p.Name, stmt.node.query, true
	if err := s.prepared.Add(ps); err != nil {
		return nil, err
	}
	return commandResult("PREPARE"), nil
}

// runExecute is EXECUTE name [(arguments)]: the prepared statement runs
// with the arguments as its parameters, bound again as the caller (the
// same path as a protocol Bind), and answers with its own rows and tag.
func (s *Session) runExecute(ctx context.Context, e *pg_query.ExecuteStmt, query string, outer *planner.Params) (Result, error) {
	ps, err := s.prepared.Get(e.Name)
	if err != nil {
		return nil, err
	}
	if err := checkExecuteArgCount(ps, e.Params); err != nil {
		return nil, err
	}
	if ps.Empty {
		return emptyResult{}, nil
	}
	if s.executeDepth >= maxExecuteDepth {
		return nil, pgerror.New(pgerror.StatementTooComplex, "stack depth limit exceeded")
	}
	s.executeDepth++
	defer func() { s.executeDepth-- }()
	raw, err := s.executeArguments(ctx, e.Params, ps.ParamTypes, query, outer)
	if err != nil {
		return nil, err
	}
	bound, err := s.decodeParams(ps.ParamTypes, raw, nil)
	if err != nil {
		return nil, err
	}
	ps.runs++
	// The prepared statement's own version clauses, not EXECUTE's.
	ctx, err = s.withTableVersions(ctx, ps.stmt, bound)
	if err != nil {
		return nil, err
	}
	res, err := s.execute(ctx, ps.stmt, bound)
	if err != nil {
		return nil, err
	}
	if ps.Columns != nil && !sameRowShape(ps.Columns, res.Columns()) {
		res.Close()
		return nil, errResultTypeChanged()
	}
	return res, nil
}

// checkExecuteArgCount refuses an EXECUTE with as many arguments as its
// statement has no parameters.
func checkExecuteArgCount(ps *PreparedStatement, args []*pg_query.Node) error {
	if len(args) == len(ps.ParamTypes) {
		return nil
	}
	return pgerror.New(pgerror.SyntaxError, "wrong number of parameters for prepared statement \"%s\"", ps.Name).
		WithDetail("Expected %d parameters but got %d.", len(ps.ParamTypes), len(args))
}

// executeArguments evaluates EXECUTE's arguments to the text form of
// their values (nil for NULL), converted to the parameters' types.
func (s *Session) executeArguments(ctx context.Context, args []*pg_query.Node, paramTypes []types.T, query string, outer *planner.Params) ([][]byte, error) {
	if len(args) == 0 {
		return nil, nil
	}
	p, err := s.newBinder(ctx, query, outer).BindExecuteParams(args, paramTypes)
	if err != nil {
		return nil, err
	}
	res, err := newRowsResult(ctx, s.callerContext(ctx), s.optimize(p).Root, s.statementLimits())
	if err != nil {
		return nil, err
	}
	defer res.Close()
	raw := make([][]byte, len(args))
	for {
		b, err := res.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			return raw, nil
		}
		for i := range raw {
			if b.NumRows() > 0 && !b.Column(i).IsNull(0) {
				raw[i] = []byte(b.Column(i).ValueStr(0))
			}
		}
		b.Release()
	}
}

// runDeallocate is DEALLOCATE [PREPARE] name | ALL. It drops a statement
// PREPARE or the protocol made alike; like PREPARE it is not undone by a
// ROLLBACK.
func (s *Session) runDeallocate(d *pg_query.DeallocateStmt) (Result, error) {
	if d.Name == "" {
		s.prepared.RemoveNamed()
		return commandResult("DEALLOCATE ALL"), nil
	}
	if !s.prepared.Remove(d.Name) {
		return nil, pgerror.New(pgerror.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", d.Name)
	}
	return commandResult("DEALLOCATE"), nil
}

// PreparedStatements lists the session's named prepared statements for
// pg_prepared_statements: the caller's own, as in PostgreSQL.
func (c catalogSource) PreparedStatements() []pgcatalog.PreparedStatement {
	named := c.s.prepared.named()
	out := make([]pgcatalog.PreparedStatement, len(named))
	for i, ps := range named {
		oids := make([]uint32, len(ps.ParamTypes))
		for j, t := range ps.ParamTypes {
			oids[j] = t.OID
		}
		out[i] = pgcatalog.PreparedStatement{
			Name: ps.Name, Statement: ps.SQL, PrepareTime: ps.Prepared, ParameterTypes: oids,
			FromSQL: ps.FromSQL, CustomPlans: ps.runs,
		}
	}
	return out
}
