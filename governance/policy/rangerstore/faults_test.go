package rangerstore

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sqe-db/sqe/compat-tests/faultproxy"
)

// TestRangerAdminFaults puts Ranger Admin behind a fault proxy. Past the
// TTL, each way it can fail (unreachable, 5xx, hanging) makes Snapshot an
// error within the HTTP client's timeout, so gate two admits no row
// rather than waiting; a slow answer inside the timeout is still an
// answer; and when Ranger answers again the same store serves its
// policies, without a restart.
func TestRangerAdminFaults(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	f.add(t, maskPolicy("query", "ssn_mask", "orders", "ssn", "engineer", "MASK_NULL"))
	proxy, err := faultproxy.Start(strings.TrimPrefix(f.server.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proxy.Close() })
	const timeout = 300 * time.Millisecond
	c := newClock()
	s, err := New(Config{URL: proxy.URL(), ServiceName: f.service, AdminUser: f.user, AdminPassword: f.password,
		CacheTTL: ttl, Now: c.now, HTTPClient: &http.Client{Timeout: timeout}})
	if err != nil {
		t.Fatal(err)
	}
	first := snapshot(t, s)

	// The margin over the timeout is for a loaded machine.
	bound := timeout + 10*time.Second
	steps := []struct {
		name  string
		apply func()
		ok    bool
	}{
		{"unreachable", proxy.Drop, false},
		{"502", func() { proxy.Fail(http.StatusBadGateway) }, false},
		{"hanging", proxy.Hang, false},
		{"slow but inside the timeout", func() { proxy.Delay(timeout / 10) }, true},
		{"back", proxy.Forward, true},
	}
	for _, st := range steps {
		st.apply()
		c.advance(ttl + time.Second)
		start := time.Now()
		snap, err := s.Snapshot(context.Background())
		took := time.Since(start)
		if st.ok {
			if err != nil || snap != first {
				t.Errorf("%s: %v, %v; want the unchanged snapshot", st.name, snap, err)
			}
		} else {
			if err == nil || snap != nil || sqlstate(err) != codeSystemError {
				t.Errorf("%s: %v, %v (%s); want no snapshot and 58000", st.name, snap, err, sqlstate(err))
			}
			if err != nil && strings.Contains(err.Error(), f.password) {
				t.Errorf("%s: the error carries the password", st.name)
			}
		}
		if took > bound {
			t.Errorf("%s: Snapshot took %s, want an answer within %s", st.name, took, bound)
		}
	}
}

// While a revalidation hangs on Ranger Admin, the queries waiting for it
// share that one request and each leaves at its own deadline (the
// statement's); when Ranger returns, the store asks it again.
func TestHungRefreshReleasesWaitingQueries(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	proxy, err := faultproxy.Start(strings.TrimPrefix(f.server.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proxy.Close() })
	const timeout = 2 * time.Second
	c := newClock()
	s, err := New(Config{URL: proxy.URL(), ServiceName: f.service, AdminUser: f.user, AdminPassword: f.password,
		CacheTTL: ttl, Now: c.now, HTTPClient: &http.Client{Timeout: timeout}})
	if err != nil {
		t.Fatal(err)
	}
	snapshot(t, s)
	proxy.Hang()
	c.advance(ttl + time.Second)

	const queries = 8
	const deadline = 200 * time.Millisecond
	var wg sync.WaitGroup
	errs := make([]error, queries)
	took := make([]time.Duration, queries)
	for i := range queries {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			start := time.Now()
			_, errs[i] = s.Snapshot(ctx)
			took[i] = time.Since(start)
		})
	}
	wg.Wait()
	for i := range queries {
		if !errors.Is(errs[i], context.DeadlineExceeded) {
			t.Errorf("query %d: %v, want its own deadline", i, errs[i])
		}
		if took[i] > deadline+5*time.Second {
			t.Errorf("query %d waited %s, past its %s deadline", i, took[i], deadline)
		}
	}
	if got := proxy.Accepted(); got != 2 {
		t.Errorf("the proxy accepted %d connections, want 2: the first download and one shared revalidation", got)
	}

	// Returning cuts the hung request: a query arriving as it fails may
	// share its error, and the next one downloads afresh.
	proxy.Forward()
	giveUp := time.Now().Add(timeout + 10*time.Second)
	for {
		_, err := s.Snapshot(context.Background())
		if err == nil {
			break
		}
		if time.Now().After(giveUp) {
			t.Fatalf("Ranger back for %s and still: %v", timeout+10*time.Second, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
