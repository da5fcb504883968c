package extgrammar

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// createPolicyLike reports whether the statement is CREATE OR REPLACE
// POLICY, which PostgreSQL does not have, or CREATE POLICY name ON TABLE
// or ON TAG and a tag: PostgreSQL's CREATE POLICY name ON table can
// begin with neither, TABLE being reserved and a table's name being
// followed by AS, FOR, TO, USING, WITH or nothing.
func (p *parser) createPolicyLike() bool {
	if p.peekAt(1).is(pg_query.Token_OR) && p.peekAt(2).is(pg_query.Token_REPLACE) {
		return p.peekAt(3).is(pg_query.Token_POLICY)
	}
	if !p.peekAt(1).is(pg_query.Token_POLICY) || !p.peekAt(2).nameStart() || !p.peekAt(3).is(pg_query.Token_ON) {
		return false
	}
	on := p.peekAt(4)
	return on.is(pg_query.Token_TABLE) || on.isWord("tag") && tagStart(p.peekAt(5))
}

// dropPolicyLike reports whether the statement is DROP POLICY [IF
// EXISTS] name with no ON after the name, which PostgreSQL's has.
func (p *parser) dropPolicyLike() bool {
	if !p.peekAt(1).is(pg_query.Token_POLICY) {
		return false
	}
	n := 2
	if p.peekAt(2).is(pg_query.Token_IF_P) && p.peekAt(3).is(pg_query.Token_EXISTS) {
		n = 4
	}
	return p.peekAt(n).nameStart() && !p.peekAt(n+1).is(pg_query.Token_ON)
}

// createPolicy reads CREATE [OR REPLACE] POLICY (see CreatePolicy).
func (p *parser) createPolicy() (Statement, error) {
	p.next()
	s := &CreatePolicy{}
	if p.accept(pg_query.Token_OR) {
		p.next()
		s.OrReplace = true
	}
	p.next()
	var err error
	if s.Name, err = p.name(); err != nil {
		return nil, err
	}
	if err := p.expect(pg_query.Token_ON); err != nil {
		return nil, err
	}
	if s.On, err = p.policyTarget(); err != nil {
		return nil, err
	}
	switch t := p.peek(); {
	case t.is(pg_query.Token_ROW):
		p.next()
		s.Kind = PolicyRowFilter
		if err := p.expect(pg_query.Token_FILTER); err != nil {
			return nil, err
		}
		return s, p.rowFilter(s)
	case t.is(pg_query.Token_COLUMN):
		p.next()
		s.Kind = PolicyColumnMask
		if !p.acceptWord("mask") {
			return nil, p.syntaxError(p.peek())
		}
		return s, p.columnMask(s)
	default:
		return nil, p.syntaxError(t).WithHint("A policy is a ROW FILTER or a COLUMN MASK.")
	}
}

// policyTarget reads TABLE name or TAG tag.
func (p *parser) policyTarget() (PolicyTarget, error) {
	t := p.peek()
	switch {
	case p.accept(pg_query.Token_TABLE):
		name, err := p.qualifiedName(3)
		return PolicyTarget{Table: name}, err
	case p.acceptWord("tag"):
		tag, err := p.tagName()
		return PolicyTarget{Tag: tag}, err
	}
	return PolicyTarget{}, p.syntaxError(t).WithHint("A policy is ON TABLE name or ON TAG tag.")
}

// rowFilter reads the rest of a row filter: TO grantees USING (expression).
func (p *parser) rowFilter(s *CreatePolicy) error {
	if err := p.expect(pg_query.Token_TO); err != nil {
		return err
	}
	var err error
	if s.Grantees, err = p.grantees(); err != nil {
		return err
	}
	if err := p.expect(pg_query.Token_USING); err != nil {
		return err
	}
	s.Filter, err = p.parenExpression()
	return err
}

