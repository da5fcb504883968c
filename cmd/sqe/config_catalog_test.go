package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadConfigRESTCatalog(t *testing.T) {
	dir := t.TempDir()
	load := func(body string, env ...string) (Config, error) {
		p := filepath.Join(dir, "sqe.toml")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return loadConfig(p, true, env)
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

	for _, tc := range []struct {
		name, body string
		env        []string
		want       string
	}{
		{"no uri", "[[catalog]]\nname = \"x\"\ntype = \"rest\"\n", nil, "needs a uri"},
		{"token and credential", "[[catalog]]\nname = \"x\"\ntype = \"rest\"\nuri = \"http://p\"\n",
			[]string{"SQE_CATALOG__X__SERVICE_TOKEN=t", "SQE_CATALOG__X__CREDENTIAL=a:b"}, "not both"},
		{"rest keys on embedded", "[[catalog]]\nname = \"x\"\ntype = \"embedded\"\nuri = \"http://p\"\n", nil, "apply to type \"rest\" only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := load(tc.body, tc.env...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestLoadConfigEmbeddedCatalogInObjectStorage(t *testing.T) {
	dir := t.TempDir()
	load := func(body string, env ...string) (Config, error) {
		p := filepath.Join(dir, "sqe.toml")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return loadConfig(p, true, env)
	}
	cfg, err := load(`
[[catalog]]
name = "lake"
type = "embedded"
warehouse = "s3://lake-bucket/warehouse"
[catalog.properties]
"s3.endpoint" = "http://minio:9000"
"s3.region" = "eu-west-1"
`)
	if err != nil {
		t.Fatal(err)
	}
	opts := cfg.Catalogs[0].embeddedOptions(3, true)
	if opts.Warehouse != "s3://lake-bucket/warehouse" || opts.Properties["s3.endpoint"] != "http://minio:9000" ||
		opts.Properties["s3.region"] != "eu-west-1" || opts.CommitRetries != 3 || !opts.SkipFsync {
		t.Errorf("embedded options: %+v", opts)
	}

	const secret = "wJalrXUtnFEMI-never-printed"
	for _, tc := range []struct {
		name, body string
		env        []string
		want       string
	}{
		{"scheme", "[[catalog]]\nname = \"x\"\ntype = \"embedded\"\nwarehouse = \"gs://b/w\"\n", nil, `scheme "gs" is not supported`},
		{"relative path", "[[catalog]]\nname = \"x\"\ntype = \"embedded\"\nwarehouse = \"wh\"\n", nil, "not a location URI"},
		{"properties without s3 warehouse", "[[catalog]]\nname = \"x\"\ntype = \"embedded\"\n[catalog.properties]\n\"s3.region\" = \"r\"\n", nil, "need an s3:// warehouse"},
		{"unknown property", "[[catalog]]\nname = \"x\"\ntype = \"embedded\"\nwarehouse = \"s3://bkt/w\"\n[catalog.properties]\n\"s3.regoin\" = \"r\"\n", nil, `catalog x: unknown property "s3.regoin"`},
		{"secret without key", "[[catalog]]\nname = \"x\"\ntype = \"embedded\"\nwarehouse = \"s3://bkt/w\"\n",
			[]string{"SQE_CATALOG__X__PROPERTIES__S3_SECRET_ACCESS_KEY=" + secret}, "set both s3.access-key-id and s3.secret-access-key"},
		{"rest key on embedded", "[[catalog]]\nname = \"x\"\ntype = \"embedded\"\n", []string{"SQE_CATALOG__X__SERVICE_TOKEN=t"}, "apply to type \"rest\" only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(tc.body, tc.env...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("error prints the secret key: %v", err)
			}
		})
	}
}

// The startup log line of a catalog names its warehouse and properties
// and never prints a secret.
func TestCatalogLogValueRedactsSecrets(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cc      CatalogConfig
		want    []string
		secrets []string
	}{
		{"embedded in s3", CatalogConfig{Name: "lake", Type: "embedded", Warehouse: "s3://bkt/wh", Properties: map[string]string{
			"s3.endpoint": "http://minio:9000", "s3.access-key-id": "AKID", "s3.secret-access-key": "s3cr3t-key", "s3.session-token": "sess-tok",
		}}, []string{"catalog.name=lake", "catalog.warehouse=s3://bkt/wh", "catalog.properties.s3.endpoint=http://minio:9000",
			"catalog.properties.s3.access-key-id=AKID", "catalog.properties.s3.secret-access-key=[REDACTED]"}, []string{"s3cr3t-key", "sess-tok"}},
		{"embedded default", CatalogConfig{Name: "sales_wh", Type: "embedded"}, []string{"catalog.warehouse=data_dir/warehouse"}, nil},
		{"rest", CatalogConfig{Name: "p", Type: "rest", URI: "http://polaris:8181/api/catalog", Credential: "id:client-secret",
			Properties: map[string]string{"header.Authorization": "Bearer abc.def"}},
			[]string{"catalog.uri=http://polaris:8181/api/catalog", "catalog.credential=[REDACTED]"}, []string{"client-secret", "abc.def"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			slog.New(slog.NewTextHandler(&buf, nil)).Info("catalog", "catalog", tc.cc)
			line := buf.String()
			for _, w := range tc.want {
				if !strings.Contains(line, w) {
					t.Errorf("log line %q lacks %q", line, w)
				}
			}
			for _, s := range tc.secrets {
				if strings.Contains(line, s) {
					t.Errorf("log line %q prints the secret %q", line, s)
				}
			}
		})
	}
}
