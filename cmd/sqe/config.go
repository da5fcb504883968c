package main

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/audit"
	"github.com/sqe-db/sqe/pgwire"
	"github.com/sqe-db/sqe/storage"
)

// Config is sqe.toml. Every key can be overridden by an environment
// variable: SQE_ + the key path in upper case with "__" between levels,
// e.g. SQE_PGWIRE__LISTEN or SQE_AUTH__ADMIN_ROLES='["a","b"]'. A key
// tagged secret is refused in the file (secrets.go): it comes from its
// environment variable or from the file its "_file" companion names.
// docs/configuration.md documents every key; a test keeps the two equal.
type Config struct {
	DataDir string `toml:"data_dir"`
	// Demo loads the demo tables, roles and policies at start.
	Demo  bool `toml:"demo"`
	Debug bool `toml:"debug"`

	Log struct {
		Format string `toml:"format"` // text | json
		Level  string `toml:"level"`  // debug | info | warn | error
	} `toml:"log"`

	PGWire struct {
		Listen     string `toml:"listen"`
		TLSCert    string `toml:"tls_cert"`
		TLSKey     string `toml:"tls_key"`
		RequireTLS bool   `toml:"require_tls"`
		// TLSClientCA is a PEM file of the CAs that sign client
		// certificates; a client presenting any other is refused. Not a
		// secret. Unreadable, or holding no certificate: an error at start.
		TLSClientCA string `toml:"tls_client_ca"`
		// RequireClientCert refuses a connection without a client
		// certificate signed by TLSClientCA, and so every plaintext one
		// (it implies require_tls).
		RequireClientCert bool `toml:"require_client_cert"`
		// ClientCertUserMatch refuses a login (28000) whose client
		// certificate's subject Common Name is not the token's user.
		ClientCertUserMatch bool `toml:"client_cert_user_match"`
		MaxConnections      int  `toml:"max_connections"`
		// MaxConnectionsPerUser bounds one user's connections; 0: no
		// bound beyond max_connections.
		MaxConnectionsPerUser int `toml:"max_connections_per_user"`
		// MaxMessageSize bounds a frontend message's declared length;
		// past it the connection ends with FATAL 54000 before the
		// message is read.
		MaxMessageSize ByteSize `toml:"max_message_size"`
		// StartupTimeoutSecs bounds TLS negotiation, startup and login.
		StartupTimeoutSecs int `toml:"startup_timeout_secs"`
		// ProxyProtocolFrom are the load balancers (addresses or CIDR
		// ranges) whose connections start with a PROXY protocol header
		// giving the client's address.
		ProxyProtocolFrom []string `toml:"proxy_protocol_from"`
	} `toml:"pgwire"`

	Auth struct {
		Issuer      string   `toml:"issuer"`
		Audience    string   `toml:"audience"`
		UserClaim   string   `toml:"user_claim"`
		RolesClaim  string   `toml:"roles_claim"`
		GroupsClaim string   `toml:"groups_claim"`
		AdminRoles  []string `toml:"admin_roles"`
		ClockSkew   string   `toml:"clock_skew"`
		// KeysMaxAgeSecs is how long an external issuer's keys are
		// trusted before they are fetched again.
		KeysMaxAgeSecs int `toml:"keys_max_age_secs"`
		// FailedLoginsPerMinute limits failed logins per client address.
		FailedLoginsPerMinute int `toml:"failed_logins_per_minute"`
	} `toml:"auth"`

	RateLimit RateLimitConfig `toml:"rate_limit"`

	Query struct {
		// MemoryLimit bounds what one query's operators hold (hash
		// tables, sort buffers); past it the query fails with 53200.
		// Unset or 0: a quarter of the machine's memory, at least 256 MiB.
		MemoryLimit ByteSize `toml:"memory_limit"`
		// SpillDir is where a query's sorts and hash aggregates past
		// MemoryLimit write temporary files instead of failing; each
		// query's are removed when it ends. Unset: sqe-spill in the
		// system's temporary directory.
		SpillDir string `toml:"spill_dir"`
		// ParallelWorkers is how many goroutines a query's large scans
		// (and the aggregates over them) run in, the sessions' default
		// max_parallel_workers_per_gather. Unset or 0: GOMAXPROCS; 1: serial.
		ParallelWorkers int `toml:"parallel_workers"`
		// TimeoutSecs bounds how long a statement runs before it is
		// cancelled with 57014; a session's statement_timeout can only
		// shorten it. Default 300 (five minutes); 0: no bound.
		TimeoutSecs int `toml:"timeout_secs"`
		// RoleOverrides replace TimeoutSecs for the users holding a role
		// (role name = seconds); the longest among a user's roles wins,
		// and 0 lifts the bound. A role's entry may instead be a table
		// with timeout_secs and execution.
		RoleOverrides map[string]RoleOverride `toml:"role_overrides"`
		// Execution is sessions' default sqe.execution: "local" (the
		// default), "auto" or "remote" (needs an [[engine]]). A role's
		// [query.role_overrides.<role>] execution replaces it; among a
		// user's roles the one that sends the most work away wins.
		Execution string `toml:"execution"`
	} `toml:"query"`

	Session struct {
		// IdleTimeoutSecs ends a session that has waited that long for
		// its client (FATAL 57P05, or 25P03 inside a transaction block).
		// Default 900 (15 minutes); 0: no bound.
		IdleTimeoutSecs int `toml:"idle_timeout_secs"`
		// AbsoluteTimeoutSecs ends a session that long after it
		// connected (FATAL 57P01). Default 28800 (8 hours); 0: no bound.
		AbsoluteTimeoutSecs int `toml:"absolute_timeout_secs"`
		// TokenExpiryGraceSecs is how long past its token's expiry a
		// session may still run statements; its next one after that
		// ends it with FATAL 28000. Default: the clock skew allowed at
		// login, so that a token accepted there is not refused at once.
		TokenExpiryGraceSecs int `toml:"token_expiry_grace_secs"`
	} `toml:"session"`

	Storage struct {
		// CommitRetries is how many times a write that lost a commit race
		// with another SQE process on the same catalog is replayed on the
		// reloaded table before it fails with SQLSTATE 40001.
		CommitRetries int `toml:"commit_retries"`
		// Fsync flushes the files of each commit to a local warehouse
		// before the commit is acknowledged. Off, an operating-system
		// crash or power loss may lose acknowledged commits or leave a
		// table unreadable (as PostgreSQL's fsync = off).
		Fsync bool `toml:"fsync"`
	} `toml:"storage"`

	Cache struct {
		// DataBytes bounds the decoded column chunks of data files the
		// server keeps for later scans (storage.ChunkCache); 0 disables
		// the cache. Unset: a quarter of the machine's memory, at least
		// 256 MiB.
		DataBytes ByteSize `toml:"data_bytes"`
	} `toml:"cache"`

	AccessControl struct {
		// Backend is gate one: "embedded" keeps grants in the governance
		// database and authorizes the embedded catalogs' operations
		// against them; "none" writes no grants and gates nothing beyond
		// what a catalog enforces itself.
		Backend string `toml:"backend"`
		// GrantAuthority is who may grant: "admin-role" (an [auth]
		// admin_roles role) or "ranger-delegate" (delegate admin on the
		// resource; DENY stays admin-only).
		GrantAuthority string `toml:"grant_authority"`
		// URL is Ranger Admin's base URL (backend "ranger"), or
		// Polaris's (backend "polaris": http://polaris:8181).
		URL    string `toml:"url"`
		Ranger struct {
			// ServiceName is the polaris service in Ranger.
			ServiceName string `toml:"service_name"`
			// Realm is the root value of every policy ("*" matches
			// the realm Polaris sends).
			Realm     string `toml:"realm"`
			AdminUser string `toml:"admin_user"`
			// AdminPassword comes from the environment
			// (SQE_ACCESS_CONTROL__RANGER__ADMIN_PASSWORD) or from the
			// file AdminPasswordFile names, never from sqe.toml.
			AdminPassword     string `toml:"admin_password" secret:"true"`
			AdminPasswordFile string `toml:"admin_password_file"`
		} `toml:"ranger"`
		Polaris struct {
			// ClientID is the OAuth client id of the principal that
			// manages grants (service_admin, or CATALOG_MANAGE_ACCESS on
			// each governed catalog).
			ClientID string `toml:"client_id"`
			// ClientSecret comes from the environment
			// (SQE_ACCESS_CONTROL__POLARIS__CLIENT_SECRET) or from the
			// file ClientSecretFile names, never from sqe.toml.
			ClientSecret     string `toml:"client_secret" secret:"true"`
			ClientSecretFile string `toml:"client_secret_file"`
			// Scope is the token scope asked for (PRINCIPAL_ROLE:ALL).
			Scope string `toml:"scope"`
			// Catalogs maps SQE catalogs to Polaris catalogs; unset, each
			// rest catalog maps to its warehouse (Polaris's catalog name).
			Catalogs map[string]string `toml:"catalogs"`
			// TimeoutSecs bounds each request to Polaris; past it the
			// statement fails.
			TimeoutSecs int `toml:"timeout_secs"`
		} `toml:"polaris"`
	} `toml:"access_control"`

	Policy struct {
		// Engine is gate two's policy store: "embedded" (the governance
		// database), "ranger" (Ranger Admin's hive-model query service and
		// its linked tag service) or "passthrough" (no row filters or
		// masks).
		Engine string `toml:"engine"`
		// MaskKey keys MASK_HASH (HMAC-SHA256), from the environment
		// (SQE_POLICY__MASK_KEY) or the file MaskKeyFile names; without
		// it hashes are unkeyed and a warning is logged at start.
		MaskKey     string `toml:"mask_key" secret:"true"`
		MaskKeyFile string `toml:"mask_key_file"`
		// MaskPrecedence is "tag" (a tag mask beats a resource mask, as
		// Ranger's plugins order them) or "resource".
		MaskPrecedence string `toml:"mask_precedence"`
		Ranger         struct {
			URL         string `toml:"url"`
			ServiceName string `toml:"service_name"`
			AdminUser   string `toml:"admin_user"`
			// AdminPassword comes from the environment
			// (SQE_POLICY__RANGER__ADMIN_PASSWORD) or AdminPasswordFile.
			AdminPassword     string `toml:"admin_password" secret:"true"`
			AdminPasswordFile string `toml:"admin_password_file"`
			// CacheTTLSecs bounds how long a policy change made outside
			// SQE (the Ranger console) may take to apply.
			CacheTTLSecs int `toml:"cache_ttl_secs"`
			// ProjectTags also writes column tags to Ranger's tag store.
			ProjectTags bool `toml:"project_tags"`
		} `toml:"ranger"`
	} `toml:"policy"`

	HTTP struct {
		// Listen is the address of the operator's endpoint: /healthz,
		// /readyz and Prometheus /metrics. Empty disables it.
		Listen string `toml:"listen"`
		// Pprof serves the Go runtime's profiles at /debug/pprof/ on
		// that endpoint, to administrators only: a bearer token verified
		// as a login's, whose user holds an [auth] admin_roles role.
		Pprof bool `toml:"pprof"`
	} `toml:"http"`

	Audit struct {
		// Enabled writes a JSON line for every statement and privilege
		// change.
		Enabled bool `toml:"enabled"`
		// Sink is "stdout" or "file" (Path, default data_dir/audit.log,
		// appended to, created with mode 0600), or "ranger": the file,
		// as Ranger audit events (one per access decision of either
		// gate) for Ranger's audit tooling, with RangerService as their
		// repo and RangerCluster as their cluster_name.
		Sink          string `toml:"sink"`
		Path          string `toml:"path"`
		RangerService string `toml:"ranger_service"`
		RangerCluster string `toml:"ranger_cluster"`
		// RedactLiterals replaces a statement's constants by $n;
		// passwords and tokens are never logged either way.
		RedactLiterals bool `toml:"redact_literals"`
	} `toml:"audit"`

	Maintenance MaintenanceConfig `toml:"maintenance"`

	Catalogs []CatalogConfig `toml:"catalog"`

	// Engines are the engines SELECTs may be sent to (config_engine.go).
	Engines []RemoteEngineConfig `toml:"engine"`
}

