// Package auth turns the password a PostgreSQL client sends into an
// Identity. SQE has no passwords of its own: the password is an OIDC/JWT
// bearer token, and a login succeeds only when that token verifies and
// names the same user the client put in its startup message.
//
// Tokens come from one of two issuers. With no issuer configured, the
// embedded development issuer is used: it keeps an ECDSA P-256 key pair in
// the data directory, mints tokens for `sqe token`, and the Verifier checks
// signatures against its public key directly. With an issuer URL
// configured, the Verifier discovers the provider through
// /.well-known/openid-configuration and checks signatures against the
// provider's JWKS, which go-oidc caches and refetches when a token names a
// key id it has not seen (key rotation; compat-tests rotates Ory Hydra's
// keys under a running server). The refetch replaces the cached keys; and
// since a key the provider deleted would otherwise be trusted until a token
// with a key id new to the cache arrived, the discovered keys are trusted
// for Config.KeysMaxAge only, after which the next login discovers the
// provider again (discovery.go). Discovery is retried lazily, so a
// provider that is down when the server starts only fails the logins made
// while it is down.
//
// After the signature, issuer, audience and validity window are checked,
// the claims are mapped: the user from a configurable claim (default
// preferred_username, falling back to sub), roles and groups from
// configurable dotted claim paths, so Keycloak's realm_access.roles works.
// The roles found here are only the token's; governance adds the roles its
// store grants later.
//
// VerifyBearer makes the same checks for a request that names no user of
// its own (an HTTP bearer token, as the operator endpoint's profiles take).
//
// Every refusal wraps ErrAuthenticationFailed and says why, for the server
// log. The client is told none of it: the caller sends FailedLogin, the
// same 28P01 message PostgreSQL sends for a wrong password, so a probe
// cannot tell an expired token from a forged one or a wrong user. Reasons
// never contain the token itself. LoginLimiter slows down a source address
// that keeps failing.
package auth
