package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// withQuery is a non-recursive WITH query of the statement being bound.
// Its first reference decides, as PostgreSQL 12 and later do, whether it
// is materialized (computed once, into a CTE node every reference reads)
// or inlined (each reference binds its query anew, as a subquery in
// FROM, which lets the optimizer push into it): materialized when written
// AS MATERIALIZED, when it calls a volatile function, or when it is
// referenced more than once and not written NOT MATERIALIZED. A query
// that reads columns of an enclosing query is always inlined.
type withQuery struct {
	cte *pg_query.CommonTableExpr
	// refs counts the references to it in the statement's text.
	refs int
	// outer is how many enclosing scopes the query holding the WITH
	// clause has: the WITH query sees those, not the scopes of the
	// subquery a reference sits in.
	outer int

	decided bool
	// Set when materialized: the query's plan, the CTE node's id, and
	// the plan's estimated rows.
	def  Node
	id   ColumnID
	rows float64
}

// withLevel registers the WITH queries of s and returns them in the
// order written, with their names for lookupCTE.
func (b *Binder) withLevel(s *pg_query.SelectStmt) ([]*withQuery, map[string]*pg_query.CommonTableExpr, error) {
	names := map[string]*pg_query.CommonTableExpr{}
	var level []*withQuery
	for _, n := range s.WithClause.Ctes {
		cte := n.GetCommonTableExpr()
		if cte == nil {
			return nil, nil, b.unsupportedNode(n)
		}
		if _, dup := names[cte.Ctename]; dup {
			return nil, nil, b.errAt(cte.Location, "42712", "WITH query name \"%s\" specified more than once", cte.Ctename)
		}
		if cte.Ctequery.GetSelectStmt() == nil {
			return nil, nil, pgerror.Unsupported("data-modifying statements in WITH are not supported")
		}
		names[cte.Ctename] = cte
		if s.WithClause.Recursive && referencesRelation(cte.Ctequery, cte.Ctename) {
			if b.recursive == nil {
				b.recursive = map[*pg_query.CommonTableExpr]bool{}
			}
			b.recursive[cte] = true
			continue
		}
		if b.withQueries == nil {
			b.withQueries = map[*pg_query.CommonTableExpr]*withQuery{}
		}
		wq := &withQuery{cte: cte, refs: countWithRefs(s, cte), outer: len(b.outer)}
		b.withQueries[cte] = wq
		level = append(level, wq)
	}
	return level, names, nil
}

// attachCTEs puts the level's materialized WITH queries above node, the
// first written outermost, so that a query reading an earlier one runs
// where that one's rows are reachable.
func attachCTEs(node Node, level []*withQuery) Node {
	for i := len(level) - 1; i >= 0; i-- {
		if wq := level[i]; wq.def != nil {
			node = &CTE{ID: wq.id, Name: wq.cte.Ctename, Def: wq.def, Input: node}
		}
	}
	return node
}

