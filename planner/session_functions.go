package planner

import (
	"context"
	"strings"
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// SessionInfo answers the functions that describe the session
// (current_user, version(), current_setting(...)). They are stable within
// a statement, so the binder folds them to constants; that also makes
// them usable in policy filters, which are folded per session.
type SessionInfo interface {
	User() string
	Database() string
	// CurrentSchema is the first schema of search_path that exists, or ""
	// when none does.
	CurrentSchema(ctx context.Context) string
	// Setting is current_setting(name).
	Setting(name string) (string, error)
	// Version is version()'s text.
	Version() string
	// TransactionStart is now()'s answer: when the transaction (or the
	// statement, outside a block) began. StatementStart is
	// statement_timestamp()'s.
	TransactionStart() time.Time
	StatementStart() time.Time
	// Function resolves a function the session provides (catalog lookups
	// such as pg_table_is_visible); ok is false when it has none by that
	// name.
	Function(name string, args []types.T) (f *SessionFunction, ok bool, err error)
}

// SessionFunction is a function computed row by row by the session.
type SessionFunction struct {
	// ArgTypes are the types the arguments are converted to.
	ArgTypes  []types.T
	Result    types.T
	Leakproof bool
	Eval      RowFunc
}

// SetSession gives the binder the session its functions describe.
func (b *Binder) SetSession(s SessionInfo) { b.session = s }

// bindSessionFunction folds a session function to a constant; ok is
// false when name is not one.
func (b *Binder) bindSessionFunction(fc *pg_query.FuncCall, name string, ec *exprCtx) (Expr, bool, error) {
	text := func(v string) (Expr, bool, error) { return &Const{Typ: types.Text, Value: v}, true, nil }
	nargs := len(fc.Args)
	switch strings.ToLower(name) {
	case "version", "current_database", "current_schema", "current_user", "session_user", "current_role", "current_setting",
		"now", "transaction_timestamp", "statement_timestamp", "clock_timestamp":
	default:
		_, isAgg := functions.LookupAggregate(name)
		_, isScalar := functions.LookupScalar(name)
		if b.session == nil || isAgg || isScalar {
			return nil, false, nil
		}
		return b.bindRowFunction(fc, name, ec)
	}
	if b.session == nil {
		return nil, true, pgerror.Unsupported("function %s is not available here", name)
	}
	switch strings.ToLower(name) {
	case "version":
		if nargs == 0 {
			return text(b.session.Version())
		}
	case "current_database":
		if nargs == 0 {
			return text(b.session.Database())
		}
	case "current_schema":
		if nargs == 0 {
			if s := b.session.CurrentSchema(b.ctx); s != "" {
				return text(s)
			}
			return &Const{Typ: types.Text}, true, nil
		}
	case "current_user", "session_user", "current_role":
		if nargs == 0 {
			return text(b.session.User())
		}
	case "now", "transaction_timestamp":
		if nargs == 0 {
			return &Const{Typ: types.TimestampTZ, Value: b.session.TransactionStart().UnixMicro()}, true, nil
		}
	case "statement_timestamp":
		if nargs == 0 {
			return &Const{Typ: types.TimestampTZ, Value: b.session.StatementStart().UnixMicro()}, true, nil
		}
	case "clock_timestamp":
		// PostgreSQL reads the clock per call; one reading per statement
		// is what a plan folded at bind time can offer.
		if nargs == 0 {
			return &Const{Typ: types.TimestampTZ, Value: time.Now().UnixMicro()}, true, nil
		}
	case "current_setting":
		if nargs == 1 || nargs == 2 {
			arg, err := b.bindExpr(fc.Args[0], ec)
			if err != nil {
				return nil, true, err
			}
			c, ok := arg.(*Const)
			if !ok || c.Value == nil {
				return nil, true, pgerror.Unsupported("current_setting() takes a constant name")
			}
			name, _ := c.Value.(string)
			v, err := b.session.Setting(name)
			if err != nil {
				if nargs == 2 {
					if mo, err2 := b.bindExpr(fc.Args[1], ec); err2 == nil {
						if m, ok := mo.(*Const); ok && m.Value != nil {
							if missingOK, err3 := types.ParseText(formatConst(m.Value, m.Typ), types.Bool); err3 == nil && missingOK.(bool) {
								return &Const{Typ: types.Text}, true, nil
							}
						}
					}
				}
				return nil, true, err
			}
			return text(v)
		}
	}
	return nil, true, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s with %d arguments does not exist", name, nargs)
}

// bindSQLValueFunction binds CURRENT_USER, SESSION_USER, CURRENT_CATALOG
// and the other SQL-standard niladic functions.
func (b *Binder) bindSQLValueFunction(f *pg_query.SQLValueFunction) (Expr, error) {
	if b.session == nil {
		return nil, pgerror.Unsupported("%s is not available here", f.Op)
	}
	switch f.Op {
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER, pg_query.SQLValueFunctionOp_SVFOP_USER,
		pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:
		return &Const{Typ: types.Text, Value: b.session.User()}, nil
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		return &Const{Typ: types.Text, Value: b.session.Database()}, nil
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
		return &Const{Typ: types.TimestampTZ, Value: b.session.TransactionStart().UnixMicro()}, nil
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
		// The session zone's wall clock.
		return &Const{Typ: types.Timestamp, Value: types.LocalMicros(b.session.TransactionStart().UnixMicro(), b.sessionZone())}, nil
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
		days := types.LocalMicros(b.session.TransactionStart().UnixMicro(), b.sessionZone()) / types.MicrosPerDay
		return &Const{Typ: types.Date, Value: int32(days)}, nil
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
		return &Const{Typ: types.Time, Value: types.LocalMicros(b.session.TransactionStart().UnixMicro(), b.sessionZone()) % types.MicrosPerDay}, nil
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
		if s := b.session.CurrentSchema(b.ctx); s != "" {
			return &Const{Typ: types.Text, Value: s}, nil
		}
		return &Const{Typ: types.Text}, nil
	}
	return nil, pgerror.Unsupported("%s is not supported yet", strings.ToLower(strings.TrimPrefix(f.Op.String(), "SVFOP_")))
}

// sqlValueFunctionName is the column name PostgreSQL gives such a call.
func sqlValueFunctionName(f *pg_query.SQLValueFunction) string {
	switch f.Op {
	case pg_query.SQLValueFunctionOp_SVFOP_USER:
		return "current_user"
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		return "current_catalog"
	}
	return strings.ToLower(strings.TrimPrefix(f.Op.String(), "SVFOP_"))
}

// bindRowFunction binds a call of a function the session computes row by
// row; ok is false when the session has no such function.
func (b *Binder) bindRowFunction(fc *pg_query.FuncCall, name string, ec *exprCtx) (Expr, bool, error) {
	args := make([]Expr, len(fc.Args))
	argTypes := make([]types.T, len(fc.Args))
	for i, n := range fc.Args {
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, true, err
		}
		args[i], argTypes[i] = e, e.Type()
	}
	f, ok, err := b.session.Function(strings.ToLower(name), argTypes)
	if !ok || err != nil {
		if err != nil {
			if pe, isPG := err.(*pgerror.Error); isPG && pe.Position == 0 {
				err = pe.WithPosition(b.position(fc.Location))
			}
		}
		return nil, ok, err
	}
	for i := range args {
		var err error
		if args[i], err = b.cast(args[i], f.ArgTypes[i], fc.Location); err != nil {
			return nil, true, err
		}
	}
	return &Func{Name: strings.ToLower(name), Args: args, Typ: f.Result, leakproof: f.Leakproof, Row: f.Eval}, true, nil
}
