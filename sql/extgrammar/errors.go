package extgrammar

import "github.com/sqe-db/sqe/sql/pgerror"

// reservedName is PostgreSQL's SQLSTATE 42939 (reserved_name), for a role
// name PostgreSQL keeps for itself.
const reservedName = "42939"

// syntaxError is PostgreSQL's error for an unexpected token.
func (p *parser) syntaxError(t token) *pgerror.Error {
	if t.eof {
		return p.errorAt(t, pgerror.SyntaxError, "syntax error at end of input")
	}
	return p.errorAt(t, pgerror.SyntaxError, "syntax error at or near \"%s\"", t.text)
}

// errorAt is an error whose cursor is at t.
func (p *parser) errorAt(t token, code, format string, args ...any) *pgerror.Error {
	return pgerror.New(code, format, args...).WithPosition(p.position(t))
}

// unsupported is 0A000 at t.
func (p *parser) unsupported(t token, format string, args ...any) *pgerror.Error {
	return p.errorAt(t, pgerror.FeatureNotSupported, format, args...)
}

// nameError places a name check's error at the name's token.
func (p *parser) nameError(t token, err *pgerror.Error) *pgerror.Error {
	return err.WithPosition(p.position(t))
}

// unsupportedToken refuses a token kind this grammar does not read:
// PostgreSQL's Unicode-escaped identifiers and strings, whose value the
// scanner does not give.
func (p *parser) unsupportedToken(t token) *pgerror.Error {
	return p.unsupported(t, "Unicode escapes (U&) are not supported in this statement")
}
