package ranger

import (
	"fmt"
	"strings"
)

// compileScript compiles one condition script.
func compileScript(src string) (scriptExpr, error) {
	toks, err := scanScript(src)
	if err != nil {
		return nil, err
	}
	p := &scriptParser{toks: toks}
	var e scriptExpr
	if p.peekIdent("if") {
		e, err = p.ifResult()
	} else {
		e, err = p.expr()
	}
	if err != nil {
		return nil, err
	}
	p.accept(";")
	if !p.done() {
		return nil, fmt.Errorf("unexpected %q", p.toks[p.pos].text)
	}
	return e, nil
}

type scriptToken struct {
	text   string
	str    bool // a string literal (text is its value)
	ident  bool
	offset int
}

func scanScript(src string) ([]scriptToken, error) {
	var toks []scriptToken
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'' || c == '"':
			var sb strings.Builder
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\\' && j+1 < len(src) {
					j++
				}
				sb.WriteByte(src[j])
			}
			if j >= len(src) {
				return nil, fmt.Errorf("unterminated string at %d", i)
			}
			toks = append(toks, scriptToken{text: sb.String(), str: true, offset: i})
			i = j + 1
		case isIdentByte(c):
			j := i
			for j < len(src) && (isIdentByte(src[j]) || src[j] == '.') {
				j++
			}
			toks = append(toks, scriptToken{text: src[i:j], ident: true, offset: i})
			i = j
		default:
			op := ""
			for _, cand := range []string{"===", "!==", "==", "!=", "&&", "||", "!", "(", ")", "{", "}", "=", ";"} {
				if strings.HasPrefix(src[i:], cand) {
					op = cand
					break
				}
			}
			if op == "" {
				return nil, fmt.Errorf("unexpected %q at %d", c, i)
			}
			toks = append(toks, scriptToken{text: op, offset: i})
			i += len(op)
		}
	}
	return toks, nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

type scriptParser struct {
	toks []scriptToken
	pos  int
}

func (p *scriptParser) done() bool { return p.pos >= len(p.toks) }

func (p *scriptParser) peekOp(op string) bool {
	return !p.done() && !p.toks[p.pos].str && !p.toks[p.pos].ident && p.toks[p.pos].text == op
}

func (p *scriptParser) peekIdent(name string) bool {
	return !p.done() && p.toks[p.pos].ident && p.toks[p.pos].text == name
}

func (p *scriptParser) accept(op string) bool {
	if p.peekOp(op) {
		p.pos++
		return true
	}
	return false
}

func (p *scriptParser) expect(op string) error {
	if !p.accept(op) {
		return p.errorf("expected %q", op)
	}
	return nil
}

func (p *scriptParser) errorf(format string, args ...any) error {
	where := "at end"
	if !p.done() {
		where = fmt.Sprintf("at %d", p.toks[p.pos].offset)
	}
	return fmt.Errorf(format+" "+where, args...)
}

// ifResult is `if (cond) ctx.result = true`: the script's result is cond.
func (p *scriptParser) ifResult() (scriptExpr, error) {
	p.pos++
	if err := p.expect("("); err != nil {
		return nil, err
	}
	cond, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	braced := p.accept("{")
	if !p.peekIdent("ctx.result") {
		return nil, p.errorf("expected ctx.result = true")
	}
	p.pos++
	if err := p.expect("="); err != nil {
		return nil, err
	}
	if !p.peekIdent("true") {
		return nil, p.errorf("expected true")
	}
	p.pos++
	if braced {
		p.accept(";")
		if err := p.expect("}"); err != nil {
			return nil, err
		}
	}
	return cond, nil
}

func (p *scriptParser) expr() (scriptExpr, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.accept("||") {
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = orExpr{l, r}
	}
	return l, nil
}

func (p *scriptParser) and() (scriptExpr, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.accept("&&") {
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = andExpr{l, r}
	}
	return l, nil
}

func (p *scriptParser) unary() (scriptExpr, error) {
	if p.accept("!") {
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return notExpr{x}, nil
	}
	l, err := p.primary()
	if err != nil {
		return nil, err
	}
	for _, op := range []string{"===", "!==", "==", "!="} {
		if p.accept(op) {
			r, err := p.primary()
			if err != nil {
				return nil, err
			}
			return equalExpr{l: l, r: r, negate: op[0] == '!'}, nil
		}
	}
	return l, nil
}

func (p *scriptParser) primary() (scriptExpr, error) {
	if p.done() {
		return nil, p.errorf("expected a value")
	}
	t := p.toks[p.pos]
	switch {
	case p.accept("("):
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		return e, p.expect(")")
	case t.str:
		p.pos++
		return literalExpr{scriptValue{kind: kindString, s: t.text}}, nil
	case !t.ident:
		return nil, p.errorf("unexpected %q", t.text)
	}
	p.pos++
	switch name := t.text; {
	case name == "true" || name == "false":
		return literalExpr{boolValue(name == "true")}, nil
	case name == "null" || name == "undefined":
		return literalExpr{}, nil
	case name == "ctx.isAccessedAfter" || name == "ctx.isAccessedBefore":
		if err := p.expect("("); err != nil {
			return nil, err
		}
		if p.done() || !p.toks[p.pos].str {
			return nil, p.errorf("expected an attribute name")
		}
		attr := p.toks[p.pos].text
		p.pos++
		return accessedExpr{attr: attr, after: name == "ctx.isAccessedAfter"}, p.expect(")")
	case strings.HasPrefix(name, "TAG.") && len(name) > 4 && !strings.Contains(name[4:], "."):
		return tagAttrExpr{name: name[4:]}, nil
	case strings.HasPrefix(name, "USER.") && len(name) > 5 && !strings.Contains(name[5:], "."):
		return userAttrExpr{name: name[5:]}, nil
	}
	return nil, fmt.Errorf("unsupported name %q at %d", t.text, t.offset)
}
