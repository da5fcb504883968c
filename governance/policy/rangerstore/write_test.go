package rangerstore

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Policies as SQE's CREATE POLICY builds them.

func rowFilter(name, expr string) ranger.Policy {
	return ranger.Policy{Name: name, PolicyType: ranger.PolicyTypeRowFilter,
		Resources: map[string]ranger.PolicyResource{"database": {Values: []string{"acdemo"}}, "table": {Values: []string{"orders"}}},
		RowFilterPolicyItems: []ranger.RowFilterPolicyItem{{
			PolicyItem:    ranger.PolicyItem{Accesses: []ranger.PolicyItemAccess{{Type: "select"}}, Roles: []string{"engineer"}},
			RowFilterInfo: ranger.RowFilterInfo{FilterExpr: expr}}}}
}

func tagMask(name, tag string) ranger.Policy {
	return ranger.Policy{Name: name, PolicyType: ranger.PolicyTypeDataMask,
		Resources: map[string]ranger.PolicyResource{"tag": {Values: []string{tag}}},
		DataMaskPolicyItems: []ranger.DataMaskPolicyItem{{
			PolicyItem:   ranger.PolicyItem{Accesses: []ranger.PolicyItemAccess{{Type: "select"}}, Roles: []string{"engineer"}},
			DataMaskInfo: ranger.DataMaskInfo{DataMaskType: "hive:MASK_SHOW_LAST_4"}}}}
}

// writes are the policy writes the fake served.
func writes(f *fakeRanger) []string {
	var out []string
	for _, r := range f.requests() {
		if strings.HasPrefix(r, "POST ") || strings.HasPrefix(r, "PUT ") || strings.HasPrefix(r, "DELETE ") {
			out = append(out, r)
		}
	}
	return out
}

func filterOf(p map[string]any) any {
	return p["rowFilterPolicyItems"].([]any)[0].(map[string]any)["rowFilterInfo"].(map[string]any)["filterExpr"]
}

func TestPutPolicyRoutesByKind(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	s := newStore(t, f, newClock())
	ctx := context.Background()
	if err := s.PutPolicy(ctx, rowFilter("eu_rows", "region = 'EU'"), false); err != nil {
		t.Fatal(err)
	}
	if err := s.PutPolicy(ctx, tagMask("pii_mask", "PII"), false); err != nil {
		t.Fatal(err)
	}
	if got, want := writes(f), []string{"POST query/eu_rows", "POST query_tag/pii_mask"}; !slices.Equal(got, want) {
		t.Errorf("writes = %q, want %q", got, want)
	}
	if p := f.policy("query", "eu_rows"); p == nil || filterOf(p) != "region = 'EU'" {
		t.Errorf("hive service holds %v, want the row filter", p)
	}
	snap := snapshot(t, s)
	if got := names(snap.Policies); !slices.Equal(got, []string{"eu_rows"}) {
		t.Errorf("Policies = %q", got)
	}
	if got := names(snap.TagPolicies); !slices.Equal(got, []string{"pii_mask"}) {
		t.Errorf("TagPolicies = %q", got)
	}
}

func TestTagPolicyNeedsALinkedTagService(t *testing.T) {
	f := newFakeRanger(t, "")
	err := newStore(t, f, newClock()).PutPolicy(context.Background(), tagMask("pii_mask", "PII"), false)
	if sqlstate(err) != pgerror.ObjectNotInPrerequisiteState || !strings.Contains(err.Error(), "no linked tag service") {
		t.Errorf("error = %v, want 55000: no linked tag service", err)
	}
	if got := writes(f); len(got) != 0 {
		t.Errorf("writes = %q, want none", got)
	}
}

// SQE's own write is seen by the next Snapshot, without waiting for the
// TTL.
func TestWritesFlushTheCache(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	s := newStore(t, f, newClock())
	ctx := context.Background()
	first := snapshot(t, s)
	if err := s.PutPolicy(ctx, rowFilter("eu_rows", "region = 'EU'"), false); err != nil {
		t.Fatal(err)
	}
	afterPut := snapshot(t, s)
	if got := names(afterPut.Policies); afterPut.Version == first.Version || !slices.Equal(got, []string{"eu_rows"}) {
		t.Errorf("after PutPolicy: version %d -> %d, policies %q; want the new policy at once", first.Version, afterPut.Version, got)
	}
	if _, err := s.DropPolicy(ctx, "eu_rows"); err != nil {
		t.Fatal(err)
	}
	if afterDrop := snapshot(t, s); afterDrop.Version == afterPut.Version || len(afterDrop.Policies) != 0 {
		t.Errorf("after DropPolicy: policies %q; want none at once", names(afterDrop.Policies))
	}
}

