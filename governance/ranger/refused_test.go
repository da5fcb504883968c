package ranger

import (
	"strings"
	"testing"
)

// A policy whose conditions or schedules SQE cannot evaluate is refused
// when the evaluator is built: listed with its id and why, and failing
// closed wherever it applies, whoever asks and whatever its items say.
func TestRefusedPolicy(t *testing.T) {
	def := serviceDef(t, "hive")
	def.PolicyConditions = append(def.PolicyConditions,
		PolicyConditionDef{Name: "time-of-day", Evaluator: "org.apache.ranger.plugin.conditionevaluator.RangerTimeOfDayMatcher"},
		PolicyConditionDef{Name: "from-cluster", Evaluator: "org.apache.ranger.plugin.conditionevaluator.RangerAccessedFromClusterCondition"},
		PolicyConditionDef{Name: "expression", Evaluator: "org.apache.ranger.plugin.conditionevaluator.RangerScriptConditionEvaluator"})
	allowAll := `"policyItems":[{"accesses":[{"type":"select"}],"groups":["public"]}]`
	tests := []struct {
		name, policy, reason string
	}{
		{"undefined condition type", `{"id":7,"name":"p","resources":{"database":{"values":["hr"]},"table":{"values":["*"]},"column":{"values":["*"]}},` +
			`"policyItems":[{"accesses":[{"type":"select"}],"users":["u"],"conditions":[{"type":"ip-range","values":["10.*"]}]}]}`, "not defined by the service definition"},
		{"evaluator SQE lacks", `{"id":7,"name":"p","resources":{"database":{"values":["hr"]},"table":{"values":["*"]},"column":{"values":["*"]}},` +
			`"denyPolicyItems":[{"accesses":[{"type":"select"}],"users":["u"],"conditions":[{"type":"from-cluster","values":["c1"]}]}]}`, "RangerAccessedFromClusterCondition is not supported"},
		{"time of day Ranger would skip", `{"id":7,"name":"p","resources":{"database":{"values":["hr"]},"table":{"values":["*"]},"column":{"values":["*"]}},` +
			`"denyPolicyItems":[{"accesses":[{"type":"select"}],"users":["u"],"conditions":[{"type":"time-of-day","values":["9-17"]}]}]}`, `time of day "9-17"`},
		{"script that does not compile", `{"id":7,"name":"p","resources":{"database":{"values":["hr"]},"table":{"values":["*"]},"column":{"values":["*"]}},` +
			`"conditions":[{"type":"expression","values":["USER.dept == 'x"]}]}`, "does not compile"},
		{"recurrence without a day", `{"id":7,"name":"p","resources":{"database":{"values":["hr"]},"table":{"values":["*"]},"column":{"values":["*"]}},` +
			`"validitySchedules":[{"startTime":"2030/01/01 00:00:00","recurrences":[{"schedule":{"hour":"9"},"interval":{"hours":1}}]}]}`, "neither dayOfMonth nor dayOfWeek"},
		{"recurrence out of range", `{"id":7,"name":"p","resources":{"database":{"values":["hr"]},"table":{"values":["*"]},"column":{"values":["*"]}},` +
			`"validitySchedules":[{"recurrences":[{"schedule":{"dayOfWeek":"2-8"},"interval":{"hours":1}}]}]}`, `dayOfWeek "2-8"`},
		{"unknown time zone", `{"id":7,"name":"p","resources":{"database":{"values":["hr"]},"table":{"values":["*"]},"column":{"values":["*"]}},` +
			`"validitySchedules":[{"startTime":"2030/01/01 00:00:00","timeZone":"Mars/Olympus"}]}`, "time zone"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, policyType := range []int{PolicyTypeAccess, PolicyTypeDataMask, PolicyTypeRowFilter} {
				p := policies(t, "["+tc.policy+"]")
				p[0].PolicyType = policyType
				// Hive's masks and row filters take no wildcards.
				switch policyType {
				case PolicyTypeDataMask:
					p[0].Resources = map[string]PolicyResource{"database": {Values: []string{"hr"}}, "table": {Values: []string{"emp"}}, "column": {Values: []string{"ssn"}}}
				case PolicyTypeRowFilter:
					p[0].Resources = map[string]PolicyResource{"database": {Values: []string{"hr"}}, "table": {Values: []string{"emp"}}}
				}
				e := mustNew(t, Config{ServiceDef: def, Policies: append(p, policies(t, `[
				  {"id":1,"name":"everything","policyPriority":1,"resources":{"database":{"values":["*"]},"table":{"values":["*"]},"column":{"values":["*"]}},`+allowAll+`}]`)...)})
				refused := e.Refused()
				if len(refused) != 1 || refused[0].ID != 7 || !strings.Contains(refused[0].Reason, tc.reason) {
					t.Fatalf("type %d: refused = %+v, want policy 7 for %q", policyType, refused, tc.reason)
				}
				table := &Request{Resource: Resource{"database": {"hr"}, "table": {"emp"}}, AccessType: "select", User: "u", Groups: []string{"public"}}
				if r, ok := e.RefusedFor(table); !ok || r.ID != 7 {
					t.Errorf("type %d: RefusedFor(table) = %+v, %v", policyType, r, ok)
				}
				if _, ok := e.RefusedFor(&Request{Resource: Resource{"database": {"sales"}, "table": {"emp"}}}); ok {
					t.Errorf("type %d: refused policy applies to another database", policyType)
				}
				col := ask("u", []string{"public"}, "select", column("hr", "emp", "ssn"))
				switch policyType {
				case PolicyTypeAccess:
					// Denied, over an OVERRIDE allow of everything.
					if res := e.IsAccessAllowed(col); res.Allowed || res.PolicyID != 7 {
						t.Errorf("access = %+v, want denied by 7", res)
					}
					if res := e.IsAccessAllowed(ask("u", []string{"public"}, "select", column("sales", "emp", "ssn"))); !res.Allowed {
						t.Errorf("elsewhere: %+v, want allowed", res)
					}
				case PolicyTypeDataMask:
					if _, err := e.EvalDataMask(col); err == nil || !strings.Contains(err.Error(), "policy 7") {
						t.Errorf("mask err = %v", err)
					}
					if _, err := e.EvalDataMasks(table, []MaskColumn{{Name: "ssn"}}); err == nil {
						t.Error("masks: no error")
					}
				case PolicyTypeRowFilter:
					if _, err := e.EvalRowFilters(table); err == nil || !strings.Contains(err.Error(), "policy 7") {
						t.Errorf("row filters err = %v", err)
					}
					if _, err := e.EvalRowFilter(table); err == nil {
						t.Error("row filter: no error")
					}
				}
			}
		})
	}
}

