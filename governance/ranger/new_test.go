package ranger

import (
	"encoding/json"
	"strings"
	"testing"
)

// New refuses what it cannot evaluate faithfully. (A policy whose
// conditions it cannot evaluate is refused on its own: TestRefusedPolicy.)
func TestNewRefuses(t *testing.T) {
	tests := []struct {
		name     string
		policies string
		want     string
	}{
		{"unknown resource", `[{"id":1,"name":"p","resources":{"schema":{"values":["x"]}}}]`, `"schema" is not defined`},
		{"gap in the resources", `[{"id":1,"name":"p","resources":{"database":{"values":["x"]},"column":{"values":["c"]}}}]`, "do not form a resource hierarchy"},
		{"no resources", `[{"id":1,"name":"p","resources":{}}]`, "no resources"},
		{"an expression in a resource value", `[{"id":1,"name":"p","resources":{"database":{"values":["${{USER.dept}}"]}}}]`, "request expression"},
		{"a security zone's policy", `[{"id":1,"name":"p","zoneName":"finance","resources":{"database":{"values":["x"]}}}]`, "security zone \"finance\" is not defined"},
		{"unknown policy type", `[{"id":1,"name":"p","policyType":7,"resources":{"database":{"values":["x"]}}}]`, "unknown policy type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(Config{ServiceDef: serviceDef(t, "hive"), Policies: policies(t, tc.policies)})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
	t.Run("no service definition", func(t *testing.T) {
		if _, err := New(Config{}); err == nil {
			t.Error("built without a service definition")
		}
	})
	t.Run("mask policy without a data mask definition", func(t *testing.T) {
		def := serviceDef(t, "polaris")
		_, err := New(Config{ServiceDef: def, Policies: policies(t, `[{"id":1,"name":"p","policyType":1,"resources":{"root":{"values":["x"]}}}]`)})
		if err == nil || !strings.Contains(err.Error(), "defines no resources for policy type 1") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("tag policy naming another resource", func(t *testing.T) {
		_, err := New(Config{ServiceDef: serviceDef(t, "hive"), TagServiceDef: serviceDef(t, "tag"),
			TagPolicies: policies(t, `[{"id":1,"name":"p","resources":{"database":{"values":["x"]}}}]`)})
		if err == nil || !strings.Contains(err.Error(), `names only the "tag" resource`) {
			t.Errorf("err = %v", err)
		}
	})
}

// Matcher options are Map<String, String> in Ranger, written with
// booleans and numbers in its own files.
func TestStringMap(t *testing.T) {
	var def ResourceDef
	if err := json.Unmarshal([]byte(`{"name":"x","matcherOptions":{"wildCard":false,"ignoreCase":"true","n":60000}}`), &def); err != nil {
		t.Fatal(err)
	}
	want := StringMap{"wildCard": "false", "ignoreCase": "true", "n": "60000"}
	for k, v := range want {
		if def.MatcherOptions[k] != v {
			t.Errorf("%s = %q, want %q", k, def.MatcherOptions[k], v)
		}
	}
	if def.MatcherOptions.boolOption("wildCard", true) || !def.MatcherOptions.boolOption("ignoreCase", false) || !def.MatcherOptions.boolOption("absent", true) {
		t.Error("boolOption")
	}
}
