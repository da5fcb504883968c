package ranger

import "strings"

// adminBit is the position of AdminAccess: an item grants it when it
// delegates administration.
const adminBit = 0

// accessTypeIndex numbers the access types an evaluator knows, so that an
// item's accesses become a bit set. Ranger compares access types ignoring
// case, so names are kept lower-cased.
type accessTypeIndex struct {
	byName map[string]int
	names  []string
}

func newAccessTypeIndex() *accessTypeIndex {
	return &accessTypeIndex{byName: map[string]int{AdminAccess: adminBit}, names: []string{AdminAccess}}
}

// add returns the position of an access type, numbering it if it is new.
func (x *accessTypeIndex) add(name string) int {
	key := strings.ToLower(name)
	if i, ok := x.byName[key]; ok {
		return i
	}
	x.byName[key] = len(x.names)
	x.names = append(x.names, key)
	return len(x.names) - 1
}

// lookup finds an access type of a request; unknown ones are granted by
// nothing.
func (x *accessTypeIndex) lookup(name string) (int, bool) {
	if i, ok := x.byName[name]; ok {
		return i, true
	}
	i, ok := x.byName[strings.ToLower(name)]
	return i, ok
}

// accessSet is a set of access-type positions.
type accessSet []uint64

func (s accessSet) has(i int) bool {
	w := i / 64
	return w < len(s) && s[w]&(1<<(uint(i)%64)) != 0
}

func (s *accessSet) set(i int) {
	w := i / 64
	for len(*s) <= w {
		*s = append(*s, 0)
	}
	(*s)[w] |= 1 << (uint(i) % 64)
}

func (s accessSet) len() int {
	n := 0
	for i := range len(s) * 64 {
		if s.has(i) {
			n++
		}
	}
	return n
}

// impliedGrants maps an access type to the ones granting it also grants.
type impliedGrants map[int][]int

// newImpliedGrants reads a service definition's access types; names are
// first turned into this evaluator's spelling by normalize (which may drop
// one by returning false).
func newImpliedGrants(x *accessTypeIndex, defs []AccessTypeDef, normalize func(string) (string, bool)) impliedGrants {
	g := impliedGrants{}
	for _, d := range defs {
		name, ok := normalize(d.Name)
		if !ok {
			continue
		}
		i := x.add(name)
		for _, imp := range d.ImpliedGrants {
			if n, ok := normalize(imp); ok {
				g[i] = append(g[i], x.add(n))
			}
		}
	}
	return g
}

// itemAccessSet is what an item grants: its allowed accesses, what they
// imply (one round, as Ranger expands them) and AdminAccess when it
// delegates administration. fallback supplies the implications of types
// the policy's own service definition does not define.
func itemAccessSet(x *accessTypeIndex, it *PolicyItem, implied, fallback impliedGrants) accessSet {
	var s accessSet
	for _, a := range it.Accesses {
		if !a.Allowed() {
			continue
		}
		i := x.add(a.Type)
		s.set(i)
		imp, ok := implied[i]
		if !ok {
			imp = fallback[i]
		}
		for _, j := range imp {
			s.set(j)
		}
	}
	if it.DelegateAdmin {
		s.set(adminBit)
	}
	return s
}

// componentAccessType turns a tag service's "component:type" into the
// component's own type: "hive:select" is select for hive; a type of
// another component is dropped; a type without a component is kept.
func componentAccessType(component string) func(string) (string, bool) {
	prefix := component + ":"
	return func(t string) (string, bool) {
		if strings.HasPrefix(t, prefix) {
			return t[len(prefix):], true
		}
		if strings.Contains(t, ":") {
			return "", false
		}
		return t, true
	}
}

func asIs(t string) (string, bool) { return t, true }