// CatalogConfig is one [[catalog]]: a PostgreSQL database.
type CatalogConfig struct {
	Name string `toml:"name"`
	Type string `toml:"type"` // embedded | rest

	// Warehouse, for the embedded type, is where table files live: a
	// location URI such as s3://bucket/prefix; unset, the folder warehouse
	// in data_dir. For the rest type it is the warehouse sent to the
	// service's GET /v1/config.
	Warehouse string `toml:"warehouse"`

	// The rest type: an Iceberg REST catalog such as Apache Polaris.
	URI    string `toml:"uri"`
	Prefix string `toml:"prefix"`
	// ServiceToken or Credential ("client_id:secret") make SQE call the
	// catalog as one service identity for every user, which bypasses the
	// catalog's per-user authorization. Unset (the default), each request
	// carries the user's own login token. Both are secrets: from the
	// environment or from the files their "_file" companions name.
	ServiceToken     string `toml:"service_token" secret:"true"`
	ServiceTokenFile string `toml:"service_token_file"`
	Credential       string `toml:"credential" secret:"true"`
	CredentialFile   string `toml:"credential_file"`
	// Properties are extra catalog properties, e.g. "s3.endpoint",
	// "s3.region" or (rest only) "header.X-Name". AWS credentials come from
	// the environment unless s3.access-key-id / s3.secret-access-key are
	// set. An embedded catalog takes only the S3 keys, and only with an
	// s3:// warehouse. A secret property (storage.IsSecretProperty) is
	// refused here; it comes from the environment or PropertyFiles.
	Properties map[string]string `toml:"properties"`
	// PropertyFiles maps a property to a file holding its value.
	PropertyFiles map[string]string `toml:"property_files"`
}

