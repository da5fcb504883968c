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
	if len(e.zones) == 0 {
		return e.isAccessAllowed(req)
	}
	// Ranger's zone-aware evaluation: a resource in one zone is decided by
	// the zone's policies; any-access tries each zone the resource (or a
	// descendant) is in, and with no resource at all every zone.
	anyAccess := req.isAny()
	zones := e.zonesOf(req)
	var res AccessResult
	if len(zones) == 0 || (len(zones) > 1 && !anyAccess) {
		res = e.isAccessAllowed(req)
	} else {
		for _, z := range zones {
			if res = z.isAccessAllowed(req); res.Allowed {
				return res
			}
		}
	}
	if anyAccess && len(req.Resource) == 0 && !res.Allowed {
		for _, z := range e.zones {
			if r := z.eval.isAccessAllowed(req); r.Allowed {
				return r
			}
		}
	}
	return res
}

// isAccessAllowed is IsAccessAllowed among the evaluator's own policies.
func (e *Evaluator) isAccessAllowed(req *Request) AccessResult {
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
			if !p.tag.isMatchValue(tag.Type, nil) || !inSchedule(p.windows, ec.now) {
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
		mt := p.matchType(req)
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

	res.Allowed, res.PolicyID, res.ByTag = e.decide(req, matched, ec, anyAccess)
	if e.isSuper(req) {
		res.Allowed, res.PolicyID, res.ByTag = true, -1, false
	}
	if !e.isSuper(req) {
		// A policy that cannot be evaluated denies, whatever else
		// applies.
		for i := range matched {
			if matched[i].failed {
				res = AccessResult{Audited: res.Audited, PolicyID: matched[i].p.id, ByTag: matched[i].tag != nil}
				break
			}
		}
	}
	res.Audited = e.audited(ec, tags, res.Allowed, res.Audited)
	return res
}

// decide answers the request's access types from the applicable
// policies: every one of AccessTypes (or one, with AnyOf), any access
// type for any-access, otherwise AccessType. It reports the deciding
// policy.
func (e *Evaluator) decide(req *Request, matched []applicable, ec *evalContext, anyAccess bool) (bool, int64, bool) {
	switch {
	case len(req.AccessTypes) > 0:
		first, firstByTag, decided := int64(-1), false, false
		for _, name := range req.AccessTypes {
			t, ok := e.types.lookup(name)
			d, id, byTag := undecided, int64(-1), false
			if ok {
				d, id, byTag = decideType(t, matched, ec)
			}
			if req.AnyOf && d == allow {
				return true, id, byTag
			}
			if !req.AnyOf && d != allow {
				return false, id, byTag
			}
			if !decided {
				first, firstByTag, decided = id, byTag, true
			}
		}
		return !req.AnyOf, first, firstByTag
	case anyAccess:
		id, byTag := int64(-1), false
		for _, t := range e.everyType {
			d, pid, pByTag := decideType(t, matched, ec)
			if d == allow {
				return true, pid, pByTag
			}
			if d == deny && id == -1 {
				id, byTag = pid, pByTag
			}
		}
		return false, id, byTag
	}
	if t, ok := e.types.lookup(req.AccessType); ok {
		d, id, byTag := decideType(t, matched, ec)
		return d == allow, id, byTag
	}
	return false, -1, false
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
