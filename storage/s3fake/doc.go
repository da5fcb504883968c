// Package s3fake serves an in-memory, S3-compatible object store on a
// loopback port, for tests of warehouses in object storage: it speaks the
// S3 protocol through gofakes3 (path-style requests), refuses requests
// signed with an access key other than its own, and can be made to refuse
// writes, as a store does for read-only credentials, or every request, as
// for revoked ones. Tests read what was
// stored straight from its memory. It is never part of the server.
package s3fake
