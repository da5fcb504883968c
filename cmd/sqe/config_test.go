package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// restCatalog is a rest catalog section that calls with each user's own
// token (no service identity).
const restCatalog = "[[catalog]]\nname = \"lake\"\ntype = \"rest\"\nuri = \"http://polaris:8181/api/catalog\"\n"

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name     string
		file     string // contents; "" = no file
		explicit bool
		env      []string
		check    func(t *testing.T, c Config)
		wantErr  string
	}{
		{name: "defaults without a file", check: func(t *testing.T, c Config) {
			if c.DataDir != "./sqe-data" || c.PGWire.Listen != "127.0.0.1:5433" || !slices.Equal(c.Auth.AdminRoles, []string{"sqe_admin"}) {
				t.Errorf("defaults: %+v", c)
			}
			if len(c.Catalogs) != 1 || c.Catalogs[0].Name != "sales_wh" || c.Catalogs[0].Type != "embedded" {
				t.Errorf("default catalog: %+v", c.Catalogs)
			}
		}},
		{name: "file values", file: "data_dir = \"/d\"\n[pgwire]\nlisten = \"127.0.0.1:6000\"\nrequire_tls = true\n[[catalog]]\nname = \"wh\"\ntype = \"embedded\"\n",
			check: func(t *testing.T, c Config) {
				if c.DataDir != "/d" || c.PGWire.Listen != "127.0.0.1:6000" || !c.PGWire.RequireTLS || c.Catalogs[0].Name != "wh" {
					t.Errorf("got %+v", c)
				}
			}},
		{name: "environment overrides file", file: "[pgwire]\nlisten = \"127.0.0.1:6000\"\n",
			env: []string{"SQE_PGWIRE__LISTEN=127.0.0.1:7000", "SQE_PGWIRE__MAX_CONNECTIONS=7", "SQE_AUTH__ADMIN_ROLES=[\"a\",\"b\"]", "SQE_DEBUG=true", "OTHER=1"},
			check: func(t *testing.T, c Config) {
				if c.PGWire.Listen != "127.0.0.1:7000" || c.PGWire.MaxConnections != 7 || !c.Debug || !slices.Equal(c.Auth.AdminRoles, []string{"a", "b"}) {
					t.Errorf("got %+v", c)
				}
			}},
		{name: "commit retries", file: "[storage]\ncommit_retries = 0\n", check: func(t *testing.T, c Config) {
			if c.Storage.CommitRetries != 0 {
				t.Errorf("commit_retries = %d, want 0", c.Storage.CommitRetries)
			}
		}},
		{name: "commit retries default", check: func(t *testing.T, c Config) {
			if c.Storage.CommitRetries != 9 {
				t.Errorf("default commit_retries = %d, want 9", c.Storage.CommitRetries)
			}
		}},
		{name: "fsync on by default", check: func(t *testing.T, c Config) {
			if !c.Storage.Fsync {
				t.Error("default [storage] fsync is off")
			}
		}},
		{name: "fsync off", env: []string{"SQE_STORAGE__FSYNC=false"}, check: func(t *testing.T, c Config) {
			if c.Storage.Fsync {
				t.Error("[storage] fsync is on, want off")
			}
		}},
		{name: "http endpoint on loopback by default", check: func(t *testing.T, c Config) {
			if c.HTTP.Listen != "127.0.0.1:9187" {
				t.Errorf("default [http] listen = %q", c.HTTP.Listen)
			}
		}},
		{name: "http endpoint disabled by an empty address", file: "[http]\nlisten = \"0.0.0.0:9000\"\n", env: []string{"SQE_HTTP__LISTEN="},
			check: func(t *testing.T, c Config) {
				if c.HTTP.Listen != "" {
					t.Errorf("[http] listen = %q, want empty", c.HTTP.Listen)
				}
			}},
		{name: "negative commit retries", env: []string{"SQE_STORAGE__COMMIT_RETRIES=-1"}, wantErr: "commit_retries"},
		{name: "rate limit off by default", check: func(t *testing.T, c Config) {
			if c.RateLimit.Enabled || c.RateLimit.PerUserQueriesPerMinute != 60 || c.RateLimit.GlobalQueriesPerMinute != 1000 || c.PGWire.MaxConnectionsPerUser != 0 {
				t.Errorf("rate limit defaults: %+v, max_connections_per_user %d", c.RateLimit, c.PGWire.MaxConnectionsPerUser)
			}
			if c.RateLimit.queryLimiter() != nil {
				t.Error("a query limiter although [rate_limit] is off")
			}
		}},
		{name: "rate limit from file and environment", file: "[rate_limit]\nenabled = true\nper_user_queries_per_minute = 5\n[pgwire]\nmax_connections_per_user = 3\n",
			env: []string{"SQE_RATE_LIMIT__GLOBAL_QUERIES_PER_MINUTE=0"},
			check: func(t *testing.T, c Config) {
				if !c.RateLimit.Enabled || c.RateLimit.PerUserQueriesPerMinute != 5 || c.RateLimit.GlobalQueriesPerMinute != 0 || c.PGWire.MaxConnectionsPerUser != 3 {
					t.Errorf("got %+v, max_connections_per_user %d", c.RateLimit, c.PGWire.MaxConnectionsPerUser)
				}
				l := c.RateLimit.queryLimiter()
				for i := range 6 {
					if err := l.AllowQuery("alice"); (err != nil) != (i == 5) {
						t.Errorf("query %d of 5 a minute: %v", i+1, err)
					}
				}
			}},
		{name: "negative rate limit", env: []string{"SQE_RATE_LIMIT__PER_USER_QUERIES_PER_MINUTE=-1"}, wantErr: "per_user_queries_per_minute"},
		{name: "rate limit enabled without limits", file: "[rate_limit]\nenabled = true\nper_user_queries_per_minute = 0\nglobal_queries_per_minute = 0\n", wantErr: "both 0"},
		{name: "negative connections per user", env: []string{"SQE_PGWIRE__MAX_CONNECTIONS_PER_USER=-2"}, wantErr: "max_connections_per_user"},
		{name: "unknown key in file", file: "[pgwire]\nlisen = \"x\"\n", wantErr: "unknown key(s): pgwire.lisen"},
		{name: "unknown key from environment", env: []string{"SQE_NOPE=1"}, wantErr: "unknown key(s): nope"},
		{name: "missing explicit file", explicit: true, wantErr: "no such file"},
		{name: "unsupported catalog type", file: "[[catalog]]\nname = \"x\"\ntype = \"hive\"\n", wantErr: "not supported"},
		{name: "bad toml", file: "data_dir = \n", wantErr: "config"},
		{name: "access control defaults", check: func(t *testing.T, c Config) {
			if c.AccessControl.Backend != "embedded" || c.AccessControl.GrantAuthority != "admin-role" || c.AccessControl.Ranger.Realm != "*" {
				t.Errorf("access control defaults: %+v", c.AccessControl)
			}
		}},
		{name: "policy defaults", check: func(t *testing.T, c Config) {
			if c.Policy.Engine != "embedded" || c.Policy.MaskPrecedence != "tag" || c.Policy.Ranger.CacheTTLSecs != 30 || c.Policy.MaskKey != "" {
				t.Errorf("policy defaults: engine %q precedence %q ttl %d", c.Policy.Engine, c.Policy.MaskPrecedence, c.Policy.Ranger.CacheTTLSecs)
			}
		}},
		{name: "mask key from environment", env: []string{"SQE_POLICY__MASK_KEY=k3y"}, check: func(t *testing.T, c Config) {
			if c.Policy.MaskKey != "k3y" {
				t.Errorf("mask key not read from the environment")
			}
		}},
		{name: "unknown policy engine", file: "[policy]\nengine = \"opa\"\n", wantErr: "engine must be"},
		{name: "unknown mask precedence", file: "[policy]\nmask_precedence = \"column\"\n", wantErr: "mask_precedence must be"},
		{name: "ranger policy engine needs its settings", file: "[policy]\nengine = \"ranger\"\n", wantErr: "needs [policy.ranger]"},
		{name: "unknown access control backend", file: "[access_control]\nbackend = \"opa\"\n", wantErr: "backend must be"},
		{name: "polaris backend needs its settings", file: "[access_control]\nbackend = \"polaris\"\n", wantErr: "needs url, [access_control.polaris] client_id"},
		{name: "polaris backend refuses an embedded catalog", file: "[access_control]\nbackend = \"polaris\"\nurl = \"http://polaris:8181\"\n[access_control.polaris]\nclient_id = \"root\"\n",
			env: []string{"SQE_ACCESS_CONTROL__POLARIS__CLIENT_SECRET=s"}, wantErr: "governs rest catalogs only"},
		{name: "unknown grant authority", file: "[access_control]\ngrant_authority = \"anyone\"\n", wantErr: "grant_authority must be"},
		{name: "ranger backend without a password", file: "[access_control]\nbackend = \"ranger\"\nurl = \"http://ranger:6080\"\n[access_control.ranger]\nservice_name = \"polaris\"\nadmin_user = \"admin\"\n",
			wantErr: "admin_password"},
		// Polaris enforces the ranger backend's grants: a catalog it does
		// not serve, or serves to one service identity, would be open.
		{name: "ranger backend refuses an embedded catalog",
			file: "[access_control]\nbackend = \"ranger\"\nurl = \"http://ranger:6080\"\n[access_control.ranger]\nservice_name = \"polaris\"\nadmin_user = \"admin\"\n",
			env:  []string{"SQE_ACCESS_CONTROL__RANGER__ADMIN_PASSWORD=s3cret"}, wantErr: "governs rest catalogs only"},
		{name: "ranger backend refuses a service identity",
			file: "[access_control]\nbackend = \"ranger\"\nurl = \"http://ranger:6080\"\n[access_control.ranger]\nservice_name = \"polaris\"\nadmin_user = \"admin\"\n" + restCatalog,
			env:  []string{"SQE_ACCESS_CONTROL__RANGER__ADMIN_PASSWORD=s3cret", "SQE_CATALOG__LAKE__SERVICE_TOKEN=t"}, wantErr: "one service identity"},
		{name: "ranger backend with the password from the environment",
			file: "[access_control]\nbackend = \"ranger\"\nurl = \"http://ranger:6080\"\n[access_control.ranger]\nservice_name = \"polaris\"\nadmin_user = \"admin\"\n" + restCatalog,
			env:  []string{"SQE_ACCESS_CONTROL__RANGER__ADMIN_PASSWORD=s3cret"},
			check: func(t *testing.T, c Config) {
				if c.AccessControl.Ranger.AdminPassword != "s3cret" || c.AccessControl.Backend != "ranger" {
					t.Errorf("ranger config: backend %q", c.AccessControl.Backend)
				}
			}},
		{name: "audit defaults", check: func(t *testing.T, c Config) {
			if c.Audit.Enabled || c.Audit.Sink != "stdout" || !c.Audit.RedactLiterals {
				t.Errorf("audit defaults: %+v", c.Audit)
			}
		}},
		{name: "audit to a file", file: "[audit]\nenabled = true\nsink = \"file\"\npath = \"/a.log\"\nredact_literals = false\n",
			check: func(t *testing.T, c Config) {
				if !c.Audit.Enabled || c.Audit.Sink != "file" || c.Audit.Path != "/a.log" || c.Audit.RedactLiterals {
					t.Errorf("audit: %+v", c.Audit)
				}
			}},
		{name: "unknown audit sink", env: []string{"SQE_AUDIT__SINK=syslog"}, wantErr: `[audit] sink must be "stdout", "file" or "ranger", not "syslog"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "absent.toml")
			if tt.file != "" {
				path = write(strings.ReplaceAll(tt.name, " ", "_")+".toml", tt.file)
			}
			c, err := loadConfig(path, tt.explicit, tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
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

// configCase is a configuration loaded from a file (none when file is
// empty) and environment variables: what check expects of it, or the
// error it fails with.
type configCase struct {
	name    string
	file    string
	env     []string
	check   func(t *testing.T, c Config)
	wantErr string
}

func runConfigCases(t *testing.T, cases []configCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sqe.toml")
			if tt.file != "" {
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c, err := loadConfig(path, false, tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
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
