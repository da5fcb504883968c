package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/sqe-db/sqe/governance/polarisadmin"
)

// polarisCatalogs is the catalog mapping of backend "polaris": the
// configured one, else each rest catalog to its warehouse, which is the
// name Polaris knows the catalog by.
func (c Config) polarisCatalogs() map[string]string {
	if len(c.AccessControl.Polaris.Catalogs) > 0 {
		return c.AccessControl.Polaris.Catalogs
	}
	out := map[string]string{}
	for _, cc := range c.Catalogs {
		if cc.Type != "rest" {
			continue
		}
		name := cc.Warehouse
		if name == "" {
			name = cc.Name
		}
		out[cc.Name] = name
	}
	return out
}

// validatePolarisAccess checks backend "polaris": Polaris's URL and
// client credentials, and only rest catalogs. Polaris enforces grants on
// the requests SQE's rest catalogs make with each user's token; an
// embedded catalog would be gated by nobody, so it is refused rather than
// served open.
func (c Config) validatePolarisAccess() error {
	p := c.AccessControl.Polaris
	if c.AccessControl.URL == "" || p.ClientID == "" || p.ClientSecret == "" {
		return errors.New("config: [access_control] backend \"polaris\" needs url, [access_control.polaris] client_id and client_secret (from SQE_ACCESS_CONTROL__POLARIS__CLIENT_SECRET or client_secret_file)")
	}
	if p.TimeoutSecs < 1 || p.TimeoutSecs > 300 {
		return fmt.Errorf("config: [access_control.polaris] timeout_secs must be between 1 and 300, not %d", p.TimeoutSecs)
	}
	if err := c.requireCallerEnforcedCatalogs("polaris"); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(p.Catalogs)) {
		if !slices.ContainsFunc(c.Catalogs, func(cc CatalogConfig) bool { return cc.Name == name }) {
			return fmt.Errorf("config: [access_control.polaris] catalogs names %s, which is no [[catalog]]", name)
		}
	}
	return nil
}

// requireCallerEnforcedCatalogs checks, for a gate-one backend whose
// grants Polaris enforces (backend "ranger", through Polaris's Ranger
// authorizer, and backend "polaris"), that every catalog is a rest
// catalog calling Polaris with each user's own token. SQE does not gate
// the catalogs of such a backend itself, so an embedded catalog, or a
// rest catalog calling with one service identity, would be open to every
// authenticated user: it is refused rather than served open.
func (c Config) requireCallerEnforcedCatalogs(backend string) error {
	for _, cc := range c.Catalogs {
		if cc.Type != "rest" {
			return fmt.Errorf("config: catalog %s is %s, but [access_control] backend %q governs rest catalogs only: Polaris enforces its grants, and cannot on a catalog it does not serve", cc.Name, cc.Type, backend)
		}
		if cc.ServiceToken != "" || cc.Credential != "" {
			return fmt.Errorf("config: catalog %s calls Polaris with one service identity, which bypasses the grants [access_control] backend %q writes; leave service_token and credential unset", cc.Name, backend)
		}
	}
	return nil
}

// polarisConfig is the backend's configuration.
func (c Config) polarisConfig() polarisadmin.Config {
	p := c.AccessControl.Polaris
	return polarisadmin.Config{URL: c.AccessControl.URL, ClientID: p.ClientID, ClientSecret: p.ClientSecret, Scope: p.Scope,
		Catalogs: c.polarisCatalogs(), AdminRoles: c.Auth.AdminRoles, Timeout: time.Duration(p.TimeoutSecs) * time.Second}
}
