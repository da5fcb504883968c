package ranger

import "testing"

// Rule 1: how a policy's resources match a requested resource.
func TestMatchType(t *testing.T) {
	def := serviceDef(t, "hive")
	h, err := newHierarchies(def.Resources, def.Resources)
	if err != nil {
		t.Fatal(err)
	}
	type res = map[string]PolicyResource
	v := func(values ...string) PolicyResource { return PolicyResource{Values: values} }
	tests := []struct {
		name   string
		policy res
		req    Resource
		want   MatchType
	}{
		{"same levels, exact", res{"database": v("db1"), "table": v("t1"), "column": v("c1")}, column("db1", "t1", "c1"), MatchSelf},
		{"star wildcard", res{"database": v("db1"), "table": v("tbl*"), "column": v("*")}, column("db1", "tbl9", "x"), MatchSelf},
		{"question wildcard matches one character", res{"database": v("db?")}, column("db1"), MatchSelf},
		{"question wildcard does not match two", res{"database": v("db?")}, column("db12"), MatchNone},
		{"case ignored by default", res{"database": v("Sales")}, column("sALES"), MatchSelf},
		{"one of several values", res{"database": v("a", "b")}, column("b"), MatchSelf},
		{"no value matches", res{"database": v("a", "b")}, column("c"), MatchNone},
		{"excludes inverts", res{"database": v("db1"), "table": v("tmp"), "column": PolicyResource{Values: []string{"tmp*"}, IsExcludes: true}}, column("db1", "tmp", "abc"), MatchSelf},
		{"excluded value", res{"database": v("db1"), "table": v("tmp"), "column": PolicyResource{Values: []string{"tmp*"}, IsExcludes: true}}, column("db1", "tmp", "tmp_1"), MatchNone},
		{"fewer levels, rest is *", res{"database": v("db1"), "table": v("*"), "column": v("*")}, column("db1"), MatchSelfAndAllDescendants},
		{"fewer levels, table named", res{"database": v("db1"), "table": v("tbl*"), "column": v("*")}, column("db1"), MatchDescendant},
		{"fewer levels, table matches, column *", res{"database": v("db1"), "table": v("tbl*"), "column": v("*")}, column("db1", "tbl1"), MatchSelfAndAllDescendants},
		{"more levels than the policy", res{"database": v("db1")}, column("db1", "t", "c"), MatchAncestor},
		{"a gap in the request", res{"database": v("db1"), "table": v("*"), "column": v("*")}, Resource{"database": {"db1"}, "column": {"c"}}, MatchNone},
		{"another hierarchy", res{"url": v("s3a://b/*")}, column("db1"), MatchNone},
		{"empty request against a database policy", res{"database": v("db1")}, Resource{}, MatchDescendant},
		{"requested * matches only a * policy", res{"database": v("db1")}, column("*"), MatchNone},
		{"requested * against *", res{"database": v("*")}, column("*"), MatchSelf},
		{"any of several requested values", res{"database": v("b")}, Resource{"database": {"a", "b"}}, MatchSelf},
		{"url is case sensitive", res{"url": v("s3a://Bucket/x")}, Resource{"url": {"s3a://bucket/x"}}, MatchNone},
		{"recursive url covers below", res{"url": PolicyResource{Values: []string{"s3a://b/demo"}, IsRecursive: true}}, Resource{"url": {"s3a://b/demo/x/y"}}, MatchSelf},
		{"recursive url is the value itself", res{"url": PolicyResource{Values: []string{"s3a://b/demo/"}, IsRecursive: true}}, Resource{"url": {"s3a://b/demo/"}}, MatchSelf},
		{"recursive url is not a sibling prefix", res{"url": PolicyResource{Values: []string{"s3a://b/demo"}, IsRecursive: true}}, Resource{"url": {"s3a://b/demo2"}}, MatchNone},
		{"non-recursive url", res{"url": v("s3a://b/demo")}, Resource{"url": {"s3a://b/demo/x"}}, MatchNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := newResourceMatcher(h, tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.matchType(tc.req, nil); got != tc.want {
				t.Errorf("matchType = %v, want %v", got, tc.want)
			}
		})
	}
}