// defaultCatalogName is the one catalog of a configuration that names none.
const defaultCatalogName = "sales_wh"

func defaultConfig() Config {
	var c Config
	c.DataDir = "./sqe-data"
	c.Log.Format = "text"
	c.Log.Level = "info"
	c.PGWire.Listen = "127.0.0.1:5433"
	c.PGWire.MaxConnections = 100
	c.PGWire.MaxMessageSize = pgwire.DefaultMaxMessageSize
	c.PGWire.StartupTimeoutSecs = int(pgwire.DefaultStartupTimeout / time.Second)
	c.Auth.AdminRoles = []string{"sqe_admin"}
	c.Auth.ClockSkew = "30s"
	c.Auth.KeysMaxAgeSecs = int(auth.DefaultKeysMaxAge / time.Second)
	c.Auth.FailedLoginsPerMinute = 30
	c.RateLimit.PerUserQueriesPerMinute = 60
	c.RateLimit.GlobalQueriesPerMinute = 1000
	c.Query.TimeoutSecs = defaultQueryTimeoutSecs
	c.Query.Execution = "local"
	c.Session.IdleTimeoutSecs = defaultIdleTimeoutSecs
	c.Session.AbsoluteTimeoutSecs = defaultAbsoluteTimeoutSecs
	c.Session.TokenExpiryGraceSecs = 30
	c.Storage.CommitRetries = storage.DefaultCommitRetries
	c.Storage.Fsync = true
	c.Cache.DataBytes = ByteSize(memoryQuarter(procMeminfo, cgroupMemoryMax))
	c.AccessControl.Backend = "embedded"
	c.AccessControl.GrantAuthority = "admin-role"
	c.AccessControl.Ranger.Realm = "*"
	c.AccessControl.Polaris.Scope = "PRINCIPAL_ROLE:ALL"
	c.AccessControl.Polaris.TimeoutSecs = 10
	c.Policy.Engine = "embedded"
	c.Policy.MaskPrecedence = "tag"
	c.Policy.Ranger.CacheTTLSecs = 30
	c.HTTP.Listen = "127.0.0.1:9187"
	c.Audit.Sink = audit.SinkStdout
	c.Audit.RedactLiterals = true
	c.Maintenance = defaultMaintenanceConfig()
	return c
}

