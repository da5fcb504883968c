package grants

// granteeItems is a grantee's own allow items on one policy, gathered into
// two sets: what the grantee holds plainly and what it holds with delegate
// admin. Keeping the two apart means WITH GRANT OPTION hands on authority
// over exactly the access types granted with it, not over everything else
// the grantee holds on the resource.
type granteeItems struct {
	plain, delegate accessSet
}

// takeGranteeItems removes the grantee's single-principal allow items from
// the policy and returns their access types. When split is not nil, an
// item the grantee shares with other principals and whose access types
// meet split is divided too: the others keep the item, and the grantee's
// share joins its own sets, so that a revoke can narrow it.
func takeGranteeItems(pol *Policy, g Grantee, split []string) granteeItems {
	gi := granteeItems{plain: accessSet{}, delegate: accessSet{}}
	var keep []Item
	for _, it := range pol.Allow {
		switch {
		case it.namesOnly(g):
		case it.names(g) && split != nil && newAccessSet(it.Accesses).intersects(split):
			keep = append(keep, it.without(g))
		default:
			keep = append(keep, it)
			continue
		}
		if it.DelegateAdmin {
			gi.delegate.add(it.Accesses)
		} else {
			gi.plain.add(it.Accesses)
		}
	}
	pol.Allow = keep
	return gi
}

// putBack writes the grantee's sets back as at most two single-principal
// items; an access type held with delegate admin is not repeated plainly.
func (gi granteeItems) putBack(pol *Policy, g Grantee) {
	gi.plain.remove(gi.delegate.sorted())
	if len(gi.plain) > 0 {
		pol.Allow = append(pol.Allow, itemFor(g, gi.plain.sorted(), false))
	}
	if len(gi.delegate) > 0 {
		pol.Allow = append(pol.Allow, itemFor(g, gi.delegate.sorted(), true))
	}
}
