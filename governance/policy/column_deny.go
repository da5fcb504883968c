package policy

import (
	"context"
	"slices"

	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// DENY SELECT (column, ...) ON TABLE t TO grantee restricts columns: the
// grantee does not see them at all. Each column's denials live in one
// access policy (policyType 0) of the hive-model service on that column,
// with a deny item of select naming every grantee denied it, as Ranger's
// console would write it, so that Spark reading the same service hides
// the same columns. One policy per column, not per grantee or per table:
// Ranger allows one access policy per exact resource, and a deny item
// applies to every column of its policy. The policy's name is derived
// from the column (ColumnDenyName), so that a later DENY adds grantees to
// it, REVOKE finds it, and a REVOKE of the last grantee removes it.

// denyAccess is the hive access type a column restriction denies.
const denyAccess = "select"

// ColumnDenyName is the name of the policy holding the denials SQL writes
// of target's column.
func ColumnDenyName(target Target) string {
	return "deny_" + target.Database + "." + target.Table + "." + target.Column
}

// DenyColumn denies grantees select on target's column: it adds them to
// the deny item of the column's policy, creating the policy when there is
// none. A grantee denied already is left as is.
func DenyColumn(ctx context.Context, store Store, target Target, grantees []Grantee) error {
	name := ColumnDenyName(target)
	return store.EditPolicy(ctx, name, func(current *ranger.Policy) (*ranger.Policy, error) {
		if current == nil {
			p, err := newPolicy(name, ranger.PolicyTypeAccess, target, true)
			if err != nil {
				return nil, err
			}
			current = &p
		} else if err := checkColumnDeny(current, target); err != nil {
			return nil, err
		}
		var missing []Grantee
		for _, g := range grantees {
			if !slices.ContainsFunc(current.DenyPolicyItems, func(it ranger.PolicyItem) bool {
				return deniesSelect(it) && len(it.Conditions) == 0 && names(it, g)
			}) {
				missing = append(missing, g)
			}
		}
		if len(missing) == 0 {
			return current, nil
		}
		i := slices.IndexFunc(current.DenyPolicyItems, func(it ranger.PolicyItem) bool {
			return len(it.Accesses) == 1 && it.Accesses[0].Type == denyAccess && len(it.Conditions) == 0
		})
		if i < 0 {
			current.DenyPolicyItems = append(current.DenyPolicyItems, ranger.PolicyItem{Accesses: []ranger.PolicyItemAccess{{Type: denyAccess}}})
			i = len(current.DenyPolicyItems) - 1
		}
		add(&current.DenyPolicyItems[i], missing)
		return current, nil
	})
}

// RevokeColumnDeny takes back the denials of select on target's column
// from grantees: it removes them from every deny item of select of the
// column's policy, drops an item left naming nobody, and removes the
// policy when no item is left. It reports whether any grantee was denied.
func RevokeColumnDeny(ctx context.Context, store Store, target Target, grantees []Grantee) (bool, error) {
	revoked := false
	err := store.EditPolicy(ctx, ColumnDenyName(target), func(current *ranger.Policy) (*ranger.Policy, error) {
		if current == nil {
			return nil, nil
		}
		if err := checkColumnDeny(current, target); err != nil {
			return nil, err
		}
		items := current.DenyPolicyItems[:0]
		for _, it := range current.DenyPolicyItems {
			if deniesSelect(it) {
				for _, g := range grantees {
					revoked = remove(&it, g) || revoked
				}
				if len(it.Users)+len(it.Roles)+len(it.Groups) == 0 {
					continue
				}
			}
			items = append(items, it)
		}
		current.DenyPolicyItems = items
		if len(current.PolicyItems)+len(current.DenyPolicyItems)+len(current.AllowExceptions)+len(current.DenyExceptions) == 0 {
			return nil, nil
		}
		return current, nil
	})
	return revoked, err
}

// checkColumnDeny refuses to edit a policy of the column-deny name that
// is not an access policy on exactly target's column: it was written
// otherwise, and denying or revoking through it would change something
// else.
func checkColumnDeny(p *ranger.Policy, target Target) error {
	want := map[string]string{"database": target.Database, "table": target.Table, "column": target.Column}
	ok := p.PolicyType == ranger.PolicyTypeAccess && len(p.Resources) == len(want)
	for k, v := range want {
		r, has := p.Resources[k]
		ok = ok && has && !r.IsExcludes && slices.Equal(r.Values, []string{v})
	}
	if ok {
		return nil
	}
	return pgerror.New(pgerror.DuplicateObject, "policy \"%s\" exists and does not restrict only column %s of %s.%s", p.Name, target.Column, target.Database, target.Table).
		WithDetail("DENY SELECT (column) keeps a column's denials in the access policy of that name.").
		WithHint("Drop or rename that policy, or edit it in the policy store.")
}

// deniesSelect reports whether a deny item denies select.
func deniesSelect(it ranger.PolicyItem) bool {
	return slices.ContainsFunc(it.Accesses, func(a ranger.PolicyItemAccess) bool { return a.Type == denyAccess })
}

// names reports whether it names g.
func names(it ranger.PolicyItem, g Grantee) bool {
	switch g.Kind {
	case grants.GranteeUser:
		return slices.Contains(it.Users, g.Name)
	case grants.GranteeGroup:
		return slices.Contains(it.Groups, g.Name)
	}
	return slices.Contains(it.Roles, g.Name)
}

// add makes it name grantees.
func add(it *ranger.PolicyItem, grantees []Grantee) {
	for _, g := range grantees {
		switch g.Kind {
		case grants.GranteeUser:
			it.Users = append(it.Users, g.Name)
		case grants.GranteeGroup:
			it.Groups = append(it.Groups, g.Name)
		default:
			it.Roles = append(it.Roles, g.Name)
		}
	}
}

// remove makes it stop naming g and reports whether it did.
func remove(it *ranger.PolicyItem, g Grantee) bool {
	list := &it.Roles
	switch g.Kind {
	case grants.GranteeUser:
		list = &it.Users
	case grants.GranteeGroup:
		list = &it.Groups
	}
	n := len(*list)
	*list = slices.DeleteFunc(*list, func(name string) bool { return name == g.Name })
	return len(*list) != n
}
