package grants

import "slices"

// accessSet is a set of access types.
type accessSet map[string]bool

func newAccessSet(lists ...[]string) accessSet {
	s := accessSet{}
	for _, l := range lists {
		for _, at := range l {
			s[at] = true
		}
	}
	return s
}

func (s accessSet) add(l []string) {
	for _, at := range l {
		s[at] = true
	}
}

func (s accessSet) remove(l []string) {
	for _, at := range l {
		delete(s, at)
	}
}

// covers reports whether every access type of l is in the set.
func (s accessSet) covers(l []string) bool {
	for _, at := range l {
		if !s[at] {
			return false
		}
	}
	return true
}

// intersects reports whether any access type of l is in the set.
func (s accessSet) intersects(l []string) bool {
	return slices.ContainsFunc(l, func(at string) bool { return s[at] })
}

// sorted lists the set in order.
func (s accessSet) sorted() []string {
	out := make([]string, 0, len(s))
	for at := range s {
		out = append(out, at)
	}
	slices.Sort(out)
	return out
}

// sameSet reports whether two lists hold the same access types.
func sameSet(a, b []string) bool { return slices.Equal(sortedSet(a), sortedSet(b)) }
