package sql

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgcatalog"
)

// The access privileges pg_catalog shows (relacl, nspacl, datacl) are
// gate one's grants as SHOW GRANTS lists them to the caller, read back
// into PostgreSQL's privilege letters. A grantee holds a letter on an
// object when the allow items of the policies covering the object give
// it every access type the letter's SQL privilege writes there (the
// grant profile's closed set at the privilege's level), and with grant
// option when a delegate-admin item alone does; a deny item of the same
// grantee covering those access types takes the letter away. Because
// INSERT, UPDATE, DELETE and MODIFY write the same access type, which
// implies the read one, holding any of them shows as arwdD (TRUNCATE is
// DELETE's, as in has_table_privilege); granting on a table also writes USAGE's access
// types on its schema, which then shows U for the grantee, as
// has_schema_privilege answers.

// aclRule is what one privilege letter needs on one kind of object.
type aclRule struct {
	letter byte
	needs  []string // access types, all required
}

// aclRules are the letters SQE can hold per kind of object, and the
// profile that closes access-type sets.
type aclRules struct {
	profile *grants.Profile
	byKind  map[grants.ObjectKind][]aclRule
}

// aclLetterPrivileges maps each privilege letter to the SQL privilege
// that grants it on a kind of object, written at level.
var aclLetterPrivileges = []struct {
	kind      grants.ObjectKind
	level     grants.Level
	letter    byte
	privilege string
}{
	{grants.ObjectTable, grants.LevelTable, 'a', "INSERT"},
	{grants.ObjectTable, grants.LevelTable, 'r', "SELECT"},
	{grants.ObjectTable, grants.LevelTable, 'w', "UPDATE"},
	{grants.ObjectTable, grants.LevelTable, 'd', "DELETE"},
	{grants.ObjectTable, grants.LevelTable, 'D', "DELETE"},
	{grants.ObjectView, grants.LevelTable, 'r', "SELECT"},
	{grants.ObjectSchema, grants.LevelNamespace, 'U', "USAGE"},
	{grants.ObjectSchema, grants.LevelNamespace, 'C', "CREATE TABLE"},
	{grants.ObjectCatalog, grants.LevelCatalog, 'C', "CREATE SCHEMA"},
}

func loadACLRules() (*aclRules, error) {
	p, err := grants.Load()
	if err != nil {
		return nil, err
	}
	rules := &aclRules{profile: p, byKind: map[grants.ObjectKind][]aclRule{}}
	for _, lp := range aclLetterPrivileges {
		byLevel, ok := p.AccessTypes(lp.privilege, lp.kind)
		if !ok || len(byLevel[lp.level]) == 0 {
			return nil, fmt.Errorf("grant profile: %s on %s writes nothing at the %s level", lp.privilege, lp.kind, lp.level)
		}
		rules.byKind[lp.kind] = append(rules.byKind[lp.kind], aclRule{letter: lp.letter, needs: byLevel[lp.level]})
	}
	return rules, nil
}

// Grants is what the caller may see of gate one's grants (SHOW GRANTS'
// rows), nil when the server keeps none.
func (c catalogSource) Grants(ctx context.Context) (pgcatalog.Grants, error) {
	ac := c.s.engine.cfg.Access
	if ac == nil {
		return nil, nil
	}
	rules, err := c.s.engine.aclRules()
	if err != nil {
		return nil, err
	}
	rows, err := ac.ShowGrants(ctx, c.s.caller(), access.GrantFilter{})
	if err != nil {
		return nil, err
	}
	return newCatalogGrants(c.s.database, rules, rows), nil
}

// grantSet is the access types one grantee holds (or is denied) on one
// policy resource, granted by one grantor.
type grantSet struct {
	resource  grants.Resource
	grantee   string
	user      bool // the grantee is a user rather than a role or group
	grantor   string
	deny      bool
	grantable bool
	accesses  []string // closed under the implied grants
}

// catalogGrants answers pgcatalog.Grants for one database.
type catalogGrants struct {
	database string
	rules    *aclRules
	sets     []grantSet
}