// columnMask reads the rest of a column mask: the mask type, a CUSTOM
// mask's USING ('expression'), TO grantees and, for a table, ON COLUMN
// column.
func (p *parser) columnMask(s *CreatePolicy) error {
	at := p.peek()
	var err error
	if s.Mask, err = p.maskType(); err != nil {
		return err
	}
	custom := s.Mask.Name == maskCustom
	if t := p.peek(); t.is(pg_query.Token_USING) {
		if !custom {
			return p.errorAt(t, pgerror.SyntaxError, "only a CUSTOM mask takes a USING expression")
		}
		p.next()
		if s.MaskExpr, err = p.maskExpression(); err != nil {
			return err
		}
	} else if custom {
		return p.errorAt(at, pgerror.SyntaxError, "a CUSTOM mask needs a USING expression").
			WithHint("Write USING ('expression'), with {col} standing for the column.")
	}
	if err := p.expect(pg_query.Token_TO); err != nil {
		return err
	}
	if s.Grantees, err = p.grantees(); err != nil {
		return err
	}
	on := p.peek()
	if s.On.Table == nil {
		if on.is(pg_query.Token_ON) {
			return p.syntaxError(on).WithHint("A tag's mask applies to every column carrying the tag.")
		}
		return nil
	}
	if err := p.expect(pg_query.Token_ON); err != nil {
		return err
	}
	if err := p.expect(pg_query.Token_COLUMN); err != nil {
		return err
	}
	s.Column, err = p.columnName()
	return err
}

// maskType reads [component:]name (see MaskType).
func (p *parser) maskType() (MaskType, error) {
	first, err := p.maskTypePart()
	if err != nil {
		return MaskType{}, err
	}
	if !p.accept(pg_query.Token_ASCII_58) {
		return MaskType{Name: maskName(first)}, nil
	}
	second, err := p.maskTypePart()
	if err != nil {
		return MaskType{}, err
	}
	return MaskType{Component: first.value(), Name: maskName(second)}, nil
}

// maskTypePart reads one part of a mask type and checks it as a name.
// Either part is an identifier or a keyword PostgreSQL does not reserve:
// no mask type is a reserved word.
func (p *parser) maskTypePart() (token, error) {
	t := p.peek()
	switch {
	case t.is(pg_query.Token_UIDENT):
		return t, p.unsupportedToken(t)
	case !t.nameStart():
		return t, p.syntaxError(t)
	}
	p.next()
	if err := checkName(t.value()); err != nil {
		return t, p.nameError(t, err)
	}
	return t, nil
}

// maskName is a mask type's name as written: quoted as is, unquoted in
// upper case (ASCII letters only, as folding to lower case is).
func maskName(t token) string {
	if t.quoted() {
		return t.value()
	}
	return strings.ToUpper(foldLower(t.text))
}

// maskExpression reads a CUSTOM mask's ('expression'), a string holding
// SQL with {col} standing for the column, and checks that, with a column
// in place of {col}, the SQL parses as one expression.
func (p *parser) maskExpression() (string, error) {
	if err := p.expect(pg_query.Token_ASCII_40); err != nil {
		return "", err
	}
	lit := p.peek()
	if !lit.is(pg_query.Token_SCONST) && !lit.is(pg_query.Token_USCONST) {
		return "", p.syntaxError(lit).WithHint("A CUSTOM mask's expression is a string: USING ('expression'), with {col} standing for the column.")
	}
	expr, err := p.stringLiteral()
	if err != nil {
		return "", err
	}
	if err := parseExpression(strings.ReplaceAll(expr, "{col}", "masked_column")); err != nil {
		perr := asParserError(err)
		return "", p.errorAt(lit, parserErrorCode(perr), "invalid mask expression: %s", perr.Message)
	}
	return expr, p.expect(pg_query.Token_ASCII_41)
}

// dropPolicy reads DROP POLICY [IF EXISTS] name.
func (p *parser) dropPolicy() (Statement, error) {
	p.next()
	p.next()
	s := &DropPolicy{}
	if p.peek().is(pg_query.Token_IF_P) && p.peekAt(1).is(pg_query.Token_EXISTS) {
		p.next()
		p.next()
		s.IfExists = true
	}
	var err error
	s.Name, err = p.name()
	return s, err
}

// showPolicies reads SHOW POLICIES [ON TABLE name | ON TAG tag].
func (p *parser) showPolicies() (Statement, error) {
	p.next()
	p.next()
	s := &ShowPolicies{}
	if p.accept(pg_query.Token_ON) {
		on, err := p.policyTarget()
		if err != nil {
			return nil, err
		}
		s.On = &on
	}
	return s, nil
}
