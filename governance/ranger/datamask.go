package ranger

import (
	"cmp"
	"slices"
)

// maskChoice is the mask found so far and the priority it was found at.
type maskChoice struct {
	item  *compiledMaskItem
	p     *compiledPolicy
	byTag bool
}

// EvalDataMask answers which mask applies to the requested column.
//
// Tag masks come first, ordered by how close their tag is to the column
// (its own tags, then those of everything below a parent, of ancestors),
// then by priority and name; resource masks follow in evaluation order.
// Inside a policy the first matching item wins, in the order written. A
// mask found at some priority is final unless a later policy of strictly
// higher priority matches: so a tag mask beats a resource mask of equal
// priority, and an OVERRIDE resource mask beats a NORMAL tag mask.
func (e *Evaluator) EvalDataMask(req *Request) (DataMaskResult, error) {
	ec := e.newContext(req)
	anyAccess := req.isAny()
	t := -1
	if !anyAccess {
		var ok bool
		if t, ok = e.types.lookup(req.AccessType); !ok {
			return DataMaskResult{PolicyID: -1}, nil
		}
	}
	var best maskChoice
	consider := func(p *compiledPolicy, byTag bool) {
		if best.item != nil && p.priority <= best.p.priority {
			return
		}
		if !inSchedule(p.windows, ec.now) || !allHold(p.conds, ec) {
			return
		}
		for i := range p.masks {
			if p.masks[i].matches(t, anyAccess, ec) {
				best = maskChoice{item: &p.masks[i], p: p, byTag: byTag}
				return
			}
		}
	}

	if tags := e.tagsFor(req); len(tags) > 0 && len(e.tagMasks) > 0 {
		type candidate struct {
			p   *compiledPolicy
			tag *ResourceTag
		}
		var cands []candidate
		for i := range tags {
			tag := &tags[i]
			if !policyApplies(tagMatchType(tag), anyAccess) {
				continue
			}
			for _, p := range e.tagMasks {
				if p.tag.isMatchValue(tag.Type) {
					cands = append(cands, candidate{p, tag})
				}
			}
		}
		slices.SortStableFunc(cands, func(a, b candidate) int {
			if c := cmp.Compare(tagOrder(a.tag), tagOrder(b.tag)); c != 0 {
				return c
			}
			if c := cmp.Compare(b.p.priority, a.p.priority); c != 0 {
				return c
			}
			return cmp.Compare(a.p.name, b.p.name)
		})
		for _, c := range cands {
			ec.tag = c.tag
			consider(c.p, true)
		}
		ec.tag = nil
	}
	for _, p := range e.masks {
		if best.item != nil && p.priority <= best.p.priority {
			break
		}
		if policyApplies(p.matchType(req.Resource), anyAccess) {
			consider(p, false)
		}
	}

	if best.item == nil {
		return DataMaskResult{PolicyID: -1}, nil
	}
	info := best.item.info
	out := DataMaskResult{
		MaskType:    info.DataMaskType,
		Transformer: e.maskTypes[info.DataMaskType].Transformer,
		PolicyID:    best.p.id,
		ByTag:       best.byTag,
	}
	var err error
	if out.ValueExpr, err = resolveMacros(info.ValueExpr, req, best.p.id); err != nil {
		return DataMaskResult{PolicyID: -1}, err
	}
	if out.ConditionExpr, err = resolveMacros(info.ConditionExpr, req, best.p.id); err != nil {
		return DataMaskResult{PolicyID: -1}, err
	}
	return out, nil
}
