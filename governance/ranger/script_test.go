package ranger

import (
	"strings"
	"testing"
	"time"
)

// runScript compiles and runs one condition script for a request, as
// the tag policy of tag would see it.
func runScript(t *testing.T, e *Evaluator, src string, req *Request, tag *ResourceTag, now time.Time) (bool, error) {
	t.Helper()
	p, err := e.scripts.compile(src, nil)
	if err != nil {
		return false, err
	}
	ec := e.newContext(req)
	ec.now, ec.tag = now, tag
	return p.run(ec)
}

func TestScript(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	tag := &ResourceTag{Type: "PII", Attributes: map[string]string{"level": "high", "score": "1", "expiry": "2030/01/01", "past": "2020-01-01T00:00:00.000Z", "bad": "soon"}}
	req := &Request{User: "alice", Groups: []string{"eng", "all"}, Roles: []string{"analyst"}, AccessType: "select",
		Resource: column("db1", "t1", "c1"), UserAttributes: map[string]string{"dept": "eng"},
		GroupAttributes: map[string]map[string]string{"eng": {"site": "paris"}},
		Tags:            []ResourceTag{*tag, {Type: "FIN"}}, TagsGiven: true, ClientIPAddress: "10.1.2.3",
		Context: map[string]string{"ORIGIN": "vpn"}}
	e := hive(t, `[]`)
	tests := []struct {
		src  string
		want bool
	}{
		// The subset the earlier evaluator understood.
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
		{"true", true},
		// A value that is not a boolean leaves ctx.result, false unless set.
		{"TAG.level", false},
		{"ctx.result = true; TAG.level", true},
		// What the earlier evaluator refused, which Ranger runs.
		{"if ( tagAttr.get('score') < 2 ) ctx.result = true;", true},
		{"if ( tagAttr['score'] >= 2 ) ctx.result = true;", false},
		{"tag.getType() == 'PII' && tagAttr.containsKey('level')", true},
		{"ctx.getUser() == 'alice' && ctx.getAccessType() == 'select'", true},
		{"var x = 1; x == 1", true},
		{"REQ.accessType == 'select' && REQ.user == 'alice'", true},
		{"RES.database == 'db1' && RES.column == 'c1'", true},
		{"UGNAMES.includes('eng') && URNAMES.includes('analyst')", true},
		{"UG['eng'].site == 'paris' && UGA.sVal.site == 'paris' && UGA.mVal.site[0] == 'paris'", true},
		{"TAGS.FIN._type == 'FIN' && TAGNAMES.length == 2", true},
		{"ctx.getClientIPAddress() == '10.1.2.3' && ctx.getRequestContextAttribute('ORIGIN') == 'vpn'", true},
		{"ctx.getRequestContextAttribute('NOPE') === null", true},
		{"ctx.getResource() == 'db1/t1/c1'", true},
		{"ctx.getAttributeValue('PII', 'level') == 'high' && ctx.getAttributeValue('level') == 'high'", true},
		// Ranger's macros.
		{"IS_IN_GROUP('eng') && IS_IN_ROLE('analyst') && IS_IN_ANY_GROUP && !IS_NOT_IN_ANY_GROUP", true},
		{"HAS_TAG('FIN') && HAS_ANY_TAG && !HAS_NO_TAG", true},
		{"HAS_USER_ATTR('dept') && !HAS_USER_ATTR('site') && HAS_UG_ATTR('site') && HAS_TAG_ATTR('score')", true},
		{"GET_USER_ATTR('dept') == 'eng' && GET_UG_NAMES() == 'all,eng' && GET_UG_NAMES_Q() == \"'all','eng'\"", true},
		{"TAG_NAMES_CSV == 'FIN,PII' && UR_NAMES_CSV == 'analyst' && GET_TAG_ATTR('level') == 'high'", true},
		{"GET_USER_ATTR('nope', 'none') == 'none' && GET_UG_ATTR('site') == 'paris'", true},
		{"IS_ACCESS_TIME_AFTER('2026/01/01') && IS_ACCESS_TIME_BEFORE('2027/01/01 10:00') && !IS_ACCESS_TIME_BETWEEN('2026/07/01', '2026/08/01')", true},
		// [[x]] lists and the intersects polyfill.
		{"[[TAG.level]].intersects(['high', 'low'])", true},
		{"[[USER.dept,'|']].includes('hr')", false},
	}
	for _, tc := range tests {
		got, err := runScript(t, e, tc.src, req, tag, now)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// A script that does not compile is refused when the evaluator is built.
func TestScriptRefused(t *testing.T) {
	e := hive(t, `[]`)
	for _, src := range []string{
		"TAG.level == 'a",
		"if (true ctx.result = false;",
		"var = 1",
		strings.Repeat(" ", scriptMaxSize+1),
	} {
		if _, err := e.scripts.compile(src, nil); err == nil {
			t.Errorf("%q compiled", src)
		}
	}
}

// A script that throws, runs too long, recurses without end or asks for
// a bulk allocation has no result: it reports an error, without the
// script's own message, which could quote the request's values.
func TestScriptFails(t *testing.T) {
	e := hive(t, `[]`)
	req := &Request{User: "alice", UserAttributes: map[string]string{"ssn": "123-45-6789"}}
	for _, src := range []string{
		"throw USER.ssn",
		"undefinedFunction()",
		"while (true) {}",
		"function f() { return f(); } f()",
		"'x'.repeat(1e9).length > 0",
		"new Array(1e9).join('x')",
		"var a = []; a.length = 1e9; a.indexOf(1)",
		"Array.from({length: 1e9}).length",
		"Math.max.apply(null, {length: 1e9})",
		"typeof Uint8Array == 'undefined' ? null.x : true",
		"typeof require == 'undefined' ? null.x : true",
	} {
		got, err := runScript(t, e, src, req, nil, time.Now())
		if err == nil {
			t.Errorf("%s = %v, want an error", src, got)
			continue
		}
		if strings.Contains(err.Error(), "123-45") {
			t.Errorf("%s: the error quotes the request: %v", src, err)
		}
	}
}

// Nothing a script stores outlives its evaluation.
func TestScriptIsolation(t *testing.T) {
	e := hive(t, `[]`)
	req := &Request{User: "alice"}
	if _, err := runScript(t, e, "leaked = 'x'; Array.prototype.evil = 1; true", req, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	got, err := runScript(t, e, "typeof leaked == 'undefined' && [].evil === undefined", req, nil, time.Now())
	if err != nil || !got {
		t.Errorf("second evaluation saw the first's state: %v %v", got, err)
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
