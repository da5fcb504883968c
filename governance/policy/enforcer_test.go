package policy

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// memStore is a Store in memory; err, when set, is what Snapshot fails
// with.
type memStore struct {
	snap Snapshot
	err  error
}

func newMemStore(t *testing.T, policies ...ranger.Policy) *memStore {
	t.Helper()
	hive, tag, err := serviceDefs()
	if err != nil {
		t.Fatal(err)
	}
	m := &memStore{snap: Snapshot{Version: 1, ServiceDef: hive, TagServiceDef: tag}}
	for _, p := range policies {
		if err := m.PutPolicy(context.Background(), p, true); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func (m *memStore) Snapshot(context.Context) (*Snapshot, error) {
	if m.err != nil {
		return nil, m.err
	}
	s := m.snap
	return &s, nil
}

func (m *memStore) PutPolicy(_ context.Context, p ranger.Policy, _ bool) error {
	p.ID = int64(len(m.snap.Policies) + len(m.snap.TagPolicies) + 1)
	if IsTagPolicy(&p) {
		m.snap.TagPolicies = append(m.snap.TagPolicies, p)
	} else {
		m.snap.Policies = append(m.snap.Policies, p)
	}
	m.snap.Version++
	return nil
}

func (m *memStore) DropPolicy(context.Context, string) (bool, error) { return false, nil }

func (m *memStore) EditPolicy(context.Context, string, PolicyEdit) error {
	return errors.New("the memory store does not edit policies")
}

func (m *memStore) Engine() string { return "memory" }

// fakeTable is a planner.TaggedTable that is never scanned.
type fakeTable struct {
	name    planner.TableName
	cols    []planner.TableColumn
	tags    map[int][]string
	tagsErr error
}

func (f *fakeTable) QualifiedName() planner.TableName      { return f.name }
func (f *fakeTable) OID() uint32                           { return 16400 }
func (f *fakeTable) Columns() []planner.TableColumn        { return f.cols }
func (f *fakeTable) RowEstimate() int64                    { return -1 }
func (f *fakeTable) ColumnTags() (map[int][]string, error) { return f.tags, f.tagsErr }
func (f *fakeTable) Scan(context.Context, []int, iceberg.BooleanExpression) (planner.RecordStream, error) {
	return nil, errors.New("not scanned in these tests")
}

func ordersTable() *fakeTable {
	return &fakeTable{
		name: planner.TableName{Catalog: "sales_wh", Schema: "acdemo", Name: "orders"},
		cols: []planner.TableColumn{{Name: "id", Type: types.Int8}, {Name: "region", Type: types.Text}, {Name: "ssn", Type: types.Text}},
	}
}

func maskPolicy(t *testing.T, name string, target Target, grantees []Grantee, maskType, custom string) ranger.Policy {
	t.Helper()
	p, err := ColumnMask(name, target, grantees, maskType, custom)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func filterPolicy(t *testing.T, name string, target Target, grantees []Grantee, expr string) ranger.Policy {
	t.Helper()
	p, err := RowFilter(name, target, grantees, expr)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var (
	engineer = []Grantee{{Kind: grants.GranteeRole, Name: "engineer"}}
	bob      = auth.Identity{User: "bob", Roles: []string{"analyst", "engineer"}}
	alice    = auth.Identity{User: "alice", Roles: []string{"analyst"}}
	orders   = Target{Database: "acdemo", Table: "orders"}
	ssnCol   = Target{Database: "acdemo", Table: "orders", Column: "ssn"}
)

// TestSecureAppliesPolicies: what each caller gets of acdemo.orders
// under a set of policies.
func TestSecureAppliesPolicies(t *testing.T) {
	tests := []struct {
		name       string
		policies   func(t *testing.T) []ranger.Policy
		precedence string
		who        auth.Identity
		tags       map[int][]string
		wantMasks  map[int]string
		wantRows   []string
	}{
		{name: "no policy", policies: func(*testing.T) []ranger.Policy { return nil }, who: bob},
		{name: "the demo for an engineer", who: bob,
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{
					maskPolicy(t, "m", ssnCol, engineer, "MASK_SHOW_LAST_4", ""),
					filterPolicy(t, "f", orders, engineer, "region = 'EU'"),
				}
			},
			wantMasks: map[int]string{2: "mask_show_last_n"}, wantRows: []string{"region = 'EU'"}},
		{name: "the demo for an analyst", who: alice,
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{
					maskPolicy(t, "m", ssnCol, engineer, "MASK_SHOW_LAST_4", ""),
					filterPolicy(t, "f", orders, engineer, "region = 'EU'"),
				}
			}},
		{name: "filters from a resource and a tag policy AND together, session functions folded", who: bob,
			tags: map[int][]string{2: {"PII"}},
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{
					filterPolicy(t, "f", orders, engineer, "region = current_user()"),
					filterPolicy(t, "tf", Target{Tag: "PII"}, engineer, "is_role_in_session('analyst')"),
				}
			},
			wantRows: []string{"true", "region = 'bob'"}},
		{name: "a group grantee matches the token's groups", who: auth.Identity{User: "erin", Groups: []string{"eu-team"}},
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{filterPolicy(t, "f", orders, []Grantee{{Kind: grants.GranteeGroup, Name: "eu-team"}}, "region = 'EU'")}
			},
			wantRows: []string{"region = 'EU'"}},
		{name: "a tag mask beats a resource mask by default", who: bob, tags: map[int][]string{2: {"PII"}},
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{
					maskPolicy(t, "m", ssnCol, engineer, "MASK_SHOW_LAST_4", ""),
					maskPolicy(t, "tm", Target{Tag: "PII"}, engineer, "MASK_HASH", ""),
				}
			},
			wantMasks: map[int]string{2: "mask_hash"}},
		{name: "a resource mask beats a tag mask on request", who: bob, tags: map[int][]string{2: {"PII"}}, precedence: "resource",
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{
					maskPolicy(t, "m", ssnCol, engineer, "MASK_SHOW_LAST_4", ""),
					maskPolicy(t, "tm", Target{Tag: "PII"}, engineer, "MASK_HASH", ""),
				}
			},
			wantMasks: map[int]string{2: "mask_show_last_n"}},
		{name: "MASK_NONE exempts", who: bob,
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{maskPolicy(t, "m", ssnCol, engineer, "MASK_NONE", "")}
			}},
		{name: "a mask of another component nulls the column", who: bob, tags: map[int][]string{2: {"PII"}},
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{maskPolicy(t, "tm", Target{Tag: "PII"}, engineer, "trino:MASK_NULL", "")}
			},
			wantMasks: map[int]string{2: "NULL"}},
		{name: "a CUSTOM mask without an expression nulls the column", who: bob,
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{maskPolicy(t, "m", ssnCol, engineer, "CUSTOM", "")}
			},
			wantMasks: map[int]string{2: "NULL"}},
		{name: "a tag with no policy leaves the column raw", who: bob, tags: map[int][]string{2: {"PII"}},
			policies: func(*testing.T) []ranger.Policy { return nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := NewEnforcer(Config{Store: newMemStore(t, tt.policies(t)...), MaskPrecedence: tt.precedence})
			tbl := ordersTable()
			tbl.tags = tt.tags
			rel, err := e.SecurityFor(tt.who).Secure(context.Background(), tbl)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rel.Visible, []int{0, 1, 2}) {
				t.Errorf("visible %v", rel.Visible)
			}
			if len(rel.Masks) != len(tt.wantMasks) {
				t.Errorf("masks %v, want %v", rel.Masks, tt.wantMasks)
			}
			for i, want := range tt.wantMasks {
				if !strings.Contains(rel.Masks[i], want) {
					t.Errorf("mask of column %d = %q, want it to use %s", i, rel.Masks[i], want)
				}
			}
			if !slices.Equal(rel.RowFilters, tt.wantRows) {
				t.Errorf("row filters %q, want %q", rel.RowFilters, tt.wantRows)
			}
		})
	}
}

