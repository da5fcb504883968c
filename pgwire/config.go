package pgwire

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// Defaults applied by NewServer to zero Config fields.
const (
	DefaultListen         = "127.0.0.1:5433"
	DefaultMaxConnections = 100
	DefaultStartupTimeout = 10 * time.Second
	DefaultMaxMessageSize = 64 << 20
	DefaultServerVersion  = "15.18"
)

// Config is the listener's configuration.
type Config struct {
	Listen         string // "127.0.0.1:5433"
	DataDir        string // where a self-signed certificate is generated when no cert is configured
	TLSCertFile    string // PEM; empty = self-signed <DataDir>/tls/server.crt + server.key (0600), made once
	TLSKeyFile     string
	RequireTLS     bool          // refuse plaintext even from loopback
	MaxConnections int           // 0 = 100
	StartupTimeout time.Duration // 0 = 10s: a client that has not finished startup+auth by then is dropped
	MaxMessageSize int           // 0 = 64 MiB; larger declared length -> FATAL 54000 and close
	ServerVersion  string        // e.g. "15.18"; reported as server_version, server_version_num derived (150018)
	Observer       Observer      // nil = none; told of connections, errors, rows and bytes sent

	// TLSClientCAFile is a PEM file of the certificate authorities whose
	// client certificates are accepted: a client that presents a
	// certificate must present one they signed, or the TLS handshake
	// fails. Empty: no client certificate is asked for.
	TLSClientCAFile string
	// RequireClientCert refuses a TLS connection without a verified client
	// certificate and, as plaintext carries none, implies RequireTLS. It
	// needs TLSClientCAFile.
	RequireClientCert bool
	// ClientCertUserMatch refuses a login (FATAL 28000) whose client
	// certificate's subject Common Name is not the authenticated user. It
	// needs RequireClientCert. The token stays the identity; the
	// certificate only has to agree with it.
	ClientCertUserMatch bool

	// MaxConnectionsPerUser bounds one user's connections (0 = only
	// MaxConnections); past it a login is refused with FATAL 53300.
	MaxConnectionsPerUser int
	// QueryLimiter, when set, admits every query a client starts (see
	// ratelimit.go); nil admits all.
	QueryLimiter QueryLimiter
	// Debug sends an internal error's cause to the client as its DETAIL;
	// without it the cause is only logged, under the request id the
	// client sees (see errors.go).
	Debug bool

	// Session limits, 0 for none: a session waiting for its client longer
	// than IdleTimeout, or older than SessionLifetime, is ended with a
	// FATAL error; one whose token expired more than TokenExpiryGrace ago
	// is ended at its next statement with FATAL 28000.
	IdleTimeout      time.Duration
	SessionLifetime  time.Duration
	TokenExpiryGrace time.Duration

	// ProxyProtocolFrom are the load balancers (addresses or CIDR
	// ranges) whose connections start with a PROXY protocol header (v1 or
	// v2, as HAProxy's send-proxy, nginx's proxy_protocol and cloud
	// network load balancers send it). Such a connection's client is the
	// header's source address: the address logins are limited by, the
	// plaintext-from-loopback rule reads, policy conditions on client
	// addresses compare and pg_stat_activity shows. A connection from one
	// of them without a header is closed. Connections from any other
	// address are served as they arrive; a header they send is not read,
	// so no client can claim another address.
	ProxyProtocolFrom []netip.Prefix
}

// withDefaults returns cfg with every zero field set to its default and
// checks the fields that can be wrong.
func (cfg Config) withDefaults() (Config, error) {
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.MaxConnections == 0 {
		cfg.MaxConnections = DefaultMaxConnections
	}
	if cfg.MaxConnections < 0 {
		return cfg, fmt.Errorf("max connections %d: must be positive", cfg.MaxConnections)
	}
	if cfg.MaxConnectionsPerUser < 0 {
		return cfg, fmt.Errorf("max connections per user %d: must not be negative", cfg.MaxConnectionsPerUser)
	}
	if cfg.StartupTimeout == 0 {
		cfg.StartupTimeout = DefaultStartupTimeout
	}
	if cfg.StartupTimeout < 0 {
		return cfg, fmt.Errorf("startup timeout %s: must be positive", cfg.StartupTimeout)
	}
	if cfg.MaxMessageSize == 0 {
		cfg.MaxMessageSize = DefaultMaxMessageSize
	}
	if cfg.MaxMessageSize < 0 {
		return cfg, fmt.Errorf("max message size %d: must be positive", cfg.MaxMessageSize)
	}
	if cfg.Observer == nil {
		cfg.Observer = nopObserver{}
	}
	if cfg.IdleTimeout < 0 || cfg.SessionLifetime < 0 || cfg.TokenExpiryGrace < 0 {
		return cfg, fmt.Errorf("session limits must not be negative")
	}
	if cfg.ServerVersion == "" {
		cfg.ServerVersion = DefaultServerVersion
	}
	if _, err := serverVersionNum(cfg.ServerVersion); err != nil {
		return cfg, err
	}
	if (cfg.TLSCertFile == "") != (cfg.TLSKeyFile == "") {
		return cfg, fmt.Errorf("tls: certificate and key files must be configured together")
	}
	if cfg.RequireClientCert && cfg.TLSClientCAFile == "" {
		return cfg, fmt.Errorf("tls: requiring a client certificate needs a client CA file to verify it against")
	}
	if cfg.ClientCertUserMatch && !cfg.RequireClientCert {
		return cfg, fmt.Errorf("tls: matching the client certificate to the user needs client certificates required")
	}
	if cfg.RequireClientCert {
		// A plaintext connection cannot present a certificate.
		cfg.RequireTLS = true
	}
	return cfg, nil
}

// serverVersionNum derives server_version_num the way PostgreSQL does:
// major*10000 + minor for 10 and later ("15.18" -> 150018), and
// major*10000 + minor*100 + patch before that ("9.6.3" -> 90603).
func serverVersionNum(v string) (int, error) {
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, fmt.Errorf("server version %q: want MAJOR.MINOR", v)
	}
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 99 {
			return 0, fmt.Errorf("server version %q: bad component %q", v, p)
		}
		nums[i] = n
	}
	if nums[0] >= 10 {
		if len(nums) != 2 {
			return 0, fmt.Errorf("server version %q: want MAJOR.MINOR from version 10 on", v)
		}
		return nums[0]*10000 + nums[1], nil
	}
	patch := 0
	if len(nums) == 3 {
		patch = nums[2]
	}
	return nums[0]*10000 + nums[1]*100 + patch, nil
}
