package ranger

// maskChoice is the mask found so far and the priority it was found at.
type maskChoice struct {
	item  *compiledMaskItem
	p     *compiledPolicy
	byTag bool
	tag   string // the tag a tag policy was reached through
}

// EvalDataMask answers which mask applies to the requested column.
//
// Tag masks come first, ordered by how close their tag is to the column
// (its own tags, then those of everything below a parent, of ancestors),
// then by priority and name; resource masks follow in evaluation order.
// Inside a policy the first matching item wins, in the order written. A
// mask found at some priority is final unless a later policy of strictly
// higher priority matches: so a tag mask beats a resource mask of equal
// priority, and an OVERRIDE resource mask beats a NORMAL tag mask. With
// Config.MaskPrecedence "resource" the resource masks come first instead,
// so that it is the resource mask that wins at equal priority.
func (e *Evaluator) EvalDataMask(req *Request) (DataMaskResult, error) {
	if z := e.evaluatorFor(req); z != e {
		return z.EvalDataMask(req)
	}
	s, ok := e.newMaskSearch(req)
	if !ok {
		return DataMaskResult{PolicyID: -1}, nil
	}
	return s.find(req, e.masks)
}

// maskSearch looks for the masks of one caller's columns.
type maskSearch struct {
	e         *Evaluator
	ec        *evalContext
	t         int
	anyAccess bool
	best      maskChoice
}

// newMaskSearch starts looking for the caller's masks; ok is false when
// the requested access type is one no policy can grant.
func (e *Evaluator) newMaskSearch(req *Request) (s maskSearch, ok bool) {
	s = maskSearch{e: e, ec: e.newContext(req), t: -1, anyAccess: req.isAny()}
	if !s.anyAccess {
		if s.t, ok = e.types.lookup(req.AccessType); !ok {
			return s, false
		}
	}
	return s, true
}

// find answers for the column req names, trying resourceMasks: the
// evaluator's resource mask policies, or those of them that can match
// the column's table.
func (s *maskSearch) find(req *Request, resourceMasks []*compiledPolicy) (DataMaskResult, error) {
	s.ec.req = req
	s.best = maskChoice{}
	if s.e.resourceMasksFirst {
		s.resourceMasks(req, resourceMasks)
		s.tagMasks(req)
	} else {
		s.tagMasks(req)
		s.resourceMasks(req, resourceMasks)
	}
	if s.ec.condErr != nil {
		return DataMaskResult{PolicyID: -1}, conditionError(s.ec.condErr)
	}
	if s.best.item == nil {
		return DataMaskResult{PolicyID: -1}, nil
	}
	return s.e.maskResult(s.best, req)
}

func (s *maskSearch) tagMasks(req *Request) {
	if len(s.e.tagMasks) == 0 {
		return
	}
	applies := func(tag *ResourceTag) bool { return policyApplies(tagMatchType(tag), s.anyAccess) }
	for _, c := range tagCandidates(s.e.tagsFor(req, s.anyAccess), s.e.tagMasks, applies) {
		s.ec.tag = c.tag
		s.consider(c.p, true)
	}
	s.ec.tag = nil
}

func (s *maskSearch) resourceMasks(req *Request, policies []*compiledPolicy) {
	for _, p := range policies {
		if s.best.item != nil && p.priority <= s.best.p.priority {
			break
		}
		if policyApplies(p.matchType(req), s.anyAccess) {
			s.consider(p, false)
		}
	}
}

// consider takes the policy's first matching item unless a mask of the
// same or higher priority was found already.
func (s *maskSearch) consider(p *compiledPolicy, byTag bool) {
	if s.best.item != nil && p.priority <= s.best.p.priority {
		return
	}
	if !inSchedule(p.windows, s.ec.now) {
		return
	}
	if p.refused != "" {
		s.ec.fail(refusedError(p))
		return
	}
	if ok, err := conditionsHold(p.conds, s.ec); err != nil || !ok {
		if err != nil {
			s.ec.fail(err)
		}
		return
	}
	for i := range p.masks {
		if p.masks[i].matches(s.t, s.anyAccess, s.ec) {
			s.best = maskChoice{item: &p.masks[i], p: p, byTag: byTag}
			if byTag {
				s.best.tag = s.ec.tag.Type
			}
			return
		}
	}
}

// maskResult is the answer for the chosen mask, its macros resolved.
func (e *Evaluator) maskResult(best maskChoice, req *Request) (DataMaskResult, error) {
	info := best.item.info
	out := DataMaskResult{
		MaskType:    info.DataMaskType,
		Transformer: e.maskTypes[info.DataMaskType].Transformer,
		PolicyID:    best.p.id,
		ByTag:       best.byTag,
		Tag:         best.tag,
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
