package sql

import (
	"context"

	"errors"
	"fmt"
	"github.com/apache/arrow-go/v18/arrow"
	"strings"
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/audit"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Session is one client's SQL session. It is not safe for concurrent use:
// pgwire runs one statement at a time per session.
type Session struct {
	// scope is the statement being run's (statement_scope.go).
	scope     *statementScope
	engine    *Engine
	identity  auth.Identity
	database  string
	settings  *settings
	catalog   *sessionCatalog
	security  planner.Security
	superuser bool
	// txStatus is the ReadyForQuery status: 'I' idle, 'T' in a
	// transaction block, 'E' in a failed one.
	txStatus byte
	// tx is the open transaction block's undo state, nil when idle.
	tx *txBlock
	// cursors are the session's open cursors (DECLARE).
	cursors cursorSet
	// prepared are the session's prepared statements, the protocol's
	// and PREPARE's alike.
	prepared PreparedStatements
	// executeDepth counts the EXECUTEs running inside each other, so a
	// statement that executes itself through another ends with an error.
	executeDepth int
	// clock holds the statement's and the transaction's start times,
	// which now() and current_timestamp report.
	clock sessionClock
	// backend is the session's connection among the server's.
	backend backendState
	// clientAddr is the client's address, for the audit log.
	clientAddr string
	// tokenRoles are the roles of the login token; rolesVersion the
	// version of the store's roles identity.Roles was computed at, -1
	// before the first statement (refreshRoles).
	tokenRoles   []string
	rolesVersion int64
	// serverTimeout is the server's bound on this session's statements
	// (QueryTimeouts.For its roles); 0 for none.
	serverTimeout time.Duration
}

// stmtNode is a statement's parse tree, with the whole query string its
// locations refer to.
type stmtNode struct {
	raw   *pg_query.Node
	query string
	// versions are the statement's FOR ... AS OF clauses, taken out of
	// the text PostgreSQL's parser read (table_version_parse.go).
	versions []versionClause
}

// Identity is the session's authenticated caller.
func (s *Session) Identity() auth.Identity { return s.identity }

// Parse splits and parses a query string. Zero statements means the
// string was empty or held only comments.
func (s *Session) Parse(_ context.Context, query string) ([]*Statement, error) {
	var start time.Time
	if s.auditor() != nil {
		start = time.Now()
	}
	stmts, err := s.parse(query)
	if err != nil {
		s.auditFailedStatement(query, start, err)
	}
	return stmts, err
}

func (s *Session) parse(query string) ([]*Statement, error) {
	pieces, err := parseExtensions(query)
	if err != nil {
		s.failTransaction()
		return nil, err
	}
	pgText := query
	if len(pieces) > 0 {
		pgText = blankPieces(query, pieces)
	}
	clauses, err := findVersionClauses(pgText)
	if err != nil {
		s.failTransaction()
		return nil, err
	}
	if len(clauses) > 0 {
		pgText = blankVersionClauses(pgText, clauses)
	}
	var parses *parseCache
	if s.engine != nil {
		parses = s.engine.parses
	}
	tree, err := parseQuery(parses, pgText)
	if err != nil {
		s.failTransaction()
		var perr *pgparser.Error
		if errors.As(err, &perr) {
			e := pgerror.New(pgerror.SyntaxError, "%s", perr.Message)
			if perr.Cursorpos > 0 {
				e = e.WithPosition(int32(perr.Cursorpos))
			}
			if strings.Contains(perr.Message, "unterminated") {
				e.Code = pgerror.SyntaxError
			}
			return nil, e
		}
		return nil, pgerror.Wrap(err, pgerror.SyntaxError, "syntax error")
	}
	out := make([]*Statement, 0, len(tree.Stmts)+len(pieces))
	for _, rs := range tree.Stmts {
		start := int(rs.StmtLocation)
		end := len(query)
		if rs.StmtLen > 0 {
			end = start + int(rs.StmtLen)
		}
		for len(pieces) > 0 && pieces[0].start < start {
			out = append(out, extStatement(query, pieces[0]))
			pieces = pieces[1:]
		}
		var versions []versionClause
		for _, c := range clauses {
			if c.relation >= start && c.relation < end {
				versions = append(versions, c)
			}
		}
		out = append(out, &Statement{
			SQL:    strings.TrimSpace(query[start:end]),
			Offset: start,
			node:   stmtNode{raw: rs.Stmt, query: query, versions: versions},
		})
	}
	for _, p := range pieces {
		out = append(out, extStatement(query, p))
	}
	return out, nil
}

func extStatement(query string, p extPiece) *Statement {
	return &Statement{SQL: strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(query[p.start:p.end]), ";")), Offset: p.start,
		node: stmtNode{raw: &pg_query.Node{}, query: query}, ext: p.stmt}
}

