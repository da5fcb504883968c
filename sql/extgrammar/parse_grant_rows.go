package extgrammar

import pg_query "github.com/pganalyze/pg_query_go/v5"

// rowsAndMasks reads a GRANT's ROWS WHERE and MASKED WITH clauses, each
// at most once and in either order, into s.
func (p *parser) rowsAndMasks(s *GrantPrivileges) error {
	for {
		t := p.peek()
		var err error
		switch {
		case t.is(pg_query.Token_ROWS) && s.RowFilter == "":
			if err = p.narrowable(s, t, "ROWS WHERE"); err == nil {
				err = p.rowsWhere(s)
			}
		case t.isWord("masked") && s.Masks == nil:
			if err = p.narrowable(s, t, "MASKED WITH"); err == nil {
				err = p.maskedWith(s)
			}
		default:
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// narrowable refuses a row filter or column masks, clause at t, on
// anything but a GRANT of SELECT alone on one table: the clauses narrow
// what reading one table shows, which no other privilege, statement or
// object has.
func (p *parser) narrowable(s *GrantPrivileges, t token, clause string) error {
	const hint = "Row filters and column masks go with GRANT SELECT on one table; CREATE POLICY writes them on their own."
	switch {
	case s.Action != ActionGrant:
		return p.unsupported(t, "%s ... %s is not supported", s.Action, clause).WithHint(hint)
	case len(s.Privileges) != 1 || s.Privileges[0].Kind != PrivilegeSelect:
		return p.unsupported(t, "%s needs SELECT as the only privilege", clause).WithHint(hint)
	case len(s.Objects) != 1 || s.Objects[0].Kind != ObjectTable:
		return p.unsupported(t, "%s needs exactly one table", clause).WithHint(hint)
	case s.WithGrantOption:
		return p.unsupported(t, "%s cannot be combined with WITH GRANT OPTION", clause)
	}
	return nil
}

// rowsWhere reads ROWS WHERE expression. The expression runs to the end
// of the statement, or to a MASKED WITH clause after it.
func (p *parser) rowsWhere(s *GrantPrivileges) error {
	p.next()
	if err := p.expect(pg_query.Token_WHERE); err != nil {
		return err
	}
	// No expression goes on with a word, then WITH and a parenthesis.
	filter, err := p.expression(func() bool {
		return p.peek().isWord("masked") && p.peekAt(1).is(pg_query.Token_WITH) && p.peekAt(2).is(pg_query.Token_ASCII_40)
	})
	s.RowFilter = filter
	return err
}

// maskedWith reads MASKED WITH (column AS expression[, ...]).
func (p *parser) maskedWith(s *GrantPrivileges) error {
	p.next()
	if err := p.expect(pg_query.Token_WITH); err != nil {
		return err
	}
	if err := p.expect(pg_query.Token_ASCII_40); err != nil {
		return err
	}
	masks := []ColumnMask{}
	var seen []string
	for {
		col, err := p.distinctColumn(seen)
		if err != nil {
			return err
		}
		seen = append(seen, col)
		if err := p.expect(pg_query.Token_AS); err != nil {
			return err
		}
		expr, err := p.expression(func() bool { return p.peek().is(pg_query.Token_ASCII_44) })
		if err != nil {
			return err
		}
		masks = append(masks, ColumnMask{Column: col, Expr: expr})
		if !p.accept(pg_query.Token_ASCII_44) {
			break
		}
	}
	s.Masks = masks
	return p.expect(pg_query.Token_ASCII_41)
}
