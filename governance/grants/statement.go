package grants

import (
	"strings"
	"unicode"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Action is the statement a plan carries out.
type Action string

// The three statements that change gate one.
const (
	ActionGrant  Action = "GRANT"
	ActionRevoke Action = "REVOKE"
	ActionDeny   Action = "DENY"
)

// ObjectKind is the kind of object a statement names.
type ObjectKind string

// The kinds of object a grant can name. ObjectCatalog is written DATABASE
// or CATALOG in SQL.
const (
	ObjectCatalog ObjectKind = "catalog"
	ObjectSchema  ObjectKind = "schema"
	ObjectTable   ObjectKind = "table"
	ObjectView    ObjectKind = "view"
)

// depth is the level an object of this kind sits at: 1 catalog, 2
// namespace, 3 table or view; 0 for an unknown kind.
func (k ObjectKind) depth() int {
	switch k {
	case ObjectCatalog:
		return 1
	case ObjectSchema:
		return 2
	case ObjectTable, ObjectView:
		return 3
	}
	return 0
}

// Wildcard as an Object's Name stands for every table (or view) of the
// schema, present and future: ALL TABLES IN SCHEMA and FUTURE TABLES IN
// SCHEMA both mean it, since a Ranger resource cannot tell the two apart.
const Wildcard = "*"

// Object is what a statement names. Catalog is always set; Namespace for a
// schema, table or view; Name for a table or view, or Wildcard.
type Object struct {
	Kind      ObjectKind `json:"kind"`
	Catalog   string     `json:"catalog"`
	Namespace string     `json:"namespace,omitempty"`
	Name      string     `json:"name,omitempty"`
}

// String describes the object for messages: "table c.n.t", "all views in
// schema c.n".
func (o Object) String() string {
	switch o.Kind {
	case ObjectCatalog:
		return "catalog " + o.Catalog
	case ObjectSchema:
		return "schema " + o.Catalog + "." + o.Namespace
	}
	if o.Name == Wildcard {
		return "all " + string(o.Kind) + "s in schema " + o.Catalog + "." + o.Namespace
	}
	return string(o.Kind) + " " + o.Catalog + "." + o.Namespace + "." + o.Name
}

// resource is the object's resource under the realm.
func (o Object) resource(realm string) Resource {
	r := Resource{Root: realm, Catalog: o.Catalog}
	if o.Kind.depth() >= 2 {
		r.Namespace = o.Namespace
	}
	if o.Kind.depth() >= 3 {
		r.Table = o.Name
	}
	return r
}

// GranteeKind says what a grantee name refers to.
type GranteeKind string

// The grantee kinds of the SQL surface. Groups can be read from policies
// written elsewhere but not granted to (see PlanGrant).
const (
	GranteeUser  GranteeKind = "USER"
	GranteeRole  GranteeKind = "ROLE"
	GranteeGroup GranteeKind = "GROUP"
)

// Grantee is who a statement grants to, revokes from or denies.
type Grantee struct {
	Kind GranteeKind `json:"kind"`
	Name string      `json:"name"`
}

// String renders the grantee as SQL: USER alice, ROLE "Analysts".
func (g Grantee) String() string { return string(g.Kind) + " " + quoteIdent(g.Name) }

// Statement is a GRANT, REVOKE or DENY as the parser and name resolution
// hand it over: privileges as written (SQL privileges in any case, or
// native access types), a fully qualified object, the grantees, and the
// caller, whose name is recorded on the policy as its grantor.
type Statement struct {
	Privileges      []string  `json:"privileges"`
	Object          Object    `json:"object"`
	Grantees        []Grantee `json:"grantees"`
	WithGrantOption bool      `json:"withGrantOption,omitempty"`
	Grantor         string    `json:"grantor,omitempty"`
	// Realm is the root value written on every policy; empty means
	// DefaultRealm.
	Realm string `json:"realm,omitempty"`
}

// namePart is one part of an object's name, with what it names.
type namePart struct{ what, name string }

// checkObject refuses an object whose parts do not fit its kind or whose
// names could not be written into a resource as they are.
func checkObject(o Object) error {
	parts := []namePart{{"catalog", o.Catalog}}
	switch o.Kind {
	case ObjectCatalog:
		if o.Namespace != "" || o.Name != "" {
			return pgerror.New(pgerror.InvalidName, "a catalog is named by one part: catalog")
		}
	case ObjectSchema:
		if o.Name != "" {
			return pgerror.New(pgerror.InvalidName, "a schema is named by two parts: catalog.namespace")
		}
		parts = append(parts, namePart{"schema", o.Namespace})
	case ObjectTable, ObjectView:
		parts = append(parts, namePart{"schema", o.Namespace}, namePart{string(o.Kind), o.Name})
	default:
		return pgerror.New(pgerror.SyntaxError, "unknown object kind %q", o.Kind)
	}
	for i, p := range parts {
		// Only the last part of a table or view may be the wildcard of
		// ALL / FUTURE TABLES IN SCHEMA.
		wildcardOK := i == 2
		if err := checkIdentifier(p.what, p.name, wildcardOK); err != nil {
			if p.name == "" {
				return err.WithHint("Name objects in full: catalog.namespace.table.")
			}
			return err
		}
	}
	return nil
}

// checkGrantee refuses a grantee that cannot be written: a group, whose
// membership Polaris does not send to Ranger (it arrives only where
// Ranger's usersync runs), so a grant to one could not be confirmed to
// reach anybody; or a name that cannot go into a policy item.
func checkGrantee(g Grantee) error {
	switch g.Kind {
	case GranteeUser, GranteeRole:
	case GranteeGroup:
		return pgerror.Unsupported("granting to GROUP %s is not supported", quoteIdent(g.Name)).
			WithDetail("Polaris does not pass a principal's groups to Ranger unless Ranger's usersync runs, so a grant to a group cannot be confirmed to reach anyone.").
			WithHint("Grant to a ROLE, or to each USER.")
	default:
		return pgerror.New(pgerror.SyntaxError, "unknown grantee kind %q", g.Kind)
	}
	if err := checkIdentifier(strings.ToLower(string(g.Kind)), g.Name, false); err != nil {
		return err
	}
	return nil
}

// checkIdentifier refuses a name that cannot stand in a policy resource
// or item as it is: empty, or holding a character that is a separator in
// Ranger's REST paths and Polaris's resource names (/ ? # % \),
// whitespace, or a control character. * and ? are refused too, because
// Ranger matches them as wildcards, so "ord*" would grant every table
// whose name starts with ord; only a whole-name "*" for ALL / FUTURE
// TABLES is accepted, and only where wildcardOK. Braces are refused
// because Ranger expands {USER} and {OWNER} in policy items and resources,
// so a grant to USER "{USER}" would reach every user.
func checkIdentifier(what, name string, wildcardOK bool) *pgerror.Error {
	if name == "" {
		return pgerror.New(pgerror.InvalidName, "%s name is empty", what)
	}
	if name == Wildcard && wildcardOK {
		return nil
	}
	for _, r := range name {
		switch {
		case strings.ContainsRune(`/?#%\`, r), unicode.IsSpace(r), unicode.IsControl(r):
			return pgerror.New(pgerror.InvalidName, "invalid %s name %q", what, name).
				WithDetail("Names in grants may not contain / ? # %% \\, whitespace or control characters.")
		case r == '*':
			return pgerror.New(pgerror.InvalidName, "invalid %s name %q", what, name).
				WithDetail("Policies match * as a wildcard, so a name containing it would reach other objects.")
		case r == '{' || r == '}':
			return pgerror.New(pgerror.InvalidName, "invalid %s name %q", what, name).
				WithDetail("Policies read {USER} and {OWNER} as macros for whoever asks, so names may not contain { or }.")
		}
	}
	return nil
}

// quoteIdent renders a name as SQL: bare when it is a plain lower-case
// identifier, double-quoted otherwise.
func quoteIdent(name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || i > 0 && (r >= '0' && r <= '9' || r == '$')) {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
