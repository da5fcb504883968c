package ranger

import "strings"

// Tokens a policy's resource values may name, replaced per request as
// Ranger's StringTokenReplacer does: {USER} is the caller, {OWNER} the
// owner of the requested resource.
const (
	tokenUser  = "USER"
	tokenOwner = "OWNER"
)

// tokenSyntax is how a resource level writes tokens (Ranger's
// tokenDelimiterStart, tokenDelimiterEnd, tokenDelimiterEscape and
// tokenDelimiterPrefix matcher options).
type tokenSyntax struct {
	start, end, escape byte
	prefix             string
}

// newTokenSyntax reads a level's matcher options; nil when replaceTokens
// is off or the delimiters are unusable (Ranger then disables
// replacement too).
func newTokenSyntax(opts StringMap) *tokenSyntax {
	if !opts.boolOption("replaceTokens", true) {
		return nil
	}
	t := &tokenSyntax{
		start:  opts.charOption("tokenDelimiterStart", '{'),
		end:    opts.charOption("tokenDelimiterEnd", '}'),
		escape: opts.charOption("tokenDelimiterEscape", '\\'),
		prefix: opts["tokenDelimiterPrefix"],
	}
	if t.escape == t.start || t.escape == t.end || strings.ContainsAny(t.prefix, string([]byte{t.escape, t.start, t.end})) {
		return nil
	}
	return t
}

// has reports whether a value may hold a token (or an escape), so that it
// must be expanded per request.
func (t *tokenSyntax) has(v string) bool {
	return strings.IndexByte(v, t.escape) >= 0 ||
		(strings.IndexByte(v, t.start) >= 0 && strings.IndexByte(v, t.end) >= 0)
}

// replace expands the tokens of v for a request. A token without a value
// (an unknown name, or no owner) stays as written, so that it matches
// nothing real.
func (t *tokenSyntax) replace(v string, rq *Request) string {
	if rq == nil {
		return v
	}
	var out, token strings.Builder
	inToken := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == t.escape {
			i++
			dst := &out
			keep := t.start
			if inToken {
				dst, keep = &token, t.end
			}
			if i < len(v) {
				c = v[i]
				if c != t.escape && c != keep {
					dst.WriteByte(t.escape)
				}
				dst.WriteByte(c)
			} else {
				dst.WriteByte(t.escape)
			}
			continue
		}
		switch {
		case !inToken && c == t.start:
			inToken = true
			token.Reset()
		case !inToken:
			out.WriteByte(c)
		case c == t.end:
			raw := token.String()
			name, ok := strings.CutPrefix(raw, t.prefix)
			if val := tokenValue(name, rq); ok && val != "" {
				out.WriteString(val)
			} else {
				out.WriteByte(t.start)
				out.WriteString(raw)
				out.WriteByte(t.end)
			}
			inToken = false
		default:
			token.WriteByte(c)
		}
	}
	if inToken {
		out.WriteByte(t.start)
		out.WriteString(token.String())
	}
	return out.String()
}

func tokenValue(name string, rq *Request) string {
	switch name {
	case tokenUser:
		return rq.User
	case tokenOwner:
		return rq.Owner
	}
	return ""
}

// tokenMatcher is a policy value with tokens: it is expanded for each
// request and then matched like any other value of its level.
type tokenMatcher struct {
	lvl       *resourceLevel
	recursive bool
	raw       string
}

func (m tokenMatcher) expanded(rq *Request) valueMatcher {
	return compileStaticValue(m.lvl, m.recursive, m.lvl.tokens.replace(m.raw, rq))
}

func (m tokenMatcher) match(v string, rq *Request) bool { return m.expanded(rq).match(v, rq) }

func (m tokenMatcher) prefixMatch(v string, rq *Request) bool {
	return m.expanded(rq).prefixMatch(v, rq)
}
