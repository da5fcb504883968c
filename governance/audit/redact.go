package audit

import (
	"regexp"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// jwtPattern matches a JSON Web Token (a login password of SQE): three
// base64url parts, the first a JSON object ("eyJ").
var jwtPattern = regexp.MustCompile(`eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`)

// namesSecret reports whether a word, naming the option or key a literal
// follows, marks the literal as a secret: PASSWORD 'x',
// 's3.secret-access-key' => 'x'.
func namesSecret(word string) bool {
	word = strings.ToLower(word)
	for _, w := range [...]string{"password", "secret", "token", "credential"} {
		if strings.Contains(word, w) {
			return true
		}
	}
	return false
}

// minScrubbedLength is the shortest literal taken out of an error
// message: shorter ones would mangle the words of the message itself.
const minScrubbedLength = 4

// redactor turns statement text into what the log may hold.
type redactor struct {
	// literals redacts every constant; otherwise only secrets are.
	literals bool
}

// redacted is a statement's loggable text and the literal values the
// error message must not repeat.
type redacted struct {
	text    string
	secrets []string
}

// statement redacts text. With literals on, pg_query.Normalize replaces
// the constants of what PostgreSQL's grammar parses by $n, and a scan
// over its output replaces those it leaves (utility statements such as
// CALL, the extension grammar's statements) the same way. Either way,
// passwords and tokens are replaced. Text that cannot be scanned is not
// logged at all.
func (r redactor) statement(text string) redacted {
	original, err := pg_query.Scan(text)
	if err != nil {
		return redacted{}
	}
	var secrets []string
	for i, tk := range original.Tokens {
		if !isConstant(tk.Token) {
			continue
		}
		if r.literals || isSecret(text, original.Tokens, i) {
			if v := literalValue(text[tk.Start:tk.End]); len(v) >= minScrubbedLength {
				secrets = append(secrets, v)
			}
		}
	}
	out := text
	if r.literals {
		if n, err := pg_query.Normalize(text); err == nil {
			out = n
		}
	}
	masked, ok := r.maskConstants(out)
	if !ok {
		return redacted{}
	}
	return redacted{text: masked, secrets: secrets}
}

// maskConstants replaces by $n the constants of text that must not be
// logged, numbering after the highest parameter already there.
func (r redactor) maskConstants(text string) (string, bool) {
	scan, err := pg_query.Scan(text)
	if err != nil {
		return "", false
	}
	next := 1
	for _, tk := range scan.Tokens {
		if tk.Token == pg_query.Token_PARAM {
			if n, err := strconv.Atoi(text[tk.Start+1 : tk.End]); err == nil && n >= next {
				next = n + 1
			}
		}
	}
	var b strings.Builder
	last := int32(0)
	for i, tk := range scan.Tokens {
		if !isConstant(tk.Token) || !(r.literals || isSecret(text, scan.Tokens, i)) {
			continue
		}
		b.WriteString(text[last:tk.Start])
		b.WriteString("$" + strconv.Itoa(next))
		next++
		last = tk.End
	}
	b.WriteString(text[last:])
	return jwtPattern.ReplaceAllString(b.String(), "[token]"), true
}

// message scrubs an error message of the statement's redacted literals
// and of anything that looks like a token.
func (r redacted) message(msg string) string {
	for _, s := range r.secrets {
		msg = strings.ReplaceAll(msg, s, "[redacted]")
	}
	return jwtPattern.ReplaceAllString(msg, "[token]")
}

func isConstant(t pg_query.Token) bool {
	switch t {
	case pg_query.Token_SCONST, pg_query.Token_USCONST, pg_query.Token_ICONST, pg_query.Token_FCONST,
		pg_query.Token_BCONST, pg_query.Token_XCONST:
		return true
	}
	return false
}

// isSecret reports whether the constant tokens[i] is a password or a
// token: it follows a word naming a secret (PASSWORD 'x', password =
// 'x', 'secret-key' => 'x'), or it holds a token.
func isSecret(text string, tokens []*pg_query.ScanToken, i int) bool {
	if jwtPattern.MatchString(text[tokens[i].Start:tokens[i].End]) {
		return true
	}
	j := i - 1
	for j >= 0 && isAssignment(text[tokens[j].Start:tokens[j].End]) {
		j--
	}
	return j >= 0 && namesSecret(text[tokens[j].Start:tokens[j].End])
}

func isAssignment(tok string) bool {
	return tok == "=" || tok == "=>" || tok == ":=" || tok == ":"
}

// literalValue is a constant's value as an error message would quote it:
// the text between its quotes, quotes doubled inside undone.
func literalValue(lit string) string {
	if len(lit) > 2 && strings.ContainsAny(lit[:1], "EeBbXxNn") && lit[1] == '\'' {
		lit = lit[1:]
	} else if len(lit) > 3 && strings.EqualFold(lit[:2], "U&") {
		lit = lit[2:]
	}
	if strings.HasPrefix(lit, "'") && strings.HasSuffix(lit, "'") && len(lit) >= 2 {
		return strings.ReplaceAll(lit[1:len(lit)-1], "''", "'")
	}
	if strings.HasPrefix(lit, "$") {
		if end := strings.Index(lit[1:], "$"); end >= 0 {
			tag := lit[:end+2]
			return strings.TrimSuffix(strings.TrimPrefix(lit, tag), tag)
		}
	}
	return lit
}