// TestSecureRestrictsDeniedColumns: an access policy's explicit denial
// of a column removes it from the caller's relation, whatever mask
// applies; columns no access policy decides stay.
func TestSecureRestrictsDeniedColumns(t *testing.T) {
	deny := ranger.Policy{Name: "no_ssn", PolicyType: ranger.PolicyTypeAccess,
		Resources: map[string]ranger.PolicyResource{
			"database": {Values: []string{"acdemo"}}, "table": {Values: []string{"orders"}}, "column": {Values: []string{"ssn"}}},
		DenyPolicyItems: []ranger.PolicyItem{{Accesses: []ranger.PolicyItemAccess{{Type: "select"}}, Roles: []string{"engineer"}}}}
	store := newMemStore(t, deny, maskPolicy(t, "m", ssnCol, engineer, "MASK_SHOW_LAST_4", ""))
	e := NewEnforcer(Config{Store: store})
	for _, tt := range []struct {
		who       auth.Identity
		visible   []int
		wantMasks int
	}{
		{bob, []int{0, 1}, 0},
		{alice, []int{0, 1, 2}, 0},
		{auth.Identity{User: "erin", Roles: []string{"engineer"}}, []int{0, 1}, 0},
	} {
		rel, err := e.SecurityFor(tt.who).Secure(context.Background(), ordersTable())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rel.Visible, tt.visible) || len(rel.Masks) != tt.wantMasks {
			t.Errorf("%s: visible %v masks %v, want %v and %d masks", tt.who.User, rel.Visible, rel.Masks, tt.visible, tt.wantMasks)
		}
	}
}

