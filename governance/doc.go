// Package governance decides who may do and see what.
//
// It owns the governance store (an SQLite database in the data directory
// for the embedded backend), role membership, and the security hook the
// planner calls for every table reference. Today it provides role
// membership, which login uses to compute a caller's effective roles
// (token roles plus the roles the store gives the user, nested roles
// followed), and a security hook that shows every column and row: the
// grant model of gate one and the policies of gate two build on these
// seams without changing pgwire or the planner.
//
// Data flow: pgwire authenticates a token (package auth) and asks
// governance for the caller's effective roles; package sql asks for the
// caller's planner.Security when a session opens; the binder asks it for
// the secured relation of each table it resolves.
package governance
