package access

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/storage"
)

// Config is the embedded backend's configuration.
type Config struct {
	// AdminRoles may issue GRANT, REVOKE and DENY, and are allowed every
	// catalog operation no deny refuses them ([auth] admin_roles).
	AdminRoles []string
	// Authority is who may grant ([access_control] grant_authority);
	// the zero value is admin-role.
	Authority grants.AuthorityMode
	// Realm is the root value of every policy; empty is grants.DefaultRealm.
	Realm string
}

// Service is the embedded gate one: it writes grants into the governance
// store and authorizes the embedded catalog's operations against them.
// It is safe for concurrent use.
type Service struct {
	store   *governance.Store
	profile *grants.Profile
	cfg     Config
	sd      *ranger.ServiceDef
	ops     map[storage.Action]operation

	// compiled is the evaluator of the policies at one version; rebuild
	// serialises rebuilding it.
	compiled atomic.Pointer[compiledPolicies]
	rebuild  sync.Mutex
}

// compiledPolicies are the stored policies at a version, with their
// evaluator.
type compiledPolicies struct {
	version  int64
	policies []grants.Policy
	ranger   []ranger.Policy // the same, as eval reads them
	eval     *ranger.Evaluator
}

// New builds the service over store.
func New(store *governance.Store, cfg Config) (*Service, error) {
	profile, err := grants.Load()
	if err != nil {
		return nil, fmt.Errorf("gate one: %w", err)
	}
	var sd ranger.ServiceDef
	if err := json.Unmarshal(grants.PolarisServiceDef(), &sd); err != nil {
		return nil, fmt.Errorf("gate one: polaris service definition: %w", err)
	}
	if cfg.Realm == "" {
		cfg.Realm = grants.DefaultRealm
	}
	if cfg.Authority == "" {
		cfg.Authority = grants.AuthorityAdminRole
	}
	return &Service{store: store, profile: profile, cfg: cfg, sd: &sd, ops: operations()}, nil
}

// isAdmin reports whether roles hold an administrator role.
func (s *Service) isAdmin(roles []string) bool {
	for _, r := range roles {
		if slices.Contains(s.cfg.AdminRoles, r) {
			return true
		}
	}
	return false
}

// current returns the policies as stored now, compiled; it recompiles
// only when another write moved their version.
func (s *Service) current(ctx context.Context) (*compiledPolicies, error) {
	version, err := s.store.AccessPoliciesVersion(ctx)
	if err != nil {
		return nil, err
	}
	// Versions only grow; a statement pinned to an older version than
	// the compiled one (another statement wrote since it started) is
	// served the newer policies rather than recompiling at each check.
	if c := s.compiled.Load(); c != nil && c.version >= version {
		return c, nil
	}
	s.rebuild.Lock()
	defer s.rebuild.Unlock()
	if c := s.compiled.Load(); c != nil && c.version >= version {
		return c, nil
	}
	policies, version, err := s.store.AccessPolicies(ctx)
	if err != nil {
		return nil, err
	}
	rp := toRanger(policies)
	eval, err := ranger.New(ranger.Config{ServiceDef: s.sd, Policies: rp})
	if err != nil {
		return nil, fmt.Errorf("gate one: compile policies: %w", err)
	}
	c := &compiledPolicies{version: version, policies: policies, ranger: rp, eval: eval}
	s.compiled.Store(c)
	return c, nil
}

// toRanger turns stored policies into the polaris service's Ranger
// policies, numbered in order.
func toRanger(policies []grants.Policy) []ranger.Policy {
	out := make([]ranger.Policy, 0, len(policies))
	for i, p := range policies {
		enabled := !p.Disabled
		rp := ranger.Policy{
			ID:           int64(i + 1),
			Name:         p.Resource.String(),
			Service:      "polaris",
			IsEnabled:    &enabled,
			Resources:    rangerResources(p.Resource),
			PolicyLabels: p.Labels,
		}
		for _, it := range p.Allow {
			rp.PolicyItems = append(rp.PolicyItems, rangerItem(it))
		}
		for _, it := range p.Deny {
			rp.DenyPolicyItems = append(rp.DenyPolicyItems, rangerItem(it))
		}
		out = append(out, rp)
	}
	return out
}

func rangerResources(r grants.Resource) map[string]ranger.PolicyResource {
	out := map[string]ranger.PolicyResource{
		"root":    {Values: []string{r.Root}},
		"catalog": {Values: []string{r.Catalog}},
	}
	if r.Namespace != "" {
		out["namespace"] = ranger.PolicyResource{Values: []string{r.Namespace}}
	}
	if r.Table != "" {
		out["table"] = ranger.PolicyResource{Values: []string{r.Table}}
	}
	return out
}

func rangerItem(it grants.Item) ranger.PolicyItem {
	ri := ranger.PolicyItem{Users: it.Users, Roles: it.Roles, Groups: it.Groups, DelegateAdmin: it.DelegateAdmin}
	for _, a := range it.Accesses {
		ri.Accesses = append(ri.Accesses, ranger.PolicyItemAccess{Type: a})
	}
	return ri
}
