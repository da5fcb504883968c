package ranger

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// rowFilterTags is a tag download for row filters: PII on two columns of
// hr.emp (with different levels), FINANCE on the table fin.ledger, GEO on
// the database geo.
const rowFilterTags = `{
  "serviceName": "hive",
  "tags": {
    "1": {"type": "PII", "attributes": {"level": "low"}},
    "2": {"type": "PII", "attributes": {"level": "high"}},
    "3": {"type": "FINANCE"},
    "4": {"type": "GEO"}
  },
  "serviceResources": [
    {"id": 1, "resourceElements": {"database": {"values": ["hr"]}, "table": {"values": ["emp"]}, "column": {"values": ["ssn"]}}},
    {"id": 2, "resourceElements": {"database": {"values": ["hr"]}, "table": {"values": ["emp"]}, "column": {"values": ["salary"]}}},
    {"id": 3, "resourceElements": {"database": {"values": ["fin"]}, "table": {"values": ["ledger"]}}},
    {"id": 4, "resourceElements": {"database": {"values": ["geo"]}}}
  ],
  "resourceToTagIds": {"1": [1], "2": [2], "3": [3], "4": [4]}
}`

const rowFilterResourcePolicies = `[
  {"id":1,"name":"emp","policyType":2,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]}},
   "rowFilterPolicyItems":[{"accesses":[{"type":"select"}],"users":["ann"],"rowFilterInfo":{"filterExpr":"region = 'EU'"}}]},
  {"id":2,"name":"ledger","policyType":2,"resources":{"database":{"values":["fin"]},"table":{"values":["ledger"]}},
   "rowFilterPolicyItems":[{"accesses":[{"type":"select"}],"groups":["analysts"],"rowFilterInfo":{"filterExpr":"year = 2024"}}]},
  {"id":4,"name":"emp override","policyType":2,"policyPriority":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]}},
   "rowFilterPolicyItems":[{"accesses":[{"type":"select"}],"users":["ann"],"rowFilterInfo":{"filterExpr":"active"}}]}
]`

const rowFilterTagPolicies = `[
  {"id":101,"name":"PII rows","policyType":2,"resources":{"tag":{"values":["PII"]}},
   "rowFilterPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["ann"],"rowFilterInfo":{"filterExpr":"dept = 'hr'"}}]},
  {"id":102,"name":"PII high rows","policyType":2,"resources":{"tag":{"values":["PII"]}},
   "conditions":[{"type":"expression","values":["TAG.level == 'high'"]}],
   "rowFilterPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["ann"],"rowFilterInfo":{"filterExpr":"clearance >= 3"}}]},
  {"id":103,"name":"FINANCE rows","policyType":2,"resources":{"tag":{"values":["FINANCE"]}},
   "rowFilterPolicyItems":[{"accesses":[{"type":"hive:select"}],"groups":["analysts"],"rowFilterInfo":{"filterExpr":"amount < 1000"}}]},
  {"id":104,"name":"GEO rows","policyType":2,"resources":{"tag":{"values":["GEO"]}},
   "rowFilterPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["dave"],"rowFilterInfo":{"filterExpr":"country = '${{USER.country}}'"}}]},
  {"id":105,"name":"FINANCE override","policyType":2,"policyPriority":1,"resources":{"tag":{"values":["FINANCE"]}},
   "rowFilterPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["bob"],"rowFilterInfo":{"filterExpr":"1 = 1"}}]},
  {"id":106,"name":"kafka rows","policyType":2,"resources":{"tag":{"values":["PII"]}},
   "rowFilterPolicyItems":[{"accesses":[{"type":"kafka:consume"}],"users":["ann"],"rowFilterInfo":{"filterExpr":"false"}}]}
]`

// rowFilterEvaluator is hive with the row filters above, its tag service
// definition built with or without row filters.
func rowFilterEvaluator(t *testing.T, tagRowFilters bool) *Evaluator {
	t.Helper()
	var st ServiceTags
	if err := json.Unmarshal([]byte(rowFilterTags), &st); err != nil {
		t.Fatal(err)
	}
	hiveDef := serviceDef(t, "hive")
	return mustNew(t, Config{
		ServiceDef:    hiveDef,
		Policies:      policies(t, rowFilterResourcePolicies),
		TagServiceDef: TagServiceDefFor(hiveDef, serviceDef(t, "tag"), tagRowFilters),
		TagPolicies:   policies(t, rowFilterTagPolicies),
		ServiceTags:   &st,
	})
}

