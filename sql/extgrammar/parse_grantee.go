package extgrammar

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// grantees reads grantees separated by commas.
func (p *parser) grantees() ([]Grantee, error) {
	var out []Grantee
	for {
		g, err := p.grantee()
		if err != nil {
			return nil, err
		}
		out = append(out, g)
		if !p.accept(pg_query.Token_ASCII_44) {
			return out, nil
		}
	}
}

// grantee reads USER name, ROLE name, GROUP name or a bare name, which is
// a role as in PostgreSQL. PUBLIC and the current-user words are refused:
// SQE has no grant to everyone, and a grantee is always named.
func (p *parser) grantee() (Grantee, error) {
	t := p.peek()
	switch {
	case t.is(pg_query.Token_USER):
		p.next()
		n, err := p.name()
		return Grantee{Kind: GranteeUser, Name: n}, err
	case t.is(pg_query.Token_GROUP_P):
		p.next()
		n, err := p.name()
		return Grantee{Kind: GranteeGroup, Name: n}, err
	case t.is(pg_query.Token_ROLE) && p.peekAt(1).nameStart():
		p.next()
	case currentRoleWord(t):
		return Grantee{}, p.unsupported(t, "%s is not supported as a grantee", strings.ToUpper(t.text)).
			WithHint("Name the grantee: USER name or ROLE name.")
	case t.nameStart() && t.value() == "public":
		return Grantee{}, p.unsupported(t, "PUBLIC is not supported as a grantee").
			WithHint("SQE has no grants to every user; a role that every user holds does the same.")
	}
	n, err := p.roleName(checkRoleName)
	return Grantee{Kind: GranteeRole, Name: n}, err
}
