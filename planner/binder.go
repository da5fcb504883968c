package planner

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// Binder turns one parsed statement into a logical plan. It is used once.
type Binder struct {
	ctx      context.Context
	catalog  Catalog
	security Security
	// query is the whole query string the statement came from; node
	// locations are byte offsets into it.
	query   string
	nextID  ColumnID
	params  *Params
	session SessionInfo
	// outer are the scopes of enclosing queries, innermost last: a name
	// not found in the query's own scope may refer to one of their
	// columns (a correlated subquery).
	outer []*scope
	// correlated collects the outer columns this query reads.
	correlated []Column
	// ctes are the WITH queries in scope, innermost level last.
	ctes []map[string]*pg_query.CommonTableExpr
	// workTables are the recursive WITH queries whose recursive term is
	// being bound: a reference to one reads the previous round's rows.
	workTables map[string]*WorkTable
	// recursive marks the WITH RECURSIVE queries that read themselves.
	recursive map[*pg_query.CommonTableExpr]bool
	// withQueries are the other WITH queries in scope: whether each is
	// materialized, decided at its first reference (bind_with.go).
	withQueries map[*pg_query.CommonTableExpr]*withQuery
	// keepUnknown is set while a branch of a set operation, or the SELECT
	// of an INSERT, is bound (and read only by that SELECT itself): its
	// untyped literal columns stay untyped, for the set operation or the
	// target columns to resolve.
	keepUnknown bool
	// viewPath are the views being expanded around this query, outermost
	// first, to refuse a view that reads itself.
	viewPath []TableName
	// versions are the versions written on table references (FOR
	// VERSION AS OF ...), by the reference's location in query;
	// defaultVersion is the one every other table reference reads
	// (sqe.read_as_of), nil for the current state.
	versions       map[int32]*TableVersion
	defaultVersion *TableVersion
}

// lookupCTE finds the WITH query an unqualified table name refers to.
func (b *Binder) lookupCTE(name string) *pg_query.CommonTableExpr {
	for i := len(b.ctes) - 1; i >= 0; i-- {
		if c, ok := b.ctes[i][name]; ok {
			return c
		}
	}
	return nil
}

// resolveRef resolves a column reference in sc, then in the enclosing
// queries' scopes, innermost first. isOuter reports a reference to an
// enclosing query's column, which is recorded in b.correlated.
func (b *Binder) resolveRef(sc *scope, qualifier, name string, loc int32) (Column, bool, error) {
	c, err := b.resolve(sc, qualifier, name, loc)
	if err == nil {
		return c, false, nil
	}
	if pe, ok := err.(*pgerror.Error); !ok || (pe.Code != pgerror.UndefinedColumn && pe.Code != pgerror.UndefinedTable) {
		return Column{}, false, err
	}
	for i := len(b.outer) - 1; i >= 0; i-- {
		oc, oerr := b.resolve(b.outer[i], qualifier, name, loc)
		if oerr == nil {
			b.noteCorrelated(oc)
			return oc, true, nil
		}
		if pe, ok := oerr.(*pgerror.Error); ok && pe.Code == pgerror.AmbiguousColumn {
			return Column{}, false, oerr
		}
	}
	return Column{}, false, err
}

func (b *Binder) noteCorrelated(c Column) {
	for _, seen := range b.correlated {
		if seen.ID == c.ID {
			return
		}
	}
	b.correlated = append(b.correlated, c)
}

// Params are a statement's $n parameters. When a statement is prepared,
// Values is nil and Types grows as parameters are found, each inferred
// from its use unless the client gave its type; when it is executed,
// Types and Values are fixed and each $n binds as a constant.
type Params struct {
	Types  []types.T
	Values []any
}

func (p *Params) preparing() bool { return p.Values == nil }

// SetParams gives the binder the statement's parameters.
func (b *Binder) SetParams(p *Params) { b.params = p }

// SetTableVersions gives the binder the versions written on the
// statement's table references, by the location of each reference's
// name, and the version the others read (nil: the current state).
func (b *Binder) SetTableVersions(byLocation map[int32]*TableVersion, def *TableVersion) {
	b.versions, b.defaultVersion = byLocation, def
}

// NewBinder returns a binder for one statement of query.
func NewBinder(ctx context.Context, catalog Catalog, security Security, query string) *Binder {
	return &Binder{ctx: ctx, catalog: catalog, security: security, query: query}
}

// Plan is a bound query: its root and the names of its output columns.
type Plan struct {
	Root Node
}

