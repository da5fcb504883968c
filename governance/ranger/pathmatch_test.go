package ranger

import "testing"

// The path matcher of the real hdfs service definition (wildcards on,
// case significant), as Ranger's RangerPathResourceMatcher matches.
func TestPathMatcher(t *testing.T) {
	def := serviceDef(t, "hdfs")
	h, err := newHierarchies(def.Resources, def.Resources)
	if err != nil {
		t.Fatal(err)
	}
	rec := func(v string) PolicyResource { return PolicyResource{Values: []string{v}, IsRecursive: true} }
	flat := func(v string) PolicyResource { return PolicyResource{Values: []string{v}} }
	tests := []struct {
		name   string
		policy PolicyResource
		path   string
		rq     *Request
		want   bool
	}{
		{"recursive covers the directory", rec("/data/sales"), "/data/sales", nil, true},
		{"recursive covers below", rec("/data/sales"), "/data/sales/2024/x.parquet", nil, true},
		{"recursive is not a sibling prefix", rec("/data/sales"), "/data/salesforce", nil, false},
		{"trailing separator covers below", rec("/data/sales/"), "/data/sales/x", nil, true},
		{"case is significant", rec("/data/sales"), "/Data/sales/x", nil, false},
		{"recursive wildcard element", rec("/data/*/raw"), "/data/eu/raw/x", nil, true},
		{"recursive wildcard element, wrong literal", rec("/data/*/raw"), "/data/eu/cooked/x", nil, false},
		{"lone star is every path", rec("*"), "/anything", nil, true},
		{"non-recursive is the path itself", flat("/data/sales"), "/data/sales/x", nil, false},
		{"non-recursive wildcard", flat("/data/*.csv"), "/data/a/b.csv", nil, true},
		{"user token", rec("/home/{USER}"), "/home/ann/x", &Request{User: "ann"}, true},
		{"user token for another user", rec("/home/{USER}"), "/home/ann/x", &Request{User: "bob"}, false},
		{"owner token", rec("/data/{OWNER}"), "/data/ann/t", &Request{User: "bob", Owner: "ann"}, true},
		{"owner token without an owner stays literal", rec("/data/{OWNER}"), "/data/ann/t", &Request{User: "bob"}, false},
		{"escaped token is literal", rec(`/data/\{USER}`), "/data/{USER}/t", &Request{User: "ann"}, true},
		{"prefix of a recursive value", rec("/data/sales"), "/da", &Request{ElementMatchingScopes: map[string]ElementMatchingScope{"path": ScopeSelfOrPrefix}}, true},
		{"not a prefix", rec("/data/sales"), "/db", &Request{ElementMatchingScopes: map[string]ElementMatchingScope{"path": ScopeSelfOrPrefix}}, false},
		{"prefix without the scope", rec("/data/sales"), "/da", &Request{}, false},
		{"prefix of a wildcard value", rec("/data/*/raw"), "/data/eu/r", &Request{ElementMatchingScopes: map[string]ElementMatchingScope{"path": ScopeSelfOrPrefix}}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := newResourceMatcher(h, map[string]PolicyResource{"path": tc.policy})
			if err != nil {
				t.Fatal(err)
			}
			got := m.matchType(Resource{"path": {tc.path}}, tc.rq) == MatchSelf
			if got != tc.want {
				t.Errorf("match(%q, %v) = %v, want %v", tc.path, tc.policy, got, tc.want)
			}
		})
	}
}

// pathSeparatorChar and ignoreCase come from the level's matcher options.
func TestPathMatcherOptions(t *testing.T) {
	def := &ServiceDef{Name: "kv", Resources: []ResourceDef{{
		Name: "key", Matcher: pathMatcherClass, RecursiveSupported: true,
		MatcherOptions: StringMap{"pathSeparatorChar": ".", "ignoreCase": "true"},
	}}}
	h, err := newHierarchies(def.Resources, def.Resources)
	if err != nil {
		t.Fatal(err)
	}
	m, err := newResourceMatcher(h, map[string]PolicyResource{"key": {Values: []string{"App.Config"}, IsRecursive: true}})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{"app.config.db": true, "APP.CONFIG": true, "app/config/db": false, "app.configx": false} {
		if got := m.matchType(Resource{"key": {path}}, nil) == MatchSelf; got != want {
			t.Errorf("%q: got %v, want %v", path, got, want)
		}
	}
}

