package pgwire

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgproto3/v2"
)

func TestInboxIsFIFO(t *testing.T) {
	q := newInbox()
	ctx := context.Background()
	for _, s := range []string{"a", "b", "c"} {
		if err := q.push(ctx, &pgproto3.Query{String: s}, 10); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"a", "b", "c"} {
		msg, err := q.pop(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := msg.(*pgproto3.Query).String; got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}

func TestInboxBoundsBytes(t *testing.T) {
	q := newInbox()
	ctx := context.Background()
	// One message larger than the limit is accepted into an empty inbox...
	if err := q.push(ctx, &pgproto3.Query{String: "big"}, inboxByteLimit+1); err != nil {
		t.Fatal(err)
	}
	// ...but the next waits until it has been taken.
	pushed := make(chan error, 1)
	go func() { pushed <- q.push(ctx, &pgproto3.Query{String: "small"}, 10) }()
	select {
	case <-pushed:
		t.Fatal("push did not wait for space")
	case <-time.After(50 * time.Millisecond):
	}
	if _, err := q.pop(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := <-pushed; err != nil {
		t.Fatal(err)
	}
}

func TestInboxPopFlushesBeforeWaitingAndStopsWithContext(t *testing.T) {
	q := newInbox()
	cause := errors.New("gone")
	ctx, cancel := context.WithCancelCause(context.Background())
	flushed := 0
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel(cause)
	}()
	_, err := q.pop(ctx, func() error { flushed++; return nil })
	if !errors.Is(err, cause) {
		t.Fatalf("pop returned %v, want the context's cause", err)
	}
	if flushed != 1 {
		t.Fatalf("flushed %d times before waiting, want 1", flushed)
	}
}
