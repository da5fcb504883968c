package policy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
)

// TestExplainNamesTheDecidingPolicies: per column the access, the mask
// and the policy (resource or tag) behind it, and each row filter with
// its policy, for the same evaluation Secure makes.
func TestExplainNamesTheDecidingPolicies(t *testing.T) {
	pii := Target{Tag: "PII"}
	tests := []struct {
		name     string
		policies func(t *testing.T) []ranger.Policy
		who      auth.Identity
		tags     map[int][]string
		// columns are "name access mask_type policy tag", rows "expression
		// policy tag", each part "-" when empty.
		columns []string
		rows    []string
	}{
		{name: "no policy", who: bob, policies: func(*testing.T) []ranger.Policy { return nil },
			columns: []string{"id raw - - -", "region raw - - -", "ssn raw - - -"}},
		{name: "the demo for an engineer", who: bob,
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{
					filterPolicy(t, "acdemo_rowfilter_eu", orders, engineer, "region = 'EU'"),
					maskPolicy(t, "acdemo_mask_ssn", ssnCol, engineer, "MASK_SHOW_LAST_4", ""),
				}
			},
			columns: []string{"id raw - - -", "region raw - - -", "ssn masked MASK_SHOW_LAST_4 acdemo_mask_ssn -"},
			rows:    []string{"region_=_'EU' acdemo_rowfilter_eu -"}},
		{name: "the demo for an analyst", who: alice,
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{
					filterPolicy(t, "acdemo_rowfilter_eu", orders, engineer, "region = 'EU'"),
					maskPolicy(t, "acdemo_mask_ssn", ssnCol, engineer, "MASK_SHOW_LAST_4", ""),
				}
			},
			columns: []string{"id raw - - -", "region raw - - -", "ssn raw - - -"}},
		{name: "a tag mask and a tag filter name their tag; ids interleave across services", who: bob,
			tags: map[int][]string{1: {"GEO"}, 2: {"PII"}},
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{
					maskPolicy(t, "resource_ssn", ssnCol, engineer, "MASK_SHOW_LAST_4", ""),
					maskPolicy(t, "pii_hash", pii, engineer, "MASK_HASH", ""),
					filterPolicy(t, "geo_rows", Target{Tag: "GEO"}, engineer, "current_user() = 'bob'"),
					filterPolicy(t, "eu_rows", orders, engineer, "region = 'EU'"),
				}
			},
			columns: []string{"id raw - - -", "region raw - - -", "ssn masked MASK_HASH pii_hash PII"},
			rows:    []string{"'bob'_=_'bob' geo_rows GEO", "region_=_'EU' eu_rows -"}},
		{name: "MASK_NONE exempts, and says by which policy", who: bob,
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{maskPolicy(t, "ssn_exempt", ssnCol, engineer, "MASK_NONE", "")}
			},
			columns: []string{"id raw - - -", "region raw - - -", "ssn raw MASK_NONE ssn_exempt -"}},
		{name: "an item without an expression admits every row", who: bob,
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{filterPolicy(t, "all_rows", orders, engineer, "")}
			},
			columns: []string{"id raw - - -", "region raw - - -", "ssn raw - - -"},
			rows:    []string{"- all_rows -"}},
		{name: "a group grantee matches the caller's groups", who: auth.Identity{User: "erin", Groups: []string{"eu-team"}},
			policies: func(t *testing.T) []ranger.Policy {
				return []ranger.Policy{filterPolicy(t, "eu_team", orders, []Grantee{{Kind: grants.GranteeGroup, Name: "eu-team"}}, "region = 'EU'")}
			},
			columns: []string{"id raw - - -", "region raw - - -", "ssn raw - - -"},
			rows:    []string{"region_=_'EU' eu_team -"}},
	}
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return strings.ReplaceAll(s, " ", "_")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := NewEnforcer(Config{Store: newMemStore(t, tt.policies(t)...)})
			tbl := ordersTable()
			tbl.tags = tt.tags
			x := e.Explain(context.Background(), tt.who, tbl)
			if x.NoRows != "" || x.Store != "memory" {
				t.Errorf("store %q, no rows %q", x.Store, x.NoRows)
			}
			var cols, rows []string
			for _, c := range x.Columns {
				cols = append(cols, fmt.Sprintf("%s %s %s %s %s", c.Name, c.Access, dash(c.MaskType), dash(c.Decider.Policy), dash(c.Decider.Tag)))
			}
			for _, f := range x.RowFilters {
				rows = append(rows, fmt.Sprintf("%s %s %s", dash(f.Expression), dash(f.Decider.Policy), dash(f.Decider.Tag)))
			}
			if !slices.Equal(cols, tt.columns) {
				t.Errorf("columns\n got %q\nwant %q", cols, tt.columns)
			}
			if !slices.Equal(rows, tt.rows) {
				t.Errorf("row filters\n got %q\nwant %q", rows, tt.rows)
			}
			assertExplainsSecure(t, e, tt.who, tbl, x)
		})
	}
}

