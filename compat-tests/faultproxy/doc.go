// Package faultproxy stands between SQE and a service it depends on (an
// OIDC issuer, Ranger Admin, an Iceberg REST catalog) and fails on
// command, so that tests can show what SQE does when the service is
// unreachable, slow or broken, and that it recovers when the service
// returns, without a restart.
//
// A Proxy is a TCP relay on a loopback port. In Forward mode it relays
// each connection to the target, optionally delaying every client write;
// Drop closes connections as they arrive; Hang accepts them and never
// answers; Fail answers each HTTP request with a chosen status. Changing
// the mode closes the connections already open, so a client's pooled
// keep-alive connection cannot carry on in the old mode.
package faultproxy
