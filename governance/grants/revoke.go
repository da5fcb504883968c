package grants

import (
	"fmt"
	"slices"
	"strings"
)

// ApplyRevoke returns the policies after a REVOKE plan, on the named
// resource only:
//   - each grantee's allow items lose the privileges' access types, except
//     those another privilege still labelled for the grantee on the policy
//     needs (revoking INSERT from a grantee that also holds SELECT leaves
//     SELECT's access types);
//   - an access type held back that way keeps delegate admin only if a
//     remaining privilege that needs it was held wholly with delegate
//     admin; labels do not record which grant carried WITH GRANT OPTION,
//     and this keeps a revoke from leaving authority to hand on what it
//     named;
//   - a denial of the same access-type set to the grantee is cleared, so
//     that REVOKE undoes DENY;
//   - the privileges' provenance labels for the grantee are removed;
//   - a policy left with no item is removed.
//
// A grantee listed with others in one item is split out of it first. The
// input is not modified.
func (p *Profile) ApplyRevoke(existing []Policy, plan Plan) ([]Policy, error) {
	if plan.Action != ActionRevoke {
		return nil, fmt.Errorf("apply revoke: plan is a %s", plan.Action)
	}
	set, err := newPolicySet(existing)
	if err != nil {
		return nil, fmt.Errorf("apply revoke: %w", err)
	}
	w, err := plan.named()
	if err != nil {
		return nil, fmt.Errorf("apply revoke: %w", err)
	}
	if set.get(w.Resource) == nil {
		return set.policies(), nil
	}
	pol := set.modify(w.Resource)
	revoked := map[string]bool{}
	var denied [][]string
	for _, pp := range plan.Privileges {
		revoked[labelPrivilege(pp.Name, plan.Object.Kind)] = true
		denied = append(denied, pp.Accesses)
	}
	denied = append(denied, w.Accesses)
	for _, g := range plan.Grantees {
		gi := takeGranteeItems(pol, g, w.Accesses)
		need, needDelegated := p.stillNeeded(pol.Labels, g, revoked, plan.Object, w.Level, gi.delegate)
		for _, at := range w.Accesses {
			held, delegated := gi.plain[at] || gi.delegate[at], gi.delegate[at]
			delete(gi.plain, at)
			delete(gi.delegate, at)
			switch {
			case delegated && needDelegated[at]:
				gi.delegate[at] = true
			case held && need[at]:
				gi.plain[at] = true
			}
		}
		gi.putBack(pol, g)
		pol.Deny = clearDenials(pol.Deny, g, denied)
		pol.Labels = slices.DeleteFunc(pol.Labels, func(label string) bool {
			lg, name, onView, ok := parseGrantLabel(label)
			return ok && lg == g && revoked[p.labelKey(name, onView)]
		})
	}
	return set.policies(), nil
}

// stillNeeded returns the access types, at this level, of every privilege
// labelled for the grantee that the revoke does not name, and the part of
// them needed by privileges the grantee held wholly with delegate admin
// (delegated). A label naming a privilege this profile does not know holds
// nothing back.
func (p *Profile) stillNeeded(labels []string, g Grantee, revoked map[string]bool, o Object, l Level, delegated accessSet) (need, needDelegated accessSet) {
	need, needDelegated = accessSet{}, accessSet{}
	for _, label := range labels {
		lg, name, onView, ok := parseGrantLabel(label)
		if !ok || lg != g || revoked[p.labelKey(name, onView)] {
			continue
		}
		kind := o.Kind
		switch {
		case onView:
			kind = ObjectView
		case l == LevelTable:
			kind = ObjectTable
		}
		set := p.accessTypesAt(p.canonicalName(name), kind, l)
		need.add(set)
		if delegated.covers(set) {
			needDelegated.add(set)
		}
	}
	return need, needDelegated
}

// accessTypesAt is what a privilege (SQL or native) on a kind of object
// writes at a level; nothing for a name this profile does not know.
func (p *Profile) accessTypesAt(name string, kind ObjectKind, l Level) []string {
	if priv, ok := p.privileges[name]; ok {
		return priv.on[kind][l]
	}
	if !p.sd.known(name) {
		return nil
	}
	closed, err := p.sd.closure([]string{name})
	if err != nil {
		return nil
	}
	return closed
}

// labelKey is a label's privilege part in canonical form, for comparing
// labels written in another case or with an alias.
func (p *Profile) labelKey(name string, onView bool) string {
	kind := ObjectTable
	if onView {
		kind = ObjectView
	}
	return labelPrivilege(p.canonicalName(name), kind)
}

// canonicalName is a privilege name as plans write it: a SQL privilege or
// alias of the profile in its canonical form, anything else lower case.
func (p *Profile) canonicalName(name string) string {
	if priv, ok := p.privileges[canonicalPrivilegeName(name)]; ok {
		return priv.name
	}
	return strings.ToLower(strings.TrimSpace(name))
}

// clearDenials removes the grantee from every deny item whose access-type
// set is one of sets; an item left naming nobody goes.
func clearDenials(items []Item, g Grantee, sets [][]string) []Item {
	var out []Item
	for _, it := range items {
		if it.names(g) && slices.ContainsFunc(sets, func(s []string) bool { return sameSet(s, it.Accesses) }) {
			it = it.without(g)
		}
		if !it.empty() {
			out = append(out, it)
		}
	}
	return out
}
