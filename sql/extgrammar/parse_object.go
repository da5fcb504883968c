package extgrammar

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// grantObjects reads the objects of GRANT, REVOKE or DENY: the kind
// (TABLE when none is written, as in PostgreSQL), then one or more names.
func (p *parser) grantObjects(stmt string) ([]Object, error) {
	kind, err := p.objectKind(stmt, ObjectTable)
	if err != nil {
		return nil, err
	}
	var objs []Object
	for {
		name, err := p.qualifiedName(kind.maxParts())
		if err != nil {
			return nil, err
		}
		objs = append(objs, Object{Kind: kind, Name: name})
		if !p.accept(pg_query.Token_ASCII_44) {
			return objs, nil
		}
	}
}

// singleObject reads one object: a catalog, schema, table or view, and
// with no kind written, def.
func (p *parser) singleObject(stmt string, def ObjectKind) (Object, error) {
	at := p.peek()
	kind, err := p.objectKind(stmt, def)
	if err != nil {
		return Object{}, err
	}
	switch kind {
	case ObjectAllTablesInSchema, ObjectAllViewsInSchema, ObjectFutureTablesInSchema, ObjectFutureViewsInSchema:
		return Object{}, p.unsupported(at, "%s takes one catalog, schema, table or view", stmt)
	}
	name, err := p.qualifiedName(kind.maxParts())
	return Object{Kind: kind, Name: name}, err
}

// objectKind reads the words that say what kind of object follows and
// returns the kind, or def when none is written. A kind word PostgreSQL
// does not reserve (VIEW, SCHEMA, ...) is a kind only when a name follows
// it, so a table may still be called view. Kinds of object SQE has no
// grants on (functions, sequences, ...) are refused.
func (p *parser) objectKind(stmt string, def ObjectKind) (ObjectKind, error) {
	t, next := p.peek(), p.peekAt(1)
	kind := ObjectKind(0)
	switch {
	case t.is(pg_query.Token_TABLE):
		kind = ObjectTable
	case t.is(pg_query.Token_VIEW) && next.nameStart():
		kind = ObjectView
	case t.is(pg_query.Token_SCHEMA) && next.nameStart():
		kind = ObjectSchema
	case (t.is(pg_query.Token_DATABASE) || t.is(pg_query.Token_CATALOG_P)) && next.nameStart():
		kind = ObjectCatalog
	case t.is(pg_query.Token_ALL):
		p.next()
		return p.inSchema(stmt, true)
	case t.isWord("future") && (next.is(pg_query.Token_TABLES) || next.is(pg_query.Token_VIEWS)):
		p.next()
		return p.inSchema(stmt, false)
	default:
		if what := otherObjectKind(t, next); what != "" {
			return 0, p.unsupported(t, "%s ... ON %s is not supported", stmt, what).
				WithHint("Privileges are on catalogs (DATABASE or CATALOG), schemas, tables and views.")
		}
		return def, nil
	}
	p.next()
	return kind, nil
}

// inSchema reads the rest of ALL (all is true) or FUTURE TABLES | VIEWS IN
// SCHEMA.
func (p *parser) inSchema(stmt string, all bool) (ObjectKind, error) {
	t := p.peek()
	var kind ObjectKind
	switch {
	case t.is(pg_query.Token_TABLES) && all:
		kind = ObjectAllTablesInSchema
	case t.is(pg_query.Token_VIEWS) && all:
		kind = ObjectAllViewsInSchema
	case t.is(pg_query.Token_TABLES):
		kind = ObjectFutureTablesInSchema
	case t.is(pg_query.Token_VIEWS):
		kind = ObjectFutureViewsInSchema
	case all && (t.is(pg_query.Token_SEQUENCES) || t.is(pg_query.Token_FUNCTIONS) ||
		t.is(pg_query.Token_PROCEDURES) || t.is(pg_query.Token_ROUTINES)):
		return 0, p.unsupported(t, "%s ... ON ALL %s IN SCHEMA is not supported", stmt, strings.ToUpper(t.text)).
			WithHint("Privileges are on catalogs (DATABASE or CATALOG), schemas, tables and views.")
	default:
		return 0, p.syntaxError(t)
	}
	p.next()
	if err := p.expect(pg_query.Token_IN_P); err != nil {
		return 0, err
	}
	if err := p.expect(pg_query.Token_SCHEMA); err != nil {
		return 0, err
	}
	return kind, nil
}

// otherObjectKind names the PostgreSQL object kind t and next introduce,
// among those SQE grants nothing on, or is empty.
func otherObjectKind(t, next token) string {
	switch {
	case t.is(pg_query.Token_FOREIGN) && next.is(pg_query.Token_DATA_P):
		return "FOREIGN DATA WRAPPER"
	case t.is(pg_query.Token_FOREIGN) && next.is(pg_query.Token_SERVER):
		return "FOREIGN SERVER"
	case t.is(pg_query.Token_LARGE_P) && next.is(pg_query.Token_OBJECT_P):
		return "LARGE OBJECT"
	case !next.nameStart():
		return ""
	}
	for _, k := range []pg_query.Token{
		pg_query.Token_FUNCTION, pg_query.Token_PROCEDURE, pg_query.Token_ROUTINE,
		pg_query.Token_SEQUENCE, pg_query.Token_LANGUAGE, pg_query.Token_TYPE_P,
		pg_query.Token_DOMAIN_P, pg_query.Token_TABLESPACE, pg_query.Token_PARAMETER,
	} {
		if t.is(k) {
			return strings.ToUpper(t.text)
		}
	}
	return ""
}
