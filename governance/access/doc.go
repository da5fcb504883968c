// Package access is gate one's embedded backend: "may this caller open this
// object at all", answered in process with Apache Ranger's semantics over
// the Polaris service model, from policies kept in the governance
// database.
//
// Writes flow from SQL: package sql parses GRANT, REVOKE and DENY, resolves
// the object's name and hands a grants.Statement to Service. Service plans
// it with the grant profile (package grants: which access types at which
// levels, refusing a statement that names an object deeper than its
// privilege), checks the grantor's authority, applies the plan to the
// stored policies and writes the difference in one transaction.
//
// Reads flow from the catalog: the embedded storage catalog asks
// Service.Authorize before it lists namespaces, shows a namespace, loads
// or lists tables and views, commits a write or runs DDL, naming the
// Polaris operation it is about to perform. Service maps the operation to
// the resource and access types Polaris would check (operations.go) and
// evaluates them with a ranger.Evaluator compiled from the stored policies.
// The evaluator is rebuilt only when the policies' version moves, so every
// node sharing the governance database sees a change at its next check.
// Administrators (the [auth] admin_roles) may GRANT, REVOKE and DENY, and
// their default access is an allow of every operation; but a deny naming
// an administrator or any role it holds refuses it exactly as it refuses
// anyone, since deny beats allow (spec/000, "A deny hits every member of
// the named role, including admins"). Grant authority is not data access:
// a denied administrator may still revoke the deny.
package access
