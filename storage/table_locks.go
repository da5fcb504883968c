package storage

import (
	"context"
	"sync"
)

// tableLocks serialises commits per table inside one catalog. A lock is a
// one-slot channel rather than a sync.Mutex so that waiting for it honours
// context cancellation.
type tableLocks struct {
	mu    sync.Mutex
	slots map[string]chan struct{}
}

func newTableLocks() *tableLocks {
	return &tableLocks{slots: make(map[string]chan struct{})}
}

// lock waits for the table's slot and returns the function that frees it.
func (l *tableLocks) lock(ctx context.Context, key string) (func(), error) {
	l.mu.Lock()
	slot, ok := l.slots[key]
	if !ok {
		slot = make(chan struct{}, 1)
		l.slots[key] = slot
	}
	l.mu.Unlock()

	select {
	case slot <- struct{}{}:
		return func() { <-slot }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
