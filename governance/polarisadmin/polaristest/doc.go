// Package polaristest is an Apache Polaris for tests, served in process on
// a loopback port. It follows Polaris's published APIs, not SQE's client:
// the OAuth token endpoint (client-credentials grant), the management API
// of spec/polaris-management-service.yml (principals, principal roles,
// catalog roles and their grants, with Polaris's 201 / 204 / 404 / 409
// answers and its {"error": {...}} body), and an Iceberg REST catalog
// whose every request is authorized as Polaris authorizes it: the bearer
// token names a principal, the principal's principal roles reach catalog
// roles, and an operation needs its privilege (or one Polaris takes to
// include it) granted on the securable or above it.
//
// Management requests need a token of a principal holding the principal
// role service_admin (the bootstrap root). Catalog requests take either a
// token issued here or a login JWT of the caller, whose
// preferred_username (else sub) claim names the principal; the fake does
// not verify the JWT's signature, where a real Polaris checks it against
// its identity provider.
package polaristest
