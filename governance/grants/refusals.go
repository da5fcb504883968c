package grants

import (
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The refusals of planning, each created where its reason is known.

// errWidening refuses a statement that names an object deeper than the
// level its privilege binds to. Written at the privilege's level, the
// policy would cover the whole catalog or namespace above the object:
// wider than what the statement named, with nothing in the reply to say
// so. GRANT, REVOKE and DENY are refused alike, so that all three agree on
// what a statement's scope is.
func errWidening(a Action, what, privilegeName string, level Level, o Object, realm string) *pgerror.Error {
	scope := o.resource(realm).truncate(level)
	return pgerror.New(pgerror.InvalidGrantOperation,
		"%s %s binds to the %s level and cannot be %s on %s",
		what, privilegeName, level, actionPastTense(a), o).
		WithDetail("Written at the %s level, the policy would apply to %s and everything in it, which is wider than %s.",
			level, scopeName(scope), o).
		WithHint("%s %s ON %s instead, or name a privilege that binds to a %s.",
			actionVerb(a), privilegeName, scopeSQL(scope), o.Kind)
}

// errNotApplicable refuses a privilege that has no meaning on the kind of
// object named (INSERT on a view, CREATE TABLE on a database), in
// PostgreSQL's wording.
func errNotApplicable(privilegeName string, kind ObjectKind, applicable []string) *pgerror.Error {
	e := pgerror.New(pgerror.InvalidGrantOperation, "invalid privilege type %s for %s", privilegeName, kindWord(kind))
	if len(applicable) > 0 {
		e = e.WithHint("Privileges that apply to a %s: %s.", kindWord(kind), strings.Join(applicable, ", "))
	}
	return e
}

// errUnknownPrivilege refuses a word that is neither a SQL privilege of
// the profile nor a native access type of the service definition.
func errUnknownPrivilege(name string) *pgerror.Error {
	return pgerror.New(pgerror.SyntaxError, "unrecognized privilege type %q", name).
		WithHint("Name a SQL privilege (SELECT, INSERT, USAGE, ...) or a Polaris access type such as table-data-read.")
}

// errUnaddressable refuses a native access type that belongs to a resource
// a grant statement cannot name (the realm, principals, policies).
func errUnaddressable(accessType, resource string) *pgerror.Error {
	return pgerror.New(pgerror.InvalidGrantOperation,
		"access type %s applies to the %s resource, which GRANT cannot name", accessType, resource).
		WithHint("Policies on the realm, on principals and on catalog policies are managed in Ranger directly.")
}

// errDisabled refuses to merge a grant or a denial into a policy that is
// switched off: it would report success and change nothing. Switching it
// back on is not this statement's call, since it would revive every other
// item of the policy too.
func errDisabled(a Action, r Resource) *pgerror.Error {
	return pgerror.New(pgerror.ObjectNotInPrerequisiteState, "the policy for %s is disabled", r).
		WithDetail("%s would be merged into it and have no effect.", a).
		WithHint("Enable or delete the policy in Ranger, then repeat the statement.")
}

func actionPastTense(a Action) string {
	switch a {
	case ActionRevoke:
		return "revoked"
	case ActionDeny:
		return "denied"
	}
	return "granted"
}

func actionVerb(a Action) string {
	switch a {
	case ActionRevoke:
		return "Revoke"
	case ActionDeny:
		return "Deny"
	}
	return "Grant"
}

// kindWord names an object kind as PostgreSQL's messages do.
func kindWord(k ObjectKind) string {
	if k == ObjectCatalog {
		return "database"
	}
	return string(k)
}

// scopeName describes a catalog or namespace resource: "catalog sales_wh",
// "schema sales_wh.acdemo".
func scopeName(r Resource) string {
	if r.Level() == LevelCatalog {
		return "catalog " + r.Catalog
	}
	return "schema " + r.String()
}

// scopeSQL is the object clause that names the resource: DATABASE c,
// SCHEMA c.n.
func scopeSQL(r Resource) string {
	if r.Level() == LevelCatalog {
		return "DATABASE " + quoteIdent(r.Catalog)
	}
	return "SCHEMA " + quoteIdent(r.Catalog) + "." + quoteIdent(r.Namespace)
}
