package sql

import (
	"sort"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// PreparedStatements are one session's prepared statements. Those the
// extended protocol's Parse makes and those PREPARE makes share one
// namespace, as in PostgreSQL: a Parse of a name PREPARE used fails, and
// EXECUTE, DEALLOCATE, Describe, Bind and Close reach either kind. Only
// the session's goroutine uses it.
type PreparedStatements struct {
	byName map[string]*PreparedStatement
}

// Add keeps ps under ps.Name. The unnamed statement ("") is replaced; a
// named one must not exist yet.
func (p *PreparedStatements) Add(ps *PreparedStatement) error {
	if ps.Name != "" {
		if _, dup := p.byName[ps.Name]; dup {
			return pgerror.New(pgerror.DuplicatePreparedStatement, "prepared statement \"%s\" already exists", ps.Name)
		}
	}
	if p.byName == nil {
		p.byName = make(map[string]*PreparedStatement)
	}
	p.byName[ps.Name] = ps
	return nil
}

// Get finds a statement, with PostgreSQL's error for a missing one.
func (p *PreparedStatements) Get(name string) (*PreparedStatement, error) {
	if ps, ok := p.byName[name]; ok {
		return ps, nil
	}
	if name == "" {
		return nil, pgerror.New(pgerror.InvalidSQLStatementName, "unnamed prepared statement does not exist")
	}
	return nil, pgerror.New(pgerror.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", name)
}

// Remove drops a statement; false when there was none.
func (p *PreparedStatements) Remove(name string) bool {
	if _, ok := p.byName[name]; !ok {
		return false
	}
	delete(p.byName, name)
	return true
}

// RemoveNamed drops every named statement (DEALLOCATE ALL, DISCARD ALL);
// the unnamed one, which the protocol alone manages, stays.
func (p *PreparedStatements) RemoveNamed() {
	for name := range p.byName {
		if name != "" {
			delete(p.byName, name)
		}
	}
}

// named lists the named statements by name, as pg_prepared_statements
// shows them (PostgreSQL keeps the unnamed one apart and does not).
func (p *PreparedStatements) named() []*PreparedStatement {
	out := make([]*PreparedStatement, 0, len(p.byName))
	for name, ps := range p.byName {
		if name != "" {
			out = append(out, ps)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// PreparedStatements are the session's prepared statements, which
// pgwire's Parse, Bind, Describe and Close use as SQL's PREPARE, EXECUTE
// and DEALLOCATE do.
func (s *Session) PreparedStatements() *PreparedStatements { return &s.prepared }
