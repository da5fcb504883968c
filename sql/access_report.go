package sql

import (
	"context"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// The access report is what an administrator's access page asks for
// besides TableAccess: the tables to ask about, as gate one lets the
// administrator see them, and the users and roles to ask about, as the
// governance stores name them.

// TableRef names one base table.
type TableRef struct {
	Catalog string `json:"catalog"`
	Schema  string `json:"schema"`
	Table   string `json:"table"`
}

// Parts is the table's name as TableAccess takes it.
func (r TableRef) Parts() []string { return []string{r.Catalog, r.Schema, r.Table} }

// VisibleTables lists the base tables of catalog the session's caller
// may open, by schema and name, through the same storage calls as SHOW
// TABLES: a table gate one refuses is absent. Views are left out: their
// policies are their base tables'.
func (s *Session) VisibleTables(ctx context.Context, catalog string) ([]TableRef, error) {
	cat, err := s.showCatalog(catalog)
	if err != nil {
		return nil, err
	}
	ctx = s.callerContext(ctx)
	schemas, err := visibleNamespaces(ctx, cat)
	if err != nil {
		return nil, err
	}
	var out []TableRef
	for _, ns := range schemas {
		tables, err := visibleTables(ctx, cat, ns)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			out = append(out, TableRef{Catalog: cat.Name(), Schema: ns, Table: t})
		}
	}
	return out, nil
}

// Principals are the users and roles the governance stores know.
type Principals struct {
	Users []string `json:"users"`
	Roles []string `json:"roles"`
}

// principalLister lists the users and roles of a role store
// (governance.Store).
type principalLister interface {
	Principals(ctx context.Context) (users, roles []string, err error)
}

// KnownPrincipals are the users and roles an administrator may ask
// TableAccess about, from every store that names them: the role store's
// roles and the users it makes members of one (the demo's users among
// them), gate one's grantees (SHOW GRANTS, every grant) and the users and
// roles gate two's policies name. A user no store names (one whose
// access comes only from a login token's roles) is not listed. Only an
// administrator may ask.
func (s *Session) KnownPrincipals(ctx context.Context) (Principals, error) {
	if !s.superuser {
		return Principals{}, pgerror.New(pgerror.InsufficientPrivilege, "permission denied to list the users and roles").
			WithDetail("Only roles listed in [auth] admin_roles may list them.")
	}
	users, roles := map[string]bool{}, map[string]bool{}
	if l, ok := s.engine.cfg.Roles.(principalLister); ok {
		u, r, err := l.Principals(ctx)
		if err != nil {
			return Principals{}, err
		}
		addNames(users, u)
		addNames(roles, r)
	}
	if ac := s.engine.cfg.Access; ac != nil {
		rows, err := ac.ShowGrants(ctx, s.caller(), access.GrantFilter{})
		if err != nil {
			return Principals{}, err
		}
		for _, g := range rows {
			switch g.GranteeKind {
			case "USER":
				addNames(users, []string{g.Grantee})
			case "ROLE":
				addNames(roles, []string{g.Grantee})
			}
		}
	}
	if ps := s.engine.cfg.Policies; ps != nil {
		snap, err := ps.Snapshot(ctx)
		if err != nil {
			return Principals{}, err
		}
		for _, p := range append(slices.Clone(snap.Policies), snap.TagPolicies...) {
			for _, it := range policyItems(p) {
				addNames(users, it.Users)
				addNames(roles, it.Roles)
			}
		}
		if snap.Roles != nil {
			for _, r := range snap.Roles.RangerRoles {
				addNames(roles, []string{r.Name})
				for _, m := range r.Users {
					addNames(users, []string{m.Name})
				}
			}
		}
	}
	return Principals{Users: sortedNames(users), Roles: sortedNames(roles)}, nil
}

// policyItems are every item of p that names users or roles.
func policyItems(p ranger.Policy) []ranger.PolicyItem {
	var items []ranger.PolicyItem
	for _, list := range [][]ranger.PolicyItem{p.PolicyItems, p.DenyPolicyItems, p.AllowExceptions, p.DenyExceptions} {
		items = append(items, list...)
	}
	for _, it := range p.DataMaskPolicyItems {
		items = append(items, it.PolicyItem)
	}
	for _, it := range p.RowFilterPolicyItems {
		items = append(items, it.PolicyItem)
	}
	return items
}

// addNames adds names to set, leaving out Ranger's macros ("{USER}",
// "{OWNER}"), which name no one in particular.
func addNames(set map[string]bool, names []string) {
	for _, n := range names {
		if n != "" && !strings.HasPrefix(n, "{") {
			set[n] = true
		}
	}
}

func sortedNames(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
