package polarisadmin

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Config is the Polaris backend's configuration: [access_control] url and
// [access_control.polaris].
type Config struct {
	// URL is Polaris's base URL (http://polaris:8181), under which it
	// serves /api/management/v1 and /api/catalog/v1/oauth/tokens.
	URL string
	// ClientID and ClientSecret are the OAuth client credentials of the
	// principal SQE manages grants as (one holding service_admin, or
	// CATALOG_MANAGE_ACCESS on each mapped catalog).
	ClientID     string
	ClientSecret string
	// Scope is the token scope asked for; empty is PRINCIPAL_ROLE:ALL.
	Scope string
	// Catalogs maps each SQE catalog (database) governed by Polaris to
	// the Polaris catalog of that name. A catalog absent from it cannot
	// be granted on.
	Catalogs map[string]string
	// AdminRoles may issue GRANT and REVOKE ([auth] admin_roles).
	AdminRoles []string
	// HTTPClient makes the requests; nil is a client with Timeout.
	HTTPClient *http.Client
	// Timeout bounds each request; zero is 10s. A request that times out
	// fails the statement.
	Timeout time.Duration
}

// String describes the configuration without the secret, for logs.
func (c Config) String() string {
	var cats []string
	for _, k := range slices.Sorted(maps.Keys(c.Catalogs)) {
		cats = append(cats, k+"="+c.Catalogs[k])
	}
	return fmt.Sprintf("polaris %s client %s catalogs %s", c.URL, c.ClientID, strings.Join(cats, ","))
}

// check fills defaults and refuses a configuration that cannot work.
func (c Config) check() (Config, error) {
	if c.URL == "" {
		return c, fmt.Errorf("polaris backend: [access_control] url is not set")
	}
	u, err := url.Parse(c.URL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return c, fmt.Errorf("polaris backend: [access_control] url %q is not an http(s) URL", c.URL)
	}
	if u.User != nil {
		return c, fmt.Errorf("polaris backend: [access_control] url must not carry credentials")
	}
	c.URL = strings.TrimRight(c.URL, "/")
	if c.ClientID == "" || c.ClientSecret == "" {
		return c, fmt.Errorf("polaris backend: [access_control.polaris] client_id and client_secret are not set")
	}
	if len(c.Catalogs) == 0 {
		return c, fmt.Errorf("polaris backend: no catalog is mapped to a Polaris catalog")
	}
	if c.Scope == "" {
		c.Scope = "PRINCIPAL_ROLE:ALL"
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{Timeout: c.Timeout}
	}
	return c, nil
}
