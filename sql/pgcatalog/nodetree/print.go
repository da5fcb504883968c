package nodetree

import (
	"bytes"
	"strings"

	"github.com/sqe-db/sqe/planner/exec"
)

// Indentation of ruleutils.c's pretty printer (PRETTYINDENT_VAR,
// PRETTYINDENT_STD, PRETTYINDENT_LIMIT).
const (
	indentVar   = 4
	indentStd   = 8
	indentLimit = 40
)

// printer is ruleutils.c's deparse context for one expression.
// pg_get_expr always indents (CASE goes on new lines); pretty adds
// PRETTYFLAG_PAREN, which drops the parentheses that precedence makes
// needless.
type printer struct {
	buf    []byte
	pretty bool
	indent int
}

// Text prints n as pg_get_expr(adbin, relid, pretty) does.
func Text(n *Node, pretty bool) string {
	p := &printer{pretty: pretty}
	p.expr(n, false)
	return string(p.buf)
}

func (p *printer) write(s string) { p.buf = append(p.buf, s...) }

// expr is get_rule_expr: showImplicit says whether conversions the
// analysis added are printed.
func (p *printer) expr(n *Node, showImplicit bool) {
	switch n.Kind {
	case Const:
		p.constant(n, 0)
	case Verbatim:
		p.write(n.Value)
	case FuncExpr:
		if n.SQLSyntax {
			p.sqlSyntax(n)
			return
		}
		p.write(exec.QuoteIdent(n.Name))
		p.write("(")
		p.list(n.Args)
		p.write(")")
	case CastFunc, Relabel:
		if !n.Explicit && !showImplicit {
			p.paren(n.Args[0], false, n)
			return
		}
		p.coercion(n.Args[0], n)
	case OpExpr:
		p.open()
		if len(n.Args) == 2 {
			p.paren(n.Args[0], true, n)
			p.write(" " + n.Name + " ")
			p.paren(n.Args[1], true, n)
		} else {
			p.write(n.Name + " ")
			p.paren(n.Args[0], true, n)
		}
		p.close()
	case BoolExpr:
		p.open()
		if n.Name == "NOT" {
			p.write("NOT ")
			p.paren(n.Args[0], false, n)
		} else {
			for i, a := range n.Args {
				if i > 0 {
					p.write(" " + n.Name + " ")
				}
				p.paren(a, false, n)
			}
		}
		p.close()
	case NullTest:
		p.open()
		p.paren(n.Args[0], true, n)
		p.write(" " + n.Name)
		p.close()
	case BooleanTest:
		p.open()
		p.paren(n.Args[0], false, n)
		p.write(" " + n.Name)
		p.close()
	case SQLValueFunction:
		p.write(n.Name)
	case CaseExpr:
		p.caseExpr(n)
	case CoalesceExpr:
		p.write("COALESCE(")
		p.list(n.Args)
		p.write(")")
	case MinMaxExpr, NullIfExpr:
		p.write(n.Name + "(")
		p.list(n.Args)
		p.write(")")
	case ArrayExpr:
		p.write("ARRAY[")
		p.list(n.Args)
		p.write("]")
		if len(n.Args) == 0 {
			p.write("::" + n.Type.Name())
		}
	}
}

// open and close are the parentheses a node puts around itself unless
// printing pretty.
func (p *printer) open() {
	if !p.pretty {
		p.write("(")
	}
}

func (p *printer) close() {
	if !p.pretty {
		p.write(")")
	}
}

// list prints expressions separated by commas, conversions shown.
func (p *printer) list(args []*Node) {
	for i, a := range args {
		if i > 0 {
			p.write(", ")
		}
		p.expr(a, true)
	}
}

// paren is get_rule_expr_paren: n inside parent, parenthesized when
// pretty printing and n does not bind tighter than parent.
func (p *printer) paren(n *Node, showImplicit bool, parent *Node) {
	need := p.pretty && !isSimple(n, parent)
	if need {
		p.write("(")
	}
	p.expr(n, showImplicit)
	if need {
		p.write(")")
	}
}

// coercion is get_coercion_expr: arg::type. A constant of the target type
// without modifier shows without its own label, so that a length
// coercion of a literal ('abc'::varchar(5)) prints as written.
func (p *printer) coercion(arg, cast *Node) {
	if arg.Kind == Const && arg.Type.OID == cast.Type.OID && arg.Type.Typmod() == -1 {
		p.constant(arg, -1)
	} else {
		p.open()
		p.paren(arg, false, cast)
		p.close()
	}
	p.write("::" + cast.Type.Name())
}

// caseExpr prints CASE on lines of its own, as pg_get_expr always does.
func (p *printer) caseExpr(n *Node) {
	p.keyword("CASE", 0, indentVar, 0)
	if n.Arg != nil {
		p.write(" ")
		p.expr(n.Arg, true)
	}
	for i := 0; i < len(n.Args); i += 2 {
		p.keyword("WHEN ", 0, 0, 0)
		p.expr(n.Args[i], false)
		p.write(" THEN ")
		p.expr(n.Args[i+1], true)
	}
	p.keyword("ELSE ", 0, 0, 0)
	p.expr(n.Default, true)
	p.keyword("END", -indentVar, 0, 0)
}

// keyword is appendContextKeyword: a new line, indented, then s.
func (p *printer) keyword(s string, before, after, plus int) {
	p.indent += before
	p.buf = bytes.TrimRight(p.buf, " ")
	p.write("\n")
	amount := max(p.indent, 0) + plus
	if p.indent >= indentLimit {
		// Deep nesting indents by less, and wraps, as PostgreSQL does.
		amount = (indentLimit+(p.indent-indentLimit)/(indentStd/2))%indentLimit + plus
	}
	p.write(strings.Repeat(" ", amount))
	p.write(s)
	p.indent = max(p.indent+after, 0)
}

// sqlSyntax prints a function call in the SQL-standard form it was
// written in (get_func_sql_syntax).
func (p *printer) sqlSyntax(n *Node) {
	switch n.Name {
	case "btrim", "ltrim", "rtrim":
		p.write(map[string]string{"btrim": "TRIM(BOTH", "ltrim": "TRIM(LEADING", "rtrim": "TRIM(TRAILING"}[n.Name])
		if len(n.Args) == 2 {
			p.write(" ")
			p.expr(n.Args[1], false)
		}
		p.write(" FROM ")
		p.expr(n.Args[0], false)
		p.write(")")
	case "substring":
		p.write("SUBSTRING(")
		p.expr(n.Args[0], false)
		p.write(" FROM ")
		p.expr(n.Args[1], false)
		if len(n.Args) == 3 {
			p.write(" FOR ")
			p.expr(n.Args[2], false)
		}
		p.write(")")
	case "position":
		// The arguments are b_expr in the grammar, hence the parentheses.
		p.write("POSITION((")
		p.expr(n.Args[1], false)
		p.write(") IN (")
		p.expr(n.Args[0], false)
		p.write("))")
	case "extract":
		p.write("EXTRACT(" + n.Args[0].Value + " FROM ")
		p.expr(n.Args[1], false)
		p.write(")")
	}
}
