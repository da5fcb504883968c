package trino

import (
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strings"

	"github.com/sqe-db/sqe/planner/sqlwrite"
	"github.com/sqe-db/sqe/sql/remote"
)

// Config is a Trino engine's configuration.
type Config struct {
	// Name is the engine's name in the configuration and in messages.
	Name string
	// URI is the coordinator's base URI, http or https.
	URI string
	// User is the service user statements run as (X-Trino-User).
	User string
	// Password, when set, is the service user's password, sent with basic
	// authentication, which only an https URI may carry.
	Password string
	// TLS configures https; nil takes the system's roots.
	TLS *tls.Config
	// Catalogs maps SQE's catalog names to Trino's.
	Catalogs sqlwrite.Catalogs
	// Source names SQE to Trino (X-Trino-Source); empty is "sqe".
	Source string
}

// Engine is a Trino coordinator, reached over its client REST protocol.
type Engine struct {
	name     string
	base     *url.URL
	user     string
	password string
	source   string
	catalogs sqlwrite.Catalogs
	client   *http.Client
}

var _ remote.Engine = (*Engine)(nil)

// New checks cfg and returns its engine. It does not contact Trino.
func New(cfg Config) (*Engine, error) {
	if cfg.Name == "" {
		return nil, errors.New("trino engine: a name is required")
	}
	fail := func(format string, args ...any) (*Engine, error) {
		return nil, fmt.Errorf("trino engine %q: %s", cfg.Name, fmt.Sprintf(format, args...))
	}
	u, err := url.Parse(cfg.URI)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fail("the URI must be an http or https URI with a host")
	}
	if u.User != nil {
		// Credentials in a URI end up in logs; they are configured apart.
		return fail("the URI must not carry credentials: configure the user and password")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fail("the URI must not have a query or a fragment")
	}
	if cfg.User == "" {
		return fail("a service user is required")
	}
	if cfg.Password != "" && u.Scheme != "https" {
		return fail("a password is sent only over https, and the URI is http")
	}
	if cfg.TLS != nil && u.Scheme != "https" {
		return fail("TLS settings are given for an http URI")
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.TLS != nil {
		transport.TLSClientConfig = cfg.TLS.Clone()
	}
	source := cfg.Source
	if source == "" {
		source = "sqe"
	}
	return &Engine{
		name:     cfg.Name,
		base:     u,
		user:     cfg.User,
		password: cfg.Password,
		source:   source,
		catalogs: maps.Clone(cfg.Catalogs),
		client: &http.Client{
			Transport: transport,
			// A redirect could carry the service user's credentials
			// elsewhere; Trino's protocol has none to follow.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}, nil
}

// Name is the engine's name in the configuration.
func (e *Engine) Name() string { return e.name }

// Dialect is Trino's.
func (e *Engine) Dialect() sqlwrite.Dialect { return sqlwrite.Trino }

// Catalogs maps SQE's catalog names to Trino's.
func (e *Engine) Catalogs() sqlwrite.Catalogs { return e.catalogs }

// CloseIdleConnections closes the connections to Trino no request is
// using.
func (e *Engine) CloseIdleConnections() { e.client.CloseIdleConnections() }
