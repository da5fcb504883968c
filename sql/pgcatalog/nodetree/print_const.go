package nodetree

import (
	"strings"

	"github.com/sqe-db/sqe/sql/types"
)

// constant is get_const_expr. showType -1 prints the value alone (the
// caller adds the type); 0 adds ::type unless the literal reads back as
// its type by itself: an integer, a decimal number, a boolean, an
// untyped string.
func (p *printer) constant(n *Node, showType int) {
	if n.Null {
		p.write("NULL")
		if showType >= 0 {
			p.write("::" + n.Type.Name())
		}
		return
	}
	v := n.Value
	needLabel := false
	switch n.Type.OID {
	case types.OIDInt4:
		// A negative number would read back as an operator applied to
		// a constant.
		if strings.HasPrefix(v, "-") {
			p.write(quoteLiteral(v))
			needLabel = true
		} else {
			p.write(v)
		}
	case types.OIDNumeric:
		if v != "" && v[0] >= '0' && v[0] <= '9' && strings.ContainsAny(v, "eE.") {
			p.write(v)
		} else {
			p.write(quoteLiteral(v))
			needLabel = true
		}
	case types.OIDBool:
		if v == "t" {
			p.write("true")
		} else {
			p.write("false")
		}
	default:
		p.write(quoteLiteral(v))
	}
	if showType < 0 {
		return
	}
	switch n.Type.OID {
	case types.OIDBool, types.OIDUnknown:
		needLabel = false
	case types.OIDInt4:
	case types.OIDNumeric:
		needLabel = needLabel || n.Type.Typmod() >= 0
	default:
		needLabel = true
	}
	if needLabel || showType > 0 {
		p.write("::" + n.Type.Name())
	}
}

// quoteLiteral is simple_quote_literal with standard_conforming_strings
// on: quotes doubled, backslashes as they are.
func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
