package policy

import (
	"context"
	"slices"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/ranger"
)

// TestSecureReadsClientAddress: a row filter whose items hold IP-range
// conditions (a Ranger administrator's "ip-range" condition, defined in
// the service definition) is decided by the address the caller connected
// from, and fails closed for a caller without one.
func TestSecureReadsClientAddress(t *testing.T) {
	inRange := func(values ...string) []ranger.PolicyItemCondition {
		return []ranger.PolicyItemCondition{{Type: "ip-range", Values: values}}
	}
	p := filterPolicy(t, "by_office", orders, engineer, "region = 'EU'")
	office := p.RowFilterPolicyItems[0]
	office.Conditions = inRange("10.1.*")
	loopback := office
	loopback.Conditions = inRange("127.0.0.0/8", "::1")
	loopback.RowFilterInfo.FilterExpr = "id > 1"
	p.RowFilterPolicyItems = []ranger.RowFilterPolicyItem{office, loopback}

	m := newMemStore(t, p)
	m.snap.ServiceDef.PolicyConditions = append(slices.Clone(m.snap.ServiceDef.PolicyConditions),
		ranger.PolicyConditionDef{ItemID: 100, Name: "ip-range", Evaluator: "org.apache.ranger.plugin.conditionevaluator.RangerIpMatcher"})
	e := NewEnforcer(Config{Store: m})
	for _, tc := range []struct {
		addr string
		want []string
	}{
		{"10.1.4.7", []string{"region = 'EU'"}},
		{"127.0.0.1", []string{"id > 1"}},
		{"::1", []string{"id > 1"}},
		// No item holds: Ranger applies no filter of this policy.
		{"192.0.2.1", nil},
		// A Unix-socket client has no address: the conditions cannot be
		// decided, and the table admits no row.
		{"", []string{"false"}},
	} {
		id := auth.Identity{User: bob.User, Roles: bob.Roles, ClientAddr: tc.addr}
		rel, err := e.SecurityFor(id).Secure(context.Background(), ordersTable())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rel.RowFilters, tc.want) {
			t.Errorf("from %q: row filters %q, want %q", tc.addr, rel.RowFilters, tc.want)
		}
	}
}
