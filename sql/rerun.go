package sql

import (
	"context"
	"errors"
	"time"

	"github.com/sqe-db/sqe/storage"
)

// rerunOnConflict runs a copy-on-write statement (DELETE, UPDATE, MERGE)
// and runs it again when its commit lost a race with another writer that
// changed the data it read (storage.RerunConflict): the new run reads the
// new data. After the catalog's retry count the client gets the 40001.
// The statements produce their whole result before returning it, so a
// failed run has sent the client nothing.
func (s *Session) rerunOnConflict(ctx context.Context, run func() (Result, error)) (Result, error) {
	for attempt := 1; ; attempt++ {
		res, err := run()
		var conflict *storage.RerunConflict
		if err == nil || s.tx != nil || !errors.As(err, &conflict) || attempt >= conflict.Limit {
			return res, err
		}
		timer := time.NewTimer(storage.RerunDelay(attempt))
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, err
		case <-timer.C:
		}
	}
}
