package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadConfigRESTCatalog(t *testing.T) {
	dir := t.TempDir()
	load := func(body string) (Config, error) {
		p := filepath.Join(dir, "sqe.toml")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return loadConfig(p, true, nil)
	}
	cfg, err := load(`
[[catalog]]
name = "lake"
type = "rest"
uri = "http://polaris:8181/api/catalog"
warehouse = "lake"
[catalog.properties]
"s3.endpoint" = "http://minio:9000"
"s3.region" = "us-east-1"

[[catalog]]
name = "local"
type = "embedded"
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Catalogs) != 2 {
		t.Fatalf("catalogs: %+v", cfg.Catalogs)
	}
	c := cfg.Catalogs[0]
	if c.Type != "rest" || c.URI != "http://polaris:8181/api/catalog" || c.Warehouse != "lake" ||
		c.Properties["s3.endpoint"] != "http://minio:9000" || c.Properties["s3.region"] != "us-east-1" ||
		c.ServiceToken != "" || c.Credential != "" {
		t.Errorf("rest catalog: %+v", c)
	}

	for _, tc := range []struct{ name, body, want string }{
		{"no uri", "[[catalog]]\nname = \"x\"\ntype = \"rest\"\n", "needs a uri"},
		{"token and credential", "[[catalog]]\nname = \"x\"\ntype = \"rest\"\nuri = \"http://p\"\nservice_token = \"t\"\ncredential = \"a:b\"\n", "not both"},
		{"rest keys on embedded", "[[catalog]]\nname = \"x\"\ntype = \"embedded\"\nuri = \"http://p\"\n", "apply to type \"rest\" only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := load(tc.body); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
