package extgrammar

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// privilegeItem is one entry of the list after GRANT, REVOKE or DENY.
// Whether the list names privileges or roles is known only at the next
// word (ON or TO), so an entry that can be a role's name keeps it.
type privilegeItem struct {
	priv Privilege
	role string // the entry as a role name; empty when it cannot be one
	tok  token  // the entry's first token
}

// privilegeList reads the privileges of a GRANT, REVOKE or DENY (action)
// separated by commas. ALL [PRIVILEGES] comes alone, as in PostgreSQL.
func (p *parser) privilegeList(action Action) ([]privilegeItem, error) {
	var items []privilegeItem
	for {
		it, err := p.privilege(action)
		if err != nil {
			return nil, err
		}
		if it.priv.Kind == PrivilegeAll && len(items) > 0 {
			return nil, p.syntaxError(it.tok)
		}
		items = append(items, it)
		if it.priv.Kind == PrivilegeAll || !p.accept(pg_query.Token_ASCII_44) {
			return items, nil
		}
	}
}

// privilege reads one privilege of a GRANT, REVOKE or DENY (action; 0
// for CHECK ACCESS), refusing a column list after it: a column privilege
// read as a table privilege would be wider than written. DENY and REVOKE
// of SELECT alone on columns are statements of their own (ColumnDeny).
func (p *parser) privilege(action Action) (privilegeItem, error) {
	it, err := p.privilegeWords()
	if err != nil {
		return it, err
	}
	t := p.peek()
	if !t.is(pg_query.Token_ASCII_40) {
		return it, nil
	}
	switch {
	case action == ActionDeny || action == ActionRevoke:
		if it.priv.Kind == PrivilegeSelect {
			return it, p.unsupported(t, "a column list goes with SELECT alone").
				WithHint("Write %s SELECT (column, ...) as a statement of its own.", action)
		}
		return it, p.unsupported(t, "column lists are supported with SELECT only").
			WithHint("DENY SELECT (column, ...) hides columns, REVOKE SELECT (column, ...) shows them again; other privileges apply to whole tables.")
	case action == ActionGrant:
		return it, p.unsupported(t, "column privileges are not supported").
			WithHint("Grant SELECT on the table: DENY SELECT (column, ...) hides columns from a grantee, and a column policy masks them.")
	}
	return it, p.unsupported(t, "column privileges are not supported").
		WithHint("SHOW ACCESS ON table FOR USER name shows which columns a user sees.")
}

// privilegeWords reads the words of one privilege.
func (p *parser) privilegeWords() (privilegeItem, error) {
	t := p.peek()
	it := privilegeItem{tok: t}
	if access, n := p.hyphenated(); n > 0 {
		if err := checkName(access); err != nil {
			return it, p.nameError(t, err)
		}
		p.at += n
		it.priv = Privilege{Kind: PrivilegeNative, Native: access}
		return it, nil
	}
	kind := PrivilegeKind(0)
	switch {
	case t.is(pg_query.Token_SELECT):
		kind = PrivilegeSelect
	case t.is(pg_query.Token_INSERT):
		kind = PrivilegeInsert
	case t.is(pg_query.Token_UPDATE):
		kind = PrivilegeUpdate
	case t.is(pg_query.Token_DELETE_P):
		kind = PrivilegeDelete
	case t.isWord("modify"):
		kind = PrivilegeModify
	case t.isWord("usage"):
		kind = PrivilegeUsage
	case t.is(pg_query.Token_DROP):
		kind = PrivilegeDrop
		if p.peekAt(1).is(pg_query.Token_SCHEMA) {
			p.next()
			kind = PrivilegeDropSchema
		}
	case t.is(pg_query.Token_CREATE):
		switch next := p.peekAt(1); {
		case next.is(pg_query.Token_TABLE):
			kind = PrivilegeCreateTable
		case next.is(pg_query.Token_SCHEMA):
			kind = PrivilegeCreateSchema
		default:
			return it, p.unsupported(t, "privilege CREATE needs an object type").
				WithHint("Write CREATE TABLE or CREATE SCHEMA.")
		}
		p.next()
	case t.is(pg_query.Token_ALL):
		kind = PrivilegeAll
		if p.peekAt(1).is(pg_query.Token_PRIVILEGES) {
			p.next()
		}
	case t.is(pg_query.Token_UIDENT):
		return it, p.unsupportedToken(t)
	case t.nameStart() || t.is(pg_query.Token_REFERENCES):
		p.next()
		return p.nativePrivilege(t)
	default:
		return it, p.syntaxError(t)
	}
	p.next()
	it.priv = Privilege{Kind: kind}
	return it, nil
}

// nativePrivilege is a one-word privilege that is not a SQL privilege of
// this grammar: an access type, lower-cased, or (when ON does not follow)
// a role's name, as written.
func (p *parser) nativePrivilege(t token) (privilegeItem, error) {
	v := t.value()
	if err := checkName(v); err != nil {
		return privilegeItem{}, p.nameError(t, err)
	}
	it := privilegeItem{tok: t, priv: Privilege{Kind: PrivilegeNative, Native: strings.ToLower(v)}}
	if t.nameStart() {
		it.role = v
	}
	return it, nil
}

// hyphenated reads an access type written bare, words joined by hyphens
// with no space between (table-data-read), and returns it lower-cased with
// the number of tokens it spans; n is 0 when the current token does not
// begin one.
func (p *parser) hyphenated() (access string, n int) {
	first := p.peek()
	if !bareWord(first) {
		return "", 0
	}
	words := []string{foldLower(first.text)}
	n, end := 1, first.start+len(first.text)
	for {
		dash, w := p.peekAt(n), p.peekAt(n+1)
		if !dash.is(pg_query.Token_ASCII_45) || dash.start != end || !bareWord(w) || w.start != end+1 {
			break
		}
		words = append(words, foldLower(w.text))
		n, end = n+2, w.start+len(w.text)
	}
	if n == 1 {
		return "", 0
	}
	return strings.Join(words, "-"), n
}

// bareWord reports whether t is an unquoted identifier or keyword.
func bareWord(t token) bool {
	return !t.eof && !t.quoted() && (t.kind == pg_query.Token_IDENT || t.keyword != pg_query.KeywordKind_NO_KEYWORD)
}

// itemsAsRoles reads a GRANT's list as role names, once TO (or FROM)
// shows that it grants roles; at is that word, where an entry that can
// only be a privilege is a syntax error.
func (p *parser) itemsAsRoles(items []privilegeItem, at token) ([]string, error) {
	roles := make([]string, len(items))
	for i, it := range items {
		if it.role == "" {
			return nil, p.syntaxError(at)
		}
		if err := checkRoleName(it.role); err != nil {
			return nil, p.nameError(it.tok, err)
		}
		roles[i] = it.role
	}
	return roles, nil
}
