package auth

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for the limiter.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newTestLimiter(perMinute, burst int) (*LoginLimiter, *fakeClock) {
	return newCappedTestLimiter(perMinute, burst, maxLimiterEntries)
}

func newCappedTestLimiter(perMinute, burst, maxEntries int) (*LoginLimiter, *fakeClock) {
	clock := &fakeClock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	return newLoginLimiter(perMinute, burst, maxEntries, clock.now), clock
}

func TestLoginLimiterSequences(t *testing.T) {
	type step struct {
		op        string // "fail", "ok", "wait", "allow", "deny"
		addr      string
		wait      time.Duration
		wantCount *int // tracked entries after the step; nil to skip
	}
	tests := []struct {
		name      string
		perMinute int
		burst     int
		steps     []step
	}{
		{
			name: "burst of failures then blocked", perMinute: 6, burst: 3,
			steps: []step{
				{op: "allow", addr: "10.0.0.1:5000", wantCount: count(0)},
				{op: "fail", addr: "10.0.0.1:5000", wantCount: count(1)},
				{op: "fail", addr: "10.0.0.1:5001", wantCount: count(1)},
				{op: "allow", addr: "10.0.0.1:5002"},
				{op: "fail", addr: "10.0.0.1:5003", wantCount: count(1)},
				{op: "deny", addr: "10.0.0.1:6000"},
				{op: "allow", addr: "10.0.0.2:6000"},
			},
		},
		{
			name: "bucket refills over time", perMinute: 6, burst: 2,
			steps: []step{
				{op: "fail", addr: "10.0.0.1:1"},
				{op: "fail", addr: "10.0.0.1:1"},
				{op: "deny", addr: "10.0.0.1:1"},
				{op: "wait", wait: 5 * time.Second},
				{op: "deny", addr: "10.0.0.1:1"},
				{op: "wait", wait: 5 * time.Second},
				{op: "allow", addr: "10.0.0.1:1"},
			},
		},
		{
			// One token every 10 s; every failure that empties the
			// bucket locks the address out twice as long as the last.
			name: "lockout doubles", perMinute: 6, burst: 2,
			steps: []step{
				{op: "fail", addr: "10.0.0.1:1"},
				{op: "fail", addr: "10.0.0.1:1"},
				{op: "wait", wait: 9 * time.Second},
				{op: "deny", addr: "10.0.0.1:1"},
				{op: "wait", wait: time.Second},
				{op: "allow", addr: "10.0.0.1:1"},
				{op: "fail", addr: "10.0.0.1:1"},
				{op: "wait", wait: 10 * time.Second},
				{op: "deny", addr: "10.0.0.1:1"},
				{op: "wait", wait: 10 * time.Second},
				{op: "allow", addr: "10.0.0.1:1"},
				// The bucket refilled during the lockout: two more
				// failures, then 40 s.
				{op: "fail", addr: "10.0.0.1:1"},
				{op: "fail", addr: "10.0.0.1:1"},
				{op: "wait", wait: 39 * time.Second},
				{op: "deny", addr: "10.0.0.1:1"},
				{op: "wait", wait: time.Second},
				{op: "allow", addr: "10.0.0.1:1"},
				// Quiet for a refill after the lockout: the count
				// starts over.
				{op: "wait", wait: 20 * time.Second},
				{op: "fail", addr: "10.0.0.1:1"},
				{op: "fail", addr: "10.0.0.1:1"},
				{op: "wait", wait: 10 * time.Second},
				{op: "allow", addr: "10.0.0.1:1"},
			},
		},
		{
			name: "lockout is capped", perMinute: 60, burst: 1,
			steps: []step{
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: time.Second},
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: 2 * time.Second},
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: 4 * time.Second},
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: 8 * time.Second},
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: 16 * time.Second},
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: 32 * time.Second},
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: 64 * time.Second},
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: 128 * time.Second},
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: 256 * time.Second},
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: 512 * time.Second},
				{op: "fail", addr: "10.0.0.9:1"},
				{op: "wait", wait: 15*time.Minute - time.Second},
				{op: "deny", addr: "10.0.0.9:1"},
				{op: "wait", wait: time.Second},
				{op: "allow", addr: "10.0.0.9:1"},
			},
		},
		{
			name: "success resets", perMinute: 1, burst: 1,
			steps: []step{
				{op: "fail", addr: "[::1]:1234", wantCount: count(1)},
				{op: "deny", addr: "[::1]:4321"},
				{op: "ok", addr: "[::1]:9", wantCount: count(0)},
				{op: "allow", addr: "[::1]:1234"},
			},
		},
		{
			name: "address without port", perMinute: 1, burst: 1,
			steps: []step{
				{op: "fail", addr: "[local]"},
				{op: "deny", addr: "[local]"},
			},
		},
		{
			name: "disabled", perMinute: 0, burst: 1,
			steps: []step{
				{op: "fail", addr: "10.0.0.1:1", wantCount: count(0)},
				{op: "fail", addr: "10.0.0.1:1", wantCount: count(0)},
				{op: "allow", addr: "10.0.0.1:1"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, clock := newTestLimiter(tc.perMinute, tc.burst)
			for i, s := range tc.steps {
				switch s.op {
				case "fail":
					l.Failure(s.addr)
				case "ok":
					l.Success(s.addr)
				case "wait":
					clock.advance(s.wait)
				case "allow", "deny":
					if got := l.Allow(s.addr); got != (s.op == "allow") {
						t.Fatalf("step %d: Allow(%s) = %v, want %v", i, s.addr, got, s.op == "allow")
					}
				default:
					t.Fatalf("unknown op %q", s.op)
				}
				if s.wantCount != nil {
					if got := l.tracked(); got != *s.wantCount {
						t.Fatalf("step %d: tracking %d addresses, want %d", i, got, *s.wantCount)
					}
				}
			}
		})
	}
}

