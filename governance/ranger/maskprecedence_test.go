package ranger

import (
	"strings"
	"testing"
)

const precedenceResourceMasks = `[
  {"id":1,"name":"ssn","policyType":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn"]}},
   "dataMaskPolicyItems":[
     {"accesses":[{"type":"select"}],"users":["carl","erin"],"dataMaskInfo":{"dataMaskType":"MASK"}},
     {"accesses":[{"type":"select"}],"users":["vip"],"dataMaskInfo":{"dataMaskType":"MASK_SHOW_LAST_4"}}]},
  {"id":2,"name":"ssn override","policyType":1,"policyPriority":1,"resources":{"database":{"values":["hr"]},"table":{"values":["emp"]},"column":{"values":["ssn"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"select"}],"users":["boss"],"dataMaskInfo":{"dataMaskType":"MASK_NONE"}}]}
]`

const precedenceTagMasks = `[
  {"id":101,"name":"PII","policyType":1,"resources":{"tag":{"values":["PII"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["carl","boss","dan"],"dataMaskInfo":{"dataMaskType":"hive:MASK_HASH"}}]},
  {"id":102,"name":"PII override","policyType":1,"policyPriority":1,"resources":{"tag":{"values":["PII"]}},
   "dataMaskPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["vip"],"dataMaskInfo":{"dataMaskType":"hive:MASK_NULL"}}]}
]`

// Config.MaskPrecedence decides only between a tag mask and a resource
// mask of the same priority; a strictly higher priority wins either way.
func TestMaskPrecedence(t *testing.T) {
	hiveDef := serviceDef(t, "hive")
	evaluator := func(precedence string) *Evaluator {
		return mustNew(t, Config{
			ServiceDef: hiveDef, Policies: policies(t, precedenceResourceMasks),
			TagServiceDef: TagServiceDefFor(hiveDef, serviceDef(t, "tag"), false), TagPolicies: policies(t, precedenceTagMasks),
			MaskPrecedence: precedence,
		})
	}
	type answer struct {
		mask  string
		id    int64
		byTag bool
	}
	tests := []struct {
		name     string
		user     string
		tag      answer // "" and "tag"
		resource answer // "resource"
	}{
		{"equal priority: the precedence decides", "carl", answer{"MASK_HASH", 101, true}, answer{"MASK", 1, false}},
		{"an OVERRIDE resource mask beats a NORMAL tag mask", "boss", answer{"MASK_NONE", 2, false}, answer{"MASK_NONE", 2, false}},
		{"an OVERRIDE tag mask beats a NORMAL resource mask", "vip", answer{"MASK_NULL", 102, true}, answer{"MASK_NULL", 102, true}},
		{"only a tag mask", "dan", answer{"MASK_HASH", 101, true}, answer{"MASK_HASH", 101, true}},
		{"only a resource mask", "erin", answer{"MASK", 1, false}, answer{"MASK", 1, false}},
		{"no mask", "zed", answer{"", -1, false}, answer{"", -1, false}},
	}
	for _, precedence := range []string{"", MaskPrecedenceTag, MaskPrecedenceResource} {
		e := evaluator(precedence)
		for _, tc := range tests {
			t.Run(precedence+"/"+tc.name, func(t *testing.T) {
				want := tc.tag
				if precedence == MaskPrecedenceResource {
					want = tc.resource
				}
				req := ask(tc.user, nil, "select", column("hr", "emp", "ssn"))
				req.Tags, req.TagsGiven = []ResourceTag{{Type: "PII"}}, true
				got, err := e.EvalDataMask(req)
				if err != nil {
					t.Fatal(err)
				}
				if (answer{got.MaskType, got.PolicyID, got.ByTag}) != want {
					t.Errorf("got %s policy=%d byTag=%v, want %+v", got.MaskType, got.PolicyID, got.ByTag, want)
				}
			})
		}
	}

	t.Run("an unknown precedence is refused", func(t *testing.T) {
		_, err := New(Config{ServiceDef: hiveDef, MaskPrecedence: "column"})
		if err == nil || !strings.Contains(err.Error(), `mask precedence "column"`) {
			t.Errorf("err = %v", err)
		}
	})
}
