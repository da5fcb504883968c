package rangerstore

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/sqe-db/sqe/governance/policy"
)

// DefaultCacheTTL is how long a snapshot is served without asking Ranger
// Admin ([policy.ranger] cache-ttl-secs).
const DefaultCacheTTL = 30 * time.Second

// DefaultTimeout bounds one request to Ranger Admin when Config brings no
// HTTP client.
const DefaultTimeout = 10 * time.Second

// Config is the Ranger policy store's configuration ([policy.ranger]).
type Config struct {
	// URL is Ranger Admin's base URL, without the /service path.
	URL string
	// ServiceName is the hive-model service holding gate two's policies.
	ServiceName string
	// AdminUser and AdminPassword authenticate to Ranger Admin (HTTP basic
	// auth). The user must be a Ranger admin, or be listed in the
	// service's policy.download.auth.users to read.
	AdminUser     string
	AdminPassword string
	// CacheTTL is how long a snapshot is served without a request; zero
	// is DefaultCacheTTL.
	CacheTTL time.Duration
	// HTTPClient makes the requests; nil is a client with DefaultTimeout.
	// It must have a timeout: a refresh that never ends would keep every
	// query waiting for it.
	HTTPClient *http.Client
	// PluginID is how Ranger Admin's plugin status page names this
	// server; empty is sqe@<host>-<service>, the form plugins use.
	PluginID string
	// Now is the clock the TTL is measured by; nil is time.Now.
	Now func() time.Time
	// ProjectTags makes ProjectColumnTags write column tags to Ranger's
	// tag store ([policy.ranger] project_tags), where Spark and Kyuubi
	// plugins read them; unset, ProjectColumnTags does nothing.
	ProjectTags bool
	// OnCache, when set, is told at each Snapshot whether the cached
	// snapshot was served within its TTL (hit) or had to be downloaded
	// or revalidated (miss).
	OnCache policy.CacheObserver
}

// String describes the configuration without the password, for logs.
func (c Config) String() string {
	return fmt.Sprintf("ranger admin %s service %s user %s cache-ttl %s project-tags %t", c.URL, c.ServiceName, c.AdminUser, c.CacheTTL, c.ProjectTags)
}

// check fills defaults and refuses a configuration that cannot work.
func (c Config) check() (Config, error) {
	if c.URL == "" {
		return c, fmt.Errorf("ranger policy store: [policy.ranger] url is not set")
	}
	u, err := url.Parse(c.URL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return c, fmt.Errorf("ranger policy store: [policy.ranger] url %q is not an http(s) URL", c.URL)
	}
	if u.User != nil {
		return c, fmt.Errorf("ranger policy store: [policy.ranger] url must not carry credentials; set admin-user and admin-password")
	}
	c.URL = strings.TrimRight(c.URL, "/")
	if c.ServiceName == "" {
		return c, fmt.Errorf("ranger policy store: [policy.ranger] service-name is not set")
	}
	if c.AdminUser == "" {
		return c, fmt.Errorf("ranger policy store: [policy.ranger] admin-user is not set")
	}
	switch {
	case c.CacheTTL < 0:
		return c, fmt.Errorf("ranger policy store: [policy.ranger] cache-ttl-secs must not be negative")
	case c.CacheTTL == 0:
		c.CacheTTL = DefaultCacheTTL
	}
	switch {
	case c.HTTPClient == nil:
		c.HTTPClient = &http.Client{Timeout: DefaultTimeout}
	case c.HTTPClient.Timeout <= 0:
		return c, fmt.Errorf("ranger policy store: the HTTP client has no timeout")
	}
	if c.PluginID == "" {
		host, err := os.Hostname()
		if err != nil || host == "" {
			host = "localhost"
		}
		c.PluginID = "sqe@" + host + "-" + c.ServiceName
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c, nil
}
