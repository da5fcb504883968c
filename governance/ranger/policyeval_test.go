package ranger

import (
	"testing"
	"time"
)

// Rule 4: inside one access policy, deny items (unless excepted) come
// first, then allow items (unless excepted), then isDenyAllElse.
func TestInsidePolicy(t *testing.T) {
	e := hive(t, `[
	  {"id":1,"name":"p","resources":{"database":{"values":["db"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	   "policyItems":[{"accesses":[{"type":"select"},{"type":"update"}],"groups":["staff"]}],
	   "allowExceptions":[{"accesses":[{"type":"update"}],"users":["intern"]}],
	   "denyPolicyItems":[{"accesses":[{"type":"select"}],"groups":["contractors"]}],
	   "denyExceptions":[{"accesses":[{"type":"select"}],"users":["trusted"]}]},
	  {"id":2,"name":"deny all else","isDenyAllElse":true,"resources":{"database":{"values":["locked"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	   "policyItems":[{"accesses":[{"type":"select"}],"users":["owner"]}]}
	]`)
	tests := []struct {
		name     string
		user     string
		groups   []string
		access   string
		res      Resource
		want     bool
		policyID int64
	}{
		{"allowed by an allow item", "ann", []string{"staff"}, "select", column("db", "t"), true, 1},
		{"the allow exception removes update", "intern", []string{"staff"}, "update", column("db", "t"), false, -1},
		{"the allow exception leaves select", "intern", []string{"staff"}, "select", column("db", "t"), true, 1},
		{"a deny item beats the allow item", "carl", []string{"staff", "contractors"}, "select", column("db", "t"), false, 1},
		{"a deny exception cancels the deny", "trusted", []string{"staff", "contractors"}, "select", column("db", "t"), true, 1},
		{"a deny exception grants nothing by itself", "trusted", []string{"contractors"}, "select", column("db", "t"), false, -1},
		{"an allow exception denies nothing by itself", "intern", nil, "select", column("db", "t"), false, -1},
		{"deny-all-else allows what it lists", "owner", nil, "select", column("locked", "t"), true, 2},
		{"deny-all-else denies the rest", "owner", nil, "update", column("locked", "t"), false, 2},
		{"deny-all-else denies everyone else", "ann", nil, "select", column("locked", "t"), false, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := e.IsAccessAllowed(ask(tc.user, tc.groups, tc.access, tc.res))
			if got.Allowed != tc.want || got.PolicyID != tc.policyID {
				t.Errorf("got allowed=%v policy=%d, want allowed=%v policy=%d", got.Allowed, got.PolicyID, tc.want, tc.policyID)
			}
		})
	}
}

// A deny item does not deny on a descendant match (the caller may still
// reach something below), and isDenyAllElse does not deny a request that
// names no resource.
func TestDenyOnDescendants(t *testing.T) {
	e := hive(t, `[
	  {"id":1,"name":"deny one table","resources":{"database":{"values":["db"]},"table":{"values":["secret"]},"column":{"values":["*"]}},
	   "denyPolicyItems":[{"accesses":[{"type":"select"}],"users":["u"]}]},
	  {"id":2,"name":"allow db","resources":{"database":{"values":["db"]},"table":{"values":["open"]},"column":{"values":["*"]}},
	   "policyItems":[{"accesses":[{"type":"select"}],"users":["u"]}]},
	  {"id":3,"name":"deny all else","isDenyAllElse":true,"resources":{"database":{"values":["other"]}},"policyItems":[]}
	]`)
	if !e.IsAccessAllowed(ask("u", nil, "", column("db"))).Allowed {
		t.Error("any access to db: the deny on one table should not hide the database")
	}
	if e.IsAccessAllowed(ask("u", nil, "select", column("db", "secret"))).Allowed {
		t.Error("select on the denied table was allowed")
	}
	if !e.IsAccessAllowed(ask("u", nil, "", Resource{})).Allowed {
		t.Error("any access to nothing in particular: deny-all-else of another database should not apply")
	}
}

