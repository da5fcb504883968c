package extgrammar

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// identityHint says where users and their attributes come from.
const identityHint = "Users, groups, logins and passwords come from the identity provider; a role only groups privileges and members."

// createRole reads CREATE ROLE name. CREATE USER and CREATE GROUP are
// refused: users and groups come from tokens.
func (p *parser) createRole() (Statement, error) {
	p.next()
	if t := p.next(); !t.is(pg_query.Token_ROLE) {
		return nil, p.unsupported(t, "CREATE %s is not supported", strings.ToUpper(t.text)).WithHint(identityHint)
	}
	name, err := p.roleName(checkNewRoleName)
	if err != nil {
		return nil, err
	}
	if err := p.noRoleOptions(); err != nil {
		return nil, err
	}
	return &CreateRole{Name: name}, nil
}

// noRoleOptions refuses PostgreSQL's role options after CREATE ROLE name:
// 0A000 for a real one, PostgreSQL's 42601 for any other word.
func (p *parser) noRoleOptions() error {
	t := p.peek()
	switch {
	case t.is(pg_query.Token_WITH):
		return p.unsupported(t, "role options are not supported").WithHint(identityHint)
	case roleOption(t):
		return p.unsupported(t, "role option %s is not supported", strings.ToUpper(t.text)).WithHint(identityHint)
	case t.label():
		return p.errorAt(t, pgerror.SyntaxError, "unrecognized role option \"%s\"", t.value())
	}
	return nil
}

// roleOption reports whether t begins one of PostgreSQL's role options.
func roleOption(t token) bool {
	for _, k := range []pg_query.Token{
		pg_query.Token_PASSWORD, pg_query.Token_ENCRYPTED, pg_query.Token_UNENCRYPTED,
		pg_query.Token_INHERIT, pg_query.Token_CONNECTION, pg_query.Token_VALID,
		pg_query.Token_USER, pg_query.Token_SYSID, pg_query.Token_ADMIN,
		pg_query.Token_ROLE, pg_query.Token_IN_P,
	} {
		if t.is(k) {
			return true
		}
	}
	if t.quoted() || t.kind != pg_query.Token_IDENT {
		return false
	}
	switch foldLower(t.text) {
	case "superuser", "nosuperuser", "createdb", "nocreatedb", "createrole", "nocreaterole",
		"login", "nologin", "replication", "noreplication", "bypassrls", "nobypassrls",
		"noinherit", "createuser", "nocreateuser":
		return true
	}
	return false
}

// dropRole reads DROP ROLE [IF EXISTS] name[, ...]. DROP USER and DROP
// GROUP are refused, as their CREATE is.
func (p *parser) dropRole() (Statement, error) {
	p.next()
	if t := p.next(); !t.is(pg_query.Token_ROLE) {
		return nil, p.unsupported(t, "DROP %s is not supported", strings.ToUpper(t.text)).WithHint(identityHint)
	}
	s := &DropRole{}
	if p.peek().is(pg_query.Token_IF_P) && p.peekAt(1).is(pg_query.Token_EXISTS) {
		p.next()
		p.next()
		s.IfExists = true
	}
	names, err := p.roleNames(checkRoleName)
	if err != nil {
		return nil, err
	}
	s.Names = names
	return s, nil
}
