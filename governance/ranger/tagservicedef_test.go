package ranger

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TagServiceDefFor over Ranger's own hive and tag service definitions
// gives what Ranger Admin serves: hive's types qualified and numbered
// after hive's id (3 × 1001 + item id).
func TestTagServiceDefFor(t *testing.T) {
	hiveDef, tagDef := serviceDef(t, "hive"), serviceDef(t, "tag")
	built := TagServiceDefFor(hiveDef, tagDef, true)

	accessType := func(defs []AccessTypeDef, name string) AccessTypeDef {
		t.Helper()
		for _, d := range defs {
			if d.Name == name {
				return d
			}
		}
		t.Fatalf("no access type %q in %v", name, names(defs))
		return AccessTypeDef{}
	}
	t.Run("access types", func(t *testing.T) {
		if got, want := len(built.AccessTypes), len(hiveDef.AccessTypes); got != want {
			t.Errorf("%d access types, want %d", got, want)
		}
		tests := []struct {
			name    string
			itemID  int64
			label   string
			implied []string
		}{
			{"hive:select", 3004, "select", nil},
			{"hive:refresh", 3017, "Refresh", nil},
			{"hive:all", 3011, "All", []string{"hive:select", "hive:update", "hive:create", "hive:drop", "hive:alter", "hive:index",
				"hive:lock", "hive:read", "hive:write", "hive:repladmin", "hive:serviceadmin", "hive:refresh"}},
		}
		for _, tc := range tests {
			got := accessType(built.AccessTypes, tc.name)
			if got.ItemID != tc.itemID || got.Label != tc.label || !slices.Equal(got.ImpliedGrants, tc.implied) {
				t.Errorf("%s: got %+v, want item %d label %q implied %v", tc.name, got, tc.itemID, tc.label, tc.implied)
			}
		}
	})
	t.Run("data mask definition", func(t *testing.T) {
		md := built.DataMaskDef
		if md == nil {
			t.Fatal("no dataMaskDef")
		}
		if got, want := len(md.MaskTypes), len(hiveDef.DataMaskDef.MaskTypes); got != want {
			t.Errorf("%d mask types, want %d", got, want)
		}
		i := slices.IndexFunc(md.MaskTypes, func(m DataMaskTypeDef) bool { return m.Name == "hive:MASK_SHOW_LAST_4" })
		if i < 0 {
			t.Fatalf("no hive:MASK_SHOW_LAST_4 among %v", md.MaskTypes)
		}
		if m := md.MaskTypes[i]; m.ItemID != 3005 || m.Transformer != "mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')" || m.Label != "Partial mask: show last 4" {
			t.Errorf("hive:MASK_SHOW_LAST_4 = %+v", m)
		}
		want := []AccessTypeDef{{ItemID: 3004, Name: "hive:select", Label: "select"}}
		if !reflect.DeepEqual(md.AccessTypes, want) {
			t.Errorf("data mask access types = %+v, want %+v", md.AccessTypes, want)
		}
		if !reflect.DeepEqual(md.Resources, tagDef.Resources) {
			t.Errorf("data mask resources = %+v, want the tag resource", md.Resources)
		}
	})
	t.Run("row filter definition only on request", func(t *testing.T) {
		rf := built.RowFilterDef
		want := []AccessTypeDef{{ItemID: 3004, Name: "hive:select", Label: "select"}}
		if rf == nil || !reflect.DeepEqual(rf.AccessTypes, want) || !reflect.DeepEqual(rf.Resources, tagDef.Resources) {
			t.Errorf("rowFilterDef = %+v, want hive:select on the tag resource", rf)
		}
		if off := TagServiceDefFor(hiveDef, tagDef, false); off.RowFilterDef != nil {
			t.Errorf("rowFilterDef without rowFilters = %+v", off.RowFilterDef)
		}
	})
	t.Run("the tag definition's own parts", func(t *testing.T) {
		if !reflect.DeepEqual(built.Resources, tagDef.Resources) || !reflect.DeepEqual(built.PolicyConditions, tagDef.PolicyConditions) ||
			!reflect.DeepEqual(built.ContextEnrichers, tagDef.ContextEnrichers) || built.Name != "tag" || built.ID != 100 {
			t.Error("the tag definition's resources, conditions, enrichers or name changed")
		}
	})
	t.Run("arguments untouched, building again changes nothing", func(t *testing.T) {
		if !reflect.DeepEqual(hiveDef, serviceDef(t, "hive")) || !reflect.DeepEqual(tagDef, serviceDef(t, "tag")) {
			t.Error("an argument was modified")
		}
		if again := TagServiceDefFor(hiveDef, built, true); !reflect.DeepEqual(again, built) {
			t.Errorf("built twice differs:\n%+v\n%+v", again, built)
		}
		built.DataMaskDef.Resources[0].MatcherOptions["wildCard"] = "true"
		if tagDef.Resources[0].MatcherOptions["wildCard"] != "false" {
			t.Error("the built definition shares the tag resource with its argument")
		}
	})
	t.Run("another component's types stay", func(t *testing.T) {
		withKafka := tagDef.clone()
		withKafka.AccessTypes = []AccessTypeDef{{ItemID: 9001, Name: "kafka:publish"}}
		got := TagServiceDefFor(hiveDef, withKafka, false)
		if got.AccessTypes[0].Name != "kafka:publish" || len(got.AccessTypes) != 1+len(hiveDef.AccessTypes) {
			t.Errorf("access types = %v", names(got.AccessTypes))
		}
	})
	t.Run("tag policies compile and evaluate against it", func(t *testing.T) {
		e := mustNew(t, Config{ServiceDef: hiveDef, TagServiceDef: built, TagPolicies: policies(t, `[
		  {"id":1,"name":"PII mask","policyType":1,"resources":{"tag":{"values":["PII"]}},
		   "dataMaskPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["ann"],"dataMaskInfo":{"dataMaskType":"hive:MASK_SHOW_LAST_4"}}]},
		  {"id":2,"name":"PII rows","policyType":2,"resources":{"tag":{"values":["PII"]}},
		   "rowFilterPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["ann"],"rowFilterInfo":{"filterExpr":"region = 'EU'"}}]}]`)})
		req := ask("ann", nil, "select", column("hr", "emp", "ssn"))
		req.Tags, req.TagsGiven = []ResourceTag{{Type: "PII"}}, true
		m, err := e.EvalDataMask(req)
		if err != nil || m.MaskType != "MASK_SHOW_LAST_4" || m.Transformer != "mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')" {
			t.Errorf("mask = %+v, %v", m, err)
		}
		req.Resource = column("hr", "emp")
		f, err := e.EvalRowFilter(req)
		if err != nil || f.FilterExpr != "region = 'EU'" || f.PolicyID != 2 || !f.ByTag {
			t.Errorf("row filter = %+v, %v", f, err)
		}
	})
}

