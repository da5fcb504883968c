package ranger

import "testing"

// Rule 3: an item matches by who, by access type (or what it implies)
// and by its conditions; an item without accesses never matches.
func TestItemMatch(t *testing.T) {
	def := serviceDef(t, "hive")
	def.PolicyConditions = []PolicyConditionDef{{Name: "expression", Evaluator: "org.apache.ranger.plugin.conditionevaluator.RangerScriptConditionEvaluator"}}
	e := mustNew(t, Config{ServiceDef: def, Policies: policies(t, `[
	  {"id":1,"name":"items","resources":{"database":{"values":["db"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	   "policyItems":[
	     {"accesses":[{"type":"select"}],"users":["alice"]},
	     {"accesses":[{"type":"update"}],"groups":["writers"]},
	     {"accesses":[{"type":"create"}],"roles":["creators"]},
	     {"accesses":[{"type":"drop"}],"users":["{OWNER}"]},
	     {"accesses":[{"type":"all"}],"users":["root"]},
	     {"accesses":[{"type":"lock"}],"users":["{USER}"]},
	     {"accesses":[{"type":"index"}],"groups":["public"]},
	     {"accesses":[{"type":"alter","isAllowed":false}],"users":["alice"]},
	     {"accesses":[],"users":["auditor"]},
	     {"accesses":[{"type":"refresh"}],"users":["ops"],"conditions":[{"type":"expression","values":["USER.team == 'ops'"]}]}
	   ]}
	]`)})
	tests := []struct {
		name   string
		req    *Request
		access string
		want   bool
	}{
		{"listed user", &Request{User: "alice"}, "select", true},
		{"listed user, other access", &Request{User: "alice"}, "update", false},
		{"user names are case sensitive", &Request{User: "Alice"}, "select", false},
		{"group member", &Request{User: "bob", Groups: []string{"writers"}}, "update", true},
		{"role from the request", &Request{User: "carol", Roles: []string{"creators"}}, "create", true},
		{"owner", &Request{User: "dave", Owner: "dave"}, "drop", true},
		{"not the owner", &Request{User: "dave", Owner: "erin"}, "drop", false},
		{"all implies select", &Request{User: "root"}, "select", true},
		{"all implies refresh", &Request{User: "root"}, "refresh", true},
		{"all does not imply tempudfadmin", &Request{User: "root"}, "tempudfadmin", false},
		{"{USER} is everyone", &Request{User: "zed"}, "lock", true},
		{"public is everyone", &Request{User: "zed"}, "index", true},
		{"an access with isAllowed false grants nothing", &Request{User: "alice"}, "alter", false},
		{"an item without accesses grants nothing", &Request{User: "auditor"}, "select", false},
		{"condition holds", &Request{User: "ops", UserAttributes: map[string]string{"team": "ops"}}, "refresh", true},
		{"condition fails", &Request{User: "ops", UserAttributes: map[string]string{"team": "dev"}}, "refresh", false},
		{"unknown access type", &Request{User: "root"}, "fly", false},
		{"access types ignore case", &Request{User: "alice"}, "SELECT", true},
		{"admin access needs delegateAdmin", &Request{User: "root"}, AdminAccess, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Resource, tc.req.AccessType = column("db", "t", "c"), tc.access
			if got := e.IsAccessAllowed(tc.req).Allowed; got != tc.want {
				t.Errorf("allowed = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDelegateAdmin(t *testing.T) {
	e := hive(t, `[{"id":1,"name":"p","resources":{"database":{"values":["db"]}},
	  "policyItems":[{"accesses":[{"type":"select"}],"users":["admin"],"delegateAdmin":true},{"accesses":[{"type":"select"}],"users":["u"]}]}]`)
	for user, want := range map[string]bool{"admin": true, "u": false} {
		if got := e.IsAccessAllowed(ask(user, nil, AdminAccess, column("db"))).Allowed; got != want {
			t.Errorf("%s: admin access = %v, want %v", user, got, want)
		}
	}
}

// Rule 10: roles come from the role set, for the user or one of the user's
// groups, followed through role-in-role membership.
func TestRoles(t *testing.T) {
	roles := &Roles{RangerRoles: []Role{
		{Name: "analyst", Users: []RoleMember{{Name: "alice"}}, Roles: []RoleMember{{Name: "engineer"}}},
		{Name: "engineer", Users: []RoleMember{{Name: "bob"}}, Groups: []RoleMember{{Name: "eng"}}},
		{Name: "reader", Roles: []RoleMember{{Name: "analyst"}}},
		{Name: "everyone", Groups: []RoleMember{{Name: "public"}}},
		{Name: "cycle_a", Roles: []RoleMember{{Name: "cycle_b"}}, Users: []RoleMember{{Name: "erin"}}},
		{Name: "cycle_b", Roles: []RoleMember{{Name: "cycle_a"}}},
	}}
	e := mustNew(t, Config{ServiceDef: serviceDef(t, "hive"), Roles: roles, Policies: policies(t, `[
	  {"id":1,"name":"by role","resources":{"database":{"values":["db"]}},"policyItems":[
	    {"accesses":[{"type":"select"}],"roles":["reader"]},
	    {"accesses":[{"type":"update"}],"roles":["engineer"]},
	    {"accesses":[{"type":"lock"}],"roles":["everyone"]},
	    {"accesses":[{"type":"drop"}],"roles":["cycle_b"]}]}
	]`)})
	tests := []struct {
		name   string
		req    *Request
		access string
		want   bool
	}{
		{"user in a role inside the granted role", &Request{User: "alice"}, "select", true},
		{"two levels down", &Request{User: "bob"}, "select", true},
		{"through a group", &Request{User: "carl", Groups: []string{"eng"}}, "select", true},
		{"a role does not include its parents", &Request{User: "alice"}, "update", false},
		{"a role granted to public", &Request{User: "nobody"}, "lock", true},
		{"no role", &Request{User: "nobody"}, "select", false},
		{"roles in a cycle", &Request{User: "erin"}, "drop", true},
		{"a role from the token is followed too", &Request{User: "x", Roles: []string{"engineer"}}, "select", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Resource, tc.req.AccessType = column("db"), tc.access
			if got := e.IsAccessAllowed(tc.req).Allowed; got != tc.want {
				t.Errorf("allowed = %v, want %v", got, tc.want)
			}
		})
	}
}
