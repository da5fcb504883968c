package ranger

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParsePolarisResource(t *testing.T) {
	tests := []struct {
		in   string
		want Resource
	}{
		{"ROOT:POLARIS", Resource{"root": {"POLARIS"}}},
		{"CATALOG:POLARIS/c1", Resource{"root": {"POLARIS"}, "catalog": {"c1"}}},
		{"TABLE_LIKE:POLARIS/c1/ns1/t1", Resource{"root": {"POLARIS"}, "catalog": {"c1"}, "namespace": {"ns1"}, "table": {"t1"}}},
		{"NAMESPACE:POLARIS/c1/a/b", Resource{"root": {"POLARIS"}, "catalog": {"c1"}, "namespace": {"a/b"}}},
		{"PRINCIPAL:POLARIS/p1", Resource{"root": {"POLARIS"}, "principal": {"p1"}}},
		{"POLICY:POLARIS/c1/ns1/p1", Resource{"root": {"POLARIS"}, "catalog": {"c1"}, "namespace": {"ns1"}, "policy": {"p1"}}},
		{"CATALOG_ROLE:POLARIS/c1/r1", nil},
		{"TABLE_LIKE:POLARIS/c1", nil},
		{"nonsense", nil},
	}
	for _, tc := range tests {
		got, err := parsePolarisResource(tc.in)
		if tc.want == nil {
			if err == nil {
				t.Errorf("%s: parsed as %v", tc.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// The Polaris authorizer needs every target and secondary access type, and
// refuses UNMAPPED operations; a catalog-level grant does not reach tables.
func TestPolarisAuthorize(t *testing.T) {
	ops, err := parsePolarisOps([]byte("# comment\noperation\ttarget_access_types\tsecondary_access_types\trooting\n" +
		"LOAD_TABLE\ttable-properties-read\t-\tROOT\n" +
		"RENAME_TABLE\ttable-drop\ttable-create,table-list\tROOT\n" +
		"CREATE_CATALOG_ROLE\tUNMAPPED\t-\t-\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := mustNew(t, Config{ServiceDef: serviceDef(t, "polaris"), Policies: policies(t, `[
	  {"id":1,"name":"catalog manage","resources":{"root":{"values":["R"]},"catalog":{"values":["c"]}},
	   "policyItems":[{"accesses":[{"type":"catalog-content-manage"}],"users":["cat_admin"]}]},
	  {"id":2,"name":"tables","resources":{"root":{"values":["R"]},"catalog":{"values":["c"]},"namespace":{"values":["*"]},"table":{"values":["*"]}},
	   "policyItems":[{"accesses":[{"type":"table-data-write"},{"type":"table-drop"}],"users":["writer"]}]},
	  {"id":3,"name":"namespace","resources":{"root":{"values":["R"]},"catalog":{"values":["c"]},"namespace":{"values":["ns"]}},
	   "policyItems":[{"accesses":[{"type":"table-create"}],"users":["writer"]},{"accesses":[{"type":"table-create"},{"type":"table-list"}],"users":["mover"]}]},
	  {"id":4,"name":"mover tables","resources":{"root":{"values":["R"]},"catalog":{"values":["c"]},"namespace":{"values":["ns"]},"table":{"values":["t"]}},
	   "policyItems":[{"accesses":[{"type":"table-drop"}],"users":["mover","dropper"]}]}
	]`)})
	tests := []struct {
		name, op, user, target, secondary string
		want                              bool
	}{
		{"table-data-write implies table-properties-read", "LOAD_TABLE", "writer", "TABLE_LIKE:R/c/ns/t", "", true},
		{"a catalog grant does not reach tables", "LOAD_TABLE", "cat_admin", "TABLE_LIKE:R/c/ns/t", "", false},
		{"rename needs the secondary types", "RENAME_TABLE", "dropper", "TABLE_LIKE:R/c/ns/t", "NAMESPACE:R/c/ns", false},
		{"a grant on every table of every namespace covers the namespace", "RENAME_TABLE", "writer", "TABLE_LIKE:R/c/ns/t", "NAMESPACE:R/c/ns", true},
		{"rename with every type", "RENAME_TABLE", "mover", "TABLE_LIKE:R/c/ns/t", "NAMESPACE:R/c/ns", true},
		{"unmapped is refused", "CREATE_CATALOG_ROLE", "cat_admin", "CATALOG:R/c", "", false},
		{"unknown operation is refused", "FLY", "writer", "TABLE_LIKE:R/c/ns/t", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, why := polarisAuthorize(e, ops, tc.op, tc.user, nil, tc.target, tc.secondary)
			if got != tc.want {
				t.Errorf("allowed = %v (%s), want %v", got, why, tc.want)
			}
		})
	}
}

// The operation table in testdata maps every Polaris operation.
func TestPolarisOperationTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "reference", "polaris", polarisOpsFile))
	if err != nil {
		t.Fatal(err)
	}
	ops, err := parsePolarisOps(data)
	if err != nil {
		t.Fatal(err)
	}
	mapped := 0
	for _, op := range ops {
		if op.target != nil {
			mapped++
		}
	}
	if len(ops) != 117 || mapped != 81 {
		t.Errorf("%d operations, %d mapped; want 117, 81", len(ops), mapped)
	}
}
