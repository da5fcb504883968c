package rangerstore

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// projectingStore is a store with [policy.ranger] project_tags set.
func projectingStore(t *testing.T, f *fakeRanger, c *clock) *Store {
	t.Helper()
	s, err := New(Config{URL: f.server.URL, ServiceName: f.service, AdminUser: f.user, AdminPassword: f.password,
		CacheTTL: ttl, Now: c.now, ProjectTags: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tagWrites are the tag store imports the fake served.
func tagWrites(f *fakeRanger) []string {
	var out []string
	for _, r := range f.requests() {
		if strings.HasPrefix(r, "PUT importservicetags") {
			out = append(out, r)
		}
	}
	return out
}

// othersTagged are resources tagged in Ranger's console that are not
// acdemo.orders' column resources: another table's column, a table of the
// same name in another database, the table itself, and a wildcard column.
var othersTagged = map[string][]string{
	"acdemo.customers.email": {"PII"},
	"sales.orders.ssn":       {"PII"},
	"acdemo.orders":          {"CONFIDENTIAL"},
	"acdemo.orders.*":        {"INTERNAL"},
}

func TestProjectColumnTags(t *testing.T) {
	for _, tc := range []struct {
		name    string
		before  map[string][]string // acdemo.orders' columns as tagged in the console
		project map[string][]string
		// want is acdemo.orders' column resources afterwards.
		want       map[string][]string
		wantWrites []string
	}{
		{name: "first projection", project: map[string][]string{"ssn": {"PII", "SENSITIVE"}, "region": {"GEO"}},
			want:       map[string][]string{"ssn": {"PII", "SENSITIVE"}, "region": {"GEO"}},
			wantWrites: []string{"PUT importservicetags add_or_update"}},
		{name: "duplicate and unsorted tags", project: map[string][]string{"ssn": {"SENSITIVE", "PII", "PII"}},
			want:       map[string][]string{"ssn": {"PII", "SENSITIVE"}},
			wantWrites: []string{"PUT importservicetags add_or_update"}},
		{name: "tag removed", before: map[string][]string{"ssn": {"PII", "SENSITIVE"}, "region": {"GEO"}},
			project:    map[string][]string{"ssn": {"PII"}, "region": {"GEO"}},
			want:       map[string][]string{"ssn": {"PII"}, "region": {"GEO"}},
			wantWrites: []string{"PUT importservicetags add_or_update"}},
		{name: "tag added", before: map[string][]string{"ssn": {"PII"}},
			project:    map[string][]string{"ssn": {"PII", "SENSITIVE"}},
			want:       map[string][]string{"ssn": {"PII", "SENSITIVE"}},
			wantWrites: []string{"PUT importservicetags add_or_update"}},
		{name: "unchanged", before: map[string][]string{"ssn": {"PII"}},
			project:    map[string][]string{"ssn": {"PII"}},
			want:       map[string][]string{"ssn": {"PII"}},
			wantWrites: []string{"PUT importservicetags add_or_update"}},
		{name: "column untagged", before: map[string][]string{"ssn": {"PII"}, "region": {"GEO"}},
			project:    map[string][]string{"ssn": {"PII"}, "region": {}},
			want:       map[string][]string{"ssn": {"PII"}},
			wantWrites: []string{"PUT importservicetags add_or_update", "PUT importservicetags delete"}},
		{name: "column tagged only in the console", before: map[string][]string{"notes": {"LEGACY"}},
			project:    map[string][]string{"ssn": {"PII"}},
			want:       map[string][]string{"ssn": {"PII"}},
			wantWrites: []string{"PUT importservicetags add_or_update", "PUT importservicetags delete"}},
		{name: "every column untagged", before: map[string][]string{"ssn": {"PII"}},
			project:    map[string][]string{},
			want:       map[string][]string{},
			wantWrites: []string{"PUT importservicetags add_or_update", "PUT importservicetags delete"}},
		{name: "column named in another case", before: map[string][]string{"SSN": {"PII"}},
			project:    map[string][]string{"ssn": {"PII"}},
			want:       map[string][]string{"ssn": {"PII"}},
			wantWrites: []string{"PUT importservicetags add_or_update", "PUT importservicetags delete"}},
		{name: "resource of two columns", before: map[string][]string{"ssn,region": {"PII"}},
			project:    map[string][]string{"ssn": {"PII"}},
			want:       map[string][]string{"ssn": {"PII"}},
			wantWrites: []string{"PUT importservicetags add_or_update", "PUT importservicetags delete"}},
		{name: "nothing tagged, nothing wanted", project: map[string][]string{"ssn": nil}, want: map[string][]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeRanger(t, "query_tag")
			for name, tags := range othersTagged {
				f.tagResource(name, tags...)
			}
			for column, tags := range tc.before {
				f.tagResource("acdemo.orders."+column, tags...)
			}
			if err := projectingStore(t, f, newClock()).ProjectColumnTags(context.Background(), "acdemo", "orders", tc.project); err != nil {
				t.Fatal(err)
			}
			want := maps.Clone(othersTagged)
			for column, tags := range tc.want {
				want["acdemo.orders."+column] = tags
			}
			if got := f.taggedResources(); !maps.EqualFunc(got, want, slices.Equal) {
				t.Errorf("tag store holds %v, want %v", got, want)
			}
			if got := tagWrites(f); !slices.Equal(got, tc.wantWrites) {
				t.Errorf("imports = %q, want %q", got, tc.wantWrites)
			}
		})
	}
}

// Tag definitions are created when missing and reused when present.
func TestProjectColumnTagsCreatesMissingTagDefs(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	f.tagResource("acdemo.customers.email", "PII")
	pii := f.tagDefs()["PII"]
	cols := map[string][]string{"ssn": {"PII", "SENSITIVE"}, "region": {"GEO"}}
	if err := projectingStore(t, f, newClock()).ProjectColumnTags(context.Background(), "acdemo", "orders", cols); err != nil {
		t.Fatal(err)
	}
	defs := f.tagDefs()
	if got := slices.Sorted(maps.Keys(defs)); !slices.Equal(got, []string{"GEO", "PII", "SENSITIVE"}) {
		t.Errorf("tag definitions = %q, want GEO, PII and SENSITIVE", got)
	}
	if defs["PII"] != pii {
		t.Errorf("PII's definition is %d, want the existing %d", defs["PII"], pii)
	}
}

// Removing one tag removes its map and keeps every other map as it was,
// so Ranger's tag store moves no more than the change.
func TestProjectColumnTagsRemovesExactlyTheDroppedMap(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	f.tagResource("acdemo.customers.email", "PII")
	s := projectingStore(t, f, newClock())
	ctx := context.Background()
	if err := s.ProjectColumnTags(ctx, "acdemo", "orders", map[string][]string{"ssn": {"PII", "SENSITIVE"}, "region": {"GEO"}}); err != nil {
		t.Fatal(err)
	}
	before := f.tagMaps()
	if err := s.ProjectColumnTags(ctx, "acdemo", "orders", map[string][]string{"ssn": {"PII"}, "region": {"GEO"}}); err != nil {
		t.Fatal(err)
	}
	want := maps.Clone(before)
	maps.DeleteFunc(want, func(_ int64, m string) bool { return m == "acdemo.orders.ssn=SENSITIVE" })
	if len(want) != len(before)-1 {
		t.Fatalf("first projection left maps %v, want one for acdemo.orders.ssn=SENSITIVE", before)
	}
	if got := f.tagMaps(); !maps.Equal(got, want) {
		t.Errorf("maps = %v, want %v", got, want)
	}
}

func TestProjectColumnTagsDisabledSendsNothing(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	err := newStore(t, f, newClock()).ProjectColumnTags(context.Background(), "acdemo", "orders", map[string][]string{"ssn": {"PII"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.requests(); len(got) != 0 {
		t.Errorf("requests = %q, want none", got)
	}
}

func TestProjectColumnTagsFlushesTheCache(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	s := projectingStore(t, f, newClock())
	snapshot(t, s)
	before := len(f.downloads())
	if err := s.ProjectColumnTags(context.Background(), "acdemo", "orders", map[string][]string{"ssn": {"PII"}}); err != nil {
		t.Fatal(err)
	}
	snapshot(t, s)
	if got := f.downloads()[before:]; len(got) != 2 {
		t.Errorf("downloads after projecting = %q, want the policies and roles asked for again within the TTL", got)
	}
}

// Names Ranger would read as something else are refused before any
// request.
func TestProjectColumnTagsRefusesNames(t *testing.T) {
	for _, tc := range []struct {
		name            string
		database, table string
		columns         map[string][]string
		code            string
	}{
		{name: "wildcard column", database: "acdemo", table: "orders", columns: map[string][]string{"ss*": {"PII"}}, code: pgerror.FeatureNotSupported},
		{name: "wildcard table", database: "acdemo", table: "ord?rs", columns: map[string][]string{"ssn": {"PII"}}, code: pgerror.FeatureNotSupported},
		{name: "empty database", table: "orders", columns: map[string][]string{"ssn": {"PII"}}, code: pgerror.InvalidParameterValue},
		{name: "empty tag", database: "acdemo", table: "orders", columns: map[string][]string{"ssn": {""}}, code: pgerror.InvalidParameterValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeRanger(t, "query_tag")
			err := projectingStore(t, f, newClock()).ProjectColumnTags(context.Background(), tc.database, tc.table, tc.columns)
			if sqlstate(err) != tc.code {
				t.Errorf("error = %v (%s), want SQLSTATE %s", err, sqlstate(err), tc.code)
			}
			if got := f.requests(); len(got) != 0 {
				t.Errorf("requests = %q, want none", got)
			}
		})
	}
}
