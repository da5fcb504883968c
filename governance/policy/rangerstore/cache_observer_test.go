package rangerstore

import (
	"slices"
	"testing"
	"time"
)

// OnCache hears a miss for the first download and for each revalidation
// after the TTL, and a hit for each snapshot served within it.
func TestCacheObserverCountsHitsAndMisses(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	c := newClock()
	var seen []bool
	s, err := New(Config{URL: f.server.URL, ServiceName: f.service, AdminUser: f.user, AdminPassword: f.password,
		CacheTTL: ttl, Now: c.now, OnCache: func(hit bool) { seen = append(seen, hit) }})
	if err != nil {
		t.Fatal(err)
	}
	snapshot(t, s)
	snapshot(t, s)
	c.advance(ttl + time.Second)
	snapshot(t, s)
	snapshot(t, s)
	if want := []bool{false, true, false, true}; !slices.Equal(seen, want) {
		t.Errorf("cache hits = %v, want %v", seen, want)
	}
}
