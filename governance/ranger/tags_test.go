package ranger

import (
	"encoding/json"
	"testing"
)

// tagStore is a tag download: PII on hr.emp.ssn, FINANCE on the table
// fin.ledger, EXPIRED (expired) on old.t.
const tagStore = `{
  "serviceName": "hive",
  "tags": {
    "1": {"type": "PII"},
    "2": {"type": "FINANCE"},
    "3": {"type": "EXPIRED", "attributes": {"expiry_date": "2015/08/10"}}
  },
  "serviceResources": [
    {"id": 1, "resourceElements": {"database": {"values": ["hr"]}, "table": {"values": ["emp"]}, "column": {"values": ["ssn"]}}},
    {"id": 2, "resourceElements": {"database": {"values": ["fin"]}, "table": {"values": ["ledger"]}}},
    {"id": 3, "resourceElements": {"database": {"values": ["old"]}, "table": {"values": ["t"]}}}
  ],
  "resourceToTagIds": {"1": [1], "2": [2], "3": [3]}
}`

func tagEvaluator(t *testing.T, resourcePolicies, tagPolicies string) *Evaluator {
	t.Helper()
	var st ServiceTags
	if err := json.Unmarshal([]byte(tagStore), &st); err != nil {
		t.Fatal(err)
	}
	return mustNew(t, Config{
		ServiceDef:    serviceDef(t, "hive"),
		Policies:      policies(t, resourcePolicies),
		TagServiceDef: serviceDef(t, "tag"),
		TagPolicies:   policies(t, tagPolicies),
		ServiceTags:   &st,
	})
}

// Rule 6: tags first. A tag deny stands unless a resource policy of
// strictly higher priority decides; a tag allow still yields to a resource
// deny of the same or higher priority.
func TestTagsBeforeResources(t *testing.T) {
	e := tagEvaluator(t, `[
	  {"id":1,"name":"hr open","resources":{"database":{"values":["hr"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	   "policyItems":[{"accesses":[{"type":"select"}],"groups":["public"]}],
	   "denyPolicyItems":[{"accesses":[{"type":"select"}],"users":["mallory"]}]},
	  {"id":2,"name":"hr override for auditors","policyPriority":1,"resources":{"database":{"values":["hr"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	   "policyItems":[{"accesses":[{"type":"select"}],"users":["auditor"]}]},
	  {"id":3,"name":"fin deny eve","resources":{"database":{"values":["fin"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	   "denyPolicyItems":[{"accesses":[{"type":"select"}],"users":["eve"]}]},
	  {"id":4,"name":"fin override deny","policyPriority":1,"resources":{"database":{"values":["fin"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	   "denyPolicyItems":[{"accesses":[{"type":"select"}],"users":["frank"]}]}
	]`, `[
	  {"id":101,"name":"PII deny","resources":{"tag":{"values":["PII"]}},
	   "denyPolicyItems":[{"accesses":[{"type":"hive:select"}],"groups":["public"]}],
	   "denyExceptions":[{"accesses":[{"type":"hive:select"}],"users":["hr_admin"]}]},
	  {"id":102,"name":"FINANCE allow","resources":{"tag":{"values":["FINANCE"]}},
	   "policyItems":[{"accesses":[{"type":"hive:select"}],"users":["eve","gina"]},{"accesses":[{"type":"hive:all"}],"users":["cfo"]},{"accesses":[{"type":"kafka:publish"}],"users":["hank"]}]},
	  {"id":103,"name":"FINANCE override","policyPriority":1,"resources":{"tag":{"values":["FINANCE"]}},
	   "policyItems":[{"accesses":[{"type":"hive:select"}],"users":["frank"]}]},
	  {"id":104,"name":"EXPIRED","resources":{"tag":{"values":["EXPIRED"]}},
	   "denyPolicyItems":[{"accesses":[{"type":"hive:select"}],"groups":["public"],"conditions":[{"type":"accessed-after-expiry","values":["yes"]}]}]}
	]`)
	tests := []struct {
		name     string
		user     string
		access   string
		res      Resource
		want     bool
		policyID int64
		byTag    bool
	}{
		{"tag deny beats a resource allow of equal priority", "ann", "select", column("hr", "emp", "ssn"), false, 101, true},
		{"untagged column: the resource allow", "ann", "select", column("hr", "emp", "name"), true, 1, false},
		{"a deny exception lets the resource allow through", "hr_admin", "select", column("hr", "emp", "ssn"), true, 1, false},
		{"a higher-priority resource allow beats the tag deny", "auditor", "select", column("hr", "emp", "ssn"), true, 2, false},
		{"tag allow on the table reaches its columns", "gina", "select", column("fin", "ledger", "amount"), true, 102, true},
		{"tag allow yields to a resource deny of equal priority", "eve", "select", column("fin", "ledger", "amount"), false, 3, false},
		{"an OVERRIDE resource deny beats an OVERRIDE tag allow", "frank", "select", column("fin", "ledger"), false, 4, false},
		{"tag hive:all implies select (from the hive definition)", "cfo", "select", column("fin", "ledger"), true, 102, true},
		{"another component's access type grants nothing", "hank", "", column("fin", "ledger"), false, -1, false},
		{"a tag on a column does not decide select on the table", "ann", "select", column("hr", "emp"), true, 1, false},
		{"condition: accessed after expiry", "ann", "select", column("old", "t"), false, 104, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := e.IsAccessAllowed(ask(tc.user, nil, tc.access, tc.res))
			if got.Allowed != tc.want || got.PolicyID != tc.policyID || got.ByTag != tc.byTag {
				t.Errorf("got allowed=%v policy=%d byTag=%v, want allowed=%v policy=%d byTag=%v",
					got.Allowed, got.PolicyID, got.ByTag, tc.want, tc.policyID, tc.byTag)
			}
		})
	}
}