func TestWildcardPrefixMatch(t *testing.T) {
	tests := []struct {
		value, pattern string
		want           bool
	}{
		{"/", "/public", true},
		{"/pub", "/public", true},
		{"/pb", "/public", false},
		{"/public/x", "/public", true}, // the pattern runs out first: Ranger says true
		{"/home/a", "/home/*/docs", true},
		{"/home/ann/docs/x", "/home/*/docs", true},
		{"/vendor", "/pii", false},
		{"ab", "a?c", true},
	}
	for _, tc := range tests {
		if got := wildcardPrefixMatch(tc.value, tc.pattern, false); got != tc.want {
			t.Errorf("wildcardPrefixMatch(%q, %q) = %v, want %v", tc.value, tc.pattern, got, tc.want)
		}
	}
}

// Super users and groups come from the configuration and from the
// service configuration's ranger.plugin.super.users / super.groups.
func TestSuperUsersFromServiceConfig(t *testing.T) {
	e := mustNew(t, Config{
		ServiceDef:    serviceDef(t, "hive"),
		SuperUsers:    []string{"root"},
		ServiceConfig: StringMap{ConfigSuperUsers: " svc1 , svc2,", ConfigSuperGroups: "admins"},
	})
	for _, tc := range []struct {
		user   string
		groups []string
		want   bool
	}{
		{"root", nil, true}, {"svc1", nil, true}, {"svc2", nil, true},
		{"ann", []string{"admins"}, true}, {"ann", []string{"users"}, false}, {"", nil, false},
	} {
		if got := e.IsAccessAllowed(ask(tc.user, tc.groups, "drop", column("db", "t"))).Allowed; got != tc.want {
			t.Errorf("%s %v: allowed = %v, want %v", tc.user, tc.groups, got, tc.want)
		}
	}
}

// The hdfs service definition's default audit filters parse, and decide
// auditing as Ranger's RangerAuditPolicyEvaluator does.
func TestAuditFilters(t *testing.T) {
	def := serviceDef(t, "hdfs")
	var text string
	for _, c := range def.Configs {
		if c.Name == ConfigAuditFilters {
			text = c.DefaultValue
		}
	}
	e := mustNew(t, Config{
		ServiceDef: def,
		Policies: policies(t, `[{"id":1,"name":"all","isAuditEnabled":true,"resources":{"path":{"values":["/"],"isRecursive":true}},
		  "policyItems":[{"accesses":[{"type":"read"}],"groups":["public"]}]}]`),
		ServiceConfig: StringMap{ConfigAuditFilters: text},
	})
	path := func(p string) Resource { return Resource{"path": {p}} }
	tests := []struct {
		name string
		req  *Request
		want bool
	}{
		{"a policy with auditing on", &Request{Resource: path("/data/x"), AccessType: "read", User: "ann"}, true},
		{"denied is always audited", &Request{Resource: path("/data/x"), AccessType: "write", User: "hdfs", Action: "listStatus"}, true},
		{"the hdfs user listing", &Request{Resource: path("/data/x"), AccessType: "read", User: "hdfs", Action: "listStatus"}, false},
		{"hbase under /hbase", &Request{Resource: path("/hbase/t/r"), AccessType: "read", User: "hbase"}, false},
		{"hbase elsewhere", &Request{Resource: path("/data/x"), AccessType: "read", User: "hbase"}, true},
		{"getfileinfo by anyone", &Request{Resource: path("/data/x"), AccessType: "read", User: "ann", Action: "getfileinfo"}, false},
		{"delete is audited", &Request{Resource: path("/data/x"), AccessType: "read", User: "hdfs", Action: "delete"}, true},
	}
	for _, tc := range tests {
		if got := e.IsAccessAllowed(tc.req).Audited; got != tc.want {
			t.Errorf("%s: audited = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A marker access type the service definition declares grants what it
// implies.
func TestMarkerAccessTypes(t *testing.T) {
	def := serviceDef(t, "hdfs")
	def.MarkerAccessTypes = []AccessTypeDef{
		{Name: "_READ", ImpliedGrants: []string{"read", "execute"}},
		{Name: "_ALL", ImpliedGrants: []string{"read", "write", "execute"}},
	}
	e := mustNew(t, Config{ServiceDef: def, Policies: policies(t, `[
	  {"id":1,"name":"readers","resources":{"path":{"values":["/data"],"isRecursive":true}},
	   "policyItems":[{"accesses":[{"type":"_READ"}],"users":["ann"]},{"accesses":[{"type":"_ALL"}],"users":["bob"]}]}]`)})
	for _, tc := range []struct {
		user, access string
		want         bool
	}{{"ann", "read", true}, {"ann", "execute", true}, {"ann", "write", false}, {"bob", "write", true}} {
		req := &Request{Resource: Resource{"path": {"/data/x"}}, AccessType: tc.access, User: tc.user}
		if got := e.IsAccessAllowed(req).Allowed; got != tc.want {
			t.Errorf("%s %s: allowed = %v, want %v", tc.user, tc.access, got, tc.want)
		}
	}
}
