package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretValue is never allowed to appear in an error.
const secretValue = "s3cr3t-never-printed"

// TestSecretsOnlyFromEnvironmentOrFiles: a secret written in sqe.toml
// stops the start with an error naming the variable to use; the variable
// and a "_file" companion (in the file or the environment) both work, one
// at a time; no error carries the secret.
func TestSecretsOnlyFromEnvironmentOrFiles(t *testing.T) {
	dir := t.TempDir()
	secretFile := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secretFile, []byte(secretValue+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	emptyFile := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(emptyFile, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const s3Catalog = "[[catalog]]\nname = \"lake\"\ntype = \"embedded\"\nwarehouse = \"s3://bkt/wh\"\n[catalog.properties]\n\"s3.access-key-id\" = \"AKID\"\n"
	tests := []struct {
		name    string
		file    string
		env     []string
		check   func(t *testing.T, c Config)
		wantErr string
	}{
		{name: "mask key in the file", file: "[policy]\nmask_key = \"" + secretValue + "\"\n",
			wantErr: "policy.mask_key is a secret and is not read from the file: set SQE_POLICY__MASK_KEY, or policy.mask_key_file"},
		{name: "gate one ranger password in the file", file: "[access_control.ranger]\nadmin_password = \"" + secretValue + "\"\n",
			wantErr: "set SQE_ACCESS_CONTROL__RANGER__ADMIN_PASSWORD, or access_control.ranger.admin_password_file"},
		{name: "gate two ranger password in the file", file: "[policy.ranger]\nadmin_password = \"" + secretValue + "\"\n",
			wantErr: "set SQE_POLICY__RANGER__ADMIN_PASSWORD, or policy.ranger.admin_password_file"},
		{name: "service token in the file", file: restCatalog + "service_token = \"" + secretValue + "\"\n",
			wantErr: "catalog lake: service_token is a secret and is not read from the file: set SQE_CATALOG__LAKE__SERVICE_TOKEN, or service_token_file"},
		{name: "credential in the file", file: restCatalog + "credential = \"id:" + secretValue + "\"\n",
			wantErr: "set SQE_CATALOG__LAKE__CREDENTIAL, or credential_file"},
		{name: "secret key property in the file", file: s3Catalog + "\"s3.secret-access-key\" = \"" + secretValue + "\"\n",
			wantErr: `property "s3.secret-access-key" is a secret and is not read from the file: set SQE_CATALOG__LAKE__PROPERTIES__S3_SECRET_ACCESS_KEY`},
		{name: "authorization header property in the file", file: restCatalog + "[catalog.properties]\n\"header.Authorization\" = \"Bearer " + secretValue + "\"\n",
			wantErr: "SQE_CATALOG__LAKE__PROPERTIES__HEADER_AUTHORIZATION"},
		{name: "mask key from a file named in the file", file: "[policy]\nmask_key_file = \"" + secretFile + "\"\n",
			check: func(t *testing.T, c Config) {
				if c.Policy.MaskKey != secretValue {
					t.Errorf("mask key %q, want the file's content without its line break", c.Policy.MaskKey)
				}
			}},
		{name: "ranger password from a file named in the environment",
			env: []string{"SQE_POLICY__RANGER__ADMIN_PASSWORD_FILE=" + secretFile},
			check: func(t *testing.T, c Config) {
				if c.Policy.Ranger.AdminPassword != secretValue {
					t.Errorf("admin password not read from its file")
				}
			}},
		{name: "digits stay a string", env: []string{"SQE_POLICY__MASK_KEY=0123456789"},
			check: func(t *testing.T, c Config) {
				if c.Policy.MaskKey != "0123456789" {
					t.Errorf("mask key %q", c.Policy.MaskKey)
				}
			}},
		{name: "variable and file both", env: []string{"SQE_POLICY__MASK_KEY=" + secretValue, "SQE_POLICY__MASK_KEY_FILE=" + secretFile},
			wantErr: "policy.mask_key is set both directly and by policy.mask_key_file; set one"},
		{name: "missing file", env: []string{"SQE_POLICY__MASK_KEY_FILE=" + filepath.Join(dir, "absent")},
			wantErr: "policy.mask_key_file: open " + filepath.Join(dir, "absent")},
		{name: "empty file", env: []string{"SQE_POLICY__MASK_KEY_FILE=" + emptyFile}, wantErr: "is empty"},
		{name: "service token from its variable", file: restCatalog, env: []string{"SQE_CATALOG__LAKE__SERVICE_TOKEN=" + secretValue},
			check: func(t *testing.T, c Config) {
				if c.Catalogs[0].ServiceToken != secretValue {
					t.Errorf("service token not read from SQE_CATALOG__LAKE__SERVICE_TOKEN")
				}
			}},
		{name: "credential from a file", file: restCatalog + "credential_file = \"" + secretFile + "\"\n",
			check: func(t *testing.T, c Config) {
				if c.Catalogs[0].Credential != secretValue {
					t.Errorf("credential not read from credential_file")
				}
			}},
		{name: "secret key property from its variable", file: s3Catalog,
			env: []string{"SQE_CATALOG__LAKE__PROPERTIES__S3_SECRET_ACCESS_KEY=" + secretValue},
			check: func(t *testing.T, c Config) {
				if c.Catalogs[0].Properties["s3.secret-access-key"] != secretValue || c.Catalogs[0].Properties["s3.access-key-id"] != "AKID" {
					t.Errorf("properties %v", c.Catalogs[0].Properties)
				}
			}},
		{name: "secret key property from property_files", file: s3Catalog + "[catalog.property_files]\n\"s3.secret-access-key\" = \"" + secretFile + "\"\n",
			check: func(t *testing.T, c Config) {
				if c.Catalogs[0].Properties["s3.secret-access-key"] != secretValue {
					t.Errorf("secret key not read from property_files")
				}
			}},
		{name: "property both directly and from a file", file: s3Catalog + "[catalog.property_files]\n\"s3.access-key-id\" = \"" + secretFile + "\"\n",
			wantErr: `property "s3.access-key-id" is set both directly and in property_files`},
		{name: "catalog key from its variable", file: restCatalog, env: []string{"SQE_CATALOG__LAKE__URI=http://other:8181/api/catalog"},
			check: func(t *testing.T, c Config) {
				if c.Catalogs[0].URI != "http://other:8181/api/catalog" {
					t.Errorf("uri %q", c.Catalogs[0].URI)
				}
			}},
		{name: "default catalog from the environment", env: []string{"SQE_CATALOG__SALES_WH__WAREHOUSE=file:///srv/wh"},
			check: func(t *testing.T, c Config) {
				if len(c.Catalogs) != 1 || c.Catalogs[0].Name != "sales_wh" || c.Catalogs[0].Type != "embedded" || c.Catalogs[0].Warehouse != "file:///srv/wh" {
					t.Errorf("catalogs %+v", c.Catalogs)
				}
			}},
		{name: "variable for an unconfigured catalog", file: restCatalog, env: []string{"SQE_CATALOG__OTHER__URI=http://x"},
			wantErr: "SQE_CATALOG__OTHER__URI: no [[catalog]] is named other"},
		{name: "unknown catalog key from the environment", file: restCatalog, env: []string{"SQE_CATALOG__LAKE__URL=http://x"},
			wantErr: "unknown key(s): catalog.url"},
		{name: "unknown property from the environment", file: s3Catalog, env: []string{"SQE_CATALOG__LAKE__PROPERTIES__S3_REGOIN=x"},
			wantErr: "no known property is written S3_REGOIN"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "absent.toml")
			if tt.file != "" {
				path = filepath.Join(dir, "sqe"+string(rune('a'+i))+".toml")
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c, err := loadConfig(path, false, tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), secretValue) {
					t.Fatalf("error prints the secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}
