package nodetree

import "strings"

// isSimple is ruleutils.c's isSimpleNode for pretty printing: whether n
// needs no parentheses inside parent.
func isSimple(n, parent *Node) bool {
	switch n.Kind {
	case Const, SQLValueFunction, FuncExpr, CastFunc, CaseExpr, CoalesceExpr, MinMaxExpr, NullIfExpr, ArrayExpr:
		// Single tokens, or function-like with their own parentheses.
		return true
	case Relabel:
		return isSimple(n.Args[0], n)
	case OpExpr:
		if parent.Kind == OpExpr {
			return simpleInOperator(n, parent)
		}
		return simpleInParent(parent)
	case NullTest, BooleanTest:
		return simpleInParent(parent)
	case BoolExpr:
		if parent.Kind == BoolExpr {
			switch n.Name {
			case "NOT", "AND":
				return parent.Name == "AND" || parent.Name == "OR"
			case "OR":
				return parent.Name == "OR"
			}
			return false
		}
		return simpleInParent(parent)
	}
	return false
}

// simpleInOperator decides for an operator inside an operator by the
// precedence of + - below * / %, which is all the printer knows of:
// equal precedence binds left to right.
func simpleInOperator(n, parent *Node) bool {
	op, pop := simpleBinaryOp(n), simpleBinaryOp(parent)
	if op == "" || pop == "" {
		return false
	}
	lo, hi := strings.Contains("+-", op), strings.Contains("*/%", op)
	plo, phi := strings.Contains("+-", pop), strings.Contains("*/%", pop)
	switch {
	case !(lo || hi) || !(plo || phi):
		return false
	case hi && plo:
		return true
	case lo && phi:
		return false
	}
	return parent.Args[0] == n
}

// simpleBinaryOp is a binary operator's name when it is one character.
func simpleBinaryOp(n *Node) string {
	if len(n.Args) != 2 || len(n.Name) != 1 {
		return ""
	}
	return n.Name
}

// simpleInParent decides for an operator, a test or a boolean expression
// inside a parent that separates its arguments by commas or keywords.
func simpleInParent(parent *Node) bool {
	switch parent.Kind {
	case FuncExpr, BoolExpr, ArrayExpr, CoalesceExpr, MinMaxExpr, NullIfExpr, CaseExpr:
		return true
	}
	return false
}
