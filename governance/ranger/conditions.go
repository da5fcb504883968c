package ranger

import (
	"errors"
	"fmt"
	"net/netip"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Condition evaluator classes of Ranger this evaluator implements. A
// condition of any other class makes its policy refused (see
// RefusedPolicy).
const (
	accessedTogetherClass    = "RangerHiveResourcesAccessedTogetherCondition"
	notAccessedTogetherClass = "RangerHiveResourcesNotAccessedTogetherCondition"
	scriptClass              = "RangerScriptConditionEvaluator"
	scriptTemplateClass      = "RangerScriptTemplateConditionEvaluator"
	ipMatcherClass           = "RangerIpMatcher"
	timeOfDayClass           = "RangerTimeOfDayMatcher"
	simpleMatcherClass       = "RangerSimpleMatcher"
	contextValueInClass      = "RangerContextAttributeValueInCondition"
	contextValueNotInClass   = "RangerContextAttributeValueNotInCondition"
	anyTagPresentClass       = "RangerAnyOfExpectedTagsPresentConditionEvaluator"
	noTagPresentClass        = "RangerNoneOfExpectedTagsPresentConditionEvaluator"
	allTagsPresentClass      = "RangerTagsAllPresentConditionEvaluator"
)

// evalContext is one request being evaluated: the request, the access
// time and, while a tag policy is evaluated, the tag it is evaluated for.
// What conditions need beyond that (the caller's roles, the resource's
// tags, the enrichers' context values) is worked out on first use.
type evalContext struct {
	e     *Evaluator
	req   *Request
	roles []string
	now   time.Time
	tag   *ResourceTag

	rolesKnown    bool
	tags          []ResourceTag
	tagsKnown     bool
	enriched      map[string]string
	enrichedKnown bool
	// resourceOrder is the service's longest resource hierarchy, the
	// order scripts see resource levels in.
	resourceOrder []string
	// condErr is the first condition that could not be evaluated.
	condErr error
}

// userRoles are the caller's roles, from the request and the role set.
func (ec *evalContext) userRoles() []string {
	if !ec.rolesKnown {
		ec.roles = ec.e.roles.rolesOf(ec.req.User, ec.req.Groups, ec.req.Roles)
		ec.rolesKnown = true
	}
	return ec.roles
}

// requestTags are the tags of the requested resource, as Ranger's tag
// enricher puts them in the request's context.
func (ec *evalContext) requestTags() []ResourceTag {
	if !ec.tagsKnown {
		ec.tags = ec.e.tagsFor(ec.req, ec.req.isAny())
		ec.tagsKnown = true
	}
	return ec.tags
}

// contextValue is a context attribute of the request: one a context
// enricher sets, else one the request carries.
func (ec *evalContext) contextValue(name string) (string, bool) {
	if !ec.enrichedKnown {
		ec.enriched = ec.e.enrich(ec.req)
		ec.enrichedKnown = true
	}
	if v, ok := ec.enriched[name]; ok {
		return v, true
	}
	v, ok := ec.req.Context[name]
	return v, ok
}

// fail records a condition that could not be evaluated.
func (ec *evalContext) fail(err error) {
	if ec.condErr == nil {
		ec.condErr = err
	}
}

// condition is a compiled policy or item condition. eval reports an
// error when the condition cannot be decided for the request (a script
// threw or ran out of time, an input it needs is missing); the caller
// then fails closed.
type condition interface {
	eval(ec *evalContext) (bool, error)
}

// conditionsHold reports whether every condition holds, stopping at the
// first that does not or cannot be evaluated.
func conditionsHold(conds []condition, ec *evalContext) (bool, error) {
	for _, c := range conds {
		ok, err := c.eval(ec)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// unevaluableError is why a policy cannot be evaluated as Ranger would:
// a condition type or evaluator SQE lacks, a script that does not
// compile. The policy is refused (RefusedPolicy), not misread.
type unevaluableError struct{ err error }

func (u *unevaluableError) Error() string { return u.err.Error() }
func (u *unevaluableError) Unwrap() error { return u.err }

func unevaluable(err error) error { return &unevaluableError{err: err} }

// conditionCompiler compiles the conditions of one service definition.
type conditionCompiler struct {
	defs map[string]PolicyConditionDef
	// resources is the hierarchy accessed-together values are written in
	// ("db.table.column"): the longest of the service's access hierarchies.
	resources *hierarchies
	path      []string
	scripts   *scriptRuntime
}

func newConditionCompiler(def *ServiceDef, access *hierarchies, scripts *scriptRuntime) *conditionCompiler {
	c := &conditionCompiler{defs: map[string]PolicyConditionDef{}, resources: access, scripts: scripts}
	for _, d := range def.PolicyConditions {
		c.defs[d.Name] = d
	}
	for _, p := range access.paths {
		if len(p) > len(c.path) {
			c.path = p
		}
	}
	return c
}

// compileAll compiles a policy's or an item's conditions; an error is an
// unevaluableError.
func (c *conditionCompiler) compileAll(conds []PolicyItemCondition) ([]condition, error) {
	var out []condition
	for _, pc := range conds {
		cond, err := c.compile(pc)
		if err != nil {
			return nil, unevaluable(fmt.Errorf("condition %q: %w", pc.Type, err))
		}
		if cond != nil {
			out = append(out, cond)
		}
	}
	return out, nil
}

// compile compiles one condition; a nil condition always holds.
func (c *conditionCompiler) compile(pc PolicyItemCondition) (condition, error) {
	def, ok := c.defs[pc.Type]
	if !ok {
		return nil, errors.New("not defined by the service definition")
	}
	class := def.Evaluator[strings.LastIndexByte(def.Evaluator, '.')+1:]
	opts := def.EvaluatorOptions
	switch class {
	case accessedTogetherClass, notAccessedTogetherClass:
		cond := accessedTogether{together: class == accessedTogetherClass}
		for _, v := range pc.Values {
			m, err := c.resourceSpec(v)
			if err != nil {
				return nil, err
			}
			cond.matchers = append(cond.matchers, m)
		}
		return cond, nil
	case scriptClass:
		// Ranger runs the first value; a blank script always holds.
		if len(pc.Values) == 0 || strings.TrimSpace(pc.Values[0]) == "" {
			return nil, nil
		}
		return c.script(strings.TrimSpace(pc.Values[0]), opts, false)
	case scriptTemplateClass:
		// The value says whether the template's result is expected
		// ("yes") or reversed ("no", "false"); a blank value always holds.
		if len(pc.Values) == 0 || strings.TrimSpace(pc.Values[0]) == "" {
			return nil, nil
		}
		v := strings.TrimSpace(pc.Values[0])
		tmpl := strings.TrimSpace(opts["scriptTemplate"])
		if tmpl == "" {
			return nil, nil
		}
		return c.script(tmpl, opts, strings.EqualFold(v, "false") || strings.EqualFold(v, "no"))
	case ipMatcherClass:
		return compileIPMatcher(pc.Values)
	case timeOfDayClass:
		return compileTimeOfDay(pc.Values)
	case simpleMatcherClass:
		name := opts["CONTEXT_NAME"]
		if len(pc.Values) == 0 || name == "" {
			return nil, nil
		}
		return contextWildcard{name: name, patterns: pc.Values}, nil
	case contextValueInClass, contextValueNotInClass:
		name := opts["attributeName"]
		if len(pc.Values) == 0 || name == "" {
			return nil, nil
		}
		return contextValueIn{name: name, values: pc.Values, negate: class == contextValueNotInClass}, nil
	case anyTagPresentClass, noTagPresentClass, allTagsPresentClass:
		return tagsPresent{class: class, types: pc.Values}, nil
	}
	return nil, fmt.Errorf("evaluator %s is not supported", def.Evaluator)
}

func (c *conditionCompiler) script(src string, opts StringMap, reverse bool) (condition, error) {
	var jsonContext *bool
	if s := opts["enableJsonCtx"]; s != "" {
		b := strings.EqualFold(s, "true")
		jsonContext = &b
	}
	p, err := c.scripts.compile(src, jsonContext)
	if err != nil {
		return nil, err
	}
	return scriptCondition{prog: p, reverse: reverse}, nil
}

// resourceSpec reads an accessed-together value such as
// "default.testTable.col*" into a resource matcher.
func (c *conditionCompiler) resourceSpec(v string) (*resourceMatcher, error) {
	parts := strings.Split(v, ".")
	if len(parts) > len(c.path) {
		return nil, fmt.Errorf("resource %q has more than %d levels", v, len(c.path))
	}
	res := make(map[string]PolicyResource, len(parts))
	for i, p := range parts {
		res[c.path[i]] = PolicyResource{Values: []string{p}}
	}
	m, err := newResourceMatcher(c.resources, res)
	if err != nil {
		return nil, fmt.Errorf("resource %q: %w", v, err)
	}
	return m, nil
}

// scriptCondition is a script (RangerScriptConditionEvaluator) or a
// script template (RangerScriptTemplateConditionEvaluator, whose result
// a "no" reverses).
type scriptCondition struct {
	prog    *scriptProgram
	reverse bool
}

func (c scriptCondition) eval(ec *evalContext) (bool, error) {
	ok, err := c.prog.run(ec)
	if err != nil {
		return false, err
	}
	return ok != c.reverse, nil
}

// errNoClientAddress: an IP condition cannot be decided without the
// client's address. Ranger lets such a condition hold; SQE fails closed.
var errNoClientAddress = errors.New("IP-range condition: the request has no client address")

// ipMatcher is RangerIpMatcher: the client's address is one of the
// values, or starts with one written with trailing wildcards
// ("10.1.*.*"), or, beyond Ranger, lies in one written as a CIDR prefix
// ("10.0.0.0/8"). "*" matches every address.
type ipMatcher struct {
	any      bool
	exact    []string
	prefixes []string
	nets     []netip.Prefix
}

func compileIPMatcher(values []string) (condition, error) {
	var m ipMatcher
	if len(values) == 0 {
		return nil, nil
	}
	for _, v := range values {
		v = strings.TrimSpace(v)
		switch {
		case v == "" || ipAllWildcards.MatchString(v):
			return nil, nil
		case strings.Contains(v, "/"):
			p, err := netip.ParsePrefix(v)
			if err != nil {
				return nil, fmt.Errorf("IP range %q: %w", v, err)
			}
			m.nets = append(m.nets, p.Masked())
		case strings.Contains(v, "."):
			if d := ipv4TrailingWildcards.ReplaceAllString(v, "."); d != v {
				m.prefixes = append(m.prefixes, d)
			} else {
				m.exact = append(m.exact, v)
			}
		default:
			if d := strings.ToLower(ipv6TrailingWildcards.ReplaceAllString(v, ":")); d != strings.ToLower(v) {
				m.prefixes = append(m.prefixes, d)
			} else {
				m.exact = append(m.exact, strings.ToLower(v))
			}
		}
	}
	return m, nil
}

// RangerIpMatcher's patterns: every address ("*", "*.*", "*:*", ...),
// and trailing wildcards of an IPv4 or IPv6 address.
var (
	ipAllWildcards        = regexp.MustCompile(`^((\*(\.\*)*)|(\*(:\*)*))$`)
	ipv4TrailingWildcards = regexp.MustCompile(`(\.\*)+$`)
	ipv6TrailingWildcards = regexp.MustCompile(`(:\*)+$`)
)

func (m ipMatcher) eval(ec *evalContext) (bool, error) {
	ip := ec.req.ClientIPAddress
	if ip == "" {
		return false, errNoClientAddress
	}
	if !strings.Contains(ip, ".") {
		ip = strings.ToLower(ip)
	}
	if slices.Contains(m.exact, ip) {
		return true, nil
	}
	for _, p := range m.prefixes {
		if strings.HasPrefix(ip, p) {
			return true, nil
		}
	}
	if len(m.nets) > 0 {
		if addr, err := netip.ParseAddr(ip); err == nil {
			for _, n := range m.nets {
				if n.Contains(addr.Unmap()) {
					return true, nil
				}
			}
		}
	}
	return false, nil
}

// timeOfDay is RangerTimeOfDayMatcher: the access's time of day, in the
// server's local time zone as Ranger's plugin reads it in its JVM's, lies
// in one of the durations ("9am-5pm", "9:30 A.M. - 4:00pm"; both ends
// inclusive; a start after the end wraps past midnight).
type timeOfDay struct {
	durations [][2]int // minutes of the day
}

// timeOfDayPattern is Ranger's pattern for a duration.
var timeOfDayPattern = regexp.MustCompile(`^ *(\d{1,2})(:(\d{1,2}))? *([aApP])\.?[mM]\.? *- *(\d{1,2})(:(\d{1,2}))? *([aApP])\.?[mM]\.? *$`)

func compileTimeOfDay(values []string) (condition, error) {
	var c timeOfDay
	for _, v := range values {
		if v == "" {
			continue
		}
		m := timeOfDayPattern.FindStringSubmatch(v)
		if m == nil {
			// Ranger skips such a value, and matches always when none is
			// left; SQE refuses the policy rather than widen it.
			return nil, fmt.Errorf("time of day %q: want a duration such as 9am-5pm", v)
		}
		clock := func(hour, minute, half string) int {
			h, _ := strconv.Atoi(hour)
			mi, _ := strconv.Atoi(minute)
			switch {
			case h == 12 && strings.EqualFold(half, "a"):
				h = 0
			case h != 12 && strings.EqualFold(half, "p"):
				h += 12
			}
			return h*60 + mi
		}
		c.durations = append(c.durations, [2]int{clock(m[1], m[3], m[4]), clock(m[5], m[7], m[8])})
	}
	if len(c.durations) == 0 {
		return nil, nil // no values: Ranger's condition always holds
	}
	return c, nil
}

func (c timeOfDay) eval(ec *evalContext) (bool, error) {
	local := ec.now.In(time.Local)
	now := local.Hour()*60 + local.Minute()
	for _, d := range c.durations {
		if d[0] < d[1] && d[0] <= now && now <= d[1] || d[0] >= d[1] && (d[0] <= now || now <= d[1]) {
			return true, nil
		}
	}
	return false, nil
}

// contextWildcard is RangerSimpleMatcher: the context value named by the
// definition's CONTEXT_NAME matches one of the values (* and ?
// wildcards). Ranger lets it hold when the request lacks the value; SQE
// fails closed.
type contextWildcard struct {
	name     string
	patterns []string
}

func (c contextWildcard) eval(ec *evalContext) (bool, error) {
	v, ok := ec.contextValue(c.name)
	if !ok {
		return false, fmt.Errorf("condition on context attribute %q: the request has no value for it", c.name)
	}
	for _, p := range c.patterns {
		if m, err := path.Match(wildcardToPath(p), wildcardToPath(v)); err == nil && m {
			return true, nil
		}
	}
	return false, nil
}

// wildcardToPath lets path.Match do a FilenameUtils.wildcardMatch: only *
// and ? are special, and no character is a separator.
func wildcardToPath(s string) string {
	r := strings.NewReplacer("/", "\x00", "[", "\\[", "\\", "\\\\")
	return r.Replace(s)
}

// contextValueIn is RangerContextAttributeValueInCondition (or, negated,
// NotIn): the context attribute is (not) one of the values. Ranger lets
// it hold when the request lacks the attribute; SQE fails closed.
type contextValueIn struct {
	name   string
	values []string
	negate bool
}

func (c contextValueIn) eval(ec *evalContext) (bool, error) {
	v, ok := ec.contextValue(c.name)
	if !ok {
		return false, fmt.Errorf("condition on context attribute %q: the request has no value for it", c.name)
	}
	return slices.Contains(c.values, v) != c.negate, nil
}

// tagsPresent is Ranger's tag-presence conditions over the resource's
// tags: any of the types present, none of them, or all of them.
type tagsPresent struct {
	class string
	types []string
}

func (c tagsPresent) eval(ec *evalContext) (bool, error) {
	present := map[string]bool{}
	for _, t := range ec.requestTags() {
		present[t.Type] = true
	}
	switch c.class {
	case anyTagPresentClass:
		return slices.ContainsFunc(c.types, func(t string) bool { return present[t] }), nil
	case noTagPresentClass:
		return !slices.ContainsFunc(c.types, func(t string) bool { return present[t] }), nil
	}
	return !slices.ContainsFunc(c.types, func(t string) bool { return !present[t] }), nil
}

// accessedTogether is Ranger's accessed-together condition (or, when
// together is false, not-accessed-together): the statement touches at
// least two resources matching the condition's resources.
type accessedTogether struct {
	matchers []*resourceMatcher
	together bool
}

func (c accessedTogether) eval(ec *evalContext) (bool, error) {
	rr := ec.req.RequestedResources
	if c.together {
		return len(c.matchers) == 0 || (len(rr) > 0 && !mutuallyExcluded(rr, c.matchers)), nil
	}
	return len(rr) == 0 || mutuallyExcluded(rr, c.matchers), nil
}

// mutuallyExcluded reports whether fewer than two (resource, matcher)
// pairs match, as Ranger's RangerRequestedResources.isMutuallyExcluded.
func mutuallyExcluded(rr []Resource, ms []*resourceMatcher) bool {
	if len(ms) == 0 || len(rr) <= 1 {
		return true
	}
	matched := 0
	for _, r := range rr {
		for _, m := range ms {
			if m.matchesResource(r) {
				matched++
				if matched > 1 {
					return false
				}
			}
		}
	}
	return true
}

// parseBoolOption reads a "true"/"false" evaluator or enricher option.
func parseBoolOption(s string, def bool) bool {
	if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
		return b
	}
	return def
}
