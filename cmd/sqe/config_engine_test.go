package main

import (
	"os"
	"path/filepath"
	"testing"
)

const trinoEngine = "[[engine]]\nname = \"trino\"\ntype = \"trino\"\nuri = \"http://trino:8080\"\nuser = \"sqe\"\n[engine.catalogs]\nsales_wh = \"iceberg\"\n"

func TestEngineConfig(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "trino_password")
	if err := os.WriteFile(secret, []byte("s3cr3t\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	httpsEngine := "[[engine]]\nname = \"trino\"\ntype = \"trino\"\nuri = \"https://trino:8443\"\nuser = \"sqe\"\n[engine.catalogs]\nsales_wh = \"iceberg\"\n"
	runConfigCases(t, []configCase{
		{name: "none by default", check: func(t *testing.T, c Config) {
			if len(c.Engines) != 0 || c.Query.Execution != "local" {
				t.Errorf("engines %+v, execution %q", c.Engines, c.Query.Execution)
			}
		}},
		{name: "a Trino engine, per-role execution", file: "[query]\nexecution = \"auto\"\n[query.role_overrides]\nops = 90\n[query.role_overrides.analyst]\nexecution = \"remote\"\ntimeout_secs = 30\n" + trinoEngine,
			check: func(t *testing.T, c Config) {
				r, closeEngines, err := c.remoteExecution(nil)
				if err != nil {
					t.Fatal(err)
				}
				defer closeEngines()
				if len(r.Engines) != 1 || r.Engines[0].Engine.Name() != "trino" || r.Engines[0].MinScanBytes != defaultRemoteMinScanBytes {
					t.Errorf("engines %+v", r.Engines)
				}
				if r.Default != "auto" || r.ByRole["analyst"] != "remote" || len(r.ByRole) != 1 {
					t.Errorf("modes: default %q, by role %v", r.Default, r.ByRole)
				}
				if q := c.queryTimeouts(); len(q.ByRole) != 2 || q.ByRole["analyst"].Seconds() != 30 || q.ByRole["ops"].Seconds() != 90 {
					t.Errorf("timeouts by role %v", q.ByRole)
				}
			}},
		{name: "the password from a file", file: httpsEngine, env: []string{"SQE_ENGINE__TRINO__PASSWORD_FILE=" + secret},
			check: func(t *testing.T, c Config) {
				if c.Engines[0].Password != "s3cr3t" {
					t.Errorf("password not read from its file")
				}
			}},
		{name: "the password from the environment", file: httpsEngine, env: []string{"SQE_ENGINE__TRINO__PASSWORD=s3cr3t", "SQE_ENGINE__TRINO__REMOTE_MIN_SCAN_BYTES=1MiB"},
			check: func(t *testing.T, c Config) {
				if c.Engines[0].Password != "s3cr3t" || c.Engines[0].RemoteMinScanBytes != 1<<20 {
					t.Errorf("engine %+v", c.Engines[0].LogValue())
				}
			}},
		{name: "password in the file", file: "[[engine]]\nname = \"trino\"\ntype = \"trino\"\nuri = \"https://trino:8443\"\nuser = \"sqe\"\npassword = \"x\"\n[engine.catalogs]\nsales_wh = \"iceberg\"\n", wantErr: "engine trino: password is a secret and is not read from the file: set SQE_ENGINE__TRINO__PASSWORD"},
		{name: "password over http", file: trinoEngine, env: []string{"SQE_ENGINE__TRINO__PASSWORD=x"}, wantErr: "a password is sent to Trino over https only"},
		{name: "variable for an engine not configured", env: []string{"SQE_ENGINE__PRESTO__URI=http://x"}, wantErr: "no [[engine]] is named presto"},
		{name: "unknown type", file: "[[engine]]\nname = \"x\"\ntype = \"spark\"\n[engine.catalogs]\nsales_wh = \"\"\n", wantErr: "type \"spark\" is not supported"},
		{name: "no catalogs", file: "[[engine]]\nname = \"t\"\ntype = \"trino\"\nuri = \"http://t:8080\"\nuser = \"sqe\"\n", wantErr: "catalogs must map at least one SQE catalog"},
		{name: "unknown catalog", file: "[[engine]]\nname = \"t\"\ntype = \"trino\"\nuri = \"http://t:8080\"\nuser = \"sqe\"\n[engine.catalogs]\nlake = \"iceberg\"\n", wantErr: "catalogs maps \"lake\", which no [[catalog]] is"},
		{name: "postgres password in the uri", file: "[[engine]]\nname = \"pg\"\ntype = \"postgres\"\nuri = \"postgres://u:pw@db/x\"\n[engine.catalogs]\nsales_wh = \"\"\n", wantErr: "the uri holds a password"},
		{name: "execution without an engine", file: "[query]\nexecution = \"remote\"\n", wantErr: "[query] execution = \"remote\" needs an [[engine]]"},
		{name: "unknown execution", file: "[query]\nexecution = \"everywhere\"\n" + trinoEngine, wantErr: "[query] execution must be \"local\", \"auto\" or \"remote\""},
		{name: "unknown override key", file: "[query.role_overrides.analyst]\nexecutor = \"remote\"\n", wantErr: "unknown key \"executor\""},
	})
}
