package extgrammar

import pg_query "github.com/pganalyze/pg_query_go/v5"

// columnListAhead reports whether the statement goes on with SELECT and
// a column list: DENY or REVOKE of SELECT on columns.
func (p *parser) columnListAhead() bool {
	return p.peek().is(pg_query.Token_SELECT) && p.peekAt(1).is(pg_query.Token_ASCII_40)
}

// columnDeny reads the rest of DENY or REVOKE SELECT (column[, ...]) ON
// [TABLE] name TO | FROM grantee[, ...], from SELECT.
func (p *parser) columnDeny(action Action) (Statement, error) {
	p.next()
	p.next()
	var cols []string
	for {
		col, err := p.distinctColumn(cols)
		if err != nil {
			return nil, err
		}
		cols = append(cols, col)
		if !p.accept(pg_query.Token_ASCII_44) {
			break
		}
	}
	if err := p.expect(pg_query.Token_ASCII_41); err != nil {
		return nil, err
	}
	if t := p.peek(); t.is(pg_query.Token_ASCII_44) {
		return nil, p.unsupported(t, "a column list goes with SELECT alone").
			WithHint("Write %s SELECT (column, ...) as a statement of its own.", action)
	}
	if err := p.expect(pg_query.Token_ON); err != nil {
		return nil, err
	}
	at := p.peek()
	kind, err := p.objectKind(action.String(), ObjectTable)
	if err != nil {
		return nil, err
	}
	if kind != ObjectTable {
		return nil, p.unsupported(at, "%s SELECT (column, ...) is on one table", action).
			WithHint("Columns are restricted where they are stored: name the table, ON TABLE name.")
	}
	table, err := p.qualifiedName(ObjectTable.maxParts())
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.is(pg_query.Token_ASCII_44) {
		return nil, p.unsupported(t, "%s SELECT (column, ...) is on one table", action)
	}
	if err := p.expect(prepositionToken(action)); err != nil {
		return nil, err
	}
	grantees, err := p.grantees()
	if err != nil {
		return nil, err
	}
	if err := p.tail(action); err != nil {
		return nil, err
	}
	return &ColumnDeny{Action: action, Columns: cols, Table: table, Grantees: grantees}, nil
}
