package ranger

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Ranger orders the policies of one priority by a score computed from
// their shape (RangerOptimizedPolicyEvaluator.computeEvalOrder): broader
// resources, broader audiences and more access types come first. The order
// decides which policy is reported, and which of two masks or row filters
// of the same priority applies.
const (
	evalOrderDefault              = 10000
	evalOrderMaxResourceDiscount  = 100
	evalOrderMaxPrincipalDiscount = 25
	evalOrderMaxAccessDiscount    = 25
	evalOrderMaxConditionDiscount = 25
	evalOrderMatchAnyDiscount     = 25
	evalOrderStarDiscount         = 10
	evalOrderQuestionDiscount     = 5
	evalOrderExcludesDiscount     = 5
	evalOrderRecursiveDiscount    = 5
	evalOrderConditionPenalty     = 5
)

func (c *policyCompiler) evalOrder(p *Policy, cp *compiledPolicy) int {
	discount := 0
	for _, r := range p.Resources {
		if len(r.Values) == 0 {
			continue
		}
		matchAny, star, question := false, false, false
		for _, v := range r.Values {
			if v == "" || v == "*" {
				matchAny = true
				break
			}
			if strings.Contains(v, "*") {
				star = true
			} else if strings.Contains(v, "?") {
				question = true
			}
		}
		if matchAny {
			discount += evalOrderMatchAnyDiscount
			continue
		}
		if star {
			discount += evalOrderStarDiscount
		} else if question {
			discount += evalOrderQuestionDiscount
		}
		if r.IsExcludes {
			discount += evalOrderExcludesDiscount
		}
		if r.IsRecursive {
			discount += evalOrderRecursiveDiscount
		}
	}
	order := evalOrderDefault - min(evalOrderMaxResourceDiscount, discount)

	users, groups := map[string]bool{}, map[string]bool{}
	everyone := p.IsDenyAllElse
	var perms accessSet
	conditions := len(cp.conds)
	visit := func(ci *compiledItem, it *PolicyItem) {
		for _, u := range it.Users {
			users[u] = true
		}
		for _, g := range it.Groups {
			groups[g] = true
		}
		everyone = everyone || ci.who.everyone
		for i := range len(ci.access) * 64 {
			if i != adminBit && ci.access.has(i) {
				perms.set(i)
			}
		}
		conditions += len(ci.conds)
	}
	for _, pair := range []struct {
		compiled []compiledItem
		src      []PolicyItem
	}{{cp.allow, p.PolicyItems}, {cp.deny, p.DenyPolicyItems}, {cp.allowExceptions, p.AllowExceptions}, {cp.denyExceptions, p.DenyExceptions}} {
		for i := range min(len(pair.compiled), len(pair.src)) {
			visit(&pair.compiled[i], &pair.src[i])
		}
	}
	for i := range min(len(cp.masks), len(p.DataMaskPolicyItems)) {
		visit(&cp.masks[i].compiledItem, &p.DataMaskPolicyItems[i].PolicyItem)
	}
	for i := range min(len(cp.filters), len(p.RowFilterPolicyItems)) {
		visit(&cp.filters[i].compiledItem, &p.RowFilterPolicyItems[i].PolicyItem)
	}
	if everyone {
		order -= evalOrderMaxPrincipalDiscount
	} else {
		order -= min(len(users)+len(groups), evalOrderMaxPrincipalDiscount)
	}
	if c.accessTypeCount > 0 {
		order -= int(math.Floor(float64(evalOrderMaxAccessDiscount*perms.len())/float64(c.accessTypeCount) + 0.5))
	}
	if d := evalOrderMaxConditionDiscount - evalOrderConditionPenalty*conditions; d > 0 {
		order -= d
	}
	return order
}

// sortPolicies puts policies in Ranger's evaluation order: higher
// priority first, then policies that can deny, then by score, name and id.
func sortPolicies(ps []*compiledPolicy) {
	slices.SortStableFunc(ps, func(a, b *compiledPolicy) int {
		if c := cmp.Compare(b.priority, a.priority); c != 0 {
			return c
		}
		if a.hasDeny != b.hasDeny {
			if a.hasDeny {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(a.evalOrder, b.evalOrder); c != 0 {
			return c
		}
		if c := cmp.Compare(a.name, b.name); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
}
