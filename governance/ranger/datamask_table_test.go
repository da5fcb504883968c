package ranger

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

const tableMaskPolicies = `[
  {"id":1,"name":"ssn","policyType":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"groups":["analysts"],"dataMaskInfo":{"dataMaskType":"MASK"}}]},
  {"id":2,"name":"pay","policyType":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn","salary"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"roles":["r_hr"],"dataMaskInfo":{"dataMaskType":"MASK_NULL"}}]},
  {"id":3,"name":"all but ssn","policyType":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn"],"isExcludes":true}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"users":["ann"],"dataMaskInfo":{"dataMaskType":"MASK_HASH"}}]},
  {"id":4,"name":"names","policyType":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp","old"]},"column":{"values":["name"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"groups":["public"],"dataMaskInfo":{"dataMaskType":"MASK_SHOW_FIRST_4"}}]},
  {"id":5,"name":"phones","policyType":1,"policyPriority":1,"resources":{"database":{"values":["hr"]},"table":{"values":["dept"]},"column":{"values":["name"]}},
   "additionalResources":[{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["phone"]}}],
   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"users":["ann"],"dataMaskInfo":{"dataMaskType":"CUSTOM","valueExpr":"'x'"}}]},
  {"id":6,"name":"not emp","policyType":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"],"isExcludes":true},"column":{"values":["name"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"groups":["public"],"dataMaskInfo":{"dataMaskType":"MASK"}}]},
  {"id":7,"name":"ledger","policyType":1,"resources":{"database":{"values":["fin"]},"table":{"values":["ledger"]},"column":{"values":["amount"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"groups":["public"],"dataMaskInfo":{"dataMaskType":"MASK"}}]},
  {"id":8,"name":"secret","policyType":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["secret"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"users":["dora"],"dataMaskInfo":{"dataMaskType":"CUSTOM","valueExpr":"${{USER.key}}"}}]}
]`

const tableMaskTagPolicies = `[
  {"id":101,"name":"PII","policyType":1,"resources":{"tag":{"values":["PII"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"hive:select"}],"groups":["analysts"],"users":["bob"],"dataMaskInfo":{"dataMaskType":"hive:MASK_HASH"}}]},
  {"id":102,"name":"GEO","policyType":1,"resources":{"tag":{"values":["GEO"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["carl"],"dataMaskInfo":{"dataMaskType":"hive:MASK_NULL"}}]}
]`

// tableMaskTags puts PII on hr.emp.ssn and GEO on the table hr.emp.
const tableMaskTags = `{"serviceName":"hive","tags":{"1":{"type":"PII"},"2":{"type":"GEO"}},
  "serviceResources":[
    {"id":1,"resourceElements":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn"]}}},
    {"id":2,"resourceElements":{"database":{"values":["hr"]},"table":{"values":["emp"]}}}],
  "resourceToTagIds":{"1":[1],"2":[2]}}`

func tableMaskEvaluator(t testing.TB, precedence string) *Evaluator {
	t.Helper()
	var st ServiceTags
	if err := json.Unmarshal([]byte(tableMaskTags), &st); err != nil {
		t.Fatal(err)
	}
	hiveDef := serviceDef(t, "hive")
	return mustNew(t, Config{
		ServiceDef: hiveDef, Policies: policies(t, tableMaskPolicies),
		TagServiceDef: TagServiceDefFor(hiveDef, serviceDef(t, "tag"), false), TagPolicies: policies(t, tableMaskTagPolicies),
		ServiceTags: &st, MaskPrecedence: precedence,
		Roles: &Roles{RangerRoles: []Role{{Name: "r_hr", Users: []RoleMember{{Name: "bob"}}}}},
	})
}

// EvalDataMasks answers for each column what EvalDataMask answers for the
// column alone, whatever the policies' shapes (several values, excludes,
// additional resources, roles, tags from the store or the request, either
// precedence), and fails where it fails.
func TestEvalDataMasksMatchesEvalDataMask(t *testing.T) {
	columns := []MaskColumn{
		{Name: "ssn", Tags: []ResourceTag{{Type: "PII"}}},
		{Name: "salary"},
		{Name: "name", Tags: []ResourceTag{{Type: "GEO", MatchType: MatchAncestor}}},
		{Name: "phone", Tags: []ResourceTag{{Type: "PII"}}},
		{Name: "other"},
		{Name: "secret"},
	}
	users := []struct {
		user   string
		groups []string
		attrs  map[string]string
	}{{"ann", nil, nil}, {"bob", nil, nil}, {"carl", []string{"analysts"}, nil}, {"dora", nil, map[string]string{"key": "k"}}, {"dora", nil, nil}, {"zed", nil, nil}}
	tables := []Resource{column("hr", "emp"), column("hr", "old"), column("hr", "dept"), column("fin", "ledger")}

	masked, failed := 0, 0
	for _, precedence := range []string{MaskPrecedenceTag, MaskPrecedenceResource} {
		e := tableMaskEvaluator(t, precedence)
		for _, tagsGiven := range []bool{false, true} {
			for _, u := range users {
				for _, table := range tables {
					name := fmt.Sprintf("%s/tags given %v/%s %v/%s.%s", precedence, tagsGiven, u.user, u.attrs != nil, table["database"][0], table["table"][0])
					req := ask(u.user, u.groups, "select", table)
					req.UserAttributes, req.TagsGiven = u.attrs, tagsGiven
					var want []DataMaskResult
					var wantErr error
					for _, c := range columns {
						one := *req
						one.Resource = column(table["database"][0], table["table"][0], c.Name)
						one.Tags = c.Tags
						got, err := e.EvalDataMask(&one)
						if err != nil {
							wantErr = err
							break
						}
						want = append(want, got)
						if got.PolicyID >= 0 {
							masked++
						}
					}
					got, err := e.EvalDataMasks(req, columns)
					switch {
					case wantErr != nil:
						failed++
						if err == nil || err.Error() != wantErr.Error() {
							t.Errorf("%s: error %v, want %v", name, err, wantErr)
						}
					case err != nil:
						t.Errorf("%s: %v", name, err)
					case !reflect.DeepEqual(got, want):
						t.Errorf("%s:\ngot  %+v\nwant %+v", name, got, want)
					}
				}
			}
		}
	}
	// The comparison is worth something only if columns get masks.
	if masked < 40 || failed == 0 {
		t.Errorf("%d masked columns and %d failed requests compared; the fixture no longer exercises the masks", masked, failed)
	}
}

