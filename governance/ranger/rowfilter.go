package ranger

import "slices"

// filterMatch is a row-filter policy that applies to a request, with its
// first matching item.
type filterMatch struct {
	p     *compiledPolicy
	item  *compiledFilterItem
	byTag bool
	tag   string // the tag a tag policy was reached through
}

// EvalRowFilter answers which row filter applies to the requested table,
// as Ranger does: the first matching item of the first applicable
// row-filter policy in evaluation order (tag policies first, then
// resource policies), a later policy replacing it only with strictly
// higher priority. Only that one filter applies.
func (e *Evaluator) EvalRowFilter(req *Request) (RowFilterResult, error) {
	if z := e.evaluatorFor(req); z != e {
		return z.EvalRowFilter(req)
	}
	var best *filterMatch
	matches, err := e.matchRowFilters(req)
	if err != nil {
		return RowFilterResult{PolicyID: -1}, err
	}
	for i := range matches {
		if best == nil || matches[i].p.priority > best.p.priority {
			best = &matches[i]
		}
	}
	if best == nil {
		return RowFilterResult{PolicyID: -1}, nil
	}
	return best.result(req)
}

// EvalRowFilters answers every row filter that applies to the requested
// table, for a caller that ANDs them together: the first matching item of
// each applicable row-filter policy, tag and resource policies alike, in
// evaluation order. A tag policy reached through several tags counts once.
// An item with an empty expression is returned as it is: it admits every
// row. No filter gives an empty list.
func (e *Evaluator) EvalRowFilters(req *Request) ([]RowFilterResult, error) {
	if z := e.evaluatorFor(req); z != e {
		return z.EvalRowFilters(req)
	}
	matches, err := e.matchRowFilters(req)
	if err != nil {
		return nil, err
	}
	if len(matches) == 0 {
		return nil, nil
	}
	out := make([]RowFilterResult, len(matches))
	for i := range matches {
		var err error
		if out[i], err = matches[i].result(req); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// matchRowFilters finds every row-filter policy that applies to the
// request, in evaluation order: tag policies ordered as tag masks are,
// then resource policies in Ranger's order. The tags are those of the
// table, of its ancestors and of its columns: Ranger's tag enricher would
// leave out the columns', but SQE tags columns, and a tag row filter must
// reach the table they belong to. A refused policy that applies, or a
// condition that cannot be evaluated, is an error.
func (e *Evaluator) matchRowFilters(req *Request) ([]filterMatch, error) {
	ec := e.newContext(req)
	anyAccess := req.isAny()
	t := -1
	if !anyAccess {
		var ok bool
		if t, ok = e.types.lookup(req.AccessType); !ok {
			return nil, nil
		}
	}
	first := func(p *compiledPolicy) *compiledFilterItem {
		if !inSchedule(p.windows, ec.now) {
			return nil
		}
		if p.refused != "" {
			ec.fail(refusedError(p))
			return nil
		}
		if ok, err := conditionsHold(p.conds, ec); err != nil || !ok {
			if err != nil {
				ec.fail(err)
			}
			return nil
		}
		for i := range p.filters {
			if p.filters[i].matches(t, anyAccess, ec) {
				return &p.filters[i]
			}
		}
		return nil
	}
	var out []filterMatch
	if len(e.tagFilters) > 0 {
		everyTag := func(*ResourceTag) bool { return true }
		for _, c := range tagCandidates(e.tagsFor(req, true), e.tagFilters, everyTag) {
			if slices.ContainsFunc(out, func(m filterMatch) bool { return m.p == c.p }) {
				continue
			}
			ec.tag = c.tag
			if it := first(c.p); it != nil {
				out = append(out, filterMatch{p: c.p, item: it, byTag: true, tag: c.tag.Type})
			}
		}
		ec.tag = nil
	}
	for _, p := range e.filters {
		if !policyApplies(p.matchType(req), anyAccess) {
			continue
		}
		if it := first(p); it != nil {
			out = append(out, filterMatch{p: p, item: it})
		}
	}
	if ec.condErr != nil {
		return nil, conditionError(ec.condErr)
	}
	return out, nil
}

// result is the answer for a matched filter, its macros resolved.
func (m *filterMatch) result(req *Request) (RowFilterResult, error) {
	expr, err := resolveMacros(m.item.info.FilterExpr, req, m.p.id)
	if err != nil {
		return RowFilterResult{PolicyID: -1}, err
	}
	return RowFilterResult{FilterExpr: expr, PolicyID: m.p.id, ByTag: m.byTag, Tag: m.tag}, nil
}
