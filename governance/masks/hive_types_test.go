package masks

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance/ranger"
)

// referenceHiveDef is the checked-in copy of Ranger's hive service
// definition, which package ranger's tests also read.
const referenceHiveDef = "../ranger/testdata/reference/service-defs/ranger-servicedef-hive.json"

// TestHiveMaskTypesMatchTheReference holds the mask types and their
// transformers to Ranger's hive service definition: the same names, in
// the same order, with the same transformers.
func TestHiveMaskTypesMatchTheReference(t *testing.T) {
	data, err := os.ReadFile(referenceHiveDef)
	if err != nil {
		t.Fatalf("the reference hive service definition is checked in at %s: %v", referenceHiveDef, err)
	}
	var def ranger.ServiceDef
	if err := json.Unmarshal(data, &def); err != nil {
		t.Fatal(err)
	}
	if def.DataMaskDef == nil {
		t.Fatal("the reference hive service definition has no dataMaskDef")
	}
	var want, got []string
	for _, mt := range def.DataMaskDef.MaskTypes {
		want = append(want, mt.Name+" = "+mt.Transformer)
	}
	for _, mt := range hiveMaskTypes() {
		got = append(got, mt.name+" = "+mt.transformer)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("mask types:\n%s\nthe reference has:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