// bindMaterializedRef binds a reference to a WITH query that is
// materialized as a CTEScan; ok is false when the query is inlined, and
// the caller binds the reference as a subquery.
func (b *Binder) bindMaterializedRef(rv *pg_query.RangeVar, cte *pg_query.CommonTableExpr) (_ Node, _ *scope, ok bool, _ error) {
	wq := b.withQueries[cte]
	if wq == nil {
		return nil, nil, false, nil
	}
	if !wq.decided {
		if err := b.decideWithQuery(wq); err != nil {
			return nil, nil, false, err
		}
	}
	if wq.def == nil {
		return nil, nil, false, nil
	}
	alias, colnames := cte.Ctename, cte.Aliascolnames
	defCols := wq.def.Columns()
	if len(colnames) > len(defCols) {
		return nil, nil, false, pgerror.New(pgerror.InvalidColumnReference, "WITH query \"%s\" has %d columns available but %d columns specified", cte.Ctename, len(defCols), len(colnames))
	}
	if rv.Alias != nil {
		alias = rv.Alias.Aliasname
		if len(rv.Alias.Colnames) > 0 {
			colnames = rv.Alias.Colnames
		}
	}
	if len(colnames) > len(defCols) {
		return nil, nil, false, pgerror.New(pgerror.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified", alias, len(defCols), len(colnames))
	}
	scan := &CTEScan{CTE: wq.id, Name: cte.Ctename, Alias: alias, Rows: wq.rows}
	for i, c := range defCols {
		name := c.Name
		if i < len(colnames) {
			name = colnames[i].GetString_().GetSval()
		}
		scan.Cols = append(scan.Cols, b.newColumn(name, Column{Type: c.Type, Qualifier: alias, Nullable: true}))
		scan.Source = append(scan.Source, c.ID)
	}
	return scan, &scope{cols: scan.Cols}, true, nil
}

// decideWithQuery binds wq's query where its WITH clause is written (the
// enclosing scopes of that query, the WITH queries before it) and
// decides whether it is materialized.
func (b *Binder) decideWithQuery(wq *withQuery) error {
	wq.decided = true
	inner := &Binder{ctx: b.ctx, catalog: b.catalog, security: b.security, query: b.query,
		nextID: b.nextID, params: b.params, session: b.session, outer: append([]*scope(nil), b.outer[:wq.outer]...),
		ctes: hideCTE(b.ctes, wq.cte), workTables: b.workTables, recursive: b.recursive,
		withQueries: b.withQueries, viewPath: b.viewPath}
	def, err := inner.bindSelect(wq.cte.Ctequery.GetSelectStmt())
	b.nextID = inner.nextID
	if err != nil {
		return err
	}
	mode := wq.cte.Ctematerialized
	materialized := mode == pg_query.CTEMaterialize_CTEMaterializeAlways ||
		(wq.refs > 1 && mode != pg_query.CTEMaterialize_CTEMaterializeNever) ||
		planVolatile(def)
	if !materialized || len(inner.correlated) > 0 {
		return nil
	}
	b.nextID++
	wq.def, wq.id, wq.rows = def, b.nextID, estimateRows(def)
	return nil
}

// countWithRefs counts the references to cte in the query s whose WITH
// clause defines it: in s itself and in the other WITH queries of the
// clause.
func countWithRefs(s *pg_query.SelectStmt, cte *pg_query.CommonTableExpr) int {
	n := 0
	s.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Name() != "with_clause" {
			n += countRefsIn(fd, v, cte.Ctename)
		}
		return true
	})
	for _, other := range s.WithClause.Ctes {
		if c := other.GetCommonTableExpr(); c != nil && c != cte {
			n += countRelationRefs(c.Ctequery, cte.Ctename)
		}
	}
	return n
}

// countRelationRefs counts the unqualified relations called name in the
// parse tree msg, leaving out those an inner WITH query of the same name
// hides. It walks every field by reflection, as referencesRelation does.
func countRelationRefs(msg proto.Message, name string) int {
	switch x := msg.(type) {
	case *pg_query.RangeVar:
		if x.Schemaname == "" && x.Catalogname == "" && x.Relname == name {
			return 1
		}
		return 0
	case *pg_query.SelectStmt:
		if x.WithClause != nil && definesWithQuery(x.WithClause, name) {
			// Only the WITH queries written before the one of the same
			// name, and its own (non-recursive) query, still see ours.
			n := 0
			if !x.WithClause.Recursive {
				for _, c := range x.WithClause.Ctes {
					cte := c.GetCommonTableExpr()
					if cte == nil {
						continue
					}
					n += countRelationRefs(cte.Ctequery, name)
					if cte.Ctename == name {
						break
					}
				}
			}
			return n
		}
	}
	n := 0
	msg.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		n += countRefsIn(fd, v, name)
		return true
	})
	return n
}

// countRefsIn counts the references to name in one field's value.
func countRefsIn(fd protoreflect.FieldDescriptor, v protoreflect.Value, name string) int {
	n := 0
	switch {
	case fd.IsList() && fd.Message() != nil:
		list := v.List()
		for i := 0; i < list.Len(); i++ {
			n += countRelationRefs(list.Get(i).Message().Interface(), name)
		}
	case fd.Message() != nil && !fd.IsMap():
		n += countRelationRefs(v.Message().Interface(), name)
	}
	return n
}

// definesWithQuery reports whether the WITH clause w names a query name.
func definesWithQuery(w *pg_query.WithClause, name string) bool {
	for _, c := range w.Ctes {
		if cte := c.GetCommonTableExpr(); cte != nil && cte.Ctename == name {
			return true
		}
	}
	return false
}
