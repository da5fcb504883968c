package ranger

// EvalRowFilter answers which row filter applies to the requested table:
// the first matching item of the first applicable row-filter policy in
// evaluation order (priority first). Only that one filter applies.
func (e *Evaluator) EvalRowFilter(req *Request) (RowFilterResult, error) {
	ec := e.newContext(req)
	anyAccess := req.isAny()
	t := -1
	if !anyAccess {
		var ok bool
		if t, ok = e.types.lookup(req.AccessType); !ok {
			return RowFilterResult{PolicyID: -1}, nil
		}
	}
	for _, p := range e.filters {
		if !inSchedule(p.windows, ec.now) || !policyApplies(p.matchType(req.Resource), anyAccess) || !allHold(p.conds, ec) {
			continue
		}
		for i := range p.filters {
			if !p.filters[i].matches(t, anyAccess, ec) {
				continue
			}
			expr, err := resolveMacros(p.filters[i].info.FilterExpr, req, p.id)
			if err != nil {
				return RowFilterResult{PolicyID: -1}, err
			}
			return RowFilterResult{FilterExpr: expr, PolicyID: p.id}, nil
		}
	}
	return RowFilterResult{PolicyID: -1}, nil
}