// A tag policy that cannot be evaluated denies wherever its tag is.
func TestRefusedTagPolicy(t *testing.T) {
	e := mustNew(t, Config{ServiceDef: serviceDef(t, "hive"), TagServiceDef: serviceDef(t, "tag"),
		Policies: policies(t, `[{"id":1,"name":"all","resources":{"database":{"values":["*"]},"table":{"values":["*"]},"column":{"values":["*"]}},
		  "policyItems":[{"accesses":[{"type":"select"}],"groups":["public"]}]}]`),
		TagPolicies: policies(t, `[{"id":20,"name":"pii","resources":{"tag":{"values":["PII"]}},
		  "policyItems":[{"accesses":[{"type":"hive:select"}],"groups":["public"],"conditions":[{"type":"expression","values":["if (x"]}]}]}]`)})
	if r := e.Refused(); len(r) != 1 || r[0].ID != 20 || !r[0].ByTag {
		t.Fatalf("refused = %+v", r)
	}
	tagged := ask("u", []string{"public"}, "select", column("hr", "emp", "ssn"))
	tagged.Tags, tagged.TagsGiven = []ResourceTag{{Type: "PII"}}, true
	if res := e.IsAccessAllowed(tagged); res.Allowed || res.PolicyID != 20 || !res.ByTag {
		t.Errorf("tagged column: %+v, want denied by tag policy 20", res)
	}
	plain := ask("u", []string{"public"}, "select", column("hr", "emp", "name"))
	plain.TagsGiven = true
	if res := e.IsAccessAllowed(plain); !res.Allowed {
		t.Errorf("untagged column: %+v, want allowed", res)
	}
	table := &Request{Resource: Resource{"database": {"hr"}, "table": {"emp"}}, Tags: []ResourceTag{{Type: "PII"}}, TagsGiven: true}
	if r, ok := e.RefusedFor(table); !ok || r.ID != 20 {
		t.Errorf("RefusedFor = %+v, %v", r, ok)
	}
}

