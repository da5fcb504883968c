package grants

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Plan is what a statement writes, decided before anything is written.
type Plan struct {
	Action          Action    `json:"action"`
	Object          Object    `json:"object"`
	Grantees        []Grantee `json:"grantees"`
	Grantor         string    `json:"grantor,omitempty"`
	WithGrantOption bool      `json:"withGrantOption,omitempty"`
	// Privileges are the statement's privileges, deduplicated, each with
	// its access types at the named level.
	Privileges []PlannedPrivilege `json:"privileges"`
	// Writes are the levels to write, outermost first. A GRANT writes the
	// traversal levels above the object and then the object's own level;
	// REVOKE and DENY touch the object's level only.
	Writes []Write `json:"writes"`
}

// PlannedPrivilege is one privilege of a plan: its canonical name (a SQL
// privilege in upper case, or a native access type in lower case) and its
// complete access-type set at the named level.
type PlannedPrivilege struct {
	Name     string   `json:"name"`
	Accesses []string `json:"accesses"`
}

// Write is one policy a plan writes into: the exact resource and the
// complete access-type set for it.
type Write struct {
	Level    Level    `json:"level"`
	Resource Resource `json:"resource"`
	Accesses []string `json:"accesses"`
	// Named marks the level the statement names. Only it carries
	// provenance labels and delegate admin, and it is never skipped.
	Named bool `json:"named,omitempty"`
}

// named returns the write of the named level; a plan made by this
// package always has one.
func (p Plan) named() (Write, error) {
	for _, w := range p.Writes {
		if w.Named {
			return w, nil
		}
	}
	return Write{}, fmt.Errorf("%s plan on %s has no write for the object it names", p.Action, p.Object)
}

// PlanGrant plans a GRANT: for every level from the catalog down to the
// object, outermost first, the union of the statement's privileges' access
// types there. Outermost first because there is no transaction across
// policies: stopping half-way leaves "may list, can read nothing", which
// is inert, where innermost first would leave a table grant nobody can
// reach.
//
// A statement is refused (SQLSTATE 0LP01) when it names an object deeper
// than a privilege's level, when a privilege has no meaning on the object,
// or when WITH GRANT OPTION is given to another statement; names that
// cannot be written are refused with 42602, a group grantee with 0A000.
func (p *Profile) PlanGrant(s Statement) (Plan, error) { return p.plan(ActionGrant, s) }

// PlanRevoke plans a REVOKE: the object's own level only. Levels above it
// are shared by every grant in the catalog, so walking the plan back would
// take discovery away from unrelated grants.
func (p *Profile) PlanRevoke(s Statement) (Plan, error) { return p.plan(ActionRevoke, s) }

// PlanDeny plans a DENY: the object's own level only, since denying the
// traversal above it would lock the grantee out of everything else in the
// catalog.
func (p *Profile) PlanDeny(s Statement) (Plan, error) { return p.plan(ActionDeny, s) }

func (p *Profile) plan(a Action, s Statement) (Plan, error) {
	if len(s.Privileges) == 0 {
		return Plan{}, pgerror.New(pgerror.SyntaxError, "%s names no privilege", a)
	}
	if len(s.Grantees) == 0 {
		return Plan{}, pgerror.New(pgerror.SyntaxError, "%s names no grantee", a)
	}
	if s.WithGrantOption && a != ActionGrant {
		return Plan{}, pgerror.New(pgerror.InvalidGrantOperation, "WITH GRANT OPTION applies to GRANT only, not %s", a)
	}
	if err := checkObject(s.Object); err != nil {
		return Plan{}, err
	}
	realm := s.Realm
	if realm == "" {
		realm = DefaultRealm
	}
	if err := checkIdentifier("realm", realm, true); err != nil {
		return Plan{}, err
	}
	plan := Plan{Action: a, Object: s.Object, Grantor: s.Grantor, WithGrantOption: s.WithGrantOption}
	for _, g := range s.Grantees {
		if err := checkGrantee(g); err != nil {
			return Plan{}, err
		}
		if !slices.Contains(plan.Grantees, g) {
			plan.Grantees = append(plan.Grantees, g)
		}
	}
	target := s.Object.resource(realm)
	named := target.Level()
	union := map[Level][]string{}
	for _, name := range s.Privileges {
		canonical, byLevel, err := p.resolve(a, name, s.Object, realm)
		if err != nil {
			return Plan{}, err
		}
		if slices.ContainsFunc(plan.Privileges, func(pp PlannedPrivilege) bool { return pp.Name == canonical }) {
			continue
		}
		plan.Privileges = append(plan.Privileges, PlannedPrivilege{Name: canonical, Accesses: byLevel[named]})
		for l, set := range byLevel {
			union[l] = append(union[l], set...)
		}
	}
	for _, l := range levels()[:named.depth()] {
		if l != named && a != ActionGrant {
			continue
		}
		if len(union[l]) == 0 {
			continue
		}
		plan.Writes = append(plan.Writes, Write{
			Level:    l,
			Resource: target.truncate(l),
			Accesses: sortedSet(union[l]),
			Named:    l == named,
		})
	}
	return plan, nil
}

// resolve finds a privilege as written in the profile or among the
// native access types and returns its canonical name and its closed
// access types per level, down to the object's level. A SQL privilege
// brings its whole plan; a native access type is written at the object's
// own level only, since naming one is addressing the catalog's policies
// directly.
func (p *Profile) resolve(a Action, name string, o Object, realm string) (string, map[Level][]string, error) {
	if priv, ok := p.privileges[canonicalPrivilegeName(name)]; ok {
		if o.Kind.depth() > priv.level.depth() {
			return "", nil, errWidening(a, "privilege", priv.name, priv.level, o, realm)
		}
		byLevel, ok := priv.on[o.Kind]
		if !ok {
			return "", nil, errNotApplicable(priv.name, o.Kind, p.applicableTo(o.Kind))
		}
		return priv.name, byLevel, nil
	}
	native := strings.ToLower(strings.TrimSpace(name))
	if !p.sd.known(native) {
		return "", nil, errUnknownPrivilege(name)
	}
	resource, restricted := p.sd.levelOf[native]
	level := Level(resource)
	if restricted && level.depth() == 0 {
		return "", nil, errUnaddressable(native, resource)
	}
	if restricted && o.Kind.depth() > level.depth() {
		return "", nil, errWidening(a, "access type", native, level, o, realm)
	}
	closed, err := p.sd.closure([]string{native})
	if err != nil {
		return "", nil, err
	}
	return native, map[Level][]string{o.resource(realm).Level(): closed}, nil
}

// applicableTo lists the SQL privileges that apply to a kind of object.
func (p *Profile) applicableTo(kind ObjectKind) []string {
	var out []string
	for _, name := range p.names {
		if _, ok := p.privileges[name].on[kind]; ok {
			out = append(out, name)
		}
	}
	return out
}
