package extgrammar

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// alterTableTags reports whether the statement is ALTER TABLE name SET
// TAGS or UNSET TAGS, which PostgreSQL has neither of; every other ALTER
// TABLE is PostgreSQL's.
func (p *parser) alterTableTags() bool {
	if !p.peekAt(1).is(pg_query.Token_TABLE) || !p.peekAt(2).nameStart() {
		return false
	}
	n := 3
	for p.peekAt(n).is(pg_query.Token_ASCII_46) && p.peekAt(n+1).label() {
		n += 2
	}
	verb := p.peekAt(n)
	return (verb.is(pg_query.Token_SET) || verb.isWord("unset")) && p.peekAt(n+1).isWord("tags")
}

// alterTable reads ALTER TABLE name SET TAGS (...) or UNSET TAGS (...).
func (p *parser) alterTable() (Statement, error) {
	p.next()
	p.next()
	table, err := p.qualifiedName(3)
	if err != nil {
		return nil, err
	}
	set := p.next().is(pg_query.Token_SET)
	p.next()
	if err := p.expect(pg_query.Token_ASCII_40); err != nil {
		return nil, err
	}
	var stmt Statement
	if set {
		stmt, err = p.setTags(table)
	} else {
		stmt, err = p.unsetTags(table)
	}
	if err != nil {
		return nil, err
	}
	return stmt, p.expect(pg_query.Token_ASCII_41)
}

// setTags reads column = ('tag'[, ...])[, ...].
func (p *parser) setTags(table []string) (Statement, error) {
	s := &SetTags{Table: table}
	var seen []string
	for {
		col, err := p.distinctColumn(seen)
		if err != nil {
			return nil, err
		}
		seen = append(seen, col)
		if err := p.expect(pg_query.Token_ASCII_61); err != nil {
			return nil, err
		}
		tags, err := p.tagList(col)
		if err != nil {
			return nil, err
		}
		s.Columns = append(s.Columns, ColumnTags{Column: col, Tags: tags})
		if !p.accept(pg_query.Token_ASCII_44) {
			return s, nil
		}
	}
}

// tagList reads ('tag'[, ...]), the tags of column col, each once.
func (p *parser) tagList(col string) ([]string, error) {
	if err := p.expect(pg_query.Token_ASCII_40); err != nil {
		return nil, err
	}
	var tags []string
	for {
		t := p.peek()
		tag, err := p.stringLiteral()
		if err != nil {
			return nil, err
		}
		if err := checkTag(tag); err != nil {
			return nil, p.nameError(t, err)
		}
		for _, have := range tags {
			if have == tag {
				return nil, p.errorAt(t, pgerror.DuplicateObject, "tag \"%s\" specified more than once for column \"%s\"", tag, col)
			}
		}
		tags = append(tags, tag)
		if !p.accept(pg_query.Token_ASCII_44) {
			return tags, p.expect(pg_query.Token_ASCII_41)
		}
	}
}

// unsetTags reads column[, ...].
func (p *parser) unsetTags(table []string) (Statement, error) {
	s := &UnsetTags{Table: table}
	for {
		col, err := p.distinctColumn(s.Columns)
		if err != nil {
			return nil, err
		}
		s.Columns = append(s.Columns, col)
		if !p.accept(pg_query.Token_ASCII_44) {
			return s, nil
		}
	}
}

// distinctColumn reads a column's name that is not among seen, the
// columns the list named before it.
func (p *parser) distinctColumn(seen []string) (string, error) {
	t := p.peek()
	col, err := p.columnName()
	if err != nil {
		return "", err
	}
	for _, c := range seen {
		if c == col {
			return "", p.errorAt(t, pgerror.DuplicateColumn, "column \"%s\" specified more than once", col)
		}
	}
	return col, nil
}

// showTags reads SHOW TAGS ON [TABLE] name.
func (p *parser) showTags() (Statement, error) {
	p.next()
	p.next()
	if err := p.expect(pg_query.Token_ON); err != nil {
		return nil, err
	}
	p.accept(pg_query.Token_TABLE)
	table, err := p.qualifiedName(3)
	if err != nil {
		return nil, err
	}
	return &ShowTags{Table: table}, nil
}

// tagStart reports whether t can be a tag: a string constant, or a word.
func tagStart(t token) bool {
	return t.is(pg_query.Token_SCONST) || t.nameStart()
}

// tagName reads the tag of ON TAG: a string constant, a quoted name, or a
// word, which keeps its case as written. Tags are case-sensitive values,
// not names, so ON TAG PII is the tag 'PII', as SET TAGS writes it.
func (p *parser) tagName() (string, error) {
	t := p.peek()
	var tag string
	switch {
	case t.is(pg_query.Token_SCONST) || t.is(pg_query.Token_USCONST):
		var err error
		if tag, err = p.stringLiteral(); err != nil {
			return "", err
		}
	case t.is(pg_query.Token_UIDENT):
		return "", p.unsupportedToken(t)
	case t.quoted():
		p.next()
		tag = t.value()
	case t.nameStart():
		p.next()
		tag = t.text
	default:
		return "", p.syntaxError(t)
	}
	if err := checkTag(tag); err != nil {
		return "", p.nameError(t, err)
	}
	return tag, nil
}