// loadConfig reads path (optional when it does not exist and was not
// asked for explicitly), applies SQE_ environment overrides, and refuses
// unknown keys.
func loadConfig(path string, explicit bool, environ []string) (Config, error) {
	raw := map[string]any{}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if _, err := toml.Decode(string(data), &raw); err != nil {
			return Config{}, fmt.Errorf("config %s: %w", path, err)
		}
		if err := refuseFileSecrets(raw); err != nil {
			return Config{}, fmt.Errorf("config %s: %w", path, err)
		}
	case os.IsNotExist(err) && !explicit:
	default:
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if err := applyEnv(raw, environ); err != nil {
		return Config{}, err
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(raw); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	cfg := defaultConfig()
	md, err := toml.Decode(buf.String(), &cfg)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		keys := make([]string, len(undecoded))
		for i, k := range undecoded {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return Config{}, fmt.Errorf("config: unknown key(s): %s", strings.Join(keys, ", "))
	}
	if err := readSecretFiles(&cfg); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if len(cfg.Catalogs) == 0 {
		cfg.Catalogs = []CatalogConfig{{Name: defaultCatalogName, Type: "embedded"}}
	}
	if cfg.Query.MemoryLimit == 0 {
		cfg.Query.MemoryLimit = ByteSize(memoryQuarter(procMeminfo, cgroupMemoryMax))
	}
	if cfg.Query.SpillDir == "" {
		cfg.Query.SpillDir = defaultSpillDir()
	}
	if cfg.Query.ParallelWorkers < 0 || cfg.Query.ParallelWorkers > 1024 {
		return Config{}, fmt.Errorf("config: [query] parallel_workers must be between 0 and 1024, not %d", cfg.Query.ParallelWorkers)
	}
	if cfg.PGWire.MaxMessageSize < 1024 || cfg.PGWire.MaxMessageSize > 1<<30 {
		return Config{}, fmt.Errorf("config: [pgwire] max_message_size must be between 1KiB and 1GiB, not %d", cfg.PGWire.MaxMessageSize)
	}
	if cfg.Auth.KeysMaxAgeSecs < 1 || cfg.Auth.KeysMaxAgeSecs > 86400 {
		return Config{}, fmt.Errorf("config: [auth] keys_max_age_secs must be between 1 and 86400, not %d", cfg.Auth.KeysMaxAgeSecs)
	}
	if cfg.PGWire.StartupTimeoutSecs < 1 || cfg.PGWire.StartupTimeoutSecs > 3600 {
		return Config{}, fmt.Errorf("config: [pgwire] startup_timeout_secs must be between 1 and 3600, not %d", cfg.PGWire.StartupTimeoutSecs)
	}
	if _, err := cfg.proxyProtocolFrom(); err != nil {
		return Config{}, err
	}
	if err := cfg.validateClientCerts(); err != nil {
		return Config{}, err
	}
	if err := cfg.RateLimit.validate(cfg.PGWire.MaxConnectionsPerUser); err != nil {
		return Config{}, err
	}
	if err := cfg.validateTimeouts(); err != nil {
		return Config{}, err
	}
	if err := cfg.validateEngines(); err != nil {
		return Config{}, err
	}
	if cfg.Cache.DataBytes < 0 {
		return Config{}, fmt.Errorf("config: [cache] data_bytes must not be negative, not %d", cfg.Cache.DataBytes)
	}
	if cfg.Storage.CommitRetries < 0 || cfg.Storage.CommitRetries > 1000 {
		return Config{}, fmt.Errorf("config: [storage] commit_retries must be between 0 and 1000, not %d", cfg.Storage.CommitRetries)
	}
	switch cfg.AccessControl.Backend {
	case "none", "embedded":
	case "ranger":
		r := cfg.AccessControl.Ranger
		if cfg.AccessControl.URL == "" || r.ServiceName == "" || r.AdminUser == "" || r.AdminPassword == "" {
			return Config{}, fmt.Errorf("config: [access_control] backend \"ranger\" needs url, [access_control.ranger] service_name, admin_user and admin_password (the password from SQE_ACCESS_CONTROL__RANGER__ADMIN_PASSWORD)")
		}
		if err := cfg.requireCallerEnforcedCatalogs("ranger"); err != nil {
			return Config{}, err
		}
	case "polaris":
		if err := cfg.validatePolarisAccess(); err != nil {
			return Config{}, err
		}
	default:
		return Config{}, fmt.Errorf("config: [access_control] backend must be \"none\", \"embedded\", \"ranger\" or \"polaris\", not %q", cfg.AccessControl.Backend)
	}
	switch cfg.AccessControl.GrantAuthority {
	case "admin-role", "ranger-delegate":
	default:
		return Config{}, fmt.Errorf("config: [access_control] grant_authority must be \"admin-role\" or \"ranger-delegate\", not %q", cfg.AccessControl.GrantAuthority)
	}
	switch cfg.Policy.Engine {
	case "embedded", "passthrough":
	case "ranger":
		r := cfg.Policy.Ranger
		if r.URL == "" || r.ServiceName == "" || r.AdminUser == "" || r.AdminPassword == "" {
			return Config{}, fmt.Errorf("config: [policy] engine \"ranger\" needs [policy.ranger] url, service_name, admin_user and admin_password (the password from SQE_POLICY__RANGER__ADMIN_PASSWORD)")
		}
		if r.CacheTTLSecs < 0 {
			return Config{}, fmt.Errorf("config: [policy.ranger] cache_ttl_secs must not be negative, not %d", r.CacheTTLSecs)
		}
	default:
		return Config{}, fmt.Errorf("config: [policy] engine must be \"embedded\", \"ranger\" or \"passthrough\", not %q", cfg.Policy.Engine)
	}
	switch cfg.Policy.MaskPrecedence {
	case "tag", "resource":
	default:
		return Config{}, fmt.Errorf("config: [policy] mask_precedence must be \"tag\" or \"resource\", not %q", cfg.Policy.MaskPrecedence)
	}
	switch cfg.Audit.Sink {
	case audit.SinkStdout, audit.SinkFile, audit.SinkRanger:
	default:
		return Config{}, fmt.Errorf("config: [audit] sink must be %q, %q or %q, not %q", audit.SinkStdout, audit.SinkFile, audit.SinkRanger, cfg.Audit.Sink)
	}
	if err := cfg.Maintenance.validate(); err != nil {
		return Config{}, err
	}
	for _, c := range cfg.Catalogs {
		if c.Name == "" {
			return Config{}, fmt.Errorf("config: [[catalog]] needs a name")
		}
		if err := c.validate(); err != nil {
			return Config{}, fmt.Errorf("config: catalog %s: %w", c.Name, err)
		}
	}
	return cfg, nil
}

// applyEnv sets raw[a][b] = value for each SQE_A__B=value. A value that
// parses as a TOML value (number, boolean, array) is taken as one;
// anything else is a string.
func applyEnv(raw map[string]any, environ []string) error {
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, "SQE_") {
			continue
		}
		if rest, ok := strings.CutPrefix(name, catalogEnvPrefix); ok {
			if err := applyCatalogEnv(raw, name, rest, value); err != nil {
				return err
			}
			continue
		}
		if rest, ok := strings.CutPrefix(name, engineEnvPrefix); ok {
			if err := applyEngineEnv(raw, name, rest, value); err != nil {
				return err
			}
			continue
		}
		path := strings.Split(strings.ToLower(strings.TrimPrefix(name, "SQE_")), "__")
		m := raw
		for _, p := range path[:len(path)-1] {
			next, ok := m[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[p] = next
			}
			m = next
		}
		m[path[len(path)-1]] = typedEnvValue(strings.Join(path, "."), value)
	}
	return nil
}

// envValue is an environment variable's value as a TOML value when it
// parses as one (number, boolean, array), else the string itself.
func envValue(value string) any {
	var parsed map[string]any
	if _, err := toml.Decode("v = "+value, &parsed); err == nil {
		return parsed["v"]
	}
	return value
}
