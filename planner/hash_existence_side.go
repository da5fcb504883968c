package planner

// hashSmallerExistenceSide marks each semi or anti join whose left input
// is estimated smaller than its right one to hash the left input
// (Join.HashLeft). An EXISTS over a large table usually asks about few
// outer rows (TPC-H Q4, Q21, Q22): hashing the large table costs a hash
// table of all its rows, where hashing the outer rows costs one probe per
// large-table row into a table that stays in the caches.
//
// Only joins with a hash key qualify: without one every pair is a
// candidate either way. The answer does not change: a left row is kept
// when some right row satisfies On (semi) or none does (anti), whichever
// side is hashed, and a left row with a NULL key matches nothing in both.
func hashSmallerExistenceSide(n Node) Node {
	n = mapInputs(n, hashSmallerExistenceSide)
	j, ok := n.(*Join)
	if !ok || !j.Kind.Existence() || j.HashLeft || j.On == nil {
		return n
	}
	if !hasHashKey(SplitConjuncts(j.On), columnSet(j.Left.Columns()), columnSet(j.Right.Columns())) {
		return n
	}
	if estimateRows(j.Left) >= estimateRows(j.Right) {
		return n
	}
	c := *j
	c.HashLeft = true
	return &c
}
