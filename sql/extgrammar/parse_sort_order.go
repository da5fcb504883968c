package extgrammar

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// alterTableSortOrder reports whether the statement is ALTER TABLE name
// SET SORT ORDER, which PostgreSQL does not have.
func (p *parser) alterTableSortOrder() bool {
	if !p.peekAt(1).is(pg_query.Token_TABLE) || !p.peekAt(2).nameStart() {
		return false
	}
	n := 3
	for p.peekAt(n).is(pg_query.Token_ASCII_46) && p.peekAt(n+1).label() {
		n += 2
	}
	return p.peekAt(n).is(pg_query.Token_SET) && p.peekAt(n+1).isWord("sort") && p.peekAt(n+2).is(pg_query.Token_ORDER)
}

// setSortOrder reads ALTER TABLE name SET SORT ORDER (items) | NONE |
// UNSORTED.
func (p *parser) setSortOrder() (Statement, error) {
	p.next()
	p.next()
	table, err := p.qualifiedName(3)
	if err != nil {
		return nil, err
	}
	p.next() // SET
	p.next() // SORT
	p.next() // ORDER
	s := &SetSortOrder{Table: table}
	if p.accept(pg_query.Token_NONE) || p.acceptWord("unsorted") {
		return s, nil
	}
	if err := p.expect(pg_query.Token_ASCII_40); err != nil {
		return nil, err
	}
	for {
		item, err := p.sortItem(s.Fields)
		if err != nil {
			return nil, err
		}
		s.Fields = append(s.Fields, item)
		if !p.accept(pg_query.Token_ASCII_44) {
			return s, p.expect(pg_query.Token_ASCII_41)
		}
	}
}

// sortItem reads column [ASC | DESC] [NULLS FIRST | NULLS LAST], or the
// column as identity(column); another transform (bucket, truncate, a
// date part) is not one SQE sorts by.
func (p *parser) sortItem(seen []SortItem) (SortItem, error) {
	t := p.peek()
	var col string
	if p.peekAt(1).is(pg_query.Token_ASCII_40) && t.nameStart() && !t.quoted() {
		p.next()
		// IDENTITY is one of PostgreSQL's keywords, not a plain word.
		if foldLower(t.text) != "identity" {
			return SortItem{}, p.unsupported(t, "sort transform %s is not supported", foldLower(t.text)).
				WithHint("SQE sorts by columns as they are (the identity transform).")
		}
		p.next()
		c, err := p.columnName()
		if err != nil {
			return SortItem{}, err
		}
		if err := p.expect(pg_query.Token_ASCII_41); err != nil {
			return SortItem{}, err
		}
		col = c
	} else {
		c, err := p.columnName()
		if err != nil {
			return SortItem{}, err
		}
		col = c
	}
	for _, s := range seen {
		if s.Column == col {
			return SortItem{}, p.errorAt(t, pgerror.DuplicateColumn, "column \"%s\" specified more than once", col)
		}
	}
	item := SortItem{Column: col, NullsFirst: true}
	switch {
	case p.accept(pg_query.Token_DESC):
		item.Descending, item.NullsFirst = true, false
	default:
		p.accept(pg_query.Token_ASC)
	}
	if p.accept(pg_query.Token_NULLS_P) {
		switch {
		case p.accept(pg_query.Token_FIRST_P):
			item.NullsFirst = true
		case p.accept(pg_query.Token_LAST_P):
			item.NullsFirst = false
		default:
			return SortItem{}, p.syntaxError(p.peek())
		}
	}
	return item, nil
}
