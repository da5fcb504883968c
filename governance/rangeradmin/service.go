package rangeradmin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"

	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/governance/rangerrest"
)

// Service is gate one's Ranger backend. It keeps no state of its own
// besides its configuration: every operation reads Ranger Admin afresh,
// so several servers may share one Ranger. It is safe for concurrent use.
type Service struct {
	cfg     Config
	client  *client
	profile *grants.Profile
	sd      *ranger.ServiceDef
}

// New builds the service; it does not contact Ranger Admin.
func New(cfg Config) (*Service, error) {
	cfg, err := cfg.check()
	if err != nil {
		return nil, err
	}
	profile, err := grants.Load()
	if err != nil {
		return nil, fmt.Errorf("ranger backend: %w", err)
	}
	var sd ranger.ServiceDef
	if err := json.Unmarshal(grants.PolarisServiceDef(), &sd); err != nil {
		return nil, fmt.Errorf("ranger backend: polaris service definition: %w", err)
	}
	c := &client{rest: rangerrest.New(rangerrest.Config{URL: cfg.URL, User: cfg.AdminUser, Password: cfg.AdminPassword, HTTPClient: cfg.HTTPClient}),
		readAttempts: cfg.ReadAttempts, retryDelay: cfg.RetryDelay}
	return &Service{cfg: cfg, client: c, profile: profile, sd: &sd}, nil
}

// isAdmin reports whether roles hold an administrator role.
func (s *Service) isAdmin(roles []string) bool {
	return slices.ContainsFunc(roles, func(r string) bool { return slices.Contains(s.cfg.AdminRoles, r) })
}

// policySnapshot is the service's policies at one read: the raw listing
// (for CHECK ACCESS, which evaluates every policy as Ranger would) and
// those of the polaris shape by exact resource.
type policySnapshot struct {
	raw        []json.RawMessage
	byResource map[grants.Resource]*storedPolicy
}

// models returns the modelled policies, outermost first.
func (ps *policySnapshot) models() []grants.Policy {
	out := make([]grants.Policy, 0, len(ps.byResource))
	for _, p := range ps.byResource {
		out = append(out, p.model)
	}
	slices.SortFunc(out, func(a, b grants.Policy) int { return compareResources(a.Resource, b.Resource) })
	return out
}

func compareResources(a, b grants.Resource) int {
	av := [4]string{a.Root, a.Catalog, a.Namespace, a.Table}
	bv := [4]string{b.Root, b.Catalog, b.Namespace, b.Table}
	for i := range av {
		if av[i] != bv[i] {
			if av[i] < bv[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// policies lists the service's policies. Ranger's policy API has no
// query by resource, so every lookup reads the whole service.
func (s *Service) policies(ctx context.Context) (*policySnapshot, error) {
	var raw []json.RawMessage
	if err := s.client.get(ctx, policyPath, url.Values{"serviceName": {s.cfg.ServiceName}}, &raw); err != nil {
		return nil, userError(err, "list the policies of service "+s.cfg.ServiceName)
	}
	ps := &policySnapshot{raw: raw, byResource: map[grants.Resource]*storedPolicy{}}
	for _, data := range raw {
		p, ok, err := parseStored(data)
		if err != nil {
			return nil, fmt.Errorf("ranger backend: %w", err)
		}
		if !ok {
			continue
		}
		if prev, dup := ps.byResource[p.model.Resource]; dup {
			return nil, fmt.Errorf("ranger backend: policies %d and %d share resource %s", prev.id, p.id, p.model.Resource)
		}
		ps.byResource[p.model.Resource] = &p
	}
	return ps, nil
}
