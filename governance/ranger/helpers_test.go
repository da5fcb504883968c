package ranger

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// serviceDef loads one of the real service definitions in
// testdata/reference/service-defs (hive, tag, polaris).
func serviceDef(t testing.TB, name string) *ServiceDef {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "reference", "service-defs", "ranger-servicedef-"+name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var def ServiceDef
	if err := json.Unmarshal(data, &def); err != nil {
		t.Fatal(err)
	}
	return &def
}

// policies decodes policies written as Ranger writes them.
func policies(t testing.TB, js string) []Policy {
	t.Helper()
	var ps []Policy
	if err := json.Unmarshal([]byte(js), &ps); err != nil {
		t.Fatalf("policies: %v\n%s", err, js)
	}
	return ps
}

// mustNew builds an evaluator that must build.
func mustNew(t testing.TB, cfg Config) *Evaluator {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// hive is an evaluator over the real hive service definition.
func hive(t *testing.T, js string) *Evaluator {
	t.Helper()
	return mustNew(t, Config{ServiceDef: serviceDef(t, "hive"), Policies: policies(t, js)})
}

// column names a hive resource by its levels: database, table, column.
func column(levels ...string) Resource {
	names := []string{"database", "table", "column"}
	r := Resource{}
	for i, l := range levels {
		r[names[i]] = []string{l}
	}
	return r
}

// ask is a request by user (in groups) for access on a resource.
func ask(user string, groups []string, access string, res Resource) *Request {
	return &Request{Resource: res, AccessType: access, User: user, Groups: groups}
}
