package ranger

import (
	"fmt"
	"slices"
	"sort"
)

// SecurityZoneInfo is ServicePolicies.SecurityZoneInfo: a security zone's
// resources and the service's policies written for it. A request for a
// resource of a zone is decided by the zone's policies only.
type SecurityZoneInfo struct {
	ZoneName  string                `json:"zoneName"`
	Resources []map[string][]string `json:"resources"`
	Policies  []Policy              `json:"policies,omitempty"`
	// PolicyDeltas are changes to the zone's policies (a delta download).
	PolicyDeltas []PolicyDelta `json:"policyDeltas,omitempty"`
	// ContainsAssociatedTagService: the zone has its own tag policies
	// (tag policies naming the zone); otherwise the tag policies of no
	// zone apply in it.
	ContainsAssociatedTagService bool `json:"containsAssociatedTagService,omitempty"`
}

// securityZone is a zone compiled: the matchers of its resources and an
// evaluator of its policies.
type securityZone struct {
	name     string
	matchers []*resourceMatcher
	eval     *Evaluator
}

// compileZones builds an evaluator for each zone, sharing the roles, tag
// store and configuration of the service, and splits the service's tag
// policies between the zones and the rest.
func compileZones(cfg Config, resources *hierarchies) ([]*securityZone, error) {
	names := make([]string, 0, len(cfg.SecurityZones))
	for name := range cfg.SecurityZones {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []*securityZone
	for _, name := range names {
		info := cfg.SecurityZones[name]
		z := &securityZone{name: name}
		for i, res := range info.Resources {
			pr := make(map[string]PolicyResource, len(res))
			for level, values := range res {
				pr[level] = PolicyResource{Values: values, IsRecursive: recursiveSupported(cfg.ServiceDef, level)}
			}
			m, err := newResourceMatcher(resources, pr)
			if err != nil {
				return nil, fmt.Errorf("security zone %s: resources %d: %w", name, i+1, err)
			}
			z.matchers = append(z.matchers, m)
		}
		zc := cfg
		zc.SecurityZones = nil
		zc.Policies = slices.Clone(info.Policies)
		for _, p := range cfg.Policies {
			if p.ZoneName == name {
				zc.Policies = append(zc.Policies, p)
			}
		}
		zoneOfTags := ""
		if info.ContainsAssociatedTagService {
			zoneOfTags = name
		}
		zc.TagPolicies = policiesOfZone(cfg.TagPolicies, zoneOfTags)
		// Inside the zone's own evaluator its policies belong to no zone.
		for _, list := range [][]Policy{zc.Policies, zc.TagPolicies} {
			for i := range list {
				list[i].ZoneName = ""
			}
		}
		eval, err := New(zc)
		if err != nil {
			return nil, fmt.Errorf("security zone %s: %w", name, err)
		}
		z.eval = eval
		out = append(out, z)
	}
	return out, nil
}

// policiesOfZone copies the policies written for a zone ("" for no
// zone).
func policiesOfZone(policies []Policy, zone string) []Policy {
	var out []Policy
	for _, p := range policies {
		if p.ZoneName == zone {
			out = append(out, p)
		}
	}
	return out
}

func recursiveSupported(def *ServiceDef, level string) bool {
	for _, r := range def.Resources {
		if r.Name == level {
			return r.RecursiveSupported
		}
	}
	return false
}

// zonesOf names the zones a request's resource belongs to, as Ranger's
// RangerSecurityZoneMatcher.getZonesForResourceAndChildren does: every
// zone one of whose resources matches it in any way, and "" (no zone)
// too when only a descendant of the resource is in a zone.
func (e *Evaluator) zonesOf(req *Request) []*Evaluator {
	var out []*Evaluator
	unzoned := false
	for _, z := range e.zones {
		for _, m := range z.matchers {
			mt := m.matchType(req.Resource, req)
			if mt == MatchNone {
				continue
			}
			unzoned = unzoned || mt == MatchDescendant
			out = append(out, z.eval)
			break
		}
	}
	if unzoned {
		out = append(out, e)
	}
	return out
}

// evaluatorFor picks the evaluator deciding a request: the zone's when
// the resource lies in exactly one zone, otherwise the service's own
// policies. (Ranger tries every zone in turn only for any-access, which
// IsAccessAllowed does itself.)
func (e *Evaluator) evaluatorFor(req *Request) *Evaluator {
	if len(e.zones) == 0 {
		return e
	}
	if zs := e.zonesOf(req); len(zs) == 1 {
		return zs[0]
	}
	return e
}
