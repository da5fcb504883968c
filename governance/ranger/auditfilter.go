package ranger

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Service configuration keys the evaluator reads (Ranger's
// RangerPolicyEngine.PLUGIN_SUPER_USERS and friends).
const (
	ConfigSuperUsers   = "ranger.plugin.super.users"
	ConfigSuperGroups  = "ranger.plugin.super.groups"
	ConfigAuditFilters = "ranger.plugin.audit.filters"
)

// auditFilter is one entry of a service's ranger.plugin.audit.filters
// (Ranger's AuditFilter): when it matches a decided request, IsAudited
// says whether the request is audited, whatever the policies said.
type auditFilter struct {
	AccessResult string                    `json:"accessResult"`
	Resources    map[string]PolicyResource `json:"resources"`
	AccessTypes  []string                  `json:"accessTypes"`
	Actions      []string                  `json:"actions"`
	Users        []string                  `json:"users"`
	Groups       []string                  `json:"groups"`
	Roles        []string                  `json:"roles"`
	IsAudited    *bool                     `json:"isAudited"`
}

// Access results an audit filter may name.
const (
	auditResultAllowed      = "ALLOWED"
	auditResultDenied       = "DENIED"
	auditResultUndetermined = "NOT_DETERMINED"
)

// compiledAuditFilter is an audit filter ready to match, as Ranger's
// RangerAuditPolicyEvaluator matches it.
type compiledAuditFilter struct {
	// resource matches a resource filter; nil matches every resource.
	resource *resourceMatcher
	// tag matches a tag filter's tag; nil for resource filters.
	tag                  *levelMatcher
	accessResult         string
	users, groups, roles map[string]struct{}
	anyUser, owner       bool
	actions, accessTypes map[string]struct{}
	isAudited            *bool
}

// parseAuditFilters reads ranger.plugin.audit.filters. Ranger's own
// configurations write it as lenient JSON with single-quoted strings.
func parseAuditFilters(text string) ([]auditFilter, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	var out []auditFilter
	if err := json.Unmarshal([]byte(singleToDoubleQuotes(text)), &out); err != nil {
		return nil, fmt.Errorf("%s: %w", ConfigAuditFilters, err)
	}
	return out, nil
}

// singleToDoubleQuotes rewrites single-quoted JSON strings as
// double-quoted ones, leaving double-quoted strings as they are.
func singleToDoubleQuotes(s string) string {
	var sb strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
			sb.WriteByte('"')
		case quote != 0 && c == '\\' && i+1 < len(s):
			i++
			if s[i] == '\'' {
				sb.WriteByte('\'')
			} else {
				sb.WriteByte('\\')
				sb.WriteByte(s[i])
			}
		case quote != 0 && c == quote:
			quote = 0
			sb.WriteByte('"')
		case quote == '\'' && c == '"':
			sb.WriteString(`\"`)
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// compileAuditFilters compiles a service's filters against its access
// hierarchy, or a tag service's against its tag resource (tagResource is
// then the name of that resource).
func compileAuditFilters(filters []auditFilter, h *hierarchies, tagResource string) ([]*compiledAuditFilter, error) {
	var out []*compiledAuditFilter
	for i, f := range filters {
		cf := &compiledAuditFilter{
			users:       set(f.Users),
			groups:      set(f.Groups),
			roles:       set(f.Roles),
			actions:     set(f.Actions),
			accessTypes: set(f.AccessTypes),
			isAudited:   f.IsAudited,
		}
		switch f.AccessResult {
		case "", auditResultAllowed, auditResultDenied, auditResultUndetermined:
			cf.accessResult = f.AccessResult
		default:
			return nil, fmt.Errorf("audit filter %d: unknown access result %q", i+1, f.AccessResult)
		}
		_, public := cf.groups[GroupPublic]
		_, current := cf.users[UserCurrent]
		_, cf.owner = cf.users[UserOwner]
		cf.anyUser = (len(f.Users) == 0 && len(f.Groups) == 0 && len(f.Roles) == 0) || public || current
		if len(f.Resources) > 0 {
			if tagResource != "" {
				r, ok := f.Resources[tagResource]
				lvl := h.levels[tagResource]
				if !ok || len(f.Resources) != 1 || lvl == nil {
					return nil, fmt.Errorf("audit filter %d: a tag service's filter names only the %q resource", i+1, tagResource)
				}
				cf.tag = newLevelMatcher(lvl, r)
			} else {
				m, err := newResourceMatcher(h, f.Resources)
				if err != nil {
					return nil, fmt.Errorf("audit filter %d: %w", i+1, err)
				}
				cf.resource = m
			}
		}
		out = append(out, cf)
	}
	return out, nil
}

// matches reports whether the filter applies to a decided request; mt is
// how its resource (or tag) relates to the requested resource.
func (f *compiledAuditFilter) matches(ec *evalContext, allowed bool) bool {
	switch f.accessResult {
	case auditResultAllowed:
		if !allowed {
			return false
		}
	case auditResultDenied:
		if allowed {
			return false
		}
	case auditResultUndetermined:
		// Every request SQE evaluates is decided: a request no policy
		// decides is denied, there being no fallback authorizer.
		return false
	}
	return f.matchesPrincipal(ec) && f.matchesAction(ec.req)
}

func (f *compiledAuditFilter) matchesPrincipal(ec *evalContext) bool {
	if f.anyUser {
		return true
	}
	req := ec.req
	if _, ok := f.users[req.User]; ok && req.User != "" {
		return true
	}
	if f.owner && req.User != "" && req.User == req.Owner {
		return true
	}
	for _, g := range req.Groups {
		if _, ok := f.groups[g]; ok {
			return true
		}
	}
	for _, r := range ec.roles {
		if _, ok := f.roles[r]; ok {
			return true
		}
	}
	return false
}

func (f *compiledAuditFilter) matchesAction(req *Request) bool {
	if len(f.actions) == 0 && len(f.accessTypes) == 0 {
		return true
	}
	if _, ok := f.actions[req.Action]; ok && req.Action != "" {
		return true
	}
	_, ok := f.accessTypes[req.AccessType]
	return ok && req.AccessType != ""
}

// audited applies the audit filters to a decided request, as Ranger's
// evaluateAuditPolicies does: the tag service's filters (for each tag of
// the resource) first, then the service's own, in the order configured;
// the first matching filter that says audited or not decides. Without
// one, what the policies said stands.
func (e *Evaluator) audited(ec *evalContext, tags []ResourceTag, allowed, policiesSay bool) bool {
	if len(e.auditFilters) == 0 && len(e.tagAuditFilters) == 0 {
		return policiesSay
	}
	anyAccess := ec.req.isAny()
	for _, f := range e.tagAuditFilters {
		for i := range tags {
			tag := &tags[i]
			if !auditFilterApplies(tagFilterMatchType(tag), anyAccess, true) {
				continue
			}
			if f.tag != nil && !f.tag.isMatchValue(tag.Type, nil) {
				continue
			}
			if f.isAudited != nil && f.matches(ec, allowed) {
				return *f.isAudited
			}
		}
	}
	for _, f := range e.auditFilters {
		if f.resource != nil && !auditFilterApplies(f.resource.matchType(ec.req.Resource, ec.req), anyAccess, false) {
			continue
		}
		if f.isAudited != nil && f.matches(ec, allowed) {
			return *f.isAudited
		}
	}
	return policiesSay
}

// auditFilterApplies is RangerAuditPolicyEvaluator.matchResource: which
// match types bring a request under a filter's resource.
func auditFilterApplies(mt MatchType, anyAccess, byTag bool) bool {
	switch mt {
	case MatchSelf, MatchSelfAndAllDescendants:
		return true
	case MatchDescendant:
		return anyAccess
	case MatchAncestor:
		return byTag
	}
	return false
}

// tagFilterMatchType is how a tag sits relative to the resource, an unset
// match type being SELF.
func tagFilterMatchType(t *ResourceTag) MatchType {
	if t.MatchType == MatchNone {
		return MatchSelf
	}
	return t.MatchType
}

// splitConfigList reads a comma-separated configuration value as Ranger's
// StringUtil.toSet does: trimmed, empty entries dropped.
func splitConfigList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
