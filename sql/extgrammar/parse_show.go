package extgrammar

import pg_query "github.com/pganalyze/pg_query_go/v5"

// show reads SHOW GRANTS [ON object] [TO | FOR grantee] or SHOW EFFECTIVE
// GRANTS FOR USER name.
func (p *parser) show() (Statement, error) {
	p.next()
	if p.acceptWord("effective") {
		if !p.acceptWord("grants") {
			return nil, p.syntaxError(p.peek())
		}
		user, err := p.forUser()
		if err != nil {
			return nil, err
		}
		return &ShowEffectiveGrants{User: user}, nil
	}
	p.next()
	s := &ShowGrants{}
	if p.accept(pg_query.Token_ON) {
		obj, err := p.singleObject("SHOW GRANTS", ObjectAny)
		if err != nil {
			return nil, err
		}
		s.On = &obj
	}
	if p.accept(pg_query.Token_TO) || p.accept(pg_query.Token_FOR) {
		g, err := p.grantee()
		if err != nil {
			return nil, err
		}
		s.To = &g
	}
	return s, nil
}

// checkAccess reads CHECK ACCESS privilege ON object FOR USER name.
func (p *parser) checkAccess() (Statement, error) {
	p.next()
	p.next()
	it, err := p.privilege(0)
	if err != nil {
		return nil, err
	}
	if err := p.expect(pg_query.Token_ON); err != nil {
		return nil, err
	}
	obj, err := p.singleObject("CHECK ACCESS", ObjectTable)
	if err != nil {
		return nil, err
	}
	user, err := p.forUser()
	if err != nil {
		return nil, err
	}
	return &CheckAccess{Privilege: it.priv, Object: obj, User: user}, nil
}

// showAccess reads SHOW ACCESS ON [TABLE] name FOR USER user.
func (p *parser) showAccess() (Statement, error) {
	p.next()
	p.next()
	p.next()
	p.accept(pg_query.Token_TABLE)
	table, err := p.qualifiedName(3)
	if err != nil {
		return nil, err
	}
	user, err := p.forUser()
	if err != nil {
		return nil, err
	}
	return &ShowAccess{Table: table, User: user}, nil
}

// forUser reads FOR USER name.
func (p *parser) forUser() (string, error) {
	if err := p.expect(pg_query.Token_FOR); err != nil {
		return "", err
	}
	if err := p.expect(pg_query.Token_USER); err != nil {
		return "", err
	}
	return p.name()
}
