package grants

import (
	"fmt"
	"slices"
	"strings"
)

// Policy is an access policy of the polaris service: the only one for its
// exact resource, because Ranger refuses a second policy on the same
// resource. Grants, denials and revokes therefore merge into it.
type Policy struct {
	Resource Resource `json:"resource"`
	// Disabled is a policy switched off in the console: Ranger still
	// returns its items, but it grants nothing, so it holds nothing here.
	Disabled bool     `json:"disabled,omitempty"`
	Allow    []Item   `json:"allow,omitempty"`
	Deny     []Item   `json:"deny,omitempty"`
	Labels   []string `json:"labels,omitempty"`
}

// Item is a policy item: who, which access types, and whether its holders
// may grant those access types on (delegate admin).
type Item struct {
	Users         []string `json:"users,omitempty"`
	Roles         []string `json:"roles,omitempty"`
	Groups        []string `json:"groups,omitempty"`
	Accesses      []string `json:"accesses"`
	DelegateAdmin bool     `json:"delegateAdmin,omitempty"`
}

// names reports whether the item names the grantee.
func (it Item) names(g Grantee) bool {
	switch g.Kind {
	case GranteeUser:
		return slices.Contains(it.Users, g.Name)
	case GranteeRole:
		return slices.Contains(it.Roles, g.Name)
	case GranteeGroup:
		return slices.Contains(it.Groups, g.Name)
	}
	return false
}

// namesOnly reports whether the grantee is the item's only principal.
func (it Item) namesOnly(g Grantee) bool {
	return len(it.Users)+len(it.Roles)+len(it.Groups) == 1 && it.names(g)
}

// without returns the item with the grantee removed from its principals.
func (it Item) without(g Grantee) Item {
	out := it.clone()
	drop := func(s []string) []string {
		return slices.DeleteFunc(s, func(n string) bool { return n == g.Name })
	}
	switch g.Kind {
	case GranteeUser:
		out.Users = drop(out.Users)
	case GranteeRole:
		out.Roles = drop(out.Roles)
	case GranteeGroup:
		out.Groups = drop(out.Groups)
	}
	return out
}

// empty reports whether the item names nobody or allows nothing; Ranger
// treats such an item as matching no request.
func (it Item) empty() bool {
	return len(it.Users)+len(it.Roles)+len(it.Groups) == 0 || len(it.Accesses) == 0
}

// itemFor makes a single-grantee item.
func itemFor(g Grantee, accesses []string, delegateAdmin bool) Item {
	it := Item{Accesses: sortedSet(accesses), DelegateAdmin: delegateAdmin}
	switch g.Kind {
	case GranteeUser:
		it.Users = []string{g.Name}
	case GranteeRole:
		it.Roles = []string{g.Name}
	case GranteeGroup:
		it.Groups = []string{g.Name}
	}
	return it
}

func (it Item) clone() Item {
	return Item{
		Users:         slices.Clone(it.Users),
		Roles:         slices.Clone(it.Roles),
		Groups:        slices.Clone(it.Groups),
		Accesses:      slices.Clone(it.Accesses),
		DelegateAdmin: it.DelegateAdmin,
	}
}

// key identifies an item by principals, access-type set and delegate
// admin: two items with the same key are the same item, whatever order
// their lists were written in.
func (it Item) key() string {
	return strings.Join([]string{
		"u:" + strings.Join(sortedSet(it.Users), ","),
		"r:" + strings.Join(sortedSet(it.Roles), ","),
		"g:" + strings.Join(sortedSet(it.Groups), ","),
		"a:" + strings.Join(sortedSet(it.Accesses), ","),
		fmt.Sprintf("d:%t", it.DelegateAdmin),
	}, "|")
}

// Clone is a deep copy of p, whose items the caller may change.
func (p Policy) Clone() Policy {
	out := Policy{Resource: p.Resource, Disabled: p.Disabled, Labels: slices.Clone(p.Labels)}
	for _, it := range p.Allow {
		out.Allow = append(out.Allow, it.clone())
	}
	for _, it := range p.Deny {
		out.Deny = append(out.Deny, it.clone())
	}
	return out
}

// hasItems reports whether the policy still allows or denies anything.
func (p Policy) hasItems() bool { return len(p.Allow)+len(p.Deny) > 0 }

// canonical sorts every list, drops empty items and merges items that are
// equal on principals, access-type set and delegate admin, so that a
// policy read back with its lists in another order compares equal and a
// repeated statement never stacks a duplicate item.
func (p Policy) canonical() Policy {
	out := Policy{Resource: p.Resource, Disabled: p.Disabled, Labels: sortedSet(p.Labels)}
	out.Allow = canonicalItems(p.Allow)
	out.Deny = canonicalItems(p.Deny)
	return out
}

func canonicalItems(items []Item) []Item {
	seen := map[string]bool{}
	var out []Item
	for _, it := range items {
		c := Item{
			Users:         sortedSet(it.Users),
			Roles:         sortedSet(it.Roles),
			Groups:        sortedSet(it.Groups),
			Accesses:      sortedSet(it.Accesses),
			DelegateAdmin: it.DelegateAdmin,
		}
		if c.empty() || seen[c.key()] {
			continue
		}
		seen[c.key()] = true
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Item) int { return strings.Compare(a.key(), b.key()) })
	return out
}

// sortedSet returns the distinct values sorted; nil for none.
func sortedSet(values []string) []string {
	if len(values) == 0 {
		return nil
	}
	out := slices.Clone(values)
	slices.Sort(out)
	return slices.Compact(out)
}

// policySet is a working copy of a set of policies, one per exact
// resource, remembering which ones an operation touched.
type policySet struct {
	byResource map[Resource]*Policy
	touched    map[Resource]bool
	itemless   map[Resource]bool // came in with no item
}

// newPolicySet copies the policies; two policies on one exact resource are
// an error, since no Ranger service can hold them.
func newPolicySet(policies []Policy) (*policySet, error) {
	s := &policySet{byResource: map[Resource]*Policy{}, touched: map[Resource]bool{}, itemless: map[Resource]bool{}}
	for _, p := range policies {
		if _, dup := s.byResource[p.Resource]; dup {
			return nil, fmt.Errorf("two policies for resource %s (root %q)", p.Resource, p.Resource.Root)
		}
		c := p.Clone()
		s.byResource[p.Resource] = &c
		s.itemless[p.Resource] = !c.canonical().hasItems()
	}
	return s, nil
}

// get returns the policy for the exact resource, or nil.
func (s *policySet) get(r Resource) *Policy { return s.byResource[r] }

// modify returns the policy for the exact resource to change, creating an
// empty one when there is none.
func (s *policySet) modify(r Resource) *Policy {
	s.touched[r] = true
	if p, ok := s.byResource[r]; ok {
		return p
	}
	p := &Policy{Resource: r}
	s.byResource[r] = p
	return p
}

// policies returns the set canonical and ordered outermost first. A
// policy this operation left with no item is gone, as Ranger's revoke
// leaves it; one that had none to begin with (an audit-only policy
// written in the console) is not this package's to delete.
func (s *policySet) policies() []Policy {
	out := make([]Policy, 0, len(s.byResource))
	for r, p := range s.byResource {
		c := p.canonical()
		if s.touched[r] && !s.itemless[r] && !c.hasItems() {
			continue
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Policy) int { return a.Resource.compare(b.Resource) })
	return out
}
