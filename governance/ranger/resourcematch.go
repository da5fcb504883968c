package ranger

import (
	"fmt"
	"strings"
)

// levelMatcher is a policy's values for one resource level.
type levelMatcher struct {
	values []valueMatcher
	// anyValue: a lone "*" (with wildcards on) or no values at all. Like
	// Ranger's isMatchAny it ignores excludes: an excluded "*" stands for
	// every value and then matches none.
	anyValue bool
	excludes bool
}

func newLevelMatcher(lvl *resourceLevel, r PolicyResource) *levelMatcher {
	m := &levelMatcher{excludes: r.IsExcludes}
	recursive := r.IsRecursive && (lvl.url || lvl.path)
	for _, v := range r.Values {
		if v == "" {
			continue
		}
		if recursive && lvl.wildcard && v[len(v)-1] == lvl.separator {
			v += "*"
		}
		if lvl.wildcard && matchesAnyValue(lvl, recursive, v) {
			m.anyValue = true
			continue
		}
		m.values = append(m.values, compileValue(lvl, recursive, v))
	}
	if m.anyValue || len(m.values) == 0 {
		m.anyValue = true
		m.values = nil
	}
	return m
}

// matchesAnyValue reports whether a policy value stands for every value:
// a run of '*', except that a recursive path takes only a lone '*' so.
func matchesAnyValue(lvl *resourceLevel, recursive bool, v string) bool {
	if lvl.path && recursive {
		return v == "*"
	}
	return onlyAsterisks(v)
}

func compileValue(lvl *resourceLevel, recursive bool, v string) valueMatcher {
	if lvl.tokens != nil && lvl.tokens.has(v) {
		return tokenMatcher{lvl: lvl, recursive: recursive, raw: v}
	}
	return compileStaticValue(lvl, recursive, v)
}

// compileStaticValue compiles a value without tokens (or with them
// expanded) as the level's Ranger matcher does.
func compileStaticValue(lvl *resourceLevel, recursive bool, v string) valueMatcher {
	wild := lvl.wildcard && hasWildcard(v)
	switch {
	case lvl.url && recursive:
		if wild {
			return urlRecursiveWildcardMatcher{pattern: v, sep: lvl.separator, fold: lvl.ignoreCase}
		}
		return newRecursivePathMatcher(v, lvl.separator, lvl.ignoreCase)
	case lvl.path && recursive:
		if wild {
			return newRecursiveWildcardPathMatcher(v, lvl.separator, lvl.ignoreCase)
		}
		return newRecursivePathMatcher(v, lvl.separator, lvl.ignoreCase)
	case wild:
		return newWildcardMatcher(v, lvl.ignoreCase)
	}
	return exactMatcher{value: v, fold: lvl.ignoreCase}
}

// isMatch matches the requested values of a level: any one of them
// matching any policy value is enough. A request for every value (none, ""
// or "*") matches only a policy level that stands for every value. With
// prefix (Ranger's SELF_OR_PREFIX scope) a requested value also matches a
// policy value it is the start of.
func (m *levelMatcher) isMatch(vals []string, prefix bool, rq *Request) bool {
	allRequested := len(vals) == 0 || (len(vals) == 1 && (vals[0] == "" || vals[0] == "*"))
	ret := m.anyValue
	if !m.anyValue && (!allRequested || prefix) {
		ret = m.matchesOneOf(vals, prefix, rq)
	}
	return m.applyExcludes(allRequested, ret)
}

// isMatchValue is isMatch for a single requested value.
func (m *levelMatcher) isMatchValue(v string, rq *Request) bool {
	allRequested := v == "" || v == "*"
	ret := m.anyValue
	if !allRequested && !m.anyValue {
		ret = m.matchesValue(v, false, rq)
	}
	return m.applyExcludes(allRequested, ret)
}

func (m *levelMatcher) matchesOneOf(vals []string, prefix bool, rq *Request) bool {
	for _, v := range vals {
		if m.matchesValue(v, prefix, rq) {
			return true
		}
	}
	return false
}

func (m *levelMatcher) matchesValue(v string, prefix bool, rq *Request) bool {
	for _, vm := range m.values {
		if vm.match(v, rq) || (prefix && vm.prefixMatch(v, rq)) {
			return true
		}
	}
	return false
}

func (m *levelMatcher) applyExcludes(allRequested, ret bool) bool {
	if !m.excludes || (allRequested && !m.anyValue) {
		return ret
	}
	return !ret
}

// resourceMatcher is one resource set of a policy (or of a tagged
// resource), compiled: a matcher per level and the hierarchy the levels
// belong to.
type resourceMatcher struct {
	h      *hierarchies
	levels map[string]*levelMatcher
	// valid is the only hierarchy the levels fit, or nil when several do.
	valid []string
}