func TestPutPolicyDuplicateAndReplace(t *testing.T) {
	for _, tc := range []struct {
		name       string
		existing   map[string]any // in the fake before the write
		put        ranger.Policy
		replace    bool
		code       string
		wantWrites []string
		check      func(t *testing.T, f *fakeRanger)
	}{
		{name: "create", put: rowFilter("eu_rows", "region = 'EU'"),
			wantWrites: []string{"POST query/eu_rows"}},
		{name: "existing name without replace", existing: rowFilterPolicy("query", "eu_rows", "orders", "engineer", "region = 'US'"),
			put: rowFilter("eu_rows", "region = 'EU'"), code: pgerror.DuplicateObject,
			check: func(t *testing.T, f *fakeRanger) {
				if got := filterOf(f.policy("query", "eu_rows")); got != "region = 'US'" {
					t.Errorf("filter = %v, want the existing one untouched", got)
				}
			}},
		{name: "existing name with replace", existing: rowFilterPolicy("query", "eu_rows", "orders", "engineer", "region = 'US'"),
			put: rowFilter("eu_rows", "region = 'EU'"), replace: true, wantWrites: []string{"PUT query/eu_rows"},
			check: func(t *testing.T, f *fakeRanger) {
				p := f.policy("query", "eu_rows")
				if got := filterOf(p); got != "region = 'EU'" || p["id"] != float64(1) || p["version"] != float64(2) {
					t.Errorf("policy = id %v version %v filter %v, want policy 1 updated to the new filter", p["id"], p["version"], got)
				}
			}},
		{name: "replace without an existing policy", put: rowFilter("eu_rows", "region = 'EU'"), replace: true,
			wantWrites: []string{"POST query/eu_rows"}},
		{name: "name taken in the tag service", existing: tagMaskPolicy("query_tag", "eu_rows", "PII", "engineer"),
			put: rowFilter("eu_rows", "region = 'EU'"), code: pgerror.DuplicateObject},
		{name: "replace moves a policy between services", existing: rowFilterPolicy("query", "pii_mask", "orders", "engineer", "true"),
			put: tagMask("pii_mask", "PII"), replace: true,
			wantWrites: []string{"POST query_tag/pii_mask", "DELETE query/pii_mask"},
			check: func(t *testing.T, f *fakeRanger) {
				if f.policy("query", "pii_mask") != nil || f.policy("query_tag", "pii_mask") == nil {
					t.Errorf("policy not moved to the tag service")
				}
			}},
		{name: "other name on the same resources", existing: rowFilterPolicy("query", "us_rows", "orders", "analyst", "region = 'US'"),
			put: rowFilter("eu_rows", "region = 'EU'"), code: pgerror.DuplicateObject,
			wantWrites: []string{"POST query/eu_rows"},
			check: func(t *testing.T, f *fakeRanger) {
				if f.policy("query", "eu_rows") != nil {
					t.Errorf("refused policy stored")
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeRanger(t, "query_tag")
			if tc.existing != nil {
				f.add(t, tc.existing)
			}
			err := newStore(t, f, newClock()).PutPolicy(context.Background(), tc.put, tc.replace)
			if sqlstate(err) != tc.code || (tc.code == "") != (err == nil) {
				t.Fatalf("error = %v (%s), want SQLSTATE %q", err, sqlstate(err), tc.code)
			}
			if got := writes(f); !slices.Equal(got, tc.wantWrites) {
				t.Errorf("writes = %q, want %q", got, tc.wantWrites)
			}
			if tc.check != nil {
				tc.check(t, f)
			}
		})
	}
}

func TestDropPolicy(t *testing.T) {
	for _, tc := range []struct {
		name       string
		drop       string
		existed    bool
		wantWrites []string
	}{
		{name: "hive policy", drop: "eu_rows", existed: true, wantWrites: []string{"DELETE query/eu_rows"}},
		{name: "tag policy", drop: "pii_mask", existed: true, wantWrites: []string{"DELETE query_tag/pii_mask"}},
		{name: "no such policy", drop: "nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeRanger(t, "query_tag")
			f.add(t, rowFilterPolicy("query", "eu_rows", "orders", "engineer", "region = 'EU'"))
			f.add(t, tagMaskPolicy("query_tag", "pii_mask", "PII", "engineer"))
			existed, err := newStore(t, f, newClock()).DropPolicy(context.Background(), tc.drop)
			if err != nil || existed != tc.existed {
				t.Fatalf("DropPolicy = %v, %v; want %v", existed, err, tc.existed)
			}
			if got := writes(f); !slices.Equal(got, tc.wantWrites) {
				t.Errorf("writes = %q, want %q", got, tc.wantWrites)
			}
			if f.policy("query", tc.drop) != nil || f.policy("query_tag", tc.drop) != nil {
				t.Errorf("policy %s still stored", tc.drop)
			}
		})
	}
}
