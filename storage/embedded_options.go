package storage

import "fmt"

// DefaultCommitRetries is how many times a commit that lost a race with
// another writer (another SQE process on the same catalog) is replayed on
// the reloaded table before the write fails with SQLSTATE 40001.
const DefaultCommitRetries = 9

// maxCommitRetries bounds the setting: with the backoff capped at a second,
// more retries only make a client wait longer for the same 40001.
const maxCommitRetries = 1000

// EmbeddedOptions tune an embedded catalog.
type EmbeddedOptions struct {
	// CommitRetries is how many times a conflicting commit is replayed
	// after the first attempt; 0 fails at the first conflict.
	CommitRetries int

	// Warehouse is where table files live: a location URI such as
	// s3://bucket/prefix (also s3a://, s3n://) or file:///path. Empty is
	// the folder warehouse in the data directory. The catalog database
	// (catalog.db) stays in the data directory either way.
	Warehouse string

	// Properties configure the warehouse's object storage: s3.endpoint,
	// s3.region, s3.access-key-id, s3.secret-access-key, s3.session-token,
	// s3.force-virtual-addressing, ... (objectStorePropertyKeys lists them).
	// Keys left unset come from the environment (AWS_ACCESS_KEY_ID,
	// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION, a profile or an
	// instance role), as the AWS SDK finds them.
	Properties map[string]string

	// SkipFsync leaves the files a commit creates in a local warehouse
	// unflushed: faster commits, but an operating-system crash or power
	// loss may then lose acknowledged commits or leave a table unreadable
	// (as PostgreSQL's fsync = off). For tests and reloadable bulk loads.
	SkipFsync bool

	// ChunkCache, when set, holds the column chunks the catalog's scans
	// decode (NewChunkCache); several catalogs may share one.
	ChunkCache *ChunkCache
}

// Validate checks the options without touching the warehouse: the retry
// count's range, the warehouse URI and its properties.
func (o EmbeddedOptions) Validate() error {
	if o.CommitRetries < 0 || o.CommitRetries > maxCommitRetries {
		return fmt.Errorf("commit retries must be between 0 and %d, not %d", maxCommitRetries, o.CommitRetries)
	}
	loc, err := parseWarehouse(o.Warehouse)
	if err != nil {
		return err
	}
	return validateObjectStoreProperties(loc, o.Properties)
}
