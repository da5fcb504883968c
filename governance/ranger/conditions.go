package ranger

import (
	"fmt"
	"strings"
	"time"
)

// Condition evaluator classes of Ranger this evaluator implements.
const (
	accessedTogetherClass    = "RangerHiveResourcesAccessedTogetherCondition"
	notAccessedTogetherClass = "RangerHiveResourcesNotAccessedTogetherCondition"
	scriptClass              = "RangerScriptConditionEvaluator"
	scriptTemplateClass      = "RangerScriptTemplateConditionEvaluator"
)

// evalContext is one request being evaluated: the request, the roles the
// caller holds, the access time and, while a tag policy is evaluated, the
// tag it is evaluated for.
type evalContext struct {
	req   *Request
	roles []string
	now   time.Time
	tag   *ResourceTag
}

// condition is a compiled policy or item condition.
type condition interface {
	holds(ec *evalContext) bool
}

func allHold(conds []condition, ec *evalContext) bool {
	for _, c := range conds {
		if !c.holds(ec) {
			return false
		}
	}
	return true
}

// conditionCompiler compiles the conditions of one service definition.
type conditionCompiler struct {
	defs map[string]PolicyConditionDef
	// resources is the hierarchy accessed-together values are written in
	// ("db.table.column"): the longest of the service's access hierarchies.
	resources *hierarchies
	path      []string
}

func newConditionCompiler(def *ServiceDef, access *hierarchies) *conditionCompiler {
	c := &conditionCompiler{defs: map[string]PolicyConditionDef{}, resources: access}
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

func (c *conditionCompiler) compileAll(conds []PolicyItemCondition) ([]condition, error) {
	var out []condition
	for _, pc := range conds {
		cond, err := c.compile(pc)
		if err != nil {
			return nil, fmt.Errorf("condition %q: %w", pc.Type, err)
		}
		out = append(out, cond)
	}
	return out, nil
}

func (c *conditionCompiler) compile(pc PolicyItemCondition) (condition, error) {
	def, ok := c.defs[pc.Type]
	if !ok {
		return nil, fmt.Errorf("not defined by the service definition")
	}
	class := def.Evaluator[strings.LastIndexByte(def.Evaluator, '.')+1:]
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
		var cond scriptCondition
		for _, v := range pc.Values {
			e, err := compileScript(v)
			if err != nil {
				return nil, fmt.Errorf("script %q: %w", v, err)
			}
			cond.exprs = append(cond.exprs, e)
		}
		return cond, nil
	case scriptTemplateClass:
		tmpl := def.EvaluatorOptions["scriptTemplate"]
		e, err := compileScript(tmpl)
		if err != nil {
			return nil, fmt.Errorf("script template %q: %w", tmpl, err)
		}
		cond := scriptCondition{exprs: []scriptExpr{e}}
		if len(pc.Values) > 0 {
			switch strings.ToLower(strings.TrimSpace(pc.Values[0])) {
			case "yes", "true", "":
			case "no", "false":
				cond.negate = true
			default:
				return nil, fmt.Errorf("value %q: want yes or no", pc.Values[0])
			}
		}
		return cond, nil
	}
	return nil, fmt.Errorf("unsupported condition evaluator %s", def.Evaluator)
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

// scriptCondition holds when every script is true (or, negated, when not).
type scriptCondition struct {
	exprs  []scriptExpr
	negate bool
}

func (c scriptCondition) holds(ec *evalContext) bool {
	all := true
	for _, e := range c.exprs {
		if !e.eval(ec).truthy() {
			all = false
			break
		}
	}
	return all != c.negate
}

// accessedTogether is Ranger's accessed-together condition (or, when
// together is false, not-accessed-together): the statement touches at
// least two resources matching the condition's resources.
type accessedTogether struct {
	matchers []*resourceMatcher
	together bool
}

func (c accessedTogether) holds(ec *evalContext) bool {
	rr := ec.req.RequestedResources
	if c.together {
		return len(c.matchers) == 0 || (len(rr) > 0 && !mutuallyExcluded(rr, c.matchers))
	}
	return len(rr) == 0 || mutuallyExcluded(rr, c.matchers)
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
