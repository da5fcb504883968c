package ranger

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseGeolocation(t *testing.T) {
	dotted, err := os.ReadFile(filepath.Join("testdata", "reference", "geo", "geo.txt"))
	if err != nil {
		t.Fatal(err)
	}
	long, err := os.ReadFile(filepath.Join("testdata", "reference", "geo", "geo_long.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		data   []byte
		dotted bool
	}{{dotted, true}, {long, false}} {
		g, err := parseGeolocation(tc.data, tc.dotted)
		if err != nil {
			t.Fatal(err)
		}
		for ip, want := range map[string]string{
			"255.255.255.255": "CN,China,Guangdong,Guangzhou",
			"1.0.32.1":        "CN,China,Guangdong,Guangzhou",
			"128.101.101.101": "US,United States,Minnesota,Minneapolis",
			"10.0.1.0":        "US,United States,CA",
			"128.101.101.99":  "",
			"9.9.9.9":         "",
			"::1":             "",
		} {
			got, _ := g.lookup(ip)
			if strings.Join(got, ",") != want {
				t.Errorf("dotted=%v: %s = %q, want %q", tc.dotted, ip, got, want)
			}
		}
		if strings.Join(g.fields, ",") != "COUNTRY_CODE,COUNTRY_NAME,STATE,CITY,ZIP,LAT,LONG" {
			t.Errorf("fields %v", g.fields)
		}
	}
	if _, err := parseGeolocation([]byte("FROM_IP,TO_IP,CC\n1.2.3,1.2.3.4,X\n"), true); err == nil {
		t.Error("a bad address was read")
	}
}

// Ranger's geolocation test file runs its location conditions: the
// script compares the country the two enrichers (one file in dot
// notation, one in numbers) find for the client's address. Its hdfs paths
// are matched as URLs here, which follow the same recursive prefix rule
// for the policy with the condition (/finance/restricted); the tests of
// /public/* need hdfs's own path matcher and are left to the conformance
// run.
func TestGeolocationConditions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "reference", "policyengine", "test_policyengine_geo.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f policyEngineFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	f.ServiceDef.Resources[0].Matcher = "org.apache.ranger.plugin.resourcematcher.RangerURLResourceMatcher"
	cfg, err := policyEngineConfig(filepath.Join("testdata", "reference"), "", &f)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Tests {
		tc := &f.Tests[i]
		if !strings.HasPrefix(tc.Request.Resource.Elements["path"][0], "/finance/") {
			continue
		}
		req, err := tc.request()
		if err != nil {
			t.Fatal(err)
		}
		if problems := checkPolicyEngineTest(ev, tc, req); len(problems) > 0 {
			t.Errorf("#%d %s: %s", i+1, tc.Name, strings.Join(problems, "; "))
		}
	}
}

// An enricher whose file is not given fails New: its conditions would
// read nothing.
func TestGeolocationFileMissing(t *testing.T) {
	def := serviceDef(t, "hive")
	def.ContextEnrichers = []ContextEnricherDef{{Name: "geo", Enricher: "org.apache.ranger.plugin.contextenricher.RangerFileBasedGeolocationProvider",
		EnricherOptions: StringMap{"FilePath": "/etc/geo.txt"}}}
	if _, err := New(Config{ServiceDef: def}); err == nil || !strings.Contains(err.Error(), "not provided") {
		t.Errorf("err = %v", err)
	}
}
