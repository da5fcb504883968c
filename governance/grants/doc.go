// Package grants turns GRANT, REVOKE and DENY into the access policies of
// gate one, as pure functions over a small model of Ranger's polaris
// service: one policy per exact resource (realm, catalog, namespace,
// table), each with allow and deny items and provenance labels. It exists
// so that every backend (the embedded store, Ranger Admin) writes the same
// policies for the same statement, and so that the rules deciding them —
// which levels a privilege reaches, what a revoke may take away, who may
// grant — live in one place with no I/O to get in the way of testing them.
//
// The grant profile (data/grant-profile.json) maps each SQL privilege to
// the level it binds to and, per kind of object, seed access types at
// every level from the catalog down; Load closes the seeds under the
// implied grants of the Polaris service definition shipped beside it
// (data/ranger-servicedef-polaris.json), because Polaris's authorizer
// checks each access type literally. Native access types of the service
// definition may be named directly.
//
// A GRANT flows through it in four steps:
//
//  1. PlanGrant checks the statement (names, grantees, scope) and plans
//     its writes outermost first: GRANT SELECT ON c.n.t writes
//     namespace-list on c, namespace-properties-read on c.n and the read
//     access types on c.n.t. An object deeper than a privilege's level is
//     refused (0LP01) rather than widened.
//  2. Authorize checks the caller's authority (an administrator role, or
//     delegate admin per resource) and returns the plan to carry out,
//     without the traversal levels a delegated grant may skip.
//  3. ApplyGrant merges the plan into the existing policies and returns the
//     new set; ApplyRevoke and ApplyDeny do the same for their plans.
//  4. Diff lists the policies the backend must write or delete.
package grants