// The hidden servicedef option turns deny items and exceptions off.
func TestDenyAndExceptionsOption(t *testing.T) {
	def := serviceDef(t, "hive")
	def.Options = StringMap{"enableDenyAndExceptionsInPolicies": "false"}
	e := mustNew(t, Config{ServiceDef: def, Policies: policies(t, `[{"id":1,"name":"p","resources":{"database":{"values":["db"]}},
	  "policyItems":[{"accesses":[{"type":"select"}],"users":["u"]}],
	  "denyPolicyItems":[{"accesses":[{"type":"select"}],"users":["u"]}]}]`)})
	if !e.IsAccessAllowed(ask("u", nil, "select", column("db"))).Allowed {
		t.Error("deny items should be ignored when the option is false")
	}
}

// Rule 5: across policies the highest priority with a decision wins and,
// at that priority, a deny beats an allow; nothing decided is denied.
func TestAcrossPolicies(t *testing.T) {
	e := mustNew(t, Config{
		ServiceDef:  serviceDef(t, "hive"),
		SuperUsers:  []string{"root"},
		SuperGroups: []string{"admins"},
		Policies: policies(t, `[
	  {"id":1,"name":"allow analysts","resources":{"database":{"values":["db"]}},"policyItems":[{"accesses":[{"type":"select"}],"groups":["analysts"]}]},
	  {"id":2,"name":"deny bob","resources":{"database":{"values":["db"]}},"denyPolicyItems":[{"accesses":[{"type":"select"}],"users":["bob"]}]},
	  {"id":3,"name":"override for carol","policyPriority":1,"resources":{"database":{"values":["db"]}},"policyItems":[{"accesses":[{"type":"select"}],"users":["carol"]}]},
	  {"id":4,"name":"deny carol","resources":{"database":{"values":["db"]}},"denyPolicyItems":[{"accesses":[{"type":"select"}],"users":["carol"]}]},
	  {"id":5,"name":"override deny dave","policyPriority":1,"resources":{"database":{"values":["db"]}},"denyPolicyItems":[{"accesses":[{"type":"select"}],"users":["dave"]}]},
	  {"id":6,"name":"disabled","isEnabled":false,"resources":{"database":{"values":["db"]}},"policyItems":[{"accesses":[{"type":"select"}],"users":["erin"]}]}
	]`)})
	tests := []struct {
		name     string
		user     string
		groups   []string
		want     bool
		policyID int64
	}{
		{"allowed", "ann", []string{"analysts"}, true, 1},
		{"deny beats allow at the same priority", "bob", []string{"analysts"}, false, 2},
		{"an OVERRIDE allow beats a NORMAL deny", "carol", nil, true, 3},
		{"an OVERRIDE deny beats a NORMAL allow", "dave", []string{"analysts"}, false, 5},
		{"a disabled policy grants nothing", "erin", nil, false, -1},
		{"nothing decides: denied", "frank", nil, false, -1},
		{"super user", "root", nil, true, -1},
		{"super group, even when denied", "bob", []string{"admins"}, true, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := e.IsAccessAllowed(ask(tc.user, tc.groups, "select", column("db")))
			if got.Allowed != tc.want || got.PolicyID != tc.policyID {
				t.Errorf("got allowed=%v policy=%d, want allowed=%v policy=%d", got.Allowed, got.PolicyID, tc.want, tc.policyID)
			}
		})
	}
}

