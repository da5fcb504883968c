package ratelimit

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// queryStep is one query by user at the current fake time, after wait.
type queryStep struct {
	wait time.Duration
	user string
	n    int    // how many queries in a row (1 if 0)
	want string // "" allowed, else a fragment of the 53400 message of the last one
}

func TestQueryLimiterSequences(t *testing.T) {
	tests := []struct {
		name  string
		cfg   QueryConfig
		steps []queryStep
	}{
		{
			name: "61st query of a user limited to 60 is refused",
			cfg:  QueryConfig{PerUserPerMinute: 60, GlobalPerMinute: 1000},
			steps: []queryStep{
				{user: "alice", n: 60},
				{user: "alice", want: `per-user rate limit exceeded: user "alice" may run 60 queries per minute`},
				{user: "bob", n: 60},
				{user: "alice", want: "per-user"},
				{wait: time.Second, user: "alice"},
				{user: "alice", want: "per-user"},
			},
		},
		{
			name: "global limit shared by every user",
			cfg:  QueryConfig{PerUserPerMinute: 60, GlobalPerMinute: 3},
			steps: []queryStep{
				{user: "alice", n: 2},
				{user: "bob"},
				{user: "carol", want: "global rate limit exceeded: the server accepts 3 queries per minute"},
				{wait: 20 * time.Second, user: "carol"},
				{user: "alice", want: "global"},
			},
		},
		{
			// One global token comes back every 15 s, one of alice's
			// every 30 s: her query 15 s after the refusals can only
			// pass if they took none of hers.
			name: "global refusal takes no per-user token",
			cfg:  QueryConfig{PerUserPerMinute: 2, GlobalPerMinute: 4},
			steps: []queryStep{
				{user: "bob", n: 2},
				{user: "carol", n: 2},
				{user: "alice", want: "global"},
				{user: "alice", want: "global"},
				{wait: 15 * time.Second, user: "alice"},
			},
		},
		{
			name: "global only",
			cfg:  QueryConfig{GlobalPerMinute: 2},
			steps: []queryStep{
				{user: "alice"},
				{user: "bob"},
				{user: "carol", want: "global"},
			},
		},
		{
			name: "per-user only",
			cfg:  QueryConfig{PerUserPerMinute: 1},
			steps: []queryStep{
				{user: "alice"},
				{user: "alice", want: "per-user"},
				{user: "bob"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeClock()
			l := newQueryLimiter(tc.cfg, clock.now)
			for i, s := range tc.steps {
				clock.advance(s.wait)
				var err error
				for range max(s.n, 1) {
					if err = l.AllowQuery(s.user); err != nil {
						break
					}
				}
				if s.want == "" {
					if err != nil {
						t.Fatalf("step %d (%s): %v", i, s.user, err)
					}
					continue
				}
				var pe *pgerror.Error
				if !errors.As(err, &pe) {
					t.Fatalf("step %d (%s): err = %v, want a 53400 refusal", i, s.user, err)
				}
				if pe.Code != pgerror.ConfigurationLimitExceeded || !strings.Contains(pe.Message, s.want) {
					t.Fatalf("step %d (%s): %s %q, want 53400 containing %q", i, s.user, pe.Code, pe.Message, s.want)
				}
			}
		})
	}
}

func TestQueryLimiterDisabled(t *testing.T) {
	l := NewQueryLimiter(QueryConfig{})
	if l != nil {
		t.Fatalf("no limits configured, got a limiter %+v", l)
	}
	for range 1000 {
		if err := l.AllowQuery("alice"); err != nil {
			t.Fatal(err)
		}
	}
}

// Many users each sending a query once must not leave a bucket each
// behind: once their buckets have refilled they are dropped.
func TestQueryLimiterEvictsIdleUsers(t *testing.T) {
	clock := newFakeClock()
	l := newQueryLimiter(QueryConfig{PerUserPerMinute: 60}, clock.now)
	const users = 50_000
	for i := range users {
		if err := l.AllowQuery(fmt.Sprintf("user%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := l.trackedUsers(); got != users {
		t.Fatalf("tracking %d users right after their queries, want %d", got, users)
	}
	clock.advance(2 * time.Second) // one query's token is back for everyone
	if err := l.AllowQuery("late"); err != nil {
		t.Fatal(err)
	}
	if got := l.trackedUsers(); got != 1 {
		t.Fatalf("tracking %d users after the others' buckets refilled, want 1", got)
	}
}

// A user who keeps querying is not evicted while the bucket is short,
// however many others come and go around it.
func TestQueryLimiterKeepsBusyUser(t *testing.T) {
	clock := newFakeClock()
	l := newQueryLimiter(QueryConfig{PerUserPerMinute: 3}, clock.now)
	for range 3 {
		if err := l.AllowQuery("busy"); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 100 {
		clock.advance(100 * time.Millisecond)
		if err := l.AllowQuery(fmt.Sprintf("other%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.AllowQuery("busy"); err == nil {
		t.Fatal("busy user got a fresh bucket: the empty one was evicted")
	}
	// 10 s later one token is back (3 a minute) and is taken; the others'
	// full buckets were dropped on the way.
	if tracked := l.trackedUsers(); tracked > 101 {
		t.Fatalf("tracking %d users", tracked)
	}
}

func TestQueryLimiterConcurrentUse(t *testing.T) {
	clock := newFakeClock()
	l := newQueryLimiter(QueryConfig{PerUserPerMinute: 50, GlobalPerMinute: 300}, clock.now)
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := map[string]int{}
	for g := range 8 {
		wg.Go(func() {
			user := fmt.Sprintf("user%d", g)
			for range 100 {
				if l.AllowQuery(user) == nil {
					mu.Lock()
					allowed[user]++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	// The clock stands still: 8 users could run 50 each, the server
	// takes 300 in all.
	total := 0
	for user, n := range allowed {
		if n > 50 {
			t.Errorf("%s ran %d queries, more than its burst of 50", user, n)
		}
		total += n
	}
	if total != 300 {
		t.Errorf("%d queries in all, want the global burst of 300", total)
	}
}
