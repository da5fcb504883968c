package ranger

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Rule 7: masks. Items are tried in the order written; tag masks come
// before resource masks, the closest tag first; a later mask replaces the
// one found only with strictly higher priority.
func TestDataMask(t *testing.T) {
	var st ServiceTags
	if err := json.Unmarshal([]byte(`{"serviceName":"hive",
	  "tags":{"1":{"type":"PII"},"2":{"type":"CONFIDENTIAL"}},
	  "serviceResources":[
	    {"id":1,"resourceElements":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn"]}}},
	    {"id":2,"resourceElements":{"database":{"values":["hr"]},"table":{"values":["emp"]}}}],
	  "resourceToTagIds":{"1":[1],"2":[2]}}`), &st); err != nil {
		t.Fatal(err)
	}
	e := mustNew(t, Config{
		ServiceDef: serviceDef(t, "hive"), TagServiceDef: serviceDef(t, "tag"), ServiceTags: &st,
		Policies: policies(t, `[
	  {"id":1,"name":"ssn","policyType":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn"]}},
	   "dataMaskPolicyItems":[
	     {"accesses":[{"type":"select"}],"users":["alice"],"dataMaskInfo":{"dataMaskType":"MASK_SHOW_LAST_4"}},
	     {"accesses":[{"type":"select"}],"groups":["analysts"],"dataMaskInfo":{"dataMaskType":"MASK_NULL"}},
	     {"accesses":[{"type":"select"}],"users":["dora"],"dataMaskInfo":{"dataMaskType":"CUSTOM","valueExpr":"CASE WHEN dept = '${{USER.dept}}' THEN {col} END","conditionExpr":"region = '${{USER.region}}'"}}]},
	  {"id":2,"name":"ssn override","policyType":1,"policyPriority":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn"]}},
	   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"users":["boss"],"dataMaskInfo":{"dataMaskType":"MASK_NONE"}}]},
	  {"id":3,"name":"name","policyType":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["name"]}},
	   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"users":["carl"],"dataMaskInfo":{"dataMaskType":"MASK"}}]}
	]`),
		TagPolicies: policies(t, `[
	  {"id":101,"name":"PII","policyType":1,"resources":{"tag":{"values":["PII"]}},
	   "dataMaskPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["boss","carl"],"dataMaskInfo":{"dataMaskType":"hive:MASK_HASH"}}]},
	  {"id":102,"name":"CONFIDENTIAL","policyType":1,"resources":{"tag":{"values":["CONFIDENTIAL"]}},
	   "dataMaskPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["boss","carl","erin"],"dataMaskInfo":{"dataMaskType":"MASK_NULL"}}]}
	]`),
	})
	tests := []struct {
		name     string
		user     string
		groups   []string
		attrs    map[string]string
		col      string
		mask     string
		policyID int64
		tag      string // the tag a tag policy was reached through
	}{
		{"first matching item, in written order", "alice", []string{"analysts"}, nil, "ssn", "MASK_SHOW_LAST_4", 1, ""},
		{"a later item", "ann", []string{"analysts"}, nil, "ssn", "MASK_NULL", 1, ""},
		{"no item matches", "zed", nil, nil, "ssn", "", -1, ""},
		{"an OVERRIDE resource mask beats a NORMAL tag mask", "boss", nil, nil, "ssn", "MASK_NONE", 2, ""},
		{"the column's own tag before its table's", "carl", nil, nil, "ssn", "MASK_HASH", 101, "PII"},
		{"a tag mask beats a resource mask of equal priority", "carl", nil, nil, "name", "MASK_NULL", 102, "CONFIDENTIAL"},
		{"the table's tag reaches every column", "erin", nil, nil, "salary", "MASK_NULL", 102, "CONFIDENTIAL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := ask(tc.user, tc.groups, "select", column("hr", "emp", tc.col))
			req.UserAttributes = tc.attrs
			got, err := e.EvalDataMask(req)
			if err != nil {
				t.Fatal(err)
			}
			if got.MaskType != tc.mask || got.PolicyID != tc.policyID || got.ByTag != (tc.tag != "") || got.Tag != tc.tag {
				t.Errorf("got %s policy=%d byTag=%v tag=%q, want %s policy=%d tag=%q", got.MaskType, got.PolicyID, got.ByTag, got.Tag, tc.mask, tc.policyID, tc.tag)
			}
		})
	}

	t.Run("transformer and macros", func(t *testing.T) {
		got, err := e.EvalDataMask(ask("carl", nil, "select", column("hr", "emp", "ssn")))
		if err != nil {
			t.Fatal(err)
		}
		if got.Transformer != "mask_hash({col})" {
			t.Errorf("transformer = %q", got.Transformer)
		}
		req := ask("dora", nil, "select", column("hr", "emp", "ssn"))
		req.UserAttributes = map[string]string{"dept": "eng", "region": "EU"}
		if got, err = e.EvalDataMask(req); err != nil {
			t.Fatal(err)
		}
		if got.MaskType != "CUSTOM" || got.ValueExpr != "CASE WHEN dept = 'eng' THEN {col} END" || got.ConditionExpr != "region = 'EU'" || got.Transformer != "" {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("missing attribute", func(t *testing.T) {
		req := ask("dora", nil, "select", column("hr", "emp", "ssn"))
		req.UserAttributes = map[string]string{"dept": "eng"}
		_, err := e.EvalDataMask(req)
		var pe *pgerror.Error
		if !errors.As(err, &pe) || pe.Code != pgerror.InsufficientPrivilege {
			t.Errorf("err = %v, want SQLSTATE 42501", err)
		}
	})
}

// Rule 8: the first matching row-filter item by priority, then policy
// order, then item order; only that one applies.
func TestRowFilter(t *testing.T) {
	e := hive(t, `[
	  {"id":1,"name":"orders","policyType":2,"resources":{"database":{"values":["sales"]},"table":{"values":["orders"]}},
	   "rowFilterPolicyItems":[
	     {"accesses":[{"type":"select"}],"users":["alice"],"rowFilterInfo":{"filterExpr":"region = 'EU'"}},
	     {"accesses":[{"type":"select"}],"groups":["public"],"rowFilterInfo":{"filterExpr":"owner = '${{USER.name}}'"}}]},
	  {"id":2,"name":"orders override","policyType":2,"policyPriority":1,"resources":{"database":{"values":["sales"]},"table":{"values":["orders"]}},
	   "rowFilterPolicyItems":[{"accesses":[{"type":"select"}],"users":["bob"],"rowFilterInfo":{"filterExpr":"1=1"}}]}
	]`)
	tests := []struct {
		name     string
		user     string
		attrs    map[string]string
		table    string
		want     string
		policyID int64
		wantErr  bool
	}{
		{"first item", "alice", nil, "orders", "region = 'EU'", 1, false},
		{"a higher priority policy first", "bob", nil, "orders", "1=1", 2, false},
		{"macro resolved", "carol", map[string]string{"name": "carol"}, "orders", "owner = 'carol'", 1, false},
		{"macro without the attribute", "dave", nil, "orders", "", -1, true},
		{"no filter on another table", "alice", nil, "items", "", -1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := ask(tc.user, nil, "select", column("sales", tc.table))
			req.UserAttributes = tc.attrs
			got, err := e.EvalRowFilter(req)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if got.FilterExpr != tc.want || got.PolicyID != tc.policyID {
				t.Errorf("got %q policy=%d, want %q policy=%d", got.FilterExpr, got.PolicyID, tc.want, tc.policyID)
			}
		})
	}
}

func TestResolveMacros(t *testing.T) {
	req := &Request{User: "u", UserAttributes: map[string]string{"dept": "r&d", "site": "x"}}
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{"dept = '${{USER.dept}}'", "dept = 'r&d'", false},
		{"${{ USER.dept }}/${{USER.site}}", "r&d/x", false},
		{"no macro", "no macro", false},
		{"${{USER.missing}}", "", true},
		{"${{TAG.level}}", "", true},
		{"${{USER.dept", "", true},
	}
	for _, tc := range tests {
		got, err := resolveMacros(tc.in, req, 7)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("%q: got %q, %v; want %q, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}
