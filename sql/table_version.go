package sql

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// readAsOfSetting is the session's default version of the tables its
// statements read: empty for their current state, a snapshot id, a
// timestamp (the snapshot current then) or the name of a branch or tag.
// It is the form of time travel that PostgreSQL's own grammar accepts,
// for clients that parse SQL themselves. It applies to the tables a
// statement reads, never to the table it writes.
const readAsOfSetting = "sqe.read_as_of"

// tableVersions are the versions a statement's table references read:
// those written on a reference, by the reference's location, and the
// session's default for the others.
type tableVersions struct {
	byLocation map[int32]*planner.TableVersion
	def        *planner.TableVersion
}

type tableVersionsKey struct{}

// withTableVersions evaluates the statement's version clauses and the
// session's default version, and returns ctx carrying them for the
// binders of the statement (newBinder) and its write target
// (resolveWriteTarget). params are the statement's parameters: while a
// statement is prepared (no values yet) a clause using them is only
// bound, for their types, and the reference reads the current state,
// which has the same columns (a past version reads with today's schema).
func (s *Session) withTableVersions(ctx context.Context, stmt *Statement, params *planner.Params) (context.Context, error) {
	if stmt.node.raw.GetPrepareStmt() != nil {
		// Its clauses are the prepared statement's, evaluated when that
		// is prepared and at each EXECUTE, with its parameters.
		return ctx, nil
	}
	def, err := s.defaultTableVersion()
	if err != nil {
		return nil, err
	}
	if def == nil && len(stmt.node.versions) == 0 {
		if tableVersionsOf(ctx) == nil {
			return ctx, nil
		}
		// A statement run inside another (EXECUTE) has locations of
		// its own text: the outer statement's clauses are not its.
		return context.WithValue(ctx, tableVersionsKey{}, (*tableVersions)(nil)), nil
	}
	if len(stmt.node.versions) > 0 && stmt.node.raw.GetViewStmt() != nil {
		// A view keeps its query, deparsed without the clause.
		return nil, pgerror.New(pgerror.FeatureNotSupported, "a view cannot read a table as of a version").
			WithPosition(queryPosition(stmt.node.query, int32(stmt.node.versions[0].start)))
	}
	tv := &tableVersions{def: def}
	for _, c := range stmt.node.versions {
		v, err := s.evalVersionClause(ctx, stmt.node.query, c, params)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue // prepared, to be evaluated at each execution
		}
		if tv.byLocation == nil {
			tv.byLocation = map[int32]*planner.TableVersion{}
		}
		tv.byLocation[int32(c.relation)] = v
	}
	return context.WithValue(ctx, tableVersionsKey{}, tv), nil
}

func tableVersionsOf(ctx context.Context) *tableVersions {
	tv, _ := ctx.Value(tableVersionsKey{}).(*tableVersions)
	return tv
}

// refuseVersionedWrite is the error of a statement that writes to a
// table reference with a version clause: only the current state of a
// table (or a branch) can change.
func refuseVersionedWrite(ctx context.Context, rv *pg_query.RangeVar, query string) error {
	tv := tableVersionsOf(ctx)
	if tv == nil || rv.Location < 0 || tv.byLocation[rv.Location] == nil {
		return nil
	}
	return pgerror.New(pgerror.FeatureNotSupported, "cannot change table \"%s\" as of a past version", rv.Relname).
		WithPosition(queryPosition(query, rv.Location))
}

// defaultTableVersion reads sqe.read_as_of: nil when it is empty.
func (s *Session) defaultTableVersion() (*planner.TableVersion, error) {
	v := strings.TrimSpace(s.settings.values[readAsOfSetting])
	if v == "" {
		return nil, nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return &planner.TableVersion{SnapshotID: n, FromSetting: true}, nil
	}
	if micros, err := types.ParseTimestampIn(v, types.TimestampTZ, s.settings.timeZone()); err == nil {
		return &planner.TableVersion{AsOf: time.UnixMicro(micros), FromSetting: true}, nil
	}
	return &planner.TableVersion{Ref: v, FromSetting: true}, nil
}

// evalVersionClause computes the value of a FOR ... AS OF clause, as the
// caller, once per statement: a snapshot id (an integer) or a branch or
// tag name (text) for FOR VERSION, an instant for FOR TIMESTAMP (a
// timestamp without time zone is read in the session's TimeZone). A
// clause using parameters is evaluated with their values; while the
// statement is being prepared it is only bound, and the result is nil.
// A parameter nothing else types is text, and a text value from a clause
// with parameters that is an integer is a snapshot id, as sqe.read_as_of
// reads it, so a driver may pass either.
func (s *Session) evalVersionClause(ctx context.Context, query string, c versionClause, params *planner.Params) (*planner.TableVersion, error) {
	kind := "VERSION"
	if c.byTime {
		kind = "TIMESTAMP"
	}
	// The expression keeps its character position, so that an error in
	// it points into the query the client sent.
	const prefix = "SELECT ("
	pad := utf8.RuneCountInString(query[:c.exprStart]) - len(prefix)
	text := strings.Repeat(" ", max(pad, 0)) + prefix + query[c.exprStart:c.end] + ")"
	if c.byTime {
		text += "::timestamptz"
	}
	tree, err := pg_query.Parse(text)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
		return nil, pgerror.New(pgerror.SyntaxError, "FOR %s AS OF takes one value", kind).
			WithPosition(queryPosition(query, int32(c.exprStart)))
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if len(c.params) == 0 {
		params = nil
	} else if params != nil && params.Values == nil {
		_, err := s.bindSelect(ctx, sel, text, params)
		return nil, err
	}
	p, err := s.plan(ctx, sel, text, params)
	if err != nil {
		return nil, err
	}
	row, rows, err := s.firstRow(ctx, p.Root)
	if err != nil {
		return nil, err
	}
	if rows != 1 {
		return nil, pgerror.New(pgerror.CardinalityViolation, "FOR %s AS OF takes one value, not %d rows", kind, rows).
			WithPosition(queryPosition(query, int32(c.exprStart)))
	}
	typ := planColumns(p.Root)[0].Type
	value := row[0]
	if value == nil {
		return nil, pgerror.New(pgerror.NullValueNotAllowed, "FOR %s AS OF must not be null", kind).
			WithPosition(queryPosition(query, int32(c.exprStart)))
	}
	switch v := value.(type) {
	case time.Time:
		return &planner.TableVersion{AsOf: v}, nil
	case int32:
		return &planner.TableVersion{SnapshotID: int64(v)}, nil
	case int64:
		return &planner.TableVersion{SnapshotID: v}, nil
	case string:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && len(c.params) > 0 {
			return &planner.TableVersion{SnapshotID: n}, nil
		}
		return &planner.TableVersion{Ref: v}, nil
	}
	return nil, pgerror.New(pgerror.DatatypeMismatch, "FOR VERSION AS OF takes a snapshot id (bigint) or a branch or tag name (text), not %s", typ.Name()).
		WithPosition(queryPosition(query, int32(c.exprStart)))
}

// PastVersion says which snapshot a past version of the table reads, for
// EXPLAIN: empty for the table's current state.
func (a *tableAdapter) PastVersion() string {
	if !a.t.Past() {
		return ""
	}
	return "as of snapshot " + strconv.FormatInt(a.t.SnapshotID(), 10)
}

// storageVersion is the storage form of a table version.
func storageVersion(v *planner.TableVersion) storage.Version {
	return storage.Version{SnapshotID: v.SnapshotID, Ref: v.Ref, AsOf: v.AsOf}
}
