// Package tlstest makes what the tests of TLS client certificates need: a
// certificate authority, server certificates for loopback names and client
// certificates naming a user, as PEM files in a test's directory and as
// crypto/tls values. Everything is generated per test with crypto/x509;
// nothing here is meant for a running server.
package tlstest
