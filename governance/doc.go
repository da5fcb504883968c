// Package governance decides who may do and see what.
//
// It owns the governance store: an SQLite database in the data directory
// that holds the embedded backends' state, shared by every SQE process on
// that directory. In it live roles and their members (login uses them to
// compute a caller's effective roles: token roles plus the roles the
// store gives the user, nested roles followed), gate one's policies
// (access_policies, one Ranger-shaped policy per exact resource) and gate
// two's (fine_policies, Ranger hive-model row filters, masks and
// column-restricting access policies, and tag policies), each with a
// version every write bumps so that each process
// recompiles only when they change.
//
// The gates themselves live in the subpackages: gate one, "may this
// caller open this object", in governance/access (embedded) and
// governance/rangeradmin (Ranger Admin, enforced by Polaris), planned by
// governance/grants and evaluated by governance/ranger; gate two, "which
// rows and values", in governance/policy, whose Enforcer the binder asks
// for the secured relation of every table it resolves, and whose Ranger
// store is governance/policy/rangerstore. Both Ranger backends speak to
// Ranger Admin through governance/rangerrest. Passthrough is the
// gate-two hook that applies nothing ([policy] engine = "passthrough").
//
// Data flow: pgwire authenticates a token (package auth) and asks
// governance for the caller's effective roles; the embedded catalogs ask
// gate one before each operation; package sql asks gate two for the
// caller's planner.Security when a session opens.
package governance