// TxStatus is the ReadyForQuery transaction status byte.
func (s *Session) TxStatus() byte { return s.txStatus }

// ReportedParameters are the current values of the GUC_REPORT settings.
func (s *Session) ReportedParameters() map[string]string {
	r := s.settings.reported()
	if s.superuser {
		r["is_superuser"] = "on"
	}
	return r
}

// Close ends the session, releasing its open cursors. A transaction block
// still open is rolled back: its staged writes are deleted.
func (s *Session) Close() {
	if s.tx != nil {
		s.tx.writes.truncate(0)
	}
	s.cursors.closeAll()
}

// Execute runs one statement. A statement that fails inside a transaction
// block puts the block into the failed state, as PostgreSQL does.
func (s *Session) Execute(ctx context.Context, stmt *Statement) (Result, error) {
	return s.executeWithParams(ctx, stmt, nil)
}

func (s *Session) executeWithParams(ctx context.Context, stmt *Statement, params *planner.Params) (Result, error) {
	s.clock.startStatement(s.tx != nil)
	scope := &statementScope{}
	var start time.Time
	if s.auditor() != nil {
		start = time.Now()
		scope.decisions = &audit.DecisionLog{}
	}
	ctx = withStatementScope(ctx, scope)
	s.scope = scope
	if err := s.refreshRoles(ctx); err != nil {
		s.failTransaction()
		return nil, err
	}
	ctx, err := s.withTableVersions(ctx, stmt, params)
	var res Result
	if err == nil {
		res, err = s.execute(ctx, stmt, params)
	}
	if err != nil {
		s.failTransaction()
		if a := s.auditor(); a != nil {
			a.Statement(s.statementRecord(stmt.SQL, start, err, scope))
		}
		return nil, err
	}
	t := &trackedResult{Result: res, s: s, scope: scope}
	if s.auditor() != nil {
		t.audit = &statementAudit{s: s, text: stmt.SQL, start: start, result: res, scope: scope}
	}
	return t, nil
}

// FailTransaction marks an open transaction block failed after an error
// raised outside the session (pgwire's protocol errors).
func (s *Session) FailTransaction() { s.failTransaction() }

// failTransaction marks a transaction block failed after an error.
func (s *Session) failTransaction() {
	if s.txStatus == 'T' {
		s.txStatus = 'E'
	}
}

// trackedResult fails the session's transaction block when producing
// rows fails, as an error at execution does, and audits the statement
// when auditing is on.
type trackedResult struct {
	Result
	s     *Session
	audit *statementAudit
	// scope is what the statement read once when it started; its rows
	// are computed under it too.
	scope *statementScope
}

func (t *trackedResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := t.Result.Next(withStatementScope(ctx, t.scope))
	if err != nil {
		t.s.failTransaction()
	}
	if t.audit != nil {
		t.audit.observe(b, err)
	}
	return b, err
}

func (t *trackedResult) Close() {
	if t.audit != nil {
		t.audit.finish(nil)
	}
	t.Result.Close()
}

