package planner

// markAnyOrderGathers marks each Gather whose rows' order no node above it
// observes (Gather.AnyOrder): one read, through filters and projections
// only, as the right input of a semi or anti join, which asks of its rows
// only whether one matches (whichever side the join hashes: hashing its
// left input, it emits left rows in their own order). A merged parallel
// aggregate there returns its groups as merged rather than sorted back
// into the serial order: TPC-H Q18's IN over lineitem grouped by order,
// 15M groups at SF 10, whose ordering took a third of the query's CPU.
func markAnyOrderGathers(n Node) Node {
	return markAnyOrder(n, false)
}

func markAnyOrder(n Node, anyOrder bool) Node {
	switch x := n.(type) {
	case *Gather:
		c := *x
		c.AnyOrder = anyOrder
		c.Input = markAnyOrder(x.Input, false)
		return &c
	case *Filter, *Project:
		return mapInputs(n, func(in Node) Node { return markAnyOrder(in, anyOrder) })
	case *Join:
		if x.Kind.Existence() {
			c := *x
			c.Left = markAnyOrder(x.Left, false)
			c.Right = markAnyOrder(x.Right, true)
			return &c
		}
	}
	return mapInputs(n, func(in Node) Node { return markAnyOrder(in, false) })
}