// Rule 1, end to end: only the resource itself (or everything below a
// parent) grants a specific access; a descendant match grants only
// any-access; an ancestor match grants nothing.
func TestMatchTypeGrants(t *testing.T) {
	e := hive(t, `[
	  {"id":1,"name":"db1 tables tbl*","resources":{"database":{"values":["db1"]},"table":{"values":["tbl*"]},"column":{"values":["*"]}},
	   "policyItems":[{"accesses":[{"type":"select"}],"users":["u"]}]},
	  {"id":2,"name":"db2 only","resources":{"database":{"values":["db2"]}},
	   "policyItems":[{"accesses":[{"type":"select"}],"users":["u"]}]}
	]`)
	tests := []struct {
		name   string
		access string
		res    Resource
		want   bool
	}{
		{"select on a matching column", "select", column("db1", "tbl1", "c"), true},
		{"select on a matching table (columns are *)", "select", column("db1", "tbl1"), true},
		{"select on the database: descendant", "select", column("db1"), false},
		{"any access on the database: descendant", "", column("db1"), true},
		{"_any is any access", AnyAccess, column("db1"), true},
		{"any access on another table", "", column("db1", "other"), false},
		{"select on a table of a database-only policy: ancestor", "select", column("db2", "t"), false},
		{"any access on a table of a database-only policy: ancestor", "", column("db2", "t"), false},
		{"select on the database itself", "select", column("db2"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := e.IsAccessAllowed(ask("u", nil, tc.access, tc.res)).Allowed; got != tc.want {
				t.Errorf("allowed = %v, want %v", got, tc.want)
			}
		})
	}
}

// Rule 2: mask and row-filter resources match literally (the hive
// dataMaskDef and rowFilterDef turn wildcards off).
func TestMaskAndFilterResourcesAreLiteral(t *testing.T) {
	e := hive(t, `[
	  {"id":10,"name":"mask ssn*","policyType":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn*"]}},
	   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"users":["u"],"dataMaskInfo":{"dataMaskType":"MASK_NULL"}}]},
	  {"id":20,"name":"filter e*","policyType":2,"resources":{"database":{"values":["hr"]},"table":{"values":["e*"]}},
	   "rowFilterPolicyItems":[{"accesses":[{"type":"select"}],"users":["u"],"rowFilterInfo":{"filterExpr":"x=1"}}]}
	]`)
	tests := []struct {
		name      string
		res       Resource
		wantMask  int64
		wantRowID int64
	}{
		{"wildcard does not expand", column("hr", "emp", "ssn1"), -1, -1},
		{"the literal value matches", column("hr", "emp", "ssn*"), 10, -1},
		{"filter wildcard does not expand", column("hr", "emp"), -1, -1},
		{"filter literal", column("hr", "e*"), -1, 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := e.EvalDataMask(ask("u", nil, "select", tc.res))
			if err != nil {
				t.Fatal(err)
			}
			if m.PolicyID != tc.wantMask {
				t.Errorf("mask policy = %d, want %d", m.PolicyID, tc.wantMask)
			}
			f, err := e.EvalRowFilter(ask("u", nil, "select", tc.res))
			if err != nil {
				t.Fatal(err)
			}
			if f.PolicyID != tc.wantRowID {
				t.Errorf("row filter policy = %d, want %d", f.PolicyID, tc.wantRowID)
			}
		})
	}
}

func TestWildcardMatch(t *testing.T) {
	tests := []struct {
		s, pattern string
		fold, want bool
	}{
		{"abc", "a*", false, true},
		{"abc", "*c", false, true},
		{"abc", "a?c", false, true},
		{"ac", "a?c", false, false},
		{"abc", "*", false, true},
		{"", "*", false, true},
		{"", "?", false, false},
		{"aXbXc", "a*b*c", false, true},
		{"aXbX", "a*b*c", false, false},
		{"ABC", "a*", false, false},
		{"ABC", "a*", true, true},
		{"Ärger", "ä*", true, true},
		{"mississippi", "m*iss*ppi", false, true},
	}
	for _, tc := range tests {
		if got := wildcardMatch(tc.s, tc.pattern, tc.fold); got != tc.want {
			t.Errorf("wildcardMatch(%q, %q, %v) = %v, want %v", tc.s, tc.pattern, tc.fold, got, tc.want)
		}
	}
}

// A policy's additional resource sets match like its main one.
func TestAdditionalResources(t *testing.T) {
	e := hive(t, `[{"id":1,"name":"two places","resources":{"database":{"values":["a"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	  "additionalResources":[{"database":{"values":["b"]},"table":{"values":["t1"]},"column":{"values":["*"]}}],
	  "policyItems":[{"accesses":[{"type":"select"}],"users":["u"]}]}]`)
	tests := []struct {
		res  Resource
		want bool
	}{
		{column("a", "x", "y"), true},
		{column("b", "t1", "y"), true},
		{column("b", "t2", "y"), false},
		{column("c", "t1", "y"), false},
	}
	for _, tc := range tests {
		if got := e.IsAccessAllowed(ask("u", nil, "select", tc.res)).Allowed; got != tc.want {
			t.Errorf("%v: allowed = %v, want %v", tc.res, got, tc.want)
		}
	}
	if !e.IsAccessAllowed(ask("u", nil, "", column("b"))).Allowed {
		t.Error("any access to b: the additional resource set has a table in it")
	}
}
