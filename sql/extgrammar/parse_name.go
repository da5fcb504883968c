package extgrammar

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// name reads one identifier and checks it (checkName).
func (p *parser) name() (string, error) { return p.identifier(checkName) }

// identifier reads one identifier and checks it with check.
func (p *parser) identifier(check func(string) *pgerror.Error) (string, error) {
	t := p.peek()
	if t.is(pg_query.Token_UIDENT) {
		return "", p.unsupportedToken(t)
	}
	if !t.nameStart() {
		return "", p.syntaxError(t)
	}
	p.next()
	v := t.value()
	if err := check(v); err != nil {
		return "", p.nameError(t, err)
	}
	return v, nil
}

// qualifiedName reads a dotted name of at most max parts. After a dot any
// keyword is a name, as in PostgreSQL.
func (p *parser) qualifiedName(max int) ([]string, error) {
	first := p.peek()
	part, err := p.name()
	if err != nil {
		return nil, err
	}
	parts := []string{part}
	for p.accept(pg_query.Token_ASCII_46) {
		t := p.peek()
		if t.is(pg_query.Token_UIDENT) {
			return nil, p.unsupportedToken(t)
		}
		if !t.label() {
			return nil, p.syntaxError(t)
		}
		p.next()
		v := t.value()
		if err := checkName(v); err != nil {
			return nil, p.nameError(t, err)
		}
		parts = append(parts, v)
	}
	if len(parts) > max {
		return nil, p.errorAt(first, pgerror.SyntaxError,
			"improper qualified name (too many dotted names): %s", strings.Join(parts, "."))
	}
	return parts, nil
}

// roleName reads a role's name: an identifier that check accepts.
// PostgreSQL's CURRENT_USER, SESSION_USER and CURRENT_ROLE stand for a
// role, not name one, so they are refused as PostgreSQL refuses them
// where a name is needed.
func (p *parser) roleName(check func(string) *pgerror.Error) (string, error) {
	t := p.peek()
	if currentRoleWord(t) {
		return "", p.errorAt(t, reservedName, "%s cannot be used as a role name here", strings.ToUpper(t.text))
	}
	v, err := p.name()
	if err != nil {
		return "", err
	}
	if err := check(v); err != nil {
		return "", p.nameError(t, err)
	}
	return v, nil
}

// roleNames reads role names separated by commas.
func (p *parser) roleNames(check func(string) *pgerror.Error) ([]string, error) {
	var names []string
	for {
		n, err := p.roleName(check)
		if err != nil {
			return nil, err
		}
		names = append(names, n)
		if !p.accept(pg_query.Token_ASCII_44) {
			return names, nil
		}
	}
}

// currentRoleWord reports whether t is CURRENT_USER, SESSION_USER or
// CURRENT_ROLE.
func currentRoleWord(t token) bool {
	return t.is(pg_query.Token_CURRENT_USER) || t.is(pg_query.Token_SESSION_USER) ||
		t.is(pg_query.Token_CURRENT_ROLE)
}

// columnName reads a column's name: an identifier that checkColumnName
// accepts.
func (p *parser) columnName() (string, error) { return p.identifier(checkColumnName) }