func newCatalogGrants(database string, rules *aclRules, rows []access.GrantRow) *catalogGrants {
	type key struct {
		resource         grants.Resource
		grantee, grantor string
		user             bool
		deny, grantable  bool
	}
	byKey := map[key][]string{}
	var order []key
	for _, r := range rows {
		grantor := r.GrantedBy
		if grantor == "" {
			grantor = pgcatalog.OwnerName
		}
		k := key{resource: r.Resource, grantee: r.Grantee, grantor: grantor, user: r.GranteeKind == string(grants.GranteeUser), deny: r.Effect == "DENY", grantable: r.Grantable}
		if _, ok := byKey[k]; !ok {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], r.AccessType)
	}
	g := &catalogGrants{database: database, rules: rules}
	for _, k := range order {
		accesses := byKey[k]
		if closed, err := rules.profile.Closure(accesses...); err == nil {
			accesses = closed
		}
		g.sets = append(g.sets, grantSet{resource: k.resource, grantee: k.grantee, user: k.user, grantor: k.grantor,
			deny: k.deny, grantable: k.grantable, accesses: accesses})
	}
	return g
}

func (g *catalogGrants) Relation(namespace, name string, view bool) []pgcatalog.ACLItem {
	kind := grants.ObjectTable
	if view {
		kind = grants.ObjectView
	}
	return g.entries(kind, grants.Resource{Catalog: g.database, Namespace: namespace, Table: name})
}

func (g *catalogGrants) Namespace(name string) []pgcatalog.ACLItem {
	return g.entries(grants.ObjectSchema, grants.Resource{Catalog: g.database, Namespace: name})
}

func (g *catalogGrants) Database(name string) []pgcatalog.ACLItem {
	return g.entries(grants.ObjectCatalog, grants.Resource{Catalog: name})
}

// Grantees are the grantees of the allow items, in the order first seen.
func (g *catalogGrants) Grantees() []pgcatalog.Grantee {
	var out []pgcatalog.Grantee
	seen := map[string]bool{}
	for _, s := range g.sets {
		if !s.deny && !seen[s.grantee] {
			seen[s.grantee] = true
			out = append(out, pgcatalog.Grantee{Name: s.grantee, Login: s.user})
		}
	}
	// Grantors are users: whoever wrote the grant.
	for _, s := range g.sets {
		if !s.deny && !seen[s.grantor] {
			seen[s.grantor] = true
			out = append(out, pgcatalog.Grantee{Name: s.grantor, Login: true})
		}
	}
	return out
}

// entries are the grantees' aclitems on the object at target, sorted by
// grantee and grantor.
func (g *catalogGrants) entries(kind grants.ObjectKind, target grants.Resource) []pgcatalog.ACLItem {
	type key struct{ grantee, grantor string }
	held, withOption := map[key][]string{}, map[key][]string{}
	denied := map[string][]string{}
	for _, s := range g.sets {
		req := target
		req.Root = s.resource.Root
		if !grants.Covers(s.resource, req) {
			continue
		}
		k := key{s.grantee, s.grantor}
		switch {
		case s.deny:
			denied[s.grantee] = append(denied[s.grantee], s.accesses...)
		default:
			held[k] = append(held[k], s.accesses...)
			if s.grantable {
				withOption[k] = append(withOption[k], s.accesses...)
			}
		}
	}
	var out []pgcatalog.ACLItem
	for k, accesses := range held {
		item := pgcatalog.ACLItem{Grantee: k.grantee, Grantor: k.grantor}
		for _, rule := range g.rules.byKind[kind] {
			if !containsAll(accesses, rule.needs) || containsAll(denied[k.grantee], rule.needs) {
				continue
			}
			if strings.IndexByte(item.Privileges, rule.letter) < 0 {
				item.Privileges += string(rule.letter)
			}
			if containsAll(withOption[k], rule.needs) && strings.IndexByte(item.GrantOptions, rule.letter) < 0 {
				item.GrantOptions += string(rule.letter)
			}
		}
		if item.Privileges != "" {
			out = append(out, item)
		}
	}
	slices.SortFunc(out, func(a, b pgcatalog.ACLItem) int {
		if c := strings.Compare(a.Grantee, b.Grantee); c != 0 {
			return c
		}
		return strings.Compare(a.Grantor, b.Grantor)
	})
	return out
}

// containsAll reports whether have holds every one of need.
func containsAll(have, need []string) bool {
	for _, n := range need {
		if !slices.Contains(have, n) {
			return false
		}
	}
	return true
}