// A tag on a descendant counts only for any-access, where its allow does.
func TestDescendantTags(t *testing.T) {
	e := tagEvaluator(t, `[]`, `[{"id":1,"name":"PII readers","resources":{"tag":{"values":["PII"]}},
	  "policyItems":[{"accesses":[{"type":"hive:select"}],"users":["u"]}]}]`)
	if !e.IsAccessAllowed(ask("u", nil, "", column("hr", "emp"))).Allowed {
		t.Error("any access to hr.emp: the PII tag on hr.emp.ssn should allow it")
	}
	if e.IsAccessAllowed(ask("u", nil, "select", column("hr", "emp"))).Allowed {
		t.Error("select on hr.emp: a tag on one column must not allow the table")
	}
	if !e.IsAccessAllowed(ask("u", nil, "select", column("hr", "emp", "ssn"))).Allowed {
		t.Error("select on the tagged column")
	}
}

// Tags brought by the request replace the tag store, even when empty.
func TestRequestTags(t *testing.T) {
	e := tagEvaluator(t, `[]`, `[{"id":1,"name":"PII readers","resources":{"tag":{"values":["PII"]}},
	  "policyItems":[{"accesses":[{"type":"hive:select"}],"users":["u"]}]}]`)
	tests := []struct {
		name string
		tags []ResourceTag
		res  Resource
		want bool
	}{
		{"given tag", []ResourceTag{{Type: "PII"}}, column("x", "y", "z"), true},
		{"given tag on a descendant", []ResourceTag{{Type: "PII", MatchType: MatchDescendant}}, column("x", "y", "z"), false},
		{"tag types are case sensitive", []ResourceTag{{Type: "pii"}}, column("x", "y", "z"), false},
		{"no tags: the store is not consulted", []ResourceTag{}, column("hr", "emp", "ssn"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := ask("u", nil, "select", tc.res)
			req.Tags, req.TagsGiven = tc.tags, true
			if got := e.IsAccessAllowed(req).Allowed; got != tc.want {
				t.Errorf("allowed = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestComponentAccessType(t *testing.T) {
	norm := componentAccessType("hive")
	tests := []struct {
		in, want string
		keep     bool
	}{
		{"hive:select", "select", true},
		{"hive:MASK_HASH", "MASK_HASH", true},
		{"kafka:publish", "", false},
		{"select", "select", true},
	}
	for _, tc := range tests {
		got, keep := norm(tc.in)
		if got != tc.want || keep != tc.keep {
			t.Errorf("%s: got %q %v, want %q %v", tc.in, got, keep, tc.want, tc.keep)
		}
	}
}
