package grants

import (
	"reflect"
	"slices"
)

// Change is one policy to write back after applying a plan: the new
// policy for the resource, or nil when the policy is to be deleted.
type Change struct {
	Resource Resource `json:"resource"`
	Policy   *Policy  `json:"policy"`
}

// Diff lists the policies that differ between two sets, outermost first,
// comparing canonical forms so that list order never counts as a change.
// A backend writes exactly these: a store in one transaction, Ranger one
// read-merge-write per resource.
func Diff(before, after []Policy) []Change {
	old := map[Resource]Policy{}
	for _, p := range before {
		old[p.Resource] = p.canonical()
	}
	var out []Change
	seen := map[Resource]bool{}
	for _, p := range after {
		seen[p.Resource] = true
		c := p.canonical()
		if prev, ok := old[p.Resource]; ok && reflect.DeepEqual(prev, c) {
			continue
		}
		out = append(out, Change{Resource: p.Resource, Policy: &c})
	}
	for r := range old {
		if !seen[r] {
			out = append(out, Change{Resource: r})
		}
	}
	slices.SortFunc(out, func(a, b Change) int { return a.Resource.compare(b.Resource) })
	return out
}
