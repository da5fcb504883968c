package ranger

import (
	"fmt"
	"strings"
)

// decision is what one policy says about one access type.
type decision int8

const (
	undecided decision = iota
	allow
	deny
)

// compiledItem is a policy item ready to match: what it grants, to whom,
// under which conditions.
type compiledItem struct {
	access accessSet
	// grantsSomething: it allows at least one access (besides
	// administration), so it matches an any-access request.
	grantsSomething bool
	who             principals
	conds           []condition
	// onError is whether the item applies when a condition cannot be
	// evaluated: what fails closed for its kind (a deny item and an allow
	// exception apply, an allow item and a deny exception do not).
	onError bool
}

// matches reports whether the item applies to the caller for access
// type t, or for any access when anyAccess is set.
func (it *compiledItem) matches(t int, anyAccess bool, ec *evalContext) bool {
	if anyAccess {
		if !it.grantsSomething {
			return false
		}
	} else if !it.access.has(t) {
		return false
	}
	if !it.who.matches(ec) {
		return false
	}
	ok, err := conditionsHold(it.conds, ec)
	if err != nil {
		ec.fail(err)
		return it.onError
	}
	return ok
}

type compiledMaskItem struct {
	compiledItem
	info DataMaskInfo
}

type compiledFilterItem struct {
	compiledItem
	info RowFilterInfo
}

// compiledPolicy is a policy ready to evaluate.
type compiledPolicy struct {
	id          int64
	name        string
	priority    int
	evalOrder   int
	audit       bool
	denyAllElse bool
	hasDeny     bool
	// resources of a resource policy: its resources and any additional
	// resource sets.
	resources []*resourceMatcher
	// tag is the tag resource of a tag policy.
	tag     *levelMatcher
	conds   []condition
	windows []window
	// refused says why the policy cannot be evaluated, "" when it can: a
	// refused policy denies what it applies to, and a mask or row filter
	// it would give is an error.
	refused string

	allow, deny, allowExceptions, denyExceptions []compiledItem
	masks                                        []compiledMaskItem
	filters                                      []compiledFilterItem
}

// matchType is the best match of the policy's resource sets: the
// resource itself, then everything below a parent, then a descendant,
// then an ancestor.
func (p *compiledPolicy) matchType(req *Request) MatchType {
	best := MatchNone
	for _, m := range p.resources {
		if mt := m.matchType(req.Resource, req); matchRank(mt) < matchRank(best) {
			best = mt
		}
	}
	return best
}

func matchRank(mt MatchType) int {
	switch mt {
	case MatchSelf:
		return 0
	case MatchSelfAndAllDescendants:
		return 1
	case MatchDescendant:
		return 2
	case MatchAncestor:
		return 3
	}
	return 4
}

// decide is the policy's answer for access type t, as Ranger's
// RangerDefaultPolicyEvaluator gives it: a matching deny item (not
// cancelled by a deny exception) denies, except on a descendant match
// where it decides nothing; otherwise a matching allow item (not cancelled
// by an allow exception) allows; otherwise isDenyAllElse denies, unless
// the request names no resource at all.
func (p *compiledPolicy) decide(t int, mt MatchType, ec *evalContext) decision {
	if firstMatch(p.deny, t, ec) && !firstMatch(p.denyExceptions, t, ec) {
		if mt == MatchDescendant {
			return undecided
		}
		return deny
	}
	if firstMatch(p.allow, t, ec) && !firstMatch(p.allowExceptions, t, ec) {
		return allow
	}
	if p.denyAllElse && (ec.tag != nil || len(ec.req.Resource) > 0) {
		return deny
	}
	return undecided
}

func firstMatch(items []compiledItem, t int, ec *evalContext) bool {
	for i := range items {
		if items[i].matches(t, false, ec) {
			return true
		}
	}
	return false
}

// policyCompiler compiles the policies of one service definition (the
// service's own, or its tag service's for one component).
type policyCompiler struct {
	types *accessTypeIndex
	// normalize turns an item's access type into the evaluator's spelling
	// (dropping another component's types in tag policies).
	normalize func(string) (string, bool)
	implied   impliedGrants
	fallback  impliedGrants
	conds     *conditionCompiler
	// accessTypeCount is how many access types the definition lists, for
	// Ranger's evaluation-order score.
	accessTypeCount int
	denyEnabled     bool
	// maskPrefix is stripped from mask types ("hive:MASK_HASH").
	maskPrefix string
}