// Ranger's policy-engine test files carry a tag service definition for
// hive (tagPolicyInfo.serviceDef). Rebuilt from the file's hive definition
// and the tag definition's own parts, it names the same access types with
// the same implied grants, the same data-mask and row-filter access types
// and resources, and every test of the file still passes with it. The
// files were written by hand: their item ids count from 1, their mask
// types are bare ("MASK") where Ranger Admin qualifies them ("hive:MASK",
// which the evaluator reads alike), and one of them gives hive:all implied
// grants its hive definition's all does not have.
func TestTagServiceDefForMatchesRangerTestFiles(t *testing.T) {
	dir := filepath.Join("testdata", "reference", "policyengine")
	tests := []struct {
		file string
		// impliedDiffers names the access types whose implied grants the
		// file's tag definition does not take from its hive definition.
		impliedDiffers []string
	}{
		{"test_policyengine_tag_hive.json", nil},
		{"test_policyengine_tag_hive_mask.json", nil},
		{"test_policyengine_resource_hierarchy_tags.json", []string{"hive:all"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var f policyEngineFile
			if err := json.Unmarshal(data, &f); err != nil {
				t.Fatal(err)
			}
			served := f.TagPolicyInfo.ServiceDef
			prefix := f.ServiceDef.Name + ":"
			own := served.clone()
			own.AccessTypes = slices.DeleteFunc(own.AccessTypes, func(a AccessTypeDef) bool { return strings.HasPrefix(a.Name, prefix) })
			own.DataMaskDef, own.RowFilterDef = nil, nil
			built := TagServiceDefFor(f.ServiceDef, own, served.RowFilterDef != nil)

			if got, want := names(built.AccessTypes), names(served.AccessTypes); !slices.Equal(got, want) {
				t.Errorf("access types %v, the file has %v", got, want)
			}
			for i := range min(len(built.AccessTypes), len(served.AccessTypes)) {
				b, s := built.AccessTypes[i], served.AccessTypes[i]
				if same := slices.Equal(b.ImpliedGrants, s.ImpliedGrants); same == slices.Contains(tc.impliedDiffers, b.Name) {
					t.Errorf("%s implies %v, the file %v", b.Name, b.ImpliedGrants, s.ImpliedGrants)
				}
			}
			if md := served.DataMaskDef; md != nil {
				if built.DataMaskDef == nil {
					t.Fatal("no dataMaskDef built")
				}
				for _, m := range md.MaskTypes {
					if !slices.ContainsFunc(built.DataMaskDef.MaskTypes, func(b DataMaskTypeDef) bool { return b.Name == prefix+m.Name && b.Label == m.Label }) {
						t.Errorf("mask type %s is not built as %s%s", m.Name, prefix, m.Name)
					}
				}
				if len(md.AccessTypes) > 0 && !slices.Equal(names(built.DataMaskDef.AccessTypes), names(md.AccessTypes)) {
					t.Errorf("data mask access types %v, the file has %v", names(built.DataMaskDef.AccessTypes), names(md.AccessTypes))
				}
				if got, want := resourceNames(built.DataMaskDef.Resources), resourceNames(md.Resources); !slices.Equal(got, want) {
					t.Errorf("data mask resources %v, the file has %v", got, want)
				}
			}
			if rf := served.RowFilterDef; rf != nil {
				if built.RowFilterDef == nil {
					t.Fatal("no rowFilterDef built")
				}
				if got, want := names(built.RowFilterDef.AccessTypes), names(rf.AccessTypes); !slices.Equal(got, want) {
					t.Errorf("row filter access types %v, the file has %v", got, want)
				}
				if got, want := resourceNames(built.RowFilterDef.Resources), resourceNames(rf.Resources); !slices.Equal(got, want) {
					t.Errorf("row filter resources %v, the file has %v", got, want)
				}
			}

			f.TagPolicyInfo.ServiceDef = built
			cfg, err := policyEngineConfig(dir, path, &f)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for i := range f.Tests {
				test := &f.Tests[i]
				req, err := test.request()
				if err != nil {
					t.Fatal(err)
				}
				if problems := checkPolicyEngineTest(ev, test, req); len(problems) > 0 {
					t.Errorf("%s: %s", testLabel(i, test.Name), strings.Join(problems, "; "))
				}
			}
		})
	}
}

func names(defs []AccessTypeDef) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}

func resourceNames(defs []ResourceDef) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}
