package planner

// mergeFiltersIntoJoins moves a filter sitting on an inner join into the
// join's ON condition. For an inner join the two are the same rows, but
// in the condition an equality between the sides becomes a hash key: a
// comma list such as FROM a, b WHERE a.x = b.y then runs as an equi-join
// instead of a cross product filtered afterwards. A barrier filter is
// never merged: it belongs to its table, not to the join.
func mergeFiltersIntoJoins(n Node) Node {
	n = mapInputs(n, mergeFiltersIntoJoins)
	f, ok := n.(*Filter)
	if !ok || f.Barrier {
		return n
	}
	j, ok := f.Input.(*Join)
	if !ok || j.Kind != InnerJoin {
		return n
	}
	on := append(conjunctsOf(j.On), SplitConjuncts(f.Pred)...)
	return &Join{Left: j.Left, Right: j.Right, Kind: InnerJoin, On: AndAll(on)}
}