// A condition that fails at evaluation (a script that throws or runs out
// of time, an IP condition without the client's address) fails closed by
// what its item does: an allow item or a deny exception does not apply, a
// deny item or an allow exception does, a policy-level condition denies,
// and a mask or row filter search fails.
func TestConditionErrorsFailClosed(t *testing.T) {
	def := serviceDef(t, "hive")
	def.PolicyConditions = append(def.PolicyConditions,
		PolicyConditionDef{Name: "expression", Evaluator: "org.apache.ranger.plugin.conditionevaluator.RangerScriptConditionEvaluator"},
		PolicyConditionDef{Name: "ip-range", Evaluator: "org.apache.ranger.plugin.conditionevaluator.RangerIpMatcher"})
	throws := `"conditions":[{"type":"expression","values":["throw 'x'"]}]`
	spins := `"conditions":[{"type":"expression","values":["while (true) {}"]}]`
	noIP := `"conditions":[{"type":"ip-range","values":["10.0.0.0/8"]}]`
	holds := `"conditions":[{"type":"expression","values":["true"]}]`
	res := `"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn"]}}`
	sel := `"accesses":[{"type":"select"}],"groups":["public"]`
	tests := []struct {
		name, policy string
		allowed      bool
	}{
		{"allow item throws", `{"id":1,"name":"p",` + res + `,"policyItems":[{` + sel + `,` + throws + `}]}`, false},
		{"allow item times out", `{"id":1,"name":"p",` + res + `,"policyItems":[{` + sel + `,` + spins + `}]}`, false},
		{"allow item without a client address", `{"id":1,"name":"p",` + res + `,"policyItems":[{` + sel + `,` + noIP + `}]}`, false},
		{"allow item holds", `{"id":1,"name":"p",` + res + `,"policyItems":[{` + sel + `,` + holds + `}]}`, true},
		{"deny item throws", `{"id":1,"name":"p",` + res + `,"policyItems":[{` + sel + `}],"denyPolicyItems":[{` + sel + `,` + throws + `}]}`, false},
		{"allow exception throws", `{"id":1,"name":"p",` + res + `,"policyItems":[{` + sel + `}],"allowExceptions":[{` + sel + `,` + throws + `}]}`, false},
		{"deny exception throws", `{"id":1,"name":"p",` + res + `,"policyItems":[{` + sel + `}],"denyPolicyItems":[{` + sel + `}],"denyExceptions":[{` + sel + `,` + throws + `}]}`, false},
		{"deny exception holds", `{"id":1,"name":"p",` + res + `,"policyItems":[{` + sel + `}],"denyPolicyItems":[{` + sel + `}],"denyExceptions":[{` + sel + `,` + holds + `}]}`, true},
		{"policy condition throws", `{"id":1,"name":"p",` + res + `,` + throws + `,"policyItems":[{` + sel + `}]}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := mustNew(t, Config{ServiceDef: def, Policies: policies(t, "["+tc.policy+"]")})
			if got := e.IsAccessAllowed(ask("u", []string{"public"}, "select", column("hr", "emp", "ssn"))); got.Allowed != tc.allowed {
				t.Errorf("allowed = %v, want %v", got.Allowed, tc.allowed)
			}
		})
	}
	t.Run("mask and row filter", func(t *testing.T) {
		e := mustNew(t, Config{ServiceDef: def, Policies: policies(t, `[
		  {"id":1,"name":"m","policyType":1,`+res+`,"dataMaskPolicyItems":[
		    {`+sel+`,`+throws+`,"dataMaskInfo":{"dataMaskType":"MASK_NONE"}}]},
		  {"id":2,"name":"f","policyType":2,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]}},"rowFilterPolicyItems":[
		    {`+sel+`,`+throws+`,"rowFilterInfo":{"filterExpr":"1=1"}}]}]`)})
		if _, err := e.EvalDataMask(ask("u", []string{"public"}, "select", column("hr", "emp", "ssn"))); err == nil {
			t.Error("mask: no error")
		}
		if _, err := e.EvalRowFilters(ask("u", []string{"public"}, "select", column("hr", "emp"))); err == nil {
			t.Error("row filters: no error")
		}
	})
}
