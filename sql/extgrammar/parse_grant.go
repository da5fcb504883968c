package extgrammar

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// grant reads GRANT privileges ON objects TO grantees, or GRANT [ROLE]
// roles TO grantees.
func (p *parser) grant() (Statement, error) {
	p.next()
	return p.privilegesOrRoles(ActionGrant, pg_query.Token_TO)
}

// revoke reads REVOKE privileges ON objects FROM grantees, REVOKE SELECT
// (columns) ON table FROM grantees, or REVOKE [ROLE] roles FROM grantees.
func (p *parser) revoke() (Statement, error) {
	p.next()
	t, next := p.peek(), p.peekAt(1)
	switch {
	case t.is(pg_query.Token_GRANT):
		return nil, p.unsupported(t, "REVOKE GRANT OPTION FOR is not supported").
			WithHint("Revoke the privilege, then grant it again without WITH GRANT OPTION.")
	case (t.is(pg_query.Token_ADMIN) || t.is(pg_query.Token_INHERIT) || t.is(pg_query.Token_SET)) &&
		next.is(pg_query.Token_OPTION):
		return nil, p.unsupported(t, "REVOKE %s OPTION FOR is not supported", strings.ToUpper(t.text))
	}
	if p.columnListAhead() {
		return p.columnDeny(ActionRevoke)
	}
	return p.privilegesOrRoles(ActionRevoke, pg_query.Token_FROM)
}

// privilegesOrRoles reads the rest of a GRANT or REVOKE: [ROLE] roles
// then to (TO or FROM) grantees, or privileges ON objects; a list of
// names followed by to is a list of roles.
func (p *parser) privilegesOrRoles(action Action, to pg_query.Token) (Statement, error) {
	if p.acceptRoleKeyword() {
		return p.roleGrant(action, nil)
	}
	items, err := p.privilegeList(action)
	if err != nil {
		return nil, err
	}
	switch t := p.peek(); {
	case t.is(pg_query.Token_ON):
		return p.privilegeGrant(action, items)
	case t.is(to):
		roles, err := p.itemsAsRoles(items, t)
		if err != nil {
			return nil, err
		}
		return p.roleGrant(action, roles)
	default:
		return nil, p.syntaxError(t)
	}
}

// deny reads DENY privileges ON objects TO grantees, or DENY SELECT
// (columns) ON table TO grantees.
func (p *parser) deny() (Statement, error) {
	p.next()
	if p.columnListAhead() {
		return p.columnDeny(ActionDeny)
	}
	items, err := p.privilegeList(ActionDeny)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); !t.is(pg_query.Token_ON) {
		return nil, p.syntaxError(t)
	}
	return p.privilegeGrant(ActionDeny, items)
}

// acceptRoleKeyword consumes ROLE when the statement goes on with it
// before the roles it grants: ROLE followed by a name, since a role may
// itself be called role.
func (p *parser) acceptRoleKeyword() bool {
	if p.peek().is(pg_query.Token_ROLE) && p.peekAt(1).nameStart() {
		p.next()
		return true
	}
	return false
}

// privilegeGrant reads the rest of a privilege statement from ON.
func (p *parser) privilegeGrant(action Action, items []privilegeItem) (Statement, error) {
	p.next()
	objs, err := p.grantObjects(action.String())
	if err != nil {
		return nil, err
	}
	if err := p.expect(prepositionToken(action)); err != nil {
		return nil, err
	}
	grantees, err := p.grantees()
	if err != nil {
		return nil, err
	}
	s := &GrantPrivileges{Action: action, Objects: objs, Grantees: grantees}
	for _, it := range items {
		s.Privileges = append(s.Privileges, it.priv)
	}
	if action == ActionGrant && p.peek().is(pg_query.Token_WITH) && p.peekAt(1).is(pg_query.Token_GRANT) {
		p.next()
		p.next()
		if err := p.expect(pg_query.Token_OPTION); err != nil {
			return nil, err
		}
		s.WithGrantOption = true
	}
	if err := p.rowsAndMasks(s); err != nil {
		return nil, err
	}
	if err := p.tail(action); err != nil {
		return nil, err
	}
	return s, nil
}

// roleGrant reads the rest of a role statement: the roles, unless the
// list before TO already gave them, then TO or FROM and the grantees.
func (p *parser) roleGrant(action Action, roles []string) (Statement, error) {
	if roles == nil {
		var err error
		if roles, err = p.roleNames(checkRoleName); err != nil {
			return nil, err
		}
	}
	if err := p.expect(prepositionToken(action)); err != nil {
		return nil, err
	}
	grantees, err := p.grantees()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.is(pg_query.Token_WITH) {
		if o := p.peekAt(1); o.is(pg_query.Token_ADMIN) || o.is(pg_query.Token_INHERIT) || o.is(pg_query.Token_SET) {
			return nil, p.unsupported(t, "%s ROLE ... WITH %s is not supported", action, strings.ToUpper(o.text))
		}
	}
	if err := p.tail(action); err != nil {
		return nil, err
	}
	return &GrantRoles{Action: action, Roles: roles, Grantees: grantees}, nil
}

// tail refuses PostgreSQL's trailing clauses SQE does not implement:
// GRANTED BY (the grantor is always the caller), and REVOKE's CASCADE or
// RESTRICT (there are no dependent grants to follow).
func (p *parser) tail(action Action) error {
	t := p.peek()
	switch {
	case t.is(pg_query.Token_GRANTED) && action != ActionDeny:
		return p.unsupported(t, "GRANTED BY is not supported").
			WithHint("The grantor is always the user who runs the statement.")
	case (t.is(pg_query.Token_CASCADE) || t.is(pg_query.Token_RESTRICT)) && action == ActionRevoke:
		return p.unsupported(t, "REVOKE ... %s is not supported", strings.ToUpper(t.text))
	}
	return nil
}

// prepositionToken is the word before the grantees: FROM for REVOKE, TO
// otherwise.
func prepositionToken(a Action) pg_query.Token {
	if a == ActionRevoke {
		return pg_query.Token_FROM
	}
	return pg_query.Token_TO
}
