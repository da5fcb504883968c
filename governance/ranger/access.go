package ranger

// applicable is a policy that matched the request: for a tag policy, with
// the tag it matched through.
type applicable struct {
	p   *compiledPolicy
	mt  MatchType
	tag *ResourceTag
	// failed: the policy is refused, or its conditions could not be
	// evaluated for the request; it denies.
	failed bool
}

// IsAccessAllowed answers whether the caller may access the resource.
//
// Super users and groups are allowed outright. Otherwise each requested
// access type is decided by the applicable tag and resource policies
// together: the decisions made at the highest priority stand, and among
// them a deny beats an allow. So a tag deny stands unless a resource
// policy of strictly higher priority decides otherwise, and a tag allow
// yields to a resource deny of the same priority and to any resource
// decision of higher priority. Nothing decided means denied. Any-access is allowed when some access type is;
// several access types need every one (or one, with AnyOf).
func (e *Evaluator) IsAccessAllowed(req *Request) AccessResult {
	ec := e.newContext(req)
	res := AccessResult{PolicyID: -1}
	anyAccess := req.isAny()

	var buf [16]applicable
	matched := buf[:0]
	tags := e.tagsFor(req, anyAccess)
	for i := range tags {
		tag := &tags[i]
		mt := tagMatchType(tag)
		if !policyApplies(mt, anyAccess) {
			continue
		}
		for _, p := range e.tagAccess {
			if !p.tag.isMatchValue(tag.Type) || !inSchedule(p.windows, ec.now) {
				continue
			}
			ec.tag = tag
			if ok, failed := policyHolds(p, ec); ok {
				matched = append(matched, applicable{p: p, mt: mt, tag: tag, failed: failed})
				res.Audited = res.Audited || p.audit
			}
		}
	}
	ec.tag = nil
	for _, p := range e.access {
		if !inSchedule(p.windows, ec.now) {
			continue
		}
		mt := p.matchType(req.Resource)
		if !policyApplies(mt, anyAccess) {
			continue
		}
		ok, failed := policyHolds(p, ec)
		if !ok {
			continue
		}
		matched = append(matched, applicable{p: p, mt: mt, failed: failed})
		res.Audited = res.Audited || p.audit
	}

	if e.isSuper(req) {
		res.Allowed = true
		return res
	}
	// A policy that cannot be evaluated denies, whatever else applies.
	for i := range matched {
		if matched[i].failed {
			return AccessResult{Audited: res.Audited, PolicyID: matched[i].p.id, ByTag: matched[i].tag != nil}
		}
	}

	switch {
	case len(req.AccessTypes) > 0:
		decided := false
		for _, name := range req.AccessTypes {
			t, ok := e.types.lookup(name)
			d, id, byTag := undecided, int64(-1), false
			if ok {
				d, id, byTag = decideType(t, matched, ec)
			}
			if req.AnyOf && d == allow {
				return AccessResult{Allowed: true, Audited: res.Audited, PolicyID: id, ByTag: byTag}
			}
			if !req.AnyOf && d != allow {
				return AccessResult{Audited: res.Audited, PolicyID: id, ByTag: byTag}
			}
			if !decided {
				res.PolicyID, res.ByTag, decided = id, byTag, true
			}
		}
		res.Allowed = !req.AnyOf
	case anyAccess:
		for _, t := range e.everyType {
			d, id, byTag := decideType(t, matched, ec)
			if d == allow {
				return AccessResult{Allowed: true, Audited: res.Audited, PolicyID: id, ByTag: byTag}
			}
			if d == deny && res.PolicyID == -1 {
				res.PolicyID, res.ByTag = id, byTag
			}
		}
	default:
		if t, ok := e.types.lookup(req.AccessType); ok {
			d, id, byTag := decideType(t, matched, ec)
			res.Allowed, res.PolicyID, res.ByTag = d == allow, id, byTag
		}
	}
	return res
}

// decideType combines the decisions of the applicable policies for access
// type t: the highest priority with a decision wins, and at that priority a
// deny beats an allow. It reports the deciding policy.
func decideType(t int, matched []applicable, ec *evalContext) (decision, int64, bool) {
	best, prio, id, byTag := undecided, 0, int64(-1), false
	for i := range matched {
		m := &matched[i]
		if best != undecided && m.p.priority < prio {
			continue
		}
		ec.tag = m.tag
		d := m.p.decide(t, m.mt, ec)
		switch {
		case d == undecided:
		case best == undecided || m.p.priority > prio:
			best, prio, id, byTag = d, m.p.priority, m.p.id, m.tag != nil
		case m.p.priority == prio && d == deny && best == allow:
			best, id, byTag = deny, m.p.id, m.tag != nil
		}
	}
	ec.tag = nil
	return best, id, byTag
}