func (s *Session) execute(ctx context.Context, stmt *Statement, params *planner.Params) (Result, error) {
	n := stmt.node.raw
	if s.txStatus == 'E' {
		if ts := n.GetTransactionStmt(); ts == nil || !endsTransaction(ts.Kind) {
			return nil, pgerror.New(pgerror.InFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
		}
	}
	if stmt.ext != nil {
		return s.runAccess(ctx, stmt.ext)
	}
	if res, ok, err := s.runDDL(ctx, n, stmt.node.query); ok {
		return res, err
	}
	switch x := n.Node.(type) {
	case *pg_query.Node_SelectStmt:
		s.markQueried()
		return s.runQuery(ctx, x.SelectStmt, stmt.node.query, params)
	case *pg_query.Node_ExplainStmt:
		return s.runExplain(ctx, x.ExplainStmt, stmt.node.query)
	case *pg_query.Node_VariableSetStmt:
		return s.runSet(x.VariableSetStmt)
	case *pg_query.Node_VariableShowStmt:
		return s.runShow(x.VariableShowStmt)
	case *pg_query.Node_TransactionStmt:
		return s.runTransaction(ctx, x.TransactionStmt)
	case *pg_query.Node_CopyStmt:
		return s.runCopy(ctx, x.CopyStmt, stmt.node.query)
	case *pg_query.Node_InsertStmt:
		return s.runInsert(ctx, x.InsertStmt, stmt.node.query, params)
	case *pg_query.Node_DeleteStmt:
		return s.rerunOnConflict(ctx, func() (Result, error) {
			return s.runDelete(ctx, x.DeleteStmt, stmt.node.query, params)
		})
	case *pg_query.Node_UpdateStmt:
		return s.rerunOnConflict(ctx, func() (Result, error) {
			return s.runUpdate(ctx, x.UpdateStmt, stmt.node.query, params)
		})
	case *pg_query.Node_MergeStmt:
		return s.rerunOnConflict(ctx, func() (Result, error) {
			return s.runMerge(ctx, x.MergeStmt, stmt.node.query, params)
		})
	case *pg_query.Node_CallStmt:
		return s.runCall(ctx, x.CallStmt, stmt.node.query, params)
	case *pg_query.Node_DeclareCursorStmt:
		return s.runDeclareCursor(ctx, x.DeclareCursorStmt, stmt.node.query, params)
	case *pg_query.Node_FetchStmt:
		return s.runFetch(ctx, x.FetchStmt)
	case *pg_query.Node_ClosePortalStmt:
		return s.runCloseCursor(x.ClosePortalStmt)
	case *pg_query.Node_DiscardStmt:
		return s.runDiscard(x.DiscardStmt)
	case *pg_query.Node_VacuumStmt:
		return s.runVacuum(ctx, x.VacuumStmt, stmt.node.query)
	case *pg_query.Node_PrepareStmt:
		return s.runPrepare(ctx, x.PrepareStmt, stmt)
	case *pg_query.Node_ExecuteStmt:
		return s.runExecute(ctx, x.ExecuteStmt, stmt.node.query, params)
	case *pg_query.Node_DeallocateStmt:
		return s.runDeallocate(x.DeallocateStmt)
	}
	if params != nil && len(params.Types) > 0 {
		return nil, pgerror.Unsupported("parameters in this statement are not supported yet")
	}
	name := strings.TrimPrefix(fmt.Sprintf("%T", n.Node), "*pg_query.Node_")
	return nil, pgerror.Unsupported("%s is not supported yet", statementName(name))
}

// statementName turns a parse-node name (CreateStmt) into words a user
// recognises (CREATE statement).
func statementName(node string) string {
	node = strings.TrimSuffix(node, "Stmt")
	var b strings.Builder
	for i, r := range node {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String()) + " statement"
}

// newBinder is a binder for one statement of this session: its catalog,
// governance and settings, and params (nil when the statement has none).
func (s *Session) newBinder(ctx context.Context, query string, params *planner.Params) *planner.Binder {
	b := planner.NewBinder(ctx, s.catalog, s.security, query)
	b.SetSession(sessionInfo{s})
	if tv := tableVersionsOf(ctx); tv != nil {
		b.SetTableVersions(tv.byLocation, tv.def)
	}
	if params != nil {
		b.SetParams(params)
	}
	return b
}

// bindSelect binds (without optimizing) a SELECT; params may be nil.
func (s *Session) bindSelect(ctx context.Context, sel *pg_query.SelectStmt, query string, params *planner.Params) (*planner.Plan, error) {
	b := s.newBinder(ctx, query, params)
	return b.BindSelect(sel)
}

func (s *Session) plan(ctx context.Context, sel *pg_query.SelectStmt, query string, params *planner.Params) (*planner.Plan, error) {
	p, err := s.bindSelect(ctx, sel, query, params)
	if err != nil {
		return nil, err
	}
	return s.optimize(p), nil
}

// optimize turns a bound plan into the one to run, in the session's
// degree of parallelism. Every statement's plan is optimized here.
func (s *Session) optimize(p *planner.Plan) *planner.Plan {
	return planner.Optimize(p, s.parallelOptions())
}

func (s *Session) runSelect(ctx context.Context, sel *pg_query.SelectStmt, query string, params *planner.Params) (Result, error) {
	p, err := s.plan(ctx, sel, query, params)
	if err != nil {
		return nil, err
	}
	return newRowsResult(ctx, s.callerContext(ctx), p.Root, s.statementLimits())
}

// runQuery runs a statement's SELECT where sqe.execution places it (the
// SELECTs SQE runs for itself, as runSelect's callers do, stay here).
func (s *Session) runQuery(ctx context.Context, sel *pg_query.SelectStmt, query string, params *planner.Params) (Result, error) {
	pl, err := s.placedPlan(ctx, sel, query, params)
	if err != nil {
		return nil, err
	}
	return newRowsResult(ctx, s.callerContext(ctx), pl.root, s.statementLimits())
}

// placedPlan binds, secures and optimizes a SELECT and places it.
func (s *Session) placedPlan(ctx context.Context, sel *pg_query.SelectStmt, query string, params *planner.Params) (placement, error) {
	bound, err := s.bindSelect(ctx, sel, query, params)
	if err != nil {
		return placement{}, err
	}
	return s.placeSelect(ctx, bound)
}

func (s *Session) runExplain(ctx context.Context, ex *pg_query.ExplainStmt, query string) (Result, error) {
	for _, o := range ex.Options {
		if d := o.GetDefElem(); d != nil && d.Defname != "verbose" && d.Defname != "costs" && d.Defname != "analyze" && d.Defname != "timing" {
			return nil, pgerror.Unsupported("EXPLAIN option %s is not supported yet", strings.ToUpper(d.Defname))
		} else if d != nil {
			if _, err := defBoolean(d); err != nil {
				return nil, err
			}
		}
	}
	if ins := ex.Query.GetInsertStmt(); ins != nil && !explainOption(ex.Options, "analyze", false) {
		return s.explainInsert(ctx, ins, query, ex.Options)
	}
	sel := ex.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerror.Unsupported("EXPLAIN of this statement is not supported yet")
	}
	planStart := time.Now()
	pl, err := s.placedPlan(ctx, sel, query, nil)
	if err != nil {
		return nil, err
	}
	var text string
	if explainOption(ex.Options, "analyze", false) {
		if text, err = s.explainAnalyze(ctx, pl.root, ex.Options, time.Since(planStart)); err != nil {
			return nil, err
		}
	} else {
		text = explainText(pl.root, ex.Options)
	}
	if pl.note != "" {
		text = "Runs in SQE: " + pl.note + "\n" + text
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	rows := make([][]string, len(lines))
	for i, l := range lines {
		rows[i] = []string{l}
	}
	return newTextResult([]string{"QUERY PLAN"}, rows, "EXPLAIN")
}
