package ranger

import "testing"

// A zone's resources are decided by the zone's policies only; the rest by
// the service's; any-access on an ancestor tries the zones below it.
func TestSecurityZones(t *testing.T) {
	e := mustNew(t, Config{
		ServiceDef: serviceDef(t, "hive"),
		Policies: policies(t, `[{"id":1,"name":"everyone reads","resources":{"database":{"values":["*"]},"table":{"values":["*"]},"column":{"values":["*"]}},
		  "policyItems":[{"accesses":[{"type":"select"}],"groups":["public"]}]}]`),
		SecurityZones: map[string]SecurityZoneInfo{"finance": {
			ZoneName:  "finance",
			Resources: []map[string][]string{{"database": {"fin"}, "table": {"*"}, "column": {"*"}}},
			Policies: policies(t, `[{"id":2,"name":"analysts","zoneName":"finance","resources":{"database":{"values":["fin"]},"table":{"values":["*"]},"column":{"values":["*"]}},
			  "policyItems":[{"accesses":[{"type":"select"}],"users":["ann"]}]}]`),
		}},
	})
	tests := []struct {
		name   string
		user   string
		access string
		res    Resource
		want   bool
	}{
		{"outside the zone, the service's policy", "bob", "select", column("sales", "t", "c"), true},
		{"inside the zone the service's policy does not apply", "bob", "select", column("fin", "t", "c"), false},
		{"inside the zone, the zone's policy", "ann", "select", column("fin", "t", "c"), true},
		{"the zone's policy does not reach outside it", "ann", "select", column("sales", "t", "c"), true},
		{"any access on the zone's database", "ann", "", column("fin"), true},
		{"any access on the zone's database, no grant", "bob", "", column("fin"), false},
	}
	for _, tc := range tests {
		if got := e.IsAccessAllowed(ask(tc.user, nil, tc.access, tc.res)).Allowed; got != tc.want {
			t.Errorf("%s: allowed = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestApplyPolicyDeltas(t *testing.T) {
	base := policies(t, `[{"id":1,"name":"a","serviceType":"hive"},{"id":2,"name":"b","serviceType":"hive"}]`)
	deltas := []PolicyDelta{
		{ChangeType: DeltaPolicyUpdate, Policy: Policy{ID: 1, Name: "a2", ServiceType: "hive"}},
		{ChangeType: DeltaPolicyDelete, Policy: Policy{ID: 2, ServiceType: "hive"}},
		{ChangeType: DeltaPolicyCreate, Policy: Policy{ID: 3, Name: "c", ServiceType: "hive"}},
		{ChangeType: DeltaPolicyCreate, Policy: Policy{ID: 4, Name: "tag", ServiceType: "tag"}},
	}
	got, err := ApplyPolicyDeltas(base, deltas, "hive")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got {
		names = append(names, p.Name)
	}
	if len(names) != 2 || names[0] != "a2" || names[1] != "c" {
		t.Errorf("policies after deltas = %v, want [a2 c]", names)
	}
	if base[0].Name != "a" || len(base) != 2 {
		t.Errorf("the input changed: %v", base)
	}
	if _, err := ApplyPolicyDeltas(base, []PolicyDelta{{ChangeType: 7}}, "hive"); err == nil {
		t.Error("a change type that is not a policy change was accepted")
	}
}
