package sql

import (
	"context"
	"sync"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/audit"
)

// statementScope is what one statement reads once and then keeps: the
// governance stores' versions (governance.StatementVersions) and the
// caller's catalog view. A catalog query scans several relations, a
// correlated subquery over one of them once per outer row; each scan
// asked the catalog's version of SQLite again.
type statementScope struct {
	versions governance.StatementVersions
	// decisions collects the statement's access decisions for the audit
	// log; nil when auditing is off.
	decisions *audit.DecisionLog

	mu    sync.Mutex
	views map[string]scopedView // by database
}

// scopedView is the catalog view a statement found, ok false when none
// could be remembered.
type scopedView struct {
	view *catalogView
	ok   bool
}

type statementScopeKey struct{}

// withStatementScope returns ctx carrying sc and its governance pins.
func withStatementScope(ctx context.Context, sc *statementScope) context.Context {
	if sc.decisions != nil {
		ctx = audit.WithDecisionLog(ctx, sc.decisions)
	}
	return governance.WithStatementVersions(context.WithValue(ctx, statementScopeKey{}, sc), &sc.versions)
}

// scopeOf is the statement scope in ctx, nil outside a statement.
func scopeOf(ctx context.Context) *statementScope {
	sc, _ := ctx.Value(statementScopeKey{}).(*statementScope)
	return sc
}

// view returns the view the statement found for database, computing it
// with find the first time.
func (sc *statementScope) view(database string, find func() (*catalogView, bool, error)) (*catalogView, bool, error) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if v, ok := sc.views[database]; ok {
		return v.view, v.ok, nil
	}
	view, ok, err := find()
	if err != nil {
		return nil, false, err
	}
	if sc.views == nil {
		sc.views = map[string]scopedView{}
	}
	sc.views[database] = scopedView{view: view, ok: ok}
	return view, ok, nil
}

// functionContext is the context the catalog functions of the statement
// being bound (has_table_privilege, obj_description, ::regclass) answer
// in: the caller's, under the statement's scope. Their kernels take no
// context of their own; they are bound anew for each statement.
func (s *Session) functionContext() context.Context {
	ctx := s.callerContext(context.Background())
	if s.scope != nil {
		ctx = withStatementScope(ctx, s.scope)
	}
	return ctx
}
