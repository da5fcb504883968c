package grants

import (
	"fmt"
	"slices"
)

// ApplyGrant returns the policies after a GRANT plan: each write merged
// into the one policy for its exact resource (created when missing), the
// access types added to each grantee's own item. The named level also gets
// delegate admin (WITH GRANT OPTION) and the provenance labels; traversal
// levels get neither, because they are shared by every grant in the
// catalog and do not belong to this one. A write into a disabled policy is
// refused (55000). The input is not modified.
func (p *Profile) ApplyGrant(existing []Policy, plan Plan) ([]Policy, error) {
	if plan.Action != ActionGrant {
		return nil, fmt.Errorf("apply grant: plan is a %s", plan.Action)
	}
	set, err := newPolicySet(existing)
	if err != nil {
		return nil, fmt.Errorf("apply grant: %w", err)
	}
	if _, err := plan.named(); err != nil {
		return nil, fmt.Errorf("apply grant: %w", err)
	}
	for _, w := range plan.Writes {
		if old := set.get(w.Resource); old != nil && old.Disabled {
			return nil, errDisabled(plan.Action, w.Resource)
		}
	}
	for _, w := range plan.Writes {
		pol := set.modify(w.Resource)
		delegate := w.Named && plan.WithGrantOption
		for _, g := range plan.Grantees {
			gi := takeGranteeItems(pol, g, nil)
			if delegate {
				gi.delegate.add(w.Accesses)
			} else {
				gi.plain.add(w.Accesses)
			}
			gi.putBack(pol, g)
		}
		if w.Named {
			for _, g := range plan.Grantees {
				for _, pp := range plan.Privileges {
					pol.Labels = append(pol.Labels, grantLabel(g, pp.Name, plan.Object.Kind))
				}
			}
			pol.Labels = appendGrantor(pol.Labels, plan.Grantor)
		}
	}
	return set.policies(), nil
}

// ApplyDeny returns the policies after a DENY plan: one deny item per
// grantee and privilege, merged into the policy for the named resource.
// Repeating a denial changes nothing: an item is skipped when the policy
// already denies the same access-type set to the grantee. A disabled
// policy is refused (55000), since a denial in it denies nothing. The
// input is not modified.
func (p *Profile) ApplyDeny(existing []Policy, plan Plan) ([]Policy, error) {
	if plan.Action != ActionDeny {
		return nil, fmt.Errorf("apply deny: plan is a %s", plan.Action)
	}
	set, err := newPolicySet(existing)
	if err != nil {
		return nil, fmt.Errorf("apply deny: %w", err)
	}
	w, err := plan.named()
	if err != nil {
		return nil, fmt.Errorf("apply deny: %w", err)
	}
	if old := set.get(w.Resource); old != nil && old.Disabled {
		return nil, errDisabled(plan.Action, w.Resource)
	}
	pol := set.modify(w.Resource)
	for _, g := range plan.Grantees {
		for _, pp := range plan.Privileges {
			held := slices.ContainsFunc(pol.Deny, func(it Item) bool {
				return it.names(g) && sameSet(it.Accesses, pp.Accesses)
			})
			if !held {
				pol.Deny = append(pol.Deny, itemFor(g, pp.Accesses, false))
			}
		}
	}
	pol.Labels = appendGrantor(pol.Labels, plan.Grantor)
	return set.policies(), nil
}

// appendGrantor adds the grantor's label, if the plan names one.
func appendGrantor(labels []string, grantor string) []string {
	if grantor == "" {
		return labels
	}
	return append(labels, grantorLabel(grantor))
}
