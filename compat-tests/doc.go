// Package compattests checks SQE from the outside, the way its users meet
// it: the real sqe binary is built once, started with the demo data, and
// driven over TCP by real PostgreSQL clients (the psql binary and the pgx
// driver).
//
// TestMain builds the binary into a temporary directory and starts one
// shared server on a free loopback port with a temporary data directory.
// Tests connect to it with tokens minted by `sqe token` or crafted from the
// issuer key in the data directory, and compare what the clients print or
// decode with what PostgreSQL would give. Tests that need settings or a
// lifecycle of their own (refused logins, shutdown) start a private server
// with the same helpers. The package has no code outside its tests.
package compattests