// EvalRowFilters gives the first matching item of every applicable
// row-filter policy: tag policies first (the closest tag, then higher
// priority, then name), then resource policies; a tag reaches a table from
// the table itself, its database or its columns.
func TestEvalRowFilters(t *testing.T) {
	e := rowFilterEvaluator(t, true)
	// tag is the tag a tag policy was reached through, empty for a
	// resource policy.
	type filter struct {
		expr string
		id   int64
		tag  string
	}
	tests := []struct {
		name   string
		user   string
		groups []string
		attrs  map[string]string
		table  Resource
		tags   []ResourceTag // given by the request when not nil
		want   []filter
	}{
		{"column tags reach the table, one filter per policy, tags first", "ann", nil, nil, column("hr", "emp"), nil,
			[]filter{{"clearance >= 3", 102, "PII"}, {"dept = 'hr'", 101, "PII"}, {"active", 4, ""}, {"region = 'EU'", 1, ""}}},
		{"a table's tag; higher priority first among tag policies", "bob", []string{"analysts"}, nil, column("fin", "ledger"), nil,
			[]filter{{"1 = 1", 105, "FINANCE"}, {"amount < 1000", 103, "FINANCE"}, {"year = 2024", 2, ""}}},
		{"a database's tag reaches its tables, macros resolved", "dave", nil, map[string]string{"country": "FR"}, column("geo", "cities"), nil,
			[]filter{{"country = 'FR'", 104, "GEO"}}},
		{"another table's tags do not apply", "ann", nil, nil, column("hr", "dept"), nil, nil},
		{"no item for the caller", "zed", nil, nil, column("hr", "emp"), nil, nil},
		{"tags given by the request", "ann", nil, nil, column("x", "y"), []ResourceTag{{Type: "PII", MatchType: MatchSelf}},
			[]filter{{"dept = 'hr'", 101, "PII"}}},
		{"a given tag of a column", "ann", nil, nil, column("x", "y"), []ResourceTag{{Type: "PII", Attributes: map[string]string{"level": "high"}, MatchType: MatchDescendant}},
			[]filter{{"clearance >= 3", 102, "PII"}, {"dept = 'hr'", 101, "PII"}}},
		{"given tags replace the store", "ann", nil, nil, column("hr", "emp"), []ResourceTag{},
			[]filter{{"active", 4, ""}, {"region = 'EU'", 1, ""}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := ask(tc.user, tc.groups, "select", tc.table)
			req.UserAttributes = tc.attrs
			if tc.tags != nil {
				req.Tags, req.TagsGiven = tc.tags, true
			}
			got, err := e.EvalRowFilters(req)
			if err != nil {
				t.Fatal(err)
			}
			var gotF []filter
			for _, r := range got {
				if r.ByTag != (r.Tag != "") {
					t.Errorf("%+v: ByTag disagrees with Tag", r)
				}
				gotF = append(gotF, filter{r.FilterExpr, r.PolicyID, r.Tag})
			}
			if !slices.Equal(gotF, tc.want) {
				t.Errorf("got %v\nwant %v", gotF, tc.want)
			}
		})
	}

	t.Run("a macro without its attribute fails the request", func(t *testing.T) {
		got, err := e.EvalRowFilters(ask("dave", nil, "select", column("geo", "cities")))
		var pe *pgerror.Error
		if !errors.As(err, &pe) || pe.Code != pgerror.InsufficientPrivilege || got != nil {
			t.Errorf("got %v, %v; want no filters and SQLSTATE 42501", got, err)
		}
	})
}

// EvalRowFilter keeps Ranger's answer, tag row filters included: the first
// applicable filter, tags before resources, replaced only by a strictly
// higher priority.
func TestEvalRowFilterWithTags(t *testing.T) {
	e := rowFilterEvaluator(t, true)
	tests := []struct {
		name   string
		user   string
		groups []string
		table  Resource
		want   string
		id     int64
		byTag  bool
	}{
		{"a tag filter beats a resource filter of equal priority", "carl", []string{"analysts"}, column("fin", "ledger"), "amount < 1000", 103, true},
		{"an OVERRIDE resource filter beats NORMAL tag filters", "ann", nil, column("hr", "emp"), "active", 4, false},
		{"an OVERRIDE tag filter", "bob", []string{"analysts"}, column("fin", "ledger"), "1 = 1", 105, true},
		{"none", "zed", nil, column("hr", "emp"), "", -1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := e.EvalRowFilter(ask(tc.user, tc.groups, "select", tc.table))
			if err != nil {
				t.Fatal(err)
			}
			if got.FilterExpr != tc.want || got.PolicyID != tc.id || got.ByTag != tc.byTag {
				t.Errorf("got %+v, want %q policy=%d byTag=%v", got, tc.want, tc.id, tc.byTag)
			}
		})
	}
}

// Without a rowFilterDef in the tag service definition (Ranger Admin's
// default) tag row-filter policies are ignored.
func TestTagRowFiltersNeedRowFilterDef(t *testing.T) {
	for _, def := range []string{"built without row filters", "as on disk"} {
		t.Run(def, func(t *testing.T) {
			e := rowFilterEvaluator(t, false)
			if def == "as on disk" {
				var st ServiceTags
				if err := json.Unmarshal([]byte(rowFilterTags), &st); err != nil {
					t.Fatal(err)
				}
				e = mustNew(t, Config{ServiceDef: serviceDef(t, "hive"), Policies: policies(t, rowFilterResourcePolicies),
					TagServiceDef: serviceDef(t, "tag"), TagPolicies: policies(t, rowFilterTagPolicies), ServiceTags: &st})
			}
			got, err := e.EvalRowFilters(ask("ann", nil, "select", column("hr", "emp")))
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, r := range got {
				ids = append(ids, r.PolicyID)
			}
			if !slices.Equal(ids, []int64{4, 1}) {
				t.Errorf("policies %v, want the resource filters [4 1] only", ids)
			}
		})
	}
}
