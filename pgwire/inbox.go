package pgwire

import (
	"context"
	"sync"

	"github.com/jackc/pgproto3/v2"
)

// inboxByteLimit bounds the memory a connection's queued-but-unprocessed
// messages may hold. A single larger message is still accepted when the
// inbox is empty (MaxMessageSize bounds that one).
const inboxByteLimit = 1 << 20

// inbox is the FIFO between a connection's reader goroutine and its
// processor goroutine. Unlike a fixed-size channel it bounds bytes, not
// messages, so a pipelining client can queue many small messages while the
// reader keeps reading (and so notices a disconnect or Terminate while a
// statement runs).
type inbox struct {
	mu    sync.Mutex
	items []pgproto3.FrontendMessage // items[head:] are queued
	sizes []int
	head  int
	bytes int

	ready chan struct{} // capacity 1: an item was pushed
	space chan struct{} // capacity 1: an item was popped
}

func newInbox() *inbox {
	return &inbox{ready: make(chan struct{}, 1), space: make(chan struct{}, 1)}
}

// push queues msg, waiting while the inbox is over its byte limit. It fails
// only when ctx ends.
func (q *inbox) push(ctx context.Context, msg pgproto3.FrontendMessage, size int) error {
	for {
		q.mu.Lock()
		if q.bytes == 0 || q.bytes+size <= inboxByteLimit {
			q.items = append(q.items, msg)
			q.sizes = append(q.sizes, size)
			q.bytes += size
			q.mu.Unlock()
			signal(q.ready)
			return nil
		}
		q.mu.Unlock()
		select {
		case <-q.space:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

// pop takes the oldest message. If none is queued it calls beforeWait (the
// processor flushes its output there, so a client is never left waiting for
// buffered replies) and then waits for one or for ctx to end.
func (q *inbox) pop(ctx context.Context, beforeWait func() error) (pgproto3.FrontendMessage, error) {
	waited := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, context.Cause(ctx)
		}
		q.mu.Lock()
		if q.head < len(q.items) {
			msg, size := q.items[q.head], q.sizes[q.head]
			q.items[q.head] = nil
			q.head++
			q.bytes -= size
			if q.head == len(q.items) {
				// Drained: reuse the arrays from the start.
				q.items, q.sizes, q.head = q.items[:0], q.sizes[:0], 0
			}
			q.mu.Unlock()
			signal(q.space)
			return msg, nil
		}
		q.mu.Unlock()
		if !waited && beforeWait != nil {
			if err := beforeWait(); err != nil {
				return nil, err
			}
		}
		waited = true
		select {
		case <-q.ready:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// signal wakes a waiter without blocking; one pending wake-up is enough
// because waiters re-check the state.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
