package rangerstore

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

const ttl = 30 * time.Second

// clock is a settable clock for the store's TTL.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newStore(t *testing.T, f *fakeRanger, c *clock) *Store {
	t.Helper()
	s, err := New(Config{URL: f.server.URL, ServiceName: f.service, AdminUser: f.user, AdminPassword: f.password,
		CacheTTL: ttl, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func snapshot(t *testing.T, s *Store) *policy.Snapshot {
	t.Helper()
	snap, err := s.Snapshot(context.Background())
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	return snap
}

func sqlstate(err error) string {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// Policies as Ranger's console writes them.

func items(role string, extra map[string]any) []any {
	it := map[string]any{"accesses": []any{map[string]any{"type": "select", "isAllowed": true}},
		"users": []any{}, "groups": []any{}, "roles": []any{role}, "conditions": []any{}, "delegateAdmin": false}
	for k, v := range extra {
		it[k] = v
	}
	return []any{it}
}

func values(v string) map[string]any {
	return map[string]any{"values": []any{v}, "isExcludes": false, "isRecursive": false}
}

func maskPolicy(service, name, table, column, role, maskType string) map[string]any {
	return map[string]any{"service": service, "name": name, "policyType": 1,
		"resources":           map[string]any{"database": values("acdemo"), "table": values(table), "column": values(column)},
		"dataMaskPolicyItems": items(role, map[string]any{"dataMaskInfo": map[string]any{"dataMaskType": maskType}})}
}

func rowFilterPolicy(service, name, table, role, expr string) map[string]any {
	return map[string]any{"service": service, "name": name, "policyType": 2,
		"resources":            map[string]any{"database": values("acdemo"), "table": values(table)},
		"rowFilterPolicyItems": items(role, map[string]any{"rowFilterInfo": map[string]any{"filterExpr": expr}})}
}

func tagMaskPolicy(service, name, tag, role string) map[string]any {
	return map[string]any{"service": service, "name": name, "policyType": 1,
		"resources":           map[string]any{"tag": values(tag)},
		"dataMaskPolicyItems": items(role, map[string]any{"dataMaskInfo": map[string]any{"dataMaskType": "hive:MASK_SHOW_LAST_4"}})}
}

func accessPolicy(service, name string) map[string]any {
	return map[string]any{"service": service, "name": name, "policyType": 0,
		"resources":   map[string]any{"database": values("acdemo"), "table": values("*"), "column": values("*")},
		"policyItems": items("analyst", nil)}
}

func names(policies []ranger.Policy) []string {
	var out []string
	for _, p := range policies {
		out = append(out, p.Name)
	}
	return out
}

func TestSnapshotIsThePluginDownload(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	f.add(t, rowFilterPolicy("query", "eu_rows", "orders", "engineer", "region = 'EU'"))
	f.add(t, maskPolicy("query", "ssn_mask", "orders", "ssn", "engineer", "MASK_SHOW_LAST_4"))
	f.add(t, accessPolicy("query", "all_acdemo"))
	f.add(t, tagMaskPolicy("query_tag", "pii_mask", "PII", "engineer"))
	f.setRole("engineer", "bob", "carol")
	snap := snapshot(t, newStore(t, f, newClock()))

	if snap.ServiceDef == nil || snap.ServiceDef.Name != "hive" {
		t.Errorf("ServiceDef = %+v, want the download's hive definition", snap.ServiceDef)
	}
	if snap.TagServiceDef == nil || snap.TagServiceDef.Name != "tag" {
		t.Errorf("TagServiceDef = %+v, want the download's tagPolicies.serviceDef", snap.TagServiceDef)
	}
	if got, want := names(snap.Policies), []string{"eu_rows", "ssn_mask", "all_acdemo"}; !slices.Equal(got, want) {
		t.Errorf("Policies = %q, want %q (row filters, masks and access policies, whose column denials restrict)", got, want)
	}
	if got, want := names(snap.TagPolicies), []string{"pii_mask"}; !slices.Equal(got, want) {
		t.Errorf("TagPolicies = %q, want %q", got, want)
	}
	if snap.Policies[0].RowFilterPolicyItems[0].RowFilterInfo.FilterExpr != "region = 'EU'" {
		t.Errorf("row filter = %+v, want the console's expression", snap.Policies[0].RowFilterPolicyItems)
	}
	if snap.Roles == nil || len(snap.Roles.RangerRoles) != 1 || snap.Roles.RangerRoles[0].Name != "engineer" ||
		len(snap.Roles.RangerRoles[0].Users) != 2 {
		t.Errorf("Roles = %+v, want engineer with bob and carol", snap.Roles)
	}
	if got, want := f.downloads(), []string{"policies -1", "roles -1"}; !slices.Equal(got, want) {
		t.Errorf("downloads = %q, want %q", got, want)
	}
	if id := f.pluginIDs[0]; !strings.HasPrefix(id, "sqe@") || !strings.HasSuffix(id, "-query") {
		t.Errorf("pluginId = %q, want sqe@<host>-query", id)
	}
}

func TestSnapshotWithoutTagService(t *testing.T) {
	f := newFakeRanger(t, "")
	f.add(t, maskPolicy("query", "ssn_mask", "orders", "ssn", "engineer", "MASK_NULL"))
	snap := snapshot(t, newStore(t, f, newClock()))
	if snap.TagServiceDef != nil || snap.TagPolicies != nil {
		t.Errorf("tag part = %+v / %v, want none without a linked tag service", snap.TagServiceDef, snap.TagPolicies)
	}
	if got := names(snap.Policies); !slices.Equal(got, []string{"ssn_mask"}) {
		t.Errorf("Policies = %q", got)
	}
}

// The snapshot is what the evaluator needs: a role from the role download
// gives bob the mask, and alice, in no role, sees the raw value.
func TestSnapshotCompilesIntoAnEvaluator(t *testing.T) {
	f := newFakeRanger(t, "")
	f.add(t, maskPolicy("query", "ssn_mask", "orders", "ssn", "engineer", "MASK_SHOW_LAST_4"))
	f.setRole("engineer", "bob")
	snap := snapshot(t, newStore(t, f, newClock()))
	eval, err := ranger.New(ranger.Config{ServiceDef: snap.ServiceDef, Policies: snap.Policies, Roles: snap.Roles})
	if err != nil {
		t.Fatal(err)
	}
	for user, want := range map[string]string{"bob": "MASK_SHOW_LAST_4", "alice": ""} {
		req := ranger.Request{AccessType: "select", User: user, TagsGiven: true,
			Resource: ranger.Resource{"database": {"acdemo"}, "table": {"orders"}, "column": {"ssn"}}}
		res, err := eval.EvalDataMask(&req)
		if err != nil {
			t.Fatal(err)
		}
		if res.MaskType != want {
			t.Errorf("%s: mask = %q (policy %d), want %q", user, res.MaskType, res.PolicyID, want)
		}
	}
}

func TestSnapshotWithinTTLAsksNothing(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	c := newClock()
	s := newStore(t, f, c)
	first := snapshot(t, s)
	c.advance(ttl - time.Second)
	f.set(func(f *fakeRanger) { f.down = true }) // not even asked
	if again := snapshot(t, s); again != first {
		t.Errorf("within the TTL got a new snapshot %p, want the cached %p", again, first)
	}
	if got := f.downloads(); len(got) != 2 {
		t.Errorf("downloads = %q, want only the first", got)
	}
}

func TestSnapshotAfterTTLRevalidatesWithLastKnownVersion(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	f.add(t, maskPolicy("query", "ssn_mask", "orders", "ssn", "engineer", "MASK_NULL"))
	f.setRole("engineer", "bob")
	c := newClock()
	s := newStore(t, f, c)
	first := snapshot(t, s)
	policyVersion, roleVersion := f.policyVersion["query"], f.roleVersion

	c.advance(ttl + time.Second)
	if again := snapshot(t, s); again != first || again.Version != first.Version {
		t.Errorf("after 304 got snapshot %p version %d, want the cached %p version %d", again, again.Version, first, first.Version)
	}
	want := []string{"policies -1", "roles -1", fmt.Sprintf("policies %d", policyVersion), fmt.Sprintf("roles %d", roleVersion)}
	if got := f.downloads(); !slices.Equal(got, want) {
		t.Fatalf("downloads = %q, want %q", got, want)
	}
	// The 304 restarted the TTL.
	c.advance(ttl - time.Second)
	snapshot(t, s)
	if got := f.downloads(); len(got) != 4 {
		t.Errorf("downloads = %q, want none within the restarted TTL", got)
	}
	c.advance(2 * time.Second)
	snapshot(t, s)
	if got := f.downloads(); len(got) != 6 {
		t.Errorf("downloads = %q, want a revalidation once the TTL ran out", got)
	}
}

func TestSnapshotVersionChangesExactlyWithRanger(t *testing.T) {
	for _, tc := range []struct {
		name    string
		change  func(t *testing.T, f *fakeRanger)
		changed bool
		check   func(t *testing.T, snap *policy.Snapshot)
	}{
		{name: "nothing changed", change: func(*testing.T, *fakeRanger) {}},
		{name: "hive policy added", changed: true,
			change: func(t *testing.T, f *fakeRanger) {
				f.add(t, rowFilterPolicy("query", "eu_rows", "orders", "engineer", "region = 'EU'"))
			},
			check: func(t *testing.T, snap *policy.Snapshot) {
				if got := names(snap.Policies); !slices.Equal(got, []string{"ssn_mask", "eu_rows"}) {
					t.Errorf("Policies = %q", got)
				}
			}},
		{name: "tag policy added", changed: true,
			change: func(t *testing.T, f *fakeRanger) { f.add(t, tagMaskPolicy("query_tag", "pii_mask", "PII", "engineer")) },
			check: func(t *testing.T, snap *policy.Snapshot) {
				if got := names(snap.TagPolicies); !slices.Equal(got, []string{"pii_mask"}) {
					t.Errorf("TagPolicies = %q", got)
				}
			}},
		{name: "role changed", changed: true,
			change: func(_ *testing.T, f *fakeRanger) { f.setRole("engineer", "bob", "dave") },
			check: func(t *testing.T, snap *policy.Snapshot) {
				if got := len(snap.Roles.RangerRoles[0].Users); got != 2 {
					t.Errorf("engineer has %d users, want 2", got)
				}
			}},
		{name: "access policy added", changed: true,
			change: func(t *testing.T, f *fakeRanger) { f.add(t, accessPolicy("query", "all_acdemo")) },
			check: func(t *testing.T, snap *policy.Snapshot) {
				if got := names(snap.Policies); !slices.Equal(got, []string{"ssn_mask", "all_acdemo"}) {
					t.Errorf("Policies = %q, want the access policy too", got)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeRanger(t, "query_tag")
			f.add(t, maskPolicy("query", "ssn_mask", "orders", "ssn", "engineer", "MASK_NULL"))
			f.setRole("engineer", "bob")
			c := newClock()
			s := newStore(t, f, c)
			first := snapshot(t, s)
			tc.change(t, f)
			c.advance(ttl + time.Second)
			second := snapshot(t, s)
			if changed := second.Version != first.Version; changed != tc.changed {
				t.Fatalf("version %d -> %d, want changed = %v", first.Version, second.Version, tc.changed)
			}
			if !tc.changed && second != first {
				t.Errorf("unchanged policies gave a new snapshot")
			}
			if tc.check != nil {
				tc.check(t, second)
			}
			// Revalidated with nothing new: the version stays.
			c.advance(ttl + time.Second)
			if third := snapshot(t, s); third.Version != second.Version || third != second {
				t.Errorf("version %d -> %d with nothing changed", second.Version, third.Version)
			}
		})
	}
}

func TestOutageAfterTTLIsAnErrorUntilRecovery(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	f.add(t, maskPolicy("query", "ssn_mask", "orders", "ssn", "engineer", "MASK_NULL"))
	c := newClock()
	s := newStore(t, f, c)
	first := snapshot(t, s)
	f.set(func(f *fakeRanger) { f.down = true })

	c.advance(ttl / 2)
	if got := snapshot(t, s); got != first {
		t.Fatalf("within the TTL an outage is not seen: got %p, want %p", got, first)
	}
	c.advance(ttl)
	for range 2 {
		snap, err := s.Snapshot(context.Background())
		if err == nil || snap != nil {
			t.Fatalf("after the TTL with Ranger down: %v, %v; want an error", snap, err)
		}
		if sqlstate(err) != codeSystemError || !strings.Contains(err.Error(), "Ranger Admin") || strings.Contains(err.Error(), "html") {
			t.Errorf("error = %v (%s), want 58000 naming Ranger Admin without the answer's page", err, sqlstate(err))
		}
	}
	f.set(func(f *fakeRanger) { f.down = false })
	if got := snapshot(t, s); got != first {
		t.Errorf("on recovery got %p version %d, want the unchanged %p version %d", got, got.Version, first, first.Version)
	}
}

func TestUnreachableRangerAdmin(t *testing.T) {
	gone := httptest.NewServer(nil)
	gone.Close()
	s, err := New(Config{URL: gone.URL, ServiceName: "query", AdminUser: "admin", AdminPassword: "s3cret-pw", Now: newClock().now, ProjectTags: true})
	if err != nil {
		t.Fatal(err)
	}
	for what, call := range map[string]func() error{
		"Snapshot": func() error { _, err := s.Snapshot(context.Background()); return err },
		"ProjectColumnTags": func() error {
			return s.ProjectColumnTags(context.Background(), "acdemo", "orders", map[string][]string{"ssn": {"PII"}})
		},
	} {
		err := call()
		if sqlstate(err) != codeSystemError || !strings.Contains(err.Error(), "Ranger Admin is unreachable") {
			t.Errorf("%s: error = %v (%s), want 58000: Ranger Admin unreachable", what, err, sqlstate(err))
			continue
		}
		// The address is for the server log, not the client.
		if strings.Contains(err.Error(), gone.URL) || !strings.Contains(errors.Unwrap(err).Error(), gone.URL) {
			t.Errorf("%s: message %q, cause %q: want the address in the cause only", what, err, errors.Unwrap(err))
		}
	}
}

func TestConcurrentSnapshotsShareOneDownload(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	c := newClock()
	s := newStore(t, f, c)
	first := snapshot(t, s)
	f.add(t, maskPolicy("query", "ssn_mask", "orders", "ssn", "engineer", "MASK_NULL"))
	c.advance(ttl + time.Second)
	hold := make(chan struct{})
	f.set(func(f *fakeRanger) { f.hold, f.holdOn = hold, "/policies/download/" })

	const callers = 8
	snaps := make([]*policy.Snapshot, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() { snaps[i], errs[i] = s.Snapshot(context.Background()) })
	}
	// A caller that gives up does not disturb the others.
	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan error)
	go func() {
		_, err := s.Snapshot(ctx)
		gaveUp <- err
	}()
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled caller: %v, want context.Canceled", err)
	}
	time.Sleep(50 * time.Millisecond) // let the callers queue behind the held download
	close(hold)
	wg.Wait()
	for i := range callers {
		if errs[i] != nil || snaps[i] != snaps[0] || snaps[i] == first {
			t.Fatalf("caller %d: %p, %v; want the one new snapshot %p", i, snaps[i], errs[i], snaps[0])
		}
	}
	if got := f.downloads(); len(got) != 4 {
		t.Errorf("downloads = %q, want one policy and one role download after the first", got)
	}
}

func TestFlushMakesTheNextSnapshotRevalidate(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	s := newStore(t, f, newClock())
	first := snapshot(t, s)
	s.Flush()
	if again := snapshot(t, s); again != first {
		t.Errorf("revalidation after a flush with nothing changed gave a new snapshot")
	}
	if got := f.downloads(); len(got) != 4 {
		t.Errorf("downloads = %q, want a revalidation right after the flush", got)
	}
}

// A refresh under way when a write flushes may have read the policies
// before the write: a caller arriving after the flush waits for a newer
// one rather than share it.
func TestFlushDuringRefreshIsNotMissed(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	c := newClock()
	s := newStore(t, f, c)
	snapshot(t, s)
	c.advance(ttl + time.Second)
	hold := make(chan struct{})
	f.set(func(f *fakeRanger) { f.hold, f.holdOn = hold, "/roles/" })

	early := make(chan *policy.Snapshot)
	go func() { early <- snapshot(t, s) }()
	waitFor(t, func() bool { return len(f.downloads()) == 3 }) // its policy download is done, its role download held
	f.add(t, maskPolicy("query", "ssn_mask", "orders", "ssn", "engineer", "MASK_NULL"))
	s.Flush()
	late := make(chan *policy.Snapshot)
	go func() { late <- snapshot(t, s) }()
	time.Sleep(50 * time.Millisecond) // let it queue behind the held refresh
	close(hold)

	if got := names((<-early).Policies); len(got) != 0 {
		t.Errorf("early caller sees %q, want the policies from before the write", got)
	}
	if got := names((<-late).Policies); !slices.Equal(got, []string{"ssn_mask"}) {
		t.Errorf("caller after the flush sees %q, want the written policy", got)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
	}
}

func TestSecurityZonesFailClosed(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	f.set(func(f *fakeRanger) {
		f.zones = map[string]any{"finance": map[string]any{"resources": []any{map[string]any{"database": []any{"finance"}}}, "policies": []any{}}}
	})
	_, err := newStore(t, f, newClock()).Snapshot(context.Background())
	if sqlstate(err) != pgerror.FeatureNotSupported || !strings.Contains(err.Error(), "security zones") {
		t.Errorf("error = %v, want 0A000 naming security zones", err)
	}
}
