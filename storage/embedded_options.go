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
}

func (o EmbeddedOptions) validate() error {
	if o.CommitRetries < 0 || o.CommitRetries > maxCommitRetries {
		return fmt.Errorf("commit retries must be between 0 and %d, not %d", maxCommitRetries, o.CommitRetries)
	}
	return nil
}
