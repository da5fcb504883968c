package ranger

import (
	"fmt"
	"slices"
)

// compileService compiles the service's own policies against its resource
// hierarchies: access policies against its resources, masks and row
// filters against its dataMaskDef and rowFilterDef resources.
func (e *Evaluator) compileService(def *ServiceDef, accessH *hierarchies, policies []Policy) error {
	var maskH, filterH *hierarchies
	var err error
	if def.DataMaskDef != nil && len(def.DataMaskDef.Resources) > 0 {
		if maskH, err = newHierarchies(def.Resources, def.DataMaskDef.Resources); err != nil {
			return fmt.Errorf("data mask definition: %w", err)
		}
		e.maskLevels = maskH.levels
		for _, mt := range def.DataMaskDef.MaskTypes {
			e.maskTypes[mt.Name] = mt
		}
	}
	if def.RowFilterDef != nil && len(def.RowFilterDef.Resources) > 0 {
		if filterH, err = newHierarchies(def.Resources, def.RowFilterDef.Resources); err != nil {
			return fmt.Errorf("row filter definition: %w", err)
		}
	}
	c := &policyCompiler{
		types:           e.types,
		normalize:       asIs,
		implied:         newImpliedGrants(e.types, append(slices.Clone(def.AccessTypes), def.MarkerAccessTypes...), asIs),
		conds:           newConditionCompiler(def, accessH, e.scripts),
		accessTypeCount: len(def.AccessTypes),
		denyEnabled:     def.Options.boolOption("enableDenyAndExceptionsInPolicies", true),
		maskPrefix:      def.Name + ":",
	}
	for i := range policies {
		p := &policies[i]
		if !p.Enabled() || p.PolicyType == policyTypeAudit {
			continue
		}
		var h *hierarchies
		var dest *[]*compiledPolicy
		switch p.PolicyType {
		case PolicyTypeAccess:
			h, dest = accessH, &e.access
		case PolicyTypeDataMask:
			h, dest = maskH, &e.masks
		case PolicyTypeRowFilter:
			h, dest = filterH, &e.filters
		default:
			return fmt.Errorf("policy %d (%s): unknown policy type %d", p.ID, p.Name, p.PolicyType)
		}
		if h == nil {
			return fmt.Errorf("policy %d (%s): the service definition defines no resources for policy type %d", p.ID, p.Name, p.PolicyType)
		}
		cp, err := c.compileOrRefuse(p)
		if err == nil {
			cp.resources, err = resourceSets(h, p)
		}
		if err != nil {
			return fmt.Errorf("policy %d (%s): %w", p.ID, p.Name, err)
		}
		e.refuse(cp, false)
		*dest = append(*dest, cp)
	}
	return nil
}

// policyTypeAudit policies (Ranger's audit filters) take no part in access,
// masking or filtering.
const policyTypeAudit = 3

func resourceSets(h *hierarchies, p *Policy) ([]*resourceMatcher, error) {
	var out []*resourceMatcher
	for i, res := range append([]map[string]PolicyResource{p.Resources}, p.AdditionalResources...) {
		m, err := newResourceMatcher(h, res)
		if err != nil {
			if i > 0 {
				return nil, fmt.Errorf("additional resources %d: %w", i, err)
			}
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}