func TestEvalDataMasksRequests(t *testing.T) {
	e := tableMaskEvaluator(t, "")
	tests := []struct {
		name    string
		access  string
		table   Resource
		want    []int64
		wantErr bool
	}{
		{"answers in the order of the columns", "select", column("hr", "emp"), []int64{101, 2, 4}, false},
		{"an access type no policy knows masks nothing", "frobnicate", column("hr", "emp"), []int64{-1, -1, -1}, false},
		{"the request must name the table, not a column", "select", column("hr", "emp", "ssn"), nil, true},
		{"a request naming no table", "select", Resource{}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := ask("bob", nil, tc.access, tc.table)
			got, err := e.EvalDataMasks(req, []MaskColumn{{Name: "ssn"}, {Name: "salary"}, {Name: "name"}})
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			var ids []int64
			for _, r := range got {
				ids = append(ids, r.PolicyID)
			}
			if !reflect.DeepEqual(ids, tc.want) {
				t.Errorf("policies %v, want %v", ids, tc.want)
			}
		})
	}
	t.Run("a service without data masks", func(t *testing.T) {
		polaris := mustNew(t, Config{ServiceDef: serviceDef(t, "polaris")})
		if _, err := polaris.EvalDataMasks(ask("bob", nil, "table-data-read", Resource{"root": {"r"}}), []MaskColumn{{Name: "c"}}); err == nil {
			t.Error("no error")
		}
	})
}

// The masks of a whole table, one call per column against one call for
// the table: 200 column masks over 20 tables, a chain of 30 roles, a
// 40-column table with some tagged columns.
func BenchmarkDataMasks(b *testing.B) {
	var ps, tps []Policy
	for tbl := range 20 {
		for col := range 10 {
			ps = append(ps, Policy{ID: int64(tbl*100 + col), Name: fmt.Sprintf("m%d_%d", tbl, col), PolicyType: PolicyTypeDataMask,
				Resources: map[string]PolicyResource{"database": {Values: []string{"sales"}}, "table": {Values: []string{fmt.Sprintf("t%d", tbl)}},
					"column": {Values: []string{fmt.Sprintf("c%d", col)}}},
				DataMaskPolicyItems: []DataMaskPolicyItem{{PolicyItem: PolicyItem{Accesses: []PolicyItemAccess{{Type: "select"}},
					Roles: []string{fmt.Sprintf("r%d", col)}}, DataMaskInfo: DataMaskInfo{DataMaskType: "MASK"}}}})
		}
	}
	for i := range 10 {
		tps = append(tps, Policy{ID: int64(10000 + i), Name: fmt.Sprintf("tag%d", i), PolicyType: PolicyTypeDataMask,
			Resources: map[string]PolicyResource{"tag": {Values: []string{fmt.Sprintf("T%d", i)}}},
			DataMaskPolicyItems: []DataMaskPolicyItem{{PolicyItem: PolicyItem{Accesses: []PolicyItemAccess{{Type: "hive:select"}},
				Roles: []string{"r1"}}, DataMaskInfo: DataMaskInfo{DataMaskType: "hive:MASK_HASH"}}}})
	}
	roles := &Roles{}
	for i := range 30 {
		r := Role{Name: fmt.Sprintf("r%d", i), Users: []RoleMember{{Name: "alice"}}}
		if i > 0 {
			r.Roles = []RoleMember{{Name: fmt.Sprintf("r%d", i-1)}}
		}
		roles.RangerRoles = append(roles.RangerRoles, r)
	}
	hiveDef := serviceDef(b, "hive")
	e := mustNew(b, Config{ServiceDef: hiveDef, Policies: ps, TagServiceDef: TagServiceDefFor(hiveDef, serviceDef(b, "tag"), false),
		TagPolicies: tps, Roles: roles})
	table := &Request{AccessType: "select", User: "alice", Groups: []string{"g"}, TagsGiven: true, Resource: column("sales", "t3")}
	var columns []MaskColumn
	for col := range 40 {
		c := MaskColumn{Name: fmt.Sprintf("c%d", col)}
		if col%8 == 0 {
			c.Tags = []ResourceTag{{Type: fmt.Sprintf("T%d", col/8), MatchType: MatchSelf}}
		}
		columns = append(columns, c)
	}

	b.Run("per column", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, c := range columns {
				req := *table
				req.Resource = column("sales", "t3", c.Name)
				req.Tags = c.Tags
				if _, err := e.EvalDataMask(&req); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("table", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.EvalDataMasks(table, columns); err != nil {
				b.Fatal(err)
			}
		}
	})
}
