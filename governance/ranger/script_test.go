package ranger

import (
	"testing"
	"time"
)

func TestScript(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	tag := &ResourceTag{Type: "PII", Attributes: map[string]string{"level": "high", "expiry": "2030/01/01", "past": "2020-01-01T00:00:00.000Z", "bad": "soon"}}
	req := &Request{User: "alice", UserAttributes: map[string]string{"dept": "eng"}}
	tests := []struct {
		src  string
		want bool
	}{
		{"TAG.level == 'high'", true},
		{"TAG.level === \"high\"", true},
		{"TAG.level != 'high'", false},
		{"TAG.missing == 'x'", false},
		{"TAG.missing == null", true},
		{"TAG._type == 'PII' && USER.dept == 'eng'", true},
		{"TAG.level == 'low' || USER._name == 'alice'", true},
		{"!(TAG.level == 'high')", false},
		{"if ( ctx.isAccessedBefore('expiry') ) ctx.result = true;", true},
		{"if (ctx.isAccessedAfter('expiry')) { ctx.result = true; }", false},
		{"ctx.isAccessedAfter('past');", true},
		{"ctx.isAccessedBefore('past')", false},
		{"ctx.isAccessedAfter('missing')", true},
		{"ctx.isAccessedBefore('bad')", false},
		{"TAG.level", true},
		{"true", true},
	}
	for _, tc := range tests {
		e, err := compileScript(tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		ec := &evalContext{req: req, now: now, tag: tag}
		if got := e.eval(ec).truthy(); got != tc.want {
			t.Errorf("%s = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// Scripts outside the supported subset are refused when compiled.
func TestScriptRefused(t *testing.T) {
	for _, src := range []string{
		"ctx.getUser() == 'x'",
		"TAG.level > 3",
		"var x = 1; x == 1",
		"TAG.level == 'a",
		"if (true) ctx.result = false;",
		"REQ.accessType == 'select'",
		"TAG.a.b == 'x'",
		"",
	} {
		if _, err := compileScript(src); err == nil {
			t.Errorf("%q compiled", src)
		}
	}
}

func TestParseTagDate(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"2099/12/31", "2099-12-31T00:00:00Z"},
		{"2015/08/10T15:05:15.000Z", "2015-08-10T00:00:00Z"},
		{"2099-12-31T15:05:15.000Z", "2099-12-31T15:05:15Z"},
		{"2020/01/02 03:04:05", "2020-01-02T03:04:05Z"},
		{"2020-01-02", "2020-01-02T00:00:00Z"},
		{"tomorrow", ""},
		{"", ""},
	}
	for _, tc := range tests {
		got, ok := parseTagDate(tc.in)
		if tc.want == "" {
			if ok {
				t.Errorf("%q parsed as %v", tc.in, got)
			}
			continue
		}
		if !ok || got.UTC().Format(time.RFC3339) != tc.want {
			t.Errorf("%q = %v (%v), want %s", tc.in, got, ok, tc.want)
		}
	}
}

// The accessed-together conditions look at every resource the statement
// touches.
func TestAccessedTogether(t *testing.T) {
	def := serviceDef(t, "hive")
	def.PolicyConditions = []PolicyConditionDef{
		{Name: "accessed-together", Evaluator: "org.apache.ranger.plugin.conditionevaluator.RangerHiveResourcesAccessedTogetherCondition"},
		{Name: "not-accessed-together", Evaluator: "org.apache.ranger.plugin.conditionevaluator.RangerHiveResourcesNotAccessedTogetherCondition"},
	}
	e := mustNew(t, Config{ServiceDef: def, Policies: policies(t, `[
	  {"id":1,"name":"no name with ssn","resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["*"]}},
	   "policyItems":[{"accesses":[{"type":"select"}],"groups":["public"]}],
	   "denyPolicyItems":[{"accesses":[{"type":"select"}],"groups":["public"],"conditions":[{"type":"accessed-together","values":["hr.emp.name","hr.emp.ssn"]}]}]},
	  {"id":2,"name":"only apart","resources":{"database":{"values":["fin"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	   "policyItems":[{"accesses":[{"type":"select"}],"groups":["public"],"conditions":[{"type":"not-accessed-together","values":["fin.*.iban","fin.*.owner"]}]}]}
	]`)})
	tests := []struct {
		name    string
		res     Resource
		touched []Resource
		want    bool
	}{
		{"name alone", column("hr", "emp", "name"), []Resource{column("hr", "emp", "name"), column("hr", "emp", "dept")}, true},
		{"name with ssn", column("hr", "emp", "name"), []Resource{column("hr", "emp", "name"), column("hr", "emp", "ssn")}, false},
		{"no list of touched resources", column("hr", "emp", "name"), nil, true},
		{"iban alone", column("fin", "acct", "iban"), []Resource{column("fin", "acct", "iban")}, true},
		{"iban with owner", column("fin", "acct", "iban"), []Resource{column("fin", "acct", "iban"), column("fin", "acct", "owner")}, false},
		{"no list: not together", column("fin", "acct", "iban"), nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := ask("u", nil, "select", tc.res)
			req.RequestedResources = tc.touched
			if got := e.IsAccessAllowed(req).Allowed; got != tc.want {
				t.Errorf("allowed = %v, want %v", got, tc.want)
			}
		})
	}
}
