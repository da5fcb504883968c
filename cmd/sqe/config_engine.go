package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/planner/sqlwrite"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/remote"
)

// RemoteEngineConfig is one [[engine]]: an engine that SELECTs may be
// sent to (sqe.execution), already secured. It is reached as one service
// user that can read every table, so clients must never reach it.
type RemoteEngineConfig struct {
	Name string `toml:"name"`
	Type string `toml:"type"` // trino | postgres
	// URI is Trino's coordinator (http:// or https://), or a PostgreSQL
	// connection URL without its password.
	URI  string `toml:"uri"`
	User string `toml:"user"`
	// Password is the service user's (Trino: basic authentication, over
	// https only); a secret, from SQE_ENGINE__<NAME>__PASSWORD or the
	// file password_file names.
	Password     string `toml:"password" secret:"true"`
	PasswordFile string `toml:"password_file"`
	// TLSCAFile is a PEM file of the CAs that sign the engine's
	// certificate (https); unset, the system's.
	TLSCAFile string `toml:"tls_ca_file"`
	// Catalogs maps SQE catalog names to the engine's catalogs that read
	// the same Iceberg catalog (PostgreSQL: "" reads schema.table of the
	// database connected to). A table of an unmapped catalog is not sent.
	Catalogs map[string]string `toml:"catalogs"`
	// RemoteMinScanBytes: under sqe.execution = 'auto', a SELECT whose
	// scans read at least this many bytes of data files runs there.
	RemoteMinScanBytes ByteSize `toml:"remote_min_scan_bytes"`
}

// engineTable is the array of tables whose entries are engines.
const engineTable = "engine"

// engineEnvPrefix starts the variables that set an [[engine]]'s keys, by
// the engine's name: SQE_ENGINE__<NAME>__<KEY>.
const engineEnvPrefix = "SQE_ENGINE__"

// defaultRemoteMinScanBytes is remote_min_scan_bytes when unset: scans
// under a gibibyte are answered here faster than a distributed engine
// plans them.
const defaultRemoteMinScanBytes = 1 << 30

// engineEnvName is the variable that sets key of the engine named name.
func engineEnvName(name, key string) string {
	return engineEnvPrefix + envSegment(name) + "__" + strings.ToUpper(key)
}

// applyEngineEnv applies one SQE_ENGINE__ variable (rest is the part
// after the prefix) to the engines of raw.
func applyEngineEnv(raw map[string]any, variable, rest, value string) error {
	name, key, ok := strings.Cut(rest, "__")
	if !ok || key == "" || strings.Contains(key, "__") {
		return fmt.Errorf("config: %s: expected %s<NAME>__<KEY>", variable, engineEnvPrefix)
	}
	engines, _ := raw[engineTable].([]map[string]any)
	for _, e := range engines {
		if n, _ := e["name"].(string); envSegment(n) == name {
			key = strings.ToLower(key)
			e[key] = typedEnvValue(engineTable+"."+key, value)
			return nil
		}
	}
	return fmt.Errorf("config: %s: no [[engine]] is named %s (variables set the keys of engines the file configures)", variable, strings.ToLower(name))
}

// refuseEngineFileSecrets fails when an [[engine]] of the file sets a
// secret.
func refuseEngineFileSecrets(raw map[string]any) error {
	engines, _ := raw[engineTable].([]map[string]any)
	for _, e := range engines {
		name, _ := e["name"].(string)
		if _, set := e["password"]; set {
			return fmt.Errorf("engine %s: password is a secret and is not read from the file: set %s, or password%s naming a file that holds it",
				name, engineEnvName(name, "password"), fileSuffix)
		}
	}
	return nil
}

// validateEngines checks the [[engine]] entries and the execution modes.
func (cfg Config) validateEngines() error {
	seen := map[string]bool{}
	for _, e := range cfg.Engines {
		if e.Name == "" {
			return errors.New("config: [[engine]] needs a name")
		}
		if seen[e.Name] {
			return fmt.Errorf("config: two [[engine]] entries are named %s", e.Name)
		}
		seen[e.Name] = true
		if err := e.validate(); err != nil {
			return fmt.Errorf("config: engine %s: %w", e.Name, err)
		}
		for sqeName := range e.Catalogs {
			if !slices.ContainsFunc(cfg.Catalogs, func(c CatalogConfig) bool { return c.Name == sqeName }) {
				return fmt.Errorf("config: engine %s: catalogs maps %q, which no [[catalog]] is", e.Name, sqeName)
			}
		}
	}
	modes := map[string]string{"[query] execution": cfg.Query.Execution}
	for role, o := range cfg.Query.RoleOverrides {
		if o.Execution != "" {
			modes["[query.role_overrides."+role+"] execution"] = o.Execution
		}
	}
	for _, k := range slices.Sorted(maps.Keys(modes)) {
		switch modes[k] {
		case "local":
		case "auto", "remote":
			if len(cfg.Engines) == 0 {
				return fmt.Errorf("config: %s = %q needs an [[engine]]", k, modes[k])
			}
		default:
			return fmt.Errorf("config: %s must be \"local\", \"auto\" or \"remote\", not %q", k, modes[k])
		}
	}
	return nil
}