// Several access types at once: all must be allowed, or one with AnyOf.
// Any-access is allowed when some access type is.
func TestSeveralAccessTypes(t *testing.T) {
	e := hive(t, `[{"id":1,"name":"p","resources":{"database":{"values":["db"]}},
	  "policyItems":[{"accesses":[{"type":"select"},{"type":"update"}],"users":["u"]}],
	  "denyPolicyItems":[{"accesses":[{"type":"update"}],"users":["v"]}]},
	  {"id":2,"name":"q","resources":{"database":{"values":["db"]}},"policyItems":[{"accesses":[{"type":"update"}],"users":["v"]}]}]`)
	tests := []struct {
		name  string
		user  string
		types []string
		anyOf bool
		want  bool
	}{
		{"all allowed", "u", []string{"select", "update"}, false, true},
		{"one missing", "u", []string{"select", "drop"}, false, false},
		{"one of them", "u", []string{"drop", "select"}, true, true},
		{"none of them", "u", []string{"drop", "alter"}, true, false},
		{"unknown type among them", "u", []string{"select", "fly"}, false, false},
		{"denied one", "v", []string{"update"}, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := &Request{Resource: column("db"), AccessTypes: tc.types, AnyOf: tc.anyOf, User: tc.user}
			if got := e.IsAccessAllowed(req).Allowed; got != tc.want {
				t.Errorf("allowed = %v, want %v", got, tc.want)
			}
		})
	}
	if e.IsAccessAllowed(ask("v", nil, "", column("db"))).Allowed {
		t.Error("any access for v: update is denied and nothing else is allowed")
	}
	if !e.IsAccessAllowed(ask("u", nil, "", column("db"))).Allowed {
		t.Error("any access for u: select is allowed")
	}
}

// Rule 9: a request is audited when an applicable policy audits, whatever
// the decision.
func TestAudit(t *testing.T) {
	e := hive(t, `[
	  {"id":1,"name":"audit everything in db","resources":{"database":{"values":["db"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	   "policyItems":[{"accesses":[],"groups":["public"]}]},
	  {"id":2,"name":"quiet","isAuditEnabled":false,"resources":{"database":{"values":["quiet"]}},"policyItems":[{"accesses":[{"type":"select"}],"users":["u"]}]}
	]`)
	tests := []struct {
		name                 string
		access               string
		res                  Resource
		allowed, wantAudited bool
	}{
		{"denied and audited", "select", column("db", "t"), false, true},
		{"allowed and not audited", "select", column("quiet"), true, false},
		{"nothing applies", "select", column("else"), false, false},
		{"a descendant match audits any-access", "", column("db"), false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := e.IsAccessAllowed(ask("u", nil, tc.access, tc.res))
			if got.Allowed != tc.allowed || got.Audited != tc.wantAudited {
				t.Errorf("got allowed=%v audited=%v, want allowed=%v audited=%v", got.Allowed, got.Audited, tc.allowed, tc.wantAudited)
			}
		})
	}
}

// A policy applies only within its validity schedule, both ends included.
func TestValiditySchedule(t *testing.T) {
	e := hive(t, `[{"id":1,"name":"p","resources":{"database":{"values":["db"]}},
	  "validitySchedules":[{"startTime":"2030/01/01 00:00:00","endTime":"2030/02/01 00:00:00","timeZone":"UTC"}],
	  "policyItems":[{"accesses":[{"type":"select"}],"users":["u"]}]}]`)
	tests := []struct {
		at   string
		want bool
	}{
		{"2029-12-31T23:59:59Z", false},
		{"2030-01-01T00:00:00Z", true},
		{"2030-01-31T12:00:00Z", true},
		// Ranger's end time is inclusive (accessTime <= endTime).
		{"2030-02-01T00:00:00Z", true},
		{"2030-02-01T00:00:01Z", false},
	}
	for _, tc := range tests {
		at, err := time.Parse(time.RFC3339, tc.at)
		if err != nil {
			t.Fatal(err)
		}
		req := ask("u", nil, "select", column("db"))
		req.AccessTime = at
		if got := e.IsAccessAllowed(req).Allowed; got != tc.want {
			t.Errorf("at %s: allowed = %v, want %v", tc.at, got, tc.want)
		}
	}
}
