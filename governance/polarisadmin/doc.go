// Package polarisadmin is gate one's Apache Polaris backend
// ([access_control] backend = "polaris"): GRANT and REVOKE written as
// Polaris's own role-based grants through its management API, SHOW GRANTS,
// SHOW EFFECTIVE GRANTS and CHECK ACCESS read back from it, and roles kept
// as Polaris principal roles. Enforcement is not here: Polaris decides every
// catalog request, which SQE's REST catalog makes with the caller's own
// token.
//
// Polaris grants privileges to catalog roles on securables (a catalog, a
// namespace, a table or a view); catalog roles are granted to principal
// roles, and principal roles to principals. SQE's grantees map onto that
// chain:
//
//   - ROLE r is the principal role r and, in every mapped catalog, the
//     catalog role r granted to it. CREATE ROLE makes both; GRANT r TO
//     USER u grants the principal role to the principal u; GRANT r TO ROLE
//     m grants r's catalog roles to the principal role m, which is how a
//     role nests in Polaris.
//   - USER u is the principal role and catalog roles "sqe_user_u" (marked
//     with the property sqe.user = u), the principal role granted to the
//     principal u. The principal must exist: Polaris creates principals,
//     SQE does not.
//
// A statement is planned with the grant profile exactly as the other
// backends plan it (scope checks, refusals), then translated by the
// profile's Polaris table (grants.PolarisMapping) into Polaris privileges
// per securable. Polaris has no deny: DENY is refused with 0A000. Polaris
// keeps no grantor, so SHOW GRANTS leaves granted_by empty.
//
// Every decision fails closed: a request Polaris refuses, answers with an
// error or does not answer in time is an error for the statement, never an
// allow. The client secret and the access token never appear in an error
// or a log line.
package polarisadmin