func (e RemoteEngineConfig) validate() error {
	if e.RemoteMinScanBytes < 0 {
		return fmt.Errorf("remote_min_scan_bytes must not be negative, not %d", e.RemoteMinScanBytes)
	}
	if len(e.Catalogs) == 0 {
		return errors.New("catalogs must map at least one SQE catalog to the engine's")
	}
	switch e.Type {
	case "trino":
		u, err := url.Parse(e.URI)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return errors.New("type \"trino\" needs a uri of the coordinator, http:// or https://")
		}
		if e.User == "" {
			return errors.New("type \"trino\" needs the service user (user)")
		}
		if e.Password != "" && u.Scheme != "https" {
			return errors.New("a password is sent to Trino over https only")
		}
	case "postgres":
		if e.URI == "" {
			return errors.New("type \"postgres\" needs a uri (a connection URL without the password)")
		}
		if u, err := url.Parse(e.URI); err == nil && u.User != nil {
			if _, has := u.User.Password(); has {
				return fmt.Errorf("the uri holds a password: set %s or password%s", engineEnvName(e.Name, "password"), fileSuffix)
			}
		}
		if e.TLSCAFile != "" {
			return errors.New("tls_ca_file applies to type \"trino\"; a PostgreSQL uri takes sslrootcert")
		}
		for _, v := range e.Catalogs {
			if v != "" {
				return fmt.Errorf("a PostgreSQL engine reads the tables of the database it connects to: map each catalog to \"\", not %q", v)
			}
		}
	default:
		return fmt.Errorf("type %q is not supported (supported: trino, postgres)", e.Type)
	}
	return nil
}

// remoteExecution opens the configured engines; nil when there are none.
func (cfg Config) remoteExecution(observer sql.RemoteObserver) (*sql.RemoteExecution, func(), error) {
	if len(cfg.Engines) == 0 {
		return nil, func() {}, nil
	}
	r := &sql.RemoteExecution{Default: cfg.Query.Execution, Observer: observer}
	for role, o := range cfg.Query.RoleOverrides {
		if o.Execution != "" {
			if r.ByRole == nil {
				r.ByRole = map[string]string{}
			}
			r.ByRole[role] = o.Execution
		}
	}
	var closers []func()
	closeAll := func() {
		for _, c := range closers {
			c()
		}
	}
	for _, ec := range cfg.Engines {
		eng, closeEngine, err := ec.open()
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("engine %s: %w", ec.Name, err)
		}
		closers = append(closers, closeEngine)
		min := int64(ec.RemoteMinScanBytes)
		if min == 0 {
			min = defaultRemoteMinScanBytes
		}
		r.Engines = append(r.Engines, sql.RemoteEngine{Engine: eng, MinScanBytes: min})
	}
	return r, closeAll, nil
}

func (e RemoteEngineConfig) open() (remote.Engine, func(), error) {
	switch e.Type {
	case "postgres":
		conn := e.URI
		if e.User != "" {
			u, err := url.Parse(conn)
			if err != nil {
				return nil, nil, errors.New("the uri cannot be read")
			}
			u.User = url.User(e.User)
			conn = u.String()
		}
		p, err := remote.NewPostgres(remote.PostgresConfig{Name: e.Name, ConnString: conn, Password: e.Password, Catalogs: sqlwrite.Catalogs(e.Catalogs)})
		if err != nil {
			return nil, nil, err
		}
		return p, p.Close, nil
	case "trino":
		return e.openTrino()
	}
	return nil, nil, fmt.Errorf("type %q is not supported", e.Type)
}

// tlsConfig is the TLS configuration for an https engine.
func (e RemoteEngineConfig) tlsConfig() (*tls.Config, error) {
	if e.TLSCAFile == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(e.TLSCAFile)
	if err != nil {
		return nil, fmt.Errorf("tls_ca_file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("tls_ca_file %s holds no certificate", e.TLSCAFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// LogValue is the engine as the startup log shows it, without its
// password.
func (e RemoteEngineConfig) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("name", e.Name), slog.String("type", e.Type), slog.String("user", e.User)}
	if u, err := url.Parse(e.URI); err == nil {
		u.User = nil
		u.RawQuery = ""
		attrs = append(attrs, slog.String("uri", u.String()))
	}
	if e.Password != "" {
		attrs = append(attrs, slog.String("password", redacted))
	}
	return slog.GroupValue(attrs...)
}