// BindSelect binds a SELECT statement.
func (b *Binder) BindSelect(stmt *pg_query.SelectStmt) (*Plan, error) {
	root, err := b.bindSelect(stmt)
	if err != nil {
		return nil, err
	}
	if b.params != nil && b.params.preparing() {
		// A parameter nothing gave a type to is text, as in PostgreSQL.
		for i, t := range b.params.Types {
			if t.OID == types.OIDUnknown {
				b.params.Types[i] = types.Text
			}
		}
	}
	return &Plan{Root: root}, nil
}

func (b *Binder) newColumn(name string, c Column) Column {
	b.nextID++
	c.ID = b.nextID
	c.Name = name
	return c
}

// position converts a parse-tree byte offset into PostgreSQL's 1-based
// character position.
func (b *Binder) position(loc int32) int32 {
	if loc < 0 || int(loc) > len(b.query) {
		return 0
	}
	return int32(utf8.RuneCountInString(b.query[:loc])) + 1
}

func (b *Binder) errAt(loc int32, code, format string, args ...any) *pgerror.Error {
	return pgerror.New(code, format, args...).WithPosition(b.position(loc))
}

// unsupportedNode refuses a parse-tree node the binder does not handle.
func (b *Binder) unsupportedNode(n *pg_query.Node) error {
	name := "unknown node"
	if n != nil && n.Node != nil {
		name = strings.TrimPrefix(fmt.Sprintf("%T", n.Node), "*pg_query.Node_")
	}
	return pgerror.Unsupported("%s is not supported yet", name)
}

// scope is the set of columns a name can refer to.
type scope struct {
	cols []Column
	// hidden columns are reachable only by a qualified name (the right
	// side of JOIN ... USING) and are left out of *.
	hidden map[ColumnID]bool
}

// concat is the scope of a join of two inputs.
func (s *scope) concat(o *scope) *scope {
	out := &scope{cols: append(append([]Column(nil), s.cols...), o.cols...)}
	for _, src := range []*scope{s, o} {
		for id := range src.hidden {
			out.hide(id)
		}
	}
	return out
}

func (s *scope) hide(id ColumnID) {
	if s.hidden == nil {
		s.hidden = map[ColumnID]bool{}
	}
	s.hidden[id] = true
}

// moveFirst puts the given columns first, in that order: * lists the
// merged columns of JOIN ... USING before the others, as PostgreSQL does.
func (s *scope) moveFirst(ids []ColumnID) {
	if len(ids) == 0 {
		return
	}
	first := map[ColumnID]bool{}
	var out []Column
	for _, id := range ids {
		for _, c := range s.cols {
			if c.ID == id && !first[id] {
				out = append(out, c)
				first[id] = true
			}
		}
	}
	for _, c := range s.cols {
		if !first[c.ID] {
			out = append(out, c)
		}
	}
	s.cols = out
}

// visible are the columns * expands to.
func (s *scope) visible() []Column {
	var out []Column
	for _, c := range s.cols {
		if !s.hidden[c.ID] {
			out = append(out, c)
		}
	}
	return out
}

// markNullable records that an outer join can fill a side with NULLs.
func (s *scope) markNullable(j *Join, kind JoinKind) {
	nullable := map[ColumnID]bool{}
	if kind == LeftJoin || kind == FullJoin {
		for _, c := range j.Right.Columns() {
			nullable[c.ID] = true
		}
	}
	if kind == RightJoin || kind == FullJoin {
		for _, c := range j.Left.Columns() {
			nullable[c.ID] = true
		}
	}
	for i := range s.cols {
		if nullable[s.cols[i].ID] {
			s.cols[i].Nullable = true
		}
	}
}

// resolve finds the column a (possibly qualified) name refers to.
func (b *Binder) resolve(sc *scope, qualifier, name string, loc int32) (Column, error) {
	var found *Column
	for i := range sc.cols {
		c := &sc.cols[i]
		if c.Name != name || (qualifier != "" && c.Qualifier != qualifier) || (qualifier == "" && sc.hidden[c.ID]) {
			continue
		}
		if found != nil {
			return Column{}, b.errAt(loc, pgerror.AmbiguousColumn, "column reference \"%s\" is ambiguous", name)
		}
		found = c
	}
	if found == nil {
		if qualifier != "" {
			known := false
			for _, c := range sc.cols {
				if c.Qualifier == qualifier {
					known = true
				}
			}
			if !known {
				return Column{}, b.errAt(loc, pgerror.UndefinedTable, "missing FROM-clause entry for table \"%s\"", qualifier)
			}
			return Column{}, b.errAt(loc, pgerror.UndefinedColumn, "column %s.%s does not exist", qualifier, name)
		}
		return Column{}, b.errAt(loc, pgerror.UndefinedColumn, "column \"%s\" does not exist", name)
	}
	return *found, nil
}