func count(n int) *int { return &n }

func TestLoginLimiterBoundedMemory(t *testing.T) {
	l, clock := newCappedTestLimiter(1, 1, 100)
	for i := range 250 {
		l.Failure(fmt.Sprintf("10.1.%d.%d:5432", i/256, i%256))
		clock.advance(time.Millisecond)
	}
	if got := l.tracked(); got != 100 {
		t.Fatalf("tracking %d addresses, want the cap of 100", got)
	}
	// The oldest were evicted, the newest are still limited.
	if !l.Allow("10.1.0.0:1") {
		t.Error("oldest address still tracked after eviction")
	}
	if l.Allow("10.1.0.249:1") {
		t.Error("newest address no longer limited")
	}
}

func TestLoginLimiterEvictsIdleEntries(t *testing.T) {
	l, clock := newTestLimiter(60, 2)
	for i := range 10 {
		l.Failure(fmt.Sprintf("10.2.0.%d:1", i))
	}
	if got := l.tracked(); got != 10 {
		t.Fatalf("tracking %d addresses, want 10", got)
	}
	clock.advance(time.Minute) // every bucket refills
	l.Failure("10.3.0.1:1")
	if got := l.tracked(); got != 1 {
		t.Fatalf("tracking %d addresses after idle ones refilled, want 1", got)
	}
}

func TestLoginLimiterConcurrentUse(t *testing.T) {
	l := NewLoginLimiter(1, 5)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				addr := fmt.Sprintf("10.4.%d.%d:1", g, i%20)
				if l.Allow(addr) {
					l.Failure(addr)
				}
				if i%50 == 0 {
					l.Success(addr)
				}
			}
		}()
	}
	wg.Wait()
	if got := l.tracked(); got > 8*20 {
		t.Fatalf("tracking %d addresses, more than were used", got)
	}
	for g := range 8 {
		// Each address failed far more than its burst within a moment.
		if l.Allow(fmt.Sprintf("10.4.%d.19:1", g)) {
			t.Errorf("address 10.4.%d.19 is not limited after repeated failures", g)
		}
	}
}

func TestLoginLimiterNilIsPermissive(t *testing.T) {
	var l *LoginLimiter
	l.Failure("10.0.0.1:1")
	l.Success("10.0.0.1:1")
	if !l.Allow("10.0.0.1:1") {
		t.Fatal("nil limiter refused a login")
	}
}
