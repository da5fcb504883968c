// Package rangeradmin is gate one's Ranger backend ([access_control]
// backend = "ranger"): GRANT, REVOKE and DENY written through Ranger
// Admin's REST API, SHOW GRANTS and CHECK ACCESS read back from it, and
// roles kept in Ranger's role store. Enforcement is not here: Polaris's
// embedded Ranger authorizer decides every catalog operation.
//
// Service offers the operations of governance/access.Service, so that
// package sql's AccessControl can be backed by either. A change is
// planned, authorized and applied with package grants exactly as the
// embedded backend does it; only the storage differs:
//
//   - By default the policy API is used read-merge-write: list the
//     service's policies, apply the plan to those of the polaris shape
//     (root, catalog, namespace, table), and write each policy that
//     changed, outermost first: PUT for an existing one, POST for a new
//     one, DELETE for one left empty. A policy is written back from the
//     JSON Ranger returned, so fields edited in the console and not
//     modelled here (conditions, options, schedules, exceptions) survive.
//   - In ranger-delegate mode GRANT and REVOKE go through the plugin
//     grant API with the caller as grantor, because only that endpoint
//     makes Ranger check the caller's delegate admin per resource. DENY
//     always uses the policy API.
//
// Ranger allows one policy per exact resource and refuses a second with
// error 3010; a write refused so is retried as a merge into the policy
// that won. There is no transaction across policies, which is why levels
// are written outermost first and a failure says which outer levels were
// left in place.
//
// Requests go through governance/rangerrest. The admin password comes
// from the configuration or the environment (PasswordEnv) and never
// appears in an error or a log line, and neither does a response body
// other than Ranger's own error message.
package rangeradmin