// TestSecureFailsClosed: what keeps gate two from knowing the policies
// admits no row (spec/002's fail-closed table).
func TestSecureFailsClosed(t *testing.T) {
	tests := []struct {
		name  string
		setup func(m *memStore, tbl *fakeTable)
	}{
		{"policy store unreachable", func(m *memStore, _ *fakeTable) { m.err = errors.New("connection refused") }},
		{"tag state unknown", func(_ *memStore, tbl *fakeTable) { tbl.tagsErr = errors.New("unreadable sqe.column-tags") }},
		{"table not mappable to a policy key", func(_ *memStore, tbl *fakeTable) { tbl.name.Schema = "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMemStore(t, maskPolicy(t, "m", ssnCol, engineer, "MASK_SHOW_LAST_4", ""))
			tbl := ordersTable()
			tt.setup(m, tbl)
			rel, err := NewEnforcer(Config{Store: m}).SecurityFor(bob).Secure(context.Background(), tbl)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rel.RowFilters, []string{"false"}) || len(rel.Masks) != 0 {
				t.Errorf("relation %+v, want no rows", rel)
			}
		})
	}
}

// TestEnforcerRecompilesOnNewVersion: a policy written after the first
// query applies to the next.
func TestEnforcerRecompilesOnNewVersion(t *testing.T) {
	m := newMemStore(t)
	e := NewEnforcer(Config{Store: m})
	sec := e.SecurityFor(bob)
	if rel, _ := sec.Secure(context.Background(), ordersTable()); len(rel.RowFilters) != 0 {
		t.Fatalf("filters before any policy: %v", rel.RowFilters)
	}
	if err := m.PutPolicy(context.Background(), filterPolicy(t, "f", orders, engineer, "id > 1"), false); err != nil {
		t.Fatal(err)
	}
	if rel, _ := sec.Secure(context.Background(), ordersTable()); !slices.Equal(rel.RowFilters, []string{"id > 1"}) {
		t.Fatalf("filters after the policy: %v", rel.RowFilters)
	}
}
