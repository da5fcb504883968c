package extgrammar

import pg_query "github.com/pganalyze/pg_query_go/v5"

// showObjects reads SHOW SCHEMAS [FROM | IN catalog] or SHOW TABLES
// [FROM | IN [catalog.]schema]. PostgreSQL has neither (its SHOW names a
// setting, and there is no setting of either name), so they cannot shadow
// one of its statements.
func (p *parser) showObjects() (Statement, error) {
	p.next()
	schemas := p.peek().is(pg_query.Token_SCHEMAS)
	p.next()
	var parts []string
	if p.accept(pg_query.Token_FROM) || p.accept(pg_query.Token_IN_P) {
		max := 2
		if schemas {
			max = 1
		}
		var err error
		if parts, err = p.qualifiedName(max); err != nil {
			return nil, err
		}
	}
	if schemas {
		s := &ShowSchemas{}
		if len(parts) == 1 {
			s.Catalog = parts[0]
		}
		return s, nil
	}
	s := &ShowTables{}
	switch len(parts) {
	case 1:
		s.Schema = parts[0]
	case 2:
		s.Catalog, s.Schema = parts[0], parts[1]
	}
	return s, nil
}
