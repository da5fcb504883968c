// Package ratelimit holds the token buckets SQE protects itself with: a
// bucket per key (a user, a source address) that idle keys leave, so
// memory stays bounded however many keys come and go, and the query
// limiter built on it (per-user and server-wide queries per minute).
//
// Buckets come from golang.org/x/time/rate. Every type takes its clock
// from its constructor, so tests drive time instead of sleeping.
package ratelimit
