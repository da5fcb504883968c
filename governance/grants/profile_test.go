package grants

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
)

func loadProfile(t *testing.T) *Profile {
	t.Helper()
	p, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return p
}

// specRecord is one line of testdata/spec-access-types.txt.
type specRecord struct {
	privilege string
	kind      ObjectKind
	level     Level
	accesses  []string
}

func readSpecTable(t *testing.T) []specRecord {
	t.Helper()
	f, err := os.Open("testdata/spec-access-types.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []specRecord
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		switch {
		case strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#"):
		case text[0] == ' ' || text[0] == '\t':
			if len(out) == 0 {
				t.Fatalf("line %d: continuation with no record", line)
			}
			last := &out[len(out)-1]
			last.accesses = append(last.accesses, strings.Fields(text)...)
		default:
			f := strings.Split(text, "|")
			if len(f) != 4 {
				t.Fatalf("line %d: want 4 fields, got %q", line, text)
			}
			out = append(out, specRecord{
				privilege: strings.TrimSpace(f[0]),
				kind:      ObjectKind(strings.TrimSpace(f[1])),
				level:     Level(strings.TrimSpace(f[2])),
				accesses:  strings.Fields(f[3]),
			})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestProfileMatchesSpecTable compares, for every privilege and object
// kind, the profile's closed access types at each level with the table
// transcribed from the spec, both ways: nothing missing, nothing extra.
func TestProfileMatchesSpecTable(t *testing.T) {
	p := loadProfile(t)
	want := map[string][]string{}
	for _, r := range readSpecTable(t) {
		key := r.privilege + " on " + string(r.kind) + " at " + string(r.level)
		if _, dup := want[key]; dup {
			t.Fatalf("spec table lists %s twice", key)
		}
		want[key] = sortedSet(r.accesses)
		if len(r.accesses) != len(want[key]) {
			t.Errorf("spec table repeats an access type in %s", key)
		}
	}
	got := map[string][]string{}
	for _, name := range p.Privileges() {
		for _, kind := range []ObjectKind{ObjectCatalog, ObjectSchema, ObjectTable, ObjectView} {
			byLevel, ok := p.AccessTypes(name, kind)
			if !ok {
				continue
			}
			for l, set := range byLevel {
				got[name+" on "+string(kind)+" at "+string(l)] = set
			}
		}
	}
	for key, w := range want {
		g, ok := got[key]
		if !ok {
			t.Errorf("%s: in the spec table, not in the profile", key)
			continue
		}
		if !slices.Equal(g, w) {
			t.Errorf("%s:\n profile %v\n spec    %v\n missing %v\n extra   %v", key, g, w, minus(w, g), minus(g, w))
		}
	}
	for key := range got {
		if _, ok := want[key]; !ok {
			t.Errorf("%s: in the profile, not in the spec table", key)
		}
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// TestExpandedSetSizes pins the sizes the spec states in words.
func TestExpandedSetSizes(t *testing.T) {
	p := loadProfile(t)
	tests := []struct {
		privilege string
		kind      ObjectKind
		level     Level
		size      int
		source    string
	}{
		{"INSERT", ObjectTable, LevelTable, 22, "spec/002: INSERT is 22 access types"},
		{"MODIFY", ObjectTable, LevelTable, 22, "spec/002: INSERT / UPDATE / DELETE / MODIFY share a row"},
		{"SELECT", ObjectTable, LevelTable, 3, "spec/002: table-data-read, table-properties-read, table-list"},
		{"ALL PRIVILEGES", ObjectCatalog, LevelCatalog, 56, "the service definition: catalog-content-manage implies 55 types"},
	}
	for _, tt := range tests {
		byLevel, ok := p.AccessTypes(tt.privilege, tt.kind)
		if !ok {
			t.Errorf("%s on %s: not in the profile", tt.privilege, tt.kind)
			continue
		}
		if n := len(byLevel[tt.level]); n != tt.size {
			t.Errorf("%s on %s at %s: %d access types, want %d (%s)", tt.privilege, tt.kind, tt.level, n, tt.size, tt.source)
		}
	}
}

// TestTraversalIsUsage checks that every traversal level of every plan is
// what USAGE writes there, so that the statements a refused delegated
// grant suggests (GRANT USAGE ON DATABASE / SCHEMA) really supply it.
func TestTraversalIsUsage(t *testing.T) {
	p := loadProfile(t)
	usageOnCatalog, _ := p.AccessTypes("USAGE", ObjectCatalog)
	usageOnSchema, _ := p.AccessTypes("USAGE", ObjectSchema)
	usage := map[Level][]string{
		LevelCatalog:   usageOnCatalog[LevelCatalog],
		LevelNamespace: usageOnSchema[LevelNamespace],
	}
	for _, name := range p.Privileges() {
		for _, kind := range []ObjectKind{ObjectSchema, ObjectTable, ObjectView} {
			byLevel, ok := p.AccessTypes(name, kind)
			if !ok {
				continue
			}
			for _, l := range levels()[:kind.depth()-1] {
				if !newAccessSet(usage[l]).covers(byLevel[l]) {
					t.Errorf("%s on %s: traversal at %s is %v, not covered by USAGE's %v", name, kind, l, byLevel[l], usage[l])
				}
			}
		}
	}
}

// TestServiceDefinitionShape pins the embedded service definition to the
// counts of the upstream file (69 access types, each restricted to one
// resource), so that a replaced copy is noticed.
func TestServiceDefinitionShape(t *testing.T) {
	sd, err := parseServiceDef([]byte(embeddedServiceDef))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sd.implies); n != 69 {
		t.Errorf("%d access types, want 69", n)
	}
	perResource := map[string]int{}
	for _, r := range sd.levelOf {
		perResource[r]++
	}
	want := map[string]int{"root": 5, "catalog": 8, "principal": 6, "namespace": 14, "table": 30, "policy": 6}
	for r, n := range want {
		if perResource[r] != n {
			t.Errorf("resource %s restricts %d access types, want %d", r, perResource[r], n)
		}
	}
}

func TestClosure(t *testing.T) {
	p := loadProfile(t)
	tests := []struct {
		in      []string
		want    []string
		wantErr string
	}{
		{in: []string{"table-data-read"}, want: []string{"table-data-read", "table-list", "table-properties-read"}},
		{in: []string{"namespace-properties-read"}, want: []string{"namespace-list", "namespace-properties-read"}},
		{in: []string{"catalog-properties-write"}, want: []string{"catalog-list", "catalog-properties-read", "catalog-properties-write"}},
		{in: []string{"table-drop"}, want: []string{"table-drop"}},
		{in: []string{"view-metadata-full"}, want: []string{"view-create", "view-drop", "view-list", "view-metadata-full", "view-properties-read", "view-properties-write"}},
		// Two seeds whose implications overlap: each type once.
		{in: []string{"table-create", "table-data-read"}, want: []string{"table-create", "table-data-read", "table-list", "table-properties-read"}},
		{in: nil, want: []string{}},
		{in: []string{"table-select"}, wantErr: `access type "table-select" is not declared`},
	}
	for _, tt := range tests {
		got, err := p.Closure(tt.in...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Closure(%v) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Closure(%v) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		// A closure is closed.
		again, err := p.Closure(got...)
		if err != nil || !slices.Equal(again, got) {
			t.Errorf("Closure(Closure(%v)) = %v, %v; want %v", tt.in, again, err, got)
		}
	}
	// The transitive step matters in principle even where this service
	// definition lists every implication directly.
	chained := `{"name":"t","resources":[],"accessTypes":[
		{"name":"a","impliedGrants":["b"]},{"name":"b","impliedGrants":["c"]},{"name":"c"}]}`
	sd, err := parseServiceDef([]byte(chained))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := sd.closure([]string{"a"}); err != nil || !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("chained closure = %v, %v", got, err)
	}
}

func TestServiceDefinitionRejects(t *testing.T) {
	tests := []struct{ name, def, wantErr string }{
		{"not JSON", `{`, "parse service definition"},
		{"duplicate access type", `{"name":"t","accessTypes":[{"name":"a"},{"name":"a"}]}`, `"a" declared twice`},
		{"undeclared implied grant", `{"name":"t","accessTypes":[{"name":"a","impliedGrants":["z"]}]}`, `implies undeclared access type "z"`},
		{"undeclared restriction", `{"name":"t","resources":[{"name":"r","accessTypeRestrictions":["z"]}],"accessTypes":[{"name":"a"}]}`, `restricts undeclared access type "z"`},
		{"two restrictions", `{"name":"t","resources":[{"name":"r","accessTypeRestrictions":["a"]},{"name":"s","accessTypeRestrictions":["a"]}],"accessTypes":[{"name":"a"}]}`, "restricted to both r and s"},
	}
	for _, tt := range tests {
		_, err := parseServiceDef([]byte(tt.def))
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error = %v, want %q", tt.name, err, tt.wantErr)
		}
	}
}

func TestProfileRejects(t *testing.T) {
	tests := []struct{ name, profile, wantErr string }{
		{"unknown field", `{"version":1,"privileges":[],"extra":1}`, "unknown field"},
		{"wrong version", `{"version":2,"privileges":[]}`, "version 2"},
		{"unknown level", `{"version":1,"privileges":[{"name":"X","level":"column","on":{}}]}`, `unknown level "column"`},
		{"object deeper than level", `{"version":1,"privileges":[{"name":"X","level":"namespace","on":{
			"table":{"catalog":["namespace-list"],"namespace":["namespace-list"],"table":["table-drop"]}}}]}`, "lists table objects, which are deeper"},
		{"nothing at the level", `{"version":1,"privileges":[{"name":"X","level":"table","on":{
			"schema":{"catalog":["namespace-list"],"namespace":["namespace-list"]}}}]}`, "lists no object at it"},
		{"missing traversal", `{"version":1,"privileges":[{"name":"X","level":"table","on":{
			"table":{"catalog":["namespace-list"],"table":["table-drop"]}}}]}`, "no access types at the namespace level"},
		{"level below the object", `{"version":1,"privileges":[{"name":"X","level":"namespace","on":{
			"schema":{"catalog":["namespace-list"],"namespace":["namespace-list"],"table":["table-drop"]}}}]}`, `level "table" is not at or above the object`},
		{"unknown kind", `{"version":1,"privileges":[{"name":"X","level":"table","on":{"index":{}}}]}`, `unknown object kind "index"`},
		{"unknown access type", `{"version":1,"privileges":[{"name":"X","level":"catalog","on":{
			"catalog":{"catalog":["catalog-everything"]}}}]}`, `unknown access type "catalog-everything"`},
		{"name not canonical", `{"version":1,"privileges":[{"name":"create  table","level":"catalog","on":{
			"catalog":{"catalog":["namespace-list"]}}}]}`, "not in canonical form"},
		{"name twice", `{"version":1,"privileges":[
			{"name":"X","level":"catalog","on":{"catalog":{"catalog":["namespace-list"]}}},
			{"name":"Y","aliases":["X"],"level":"catalog","on":{"catalog":{"catalog":["namespace-list"]}}}]}`, `"X" used twice`},
		{"name is a native type", `{"version":1,"privileges":[{"name":"TABLE-DROP","level":"catalog","on":{
			"catalog":{"catalog":["namespace-list"]}}}]}`, "also a native access type"},
	}
	for _, tt := range tests {
		_, err := parseProfile([]byte(tt.profile), []byte(embeddedServiceDef))
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error = %v, want %q", tt.name, err, tt.wantErr)
		}
	}
}
