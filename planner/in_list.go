package planner

// InList recognizes e as x = c1 OR x = c2 OR ... (two or more), one
// expression compared with non-NULL constants of its own type: what
// PostgreSQL reads as x = ANY ('{c1,c2,...}') and the binder spells out
// as ORs. The executor then evaluates x once for the whole list instead
// of once per constant. ok is false otherwise, and when the operands are
// not provably the same expression (SameExpr: a volatile function or a
// subquery never is).
//
// The two are the same for every row, NULLs included: a NULL x makes
// each equality NULL and so the OR; otherwise the OR is true when some
// constant equals x and false when none does, no constant being NULL.
func InList(e Expr) (x Expr, consts []*Const, ok bool) {
	operands := splitDisjuncts(e)
	if len(operands) < 2 {
		return nil, nil, false
	}
	for _, o := range operands {
		b, isOp := o.(*BinOp)
		if !isOp || b.Op.Name != "=" {
			return nil, nil, false
		}
		arg, c, isConst := b.L, b.R, false
		if k, ok := c.(*Const); ok {
			consts, isConst = append(consts, k), true
		} else if k, ok := arg.(*Const); ok {
			arg, consts, isConst = c, append(consts, k), true
		}
		if !isConst || consts[len(consts)-1].Value == nil || consts[len(consts)-1].Typ != arg.Type() {
			return nil, nil, false
		}
		if x == nil {
			x = arg
		} else if !SameExpr(x, arg) {
			return nil, nil, false
		}
	}
	return x, consts, true
}
