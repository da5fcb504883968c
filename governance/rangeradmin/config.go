package rangeradmin

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sqe-db/sqe/governance/grants"
)

// PasswordEnv is the environment variable that supplies the admin
// password, so that it need not be written into the configuration file.
const PasswordEnv = "SQE_ACCESS_CONTROL__RANGER__ADMIN_PASSWORD"

// Config is the Ranger backend's configuration: [access_control] url and
// [access_control.ranger].
type Config struct {
	// URL is Ranger Admin's base URL, without the /service path.
	URL string
	// ServiceName is the polaris service instance in Ranger.
	ServiceName string
	// Realm is the root value of every policy written; empty is
	// grants.DefaultRealm.
	Realm string
	// AdminUser and AdminPassword authenticate to Ranger Admin (HTTP basic
	// auth).
	AdminUser     string
	AdminPassword string
	// AdminRoles may issue GRANT, REVOKE and DENY ([auth] admin_roles).
	AdminRoles []string
	// Authority is who may grant; the zero value is admin-role.
	Authority grants.AuthorityMode
	// HTTPClient makes the requests; nil is a client with a 30s timeout.
	HTTPClient *http.Client
	// ReadAttempts bounds how often a read is tried when Ranger Admin is
	// unreachable or answers 5xx; zero is 3. RetryDelay is the pause
	// between attempts; zero is 200ms.
	ReadAttempts int
	RetryDelay   time.Duration
}

// WithPasswordFrom fills AdminPassword from the environment when lookup
// finds PasswordEnv, which then wins over the file.
func (c Config) WithPasswordFrom(lookup func(string) (string, bool)) Config {
	if v, ok := lookup(PasswordEnv); ok && v != "" {
		c.AdminPassword = v
	}
	return c
}

// String describes the configuration without the password, for logs.
func (c Config) String() string {
	return fmt.Sprintf("ranger admin %s service %s realm %q user %s", c.URL, c.ServiceName, c.Realm, c.AdminUser)
}

// check fills defaults and refuses a configuration that cannot work.
func (c Config) check() (Config, error) {
	if c.URL == "" {
		return c, fmt.Errorf("ranger backend: [access_control] url is not set")
	}
	u, err := url.Parse(c.URL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return c, fmt.Errorf("ranger backend: [access_control] url %q is not an http(s) URL", c.URL)
	}
	if u.User != nil {
		return c, fmt.Errorf("ranger backend: [access_control] url must not carry credentials; set admin-user and %s", PasswordEnv)
	}
	c.URL = strings.TrimRight(c.URL, "/")
	if c.ServiceName == "" {
		return c, fmt.Errorf("ranger backend: [access_control.ranger] service-name is not set")
	}
	if c.AdminUser == "" {
		return c, fmt.Errorf("ranger backend: [access_control.ranger] admin-user is not set")
	}
	if c.Realm == "" {
		c.Realm = grants.DefaultRealm
	}
	if c.Authority == "" {
		c.Authority = grants.AuthorityAdminRole
	}
	if c.Authority != grants.AuthorityAdminRole && c.Authority != grants.AuthorityRangerDelegate {
		return c, fmt.Errorf("ranger backend: unknown grant_authority %q", c.Authority)
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if c.ReadAttempts <= 0 {
		c.ReadAttempts = 3
	}
	if c.RetryDelay <= 0 {
		c.RetryDelay = 200 * time.Millisecond
	}
	return c, nil
}