func (c *policyCompiler) compile(p *Policy) (*compiledPolicy, error) {
	cp := &compiledPolicy{
		id:          p.ID,
		name:        p.Name,
		priority:    p.PolicyPriority,
		audit:       p.AuditEnabled(),
		denyAllElse: p.IsDenyAllElse && p.PolicyType == PolicyTypeAccess,
	}
	var err error
	if cp.conds, err = c.conds.compileAll(p.Conditions); err != nil {
		return nil, err
	}
	if cp.windows, err = compileSchedules(p.ValiditySchedules); err != nil {
		return nil, unevaluable(err)
	}
	if cp.allow, err = c.items(p.PolicyItems, false); err != nil {
		return nil, fmt.Errorf("policy items: %w", err)
	}
	if c.denyEnabled {
		if cp.deny, err = c.items(p.DenyPolicyItems, true); err != nil {
			return nil, fmt.Errorf("deny policy items: %w", err)
		}
		if cp.allowExceptions, err = c.items(p.AllowExceptions, true); err != nil {
			return nil, fmt.Errorf("allow exceptions: %w", err)
		}
		if cp.denyExceptions, err = c.items(p.DenyExceptions, false); err != nil {
			return nil, fmt.Errorf("deny exceptions: %w", err)
		}
	}
	for _, it := range p.DataMaskPolicyItems {
		ci, keep, err := c.item(&it.PolicyItem)
		if err != nil {
			return nil, fmt.Errorf("data mask items: %w", err)
		}
		if keep {
			info := it.DataMaskInfo
			info.DataMaskType = strings.TrimPrefix(info.DataMaskType, c.maskPrefix)
			cp.masks = append(cp.masks, compiledMaskItem{compiledItem: ci, info: info})
		}
	}
	for _, it := range p.RowFilterPolicyItems {
		ci, keep, err := c.item(&it.PolicyItem)
		if err != nil {
			return nil, fmt.Errorf("row filter items: %w", err)
		}
		if keep {
			cp.filters = append(cp.filters, compiledFilterItem{compiledItem: ci, info: it.RowFilterInfo})
		}
	}
	cp.hasDeny = len(cp.deny) > 0 || cp.denyAllElse
	cp.evalOrder = c.evalOrder(p, cp)
	return cp, nil
}

func (c *policyCompiler) items(items []PolicyItem, onError bool) ([]compiledItem, error) {
	var out []compiledItem
	for i := range items {
		ci, keep, err := c.item(&items[i])
		if err != nil {
			return nil, err
		}
		ci.onError = onError
		if keep {
			out = append(out, ci)
		}
	}
	return out, nil
}

// item compiles one item. An item whose accesses all belong to another
// component is dropped (keep is false), as Ranger prunes it.
func (c *policyCompiler) item(it *PolicyItem) (compiledItem, bool, error) {
	norm := *it
	norm.Accesses = nil
	for _, a := range it.Accesses {
		t, ok := c.normalize(a.Type)
		if !ok {
			continue
		}
		a.Type = t
		norm.Accesses = append(norm.Accesses, a)
	}
	if len(it.Accesses) > 0 && len(norm.Accesses) == 0 && !it.DelegateAdmin {
		return compiledItem{}, false, nil
	}
	conds, err := c.conds.compileAll(it.Conditions)
	if err != nil {
		return compiledItem{}, false, err
	}
	ci := compiledItem{
		access: itemAccessSet(c.types, &norm, c.implied, c.fallback),
		who:    newPrincipals(it),
		conds:  conds,
	}
	for _, a := range norm.Accesses {
		if a.Allowed() {
			ci.grantsSomething = true
		}
	}
	return ci, true, nil
}

// usesRoles reports whether an item of the policy names roles, so that
// requests need their roles resolved.
func (p *compiledPolicy) usesRoles() bool {
	lists := [][]compiledItem{p.allow, p.deny, p.allowExceptions, p.denyExceptions}
	for _, l := range lists {
		for i := range l {
			if len(l[i].who.roles) > 0 {
				return true
			}
		}
	}
	for i := range p.masks {
		if len(p.masks[i].who.roles) > 0 {
			return true
		}
	}
	for i := range p.filters {
		if len(p.filters[i].who.roles) > 0 {
			return true
		}
	}
	return false
}