func newResourceMatcher(h *hierarchies, resources map[string]PolicyResource) (*resourceMatcher, error) {
	if len(resources) == 0 {
		return nil, fmt.Errorf("no resources")
	}
	m := &resourceMatcher{h: h, levels: make(map[string]*levelMatcher, len(resources))}
	for name, r := range resources {
		lvl, ok := h.levels[name]
		if !ok {
			return nil, fmt.Errorf("resource %q is not defined for this policy type", name)
		}
		for _, v := range r.Values {
			// Ranger resolves these request expressions per request; read
			// literally, a deny policy using them would never match.
			if strings.Contains(v, "${{") {
				return nil, fmt.Errorf("resource %q: value %q uses a request expression, which is not supported", name, v)
			}
		}
		m.levels[name] = newLevelMatcher(lvl, r)
	}
	count := 0
	for _, p := range h.paths {
		if pathHasAll(p, resources) && gapless(p, resources) {
			count++
			m.valid = p
		}
	}
	switch count {
	case 0:
		return nil, fmt.Errorf("resources %v do not form a resource hierarchy", keysOf(resources))
	case 1:
	default:
		m.valid = nil
	}
	return m, nil
}

// hierarchyFor picks the hierarchy a request is matched along, or nil when
// the request's levels do not fit the policy's.
func (m *resourceMatcher) hierarchyFor(req Resource) []string {
	if len(req) == 0 {
		if m.valid != nil {
			return m.valid
		}
		return shortestPath(m.h, m.levels)
	}
	var path []string
	switch {
	case m.valid != nil:
		if pathHasAll(m.valid, req) {
			path = m.valid
		}
	case containsKeys(m.levels, req):
		path = shortestPath(m.h, m.levels)
	case containsKeys(req, m.levels):
		path = shortestPath(m.h, req)
	}
	if path == nil || !gapless(path, req) {
		return nil
	}
	return path
}

// matchType compares a requested resource with the policy's, as Ranger's
// RangerDefaultPolicyResourceMatcher.getMatchType does. rq, when not nil,
// is the request the resource belongs to: it supplies the values of
// {USER} and {OWNER} and the levels matched with SELF_OR_PREFIX.
func (m *resourceMatcher) matchType(req Resource, rq *Request) MatchType {
	path := m.hierarchyFor(req)
	if path == nil {
		return MatchNone
	}
	lastNonAny, count := -1, 0
	for _, name := range path {
		lm := m.levels[name]
		if lm == nil {
			break
		}
		if !lm.anyValue {
			lastNonAny = count
		}
		count++
	}
	ret := MatchNone
	if len(req) == 0 {
		ret = MatchSelf
	}
	for _, name := range path {
		lm := m.levels[name]
		vals, requested := req[name]
		if lm == nil {
			if requested {
				ret = MatchAncestor
			}
			break
		}
		if !requested && !lm.anyValue {
			continue
		}
		if !lm.isMatch(vals, rq.prefixMatched(name), rq) {
			return MatchNone
		}
		ret = MatchSelf
	}
	if ret == MatchSelf && len(req) < len(m.levels) {
		if len(req) > lastNonAny {
			return MatchSelfAndAllDescendants
		}
		return MatchDescendant
	}
	return ret
}

// policyApplies reports whether a matched policy counts for a request:
// any-access counts every match but ANCESTOR (descendants hold something
// the caller may reach); a specific access needs the resource itself or
// everything below a parent.
func policyApplies(mt MatchType, anyAccess bool) bool {
	if anyAccess {
		return mt != MatchNone && mt != MatchAncestor
	}
	return mt == MatchSelf || mt == MatchSelfAndAllDescendants
}

// matchesResource is Ranger's isMatch(resource) used by the
// accessed-together conditions: every requested level is one of the
// policy's and matches, and every policy level the request leaves out
// stands for every value.
func (m *resourceMatcher) matchesResource(req Resource) bool {
	if !containsKeys(m.levels, req) {
		return false
	}
	for name, lm := range m.levels {
		vals, ok := req[name]
		if !ok || len(vals) == 0 {
			if !lm.anyValue {
				return false
			}
			continue
		}
		for _, v := range vals {
			if !lm.isMatchValue(v, nil) {
				return false
			}
		}
	}
	return true
}

// containsKeys reports whether every key of sub is a key of super.
func containsKeys[A, B any](super map[string]A, sub map[string]B) bool {
	for k := range sub {
		if _, ok := super[k]; !ok {
			return false
		}
	}
	return true
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