// assertExplainsSecure checks that x describes the relation Secure gives:
// the same masks and the same filters.
func assertExplainsSecure(t *testing.T, e *Enforcer, who auth.Identity, tbl *fakeTable, x *Explanation) {
	t.Helper()
	rel, err := e.SecurityFor(who).Secure(context.Background(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range x.Columns {
		expr, masked := rel.Masks[i]
		if masked != (c.Access == AccessMasked) || expr != c.Expression {
			t.Errorf("column %s: explained %s %q, secured mask %q", c.Name, c.Access, c.Expression, expr)
		}
	}
	var applied []string
	for _, f := range x.RowFilters {
		if f.Expression != "" {
			applied = append(applied, f.Expression)
		}
	}
	if x.NoRows != "" {
		applied = []string{"false"}
	}
	if !slices.Equal(applied, rel.RowFilters) {
		t.Errorf("explained filters %q, secured %q", applied, rel.RowFilters)
	}
}

// TestExplainFailsClosed: what keeps gate two from knowing the policies
// is reported as such, and a mask that cannot be built says why the
// column is NULL.
func TestExplainFailsClosed(t *testing.T) {
	tests := []struct {
		name  string
		setup func(m *memStore, tbl *fakeTable)
		want  string
	}{
		{"policy store unreachable", func(m *memStore, _ *fakeTable) { m.err = errors.New("connection refused") },
			"policy store unreachable: connection refused"},
		{"tag state unknown", func(_ *memStore, tbl *fakeTable) { tbl.tagsErr = errors.New("unreadable sqe.column-tags") },
			"column tags unknown: unreadable sqe.column-tags"},
		{"table not mappable to a policy key", func(_ *memStore, tbl *fakeTable) { tbl.name.Schema = "" },
			"table has no policy key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMemStore(t, maskPolicy(t, "m", ssnCol, engineer, "MASK_SHOW_LAST_4", ""))
			tbl := ordersTable()
			tt.setup(m, tbl)
			e := NewEnforcer(Config{Store: m})
			x := e.Explain(context.Background(), bob, tbl)
			if x.NoRows != tt.want || len(x.RowFilters) != 0 {
				t.Errorf("no rows %q, filters %v; want %q", x.NoRows, x.RowFilters, tt.want)
			}
			assertExplainsSecure(t, e, bob, tbl, x)
		})
	}

	t.Run("a mask that cannot be built", func(t *testing.T) {
		m := newMemStore(t, maskPolicy(t, "custom_ssn", ssnCol, engineer, "CUSTOM", ""))
		e := NewEnforcer(Config{Store: m})
		x := e.Explain(context.Background(), bob, ordersTable())
		ssn := x.Columns[2]
		if ssn.Access != AccessMasked || ssn.Expression != "NULL" || ssn.Failure == "" || ssn.Decider.Policy != "custom_ssn" {
			t.Errorf("ssn explained as %+v", ssn)
		}
		assertExplainsSecure(t, e, bob, ordersTable(), x)
	})
}

// TestExplainRolesFromTheRoleDownload: a store's roles (Ranger's role
// download) reach the caller, who has none in its identity, and decide.
func TestExplainRolesFromTheRoleDownload(t *testing.T) {
	m := newMemStore(t, filterPolicy(t, "eu", orders, engineer, "is_role_in_session('engineer')"))
	m.snap.Roles = &ranger.Roles{RangerRoles: []ranger.Role{{Name: "engineer", Users: []ranger.RoleMember{{Name: "frank"}}}}}
	e := NewEnforcer(Config{Store: m})
	x := e.Explain(context.Background(), auth.Identity{User: "frank"}, ordersTable())
	if !slices.Equal(x.Roles, []string{"engineer"}) {
		t.Errorf("roles %q, want engineer", x.Roles)
	}
	if len(x.RowFilters) != 1 || x.RowFilters[0].Expression != "true" || x.RowFilters[0].Decider.Policy != "eu" {
		t.Errorf("row filters %+v", x.RowFilters)
	}
}

// TestExplainNamesTheRestrictingPolicy: a column an access policy denies
// is hidden, and the explanation names the policy that denied it.
func TestExplainNamesTheRestrictingPolicy(t *testing.T) {
	deny := ranger.Policy{Name: "no_ssn", PolicyType: ranger.PolicyTypeAccess,
		Resources: map[string]ranger.PolicyResource{
			"database": {Values: []string{"acdemo"}}, "table": {Values: []string{"orders"}}, "column": {Values: []string{"ssn"}}},
		DenyPolicyItems: []ranger.PolicyItem{{Accesses: []ranger.PolicyItemAccess{{Type: "select"}}, Roles: []string{"engineer"}}}}
	e := NewEnforcer(Config{Store: newMemStore(t, maskPolicy(t, "m", ssnCol, engineer, "MASK_SHOW_LAST_4", ""), deny)})
	ex := e.Explain(context.Background(), bob, ordersTable())
	ssn := ex.Columns[2]
	if ssn.Access != AccessHidden || ssn.Decider.Policy != "no_ssn" {
		t.Fatalf("ssn: %+v, want hidden by no_ssn", ssn)
	}
}
