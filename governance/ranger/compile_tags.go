package ranger

import (
	"fmt"
	"slices"
)

// compileTags compiles the tag policies for the service's component: the
// tag service's access and mask types are normalized ("hive:select" is
// select for hive), and items for other components are dropped. Tag row
// filters are compiled only when the tag service definition has a
// rowFilterDef with resources, which Ranger Admin gives it only with
// ranger.servicedef.autopropagate.rowfilterdef.to.tag=true (see
// TagServiceDefFor); otherwise they are ignored, as Ranger's plugins do.
func (e *Evaluator) compileTags(def *ServiceDef, serviceH *hierarchies, tagDef *ServiceDef, policies []Policy) error {
	if len(tagDef.Resources) != 1 {
		return fmt.Errorf("a tag service definition has exactly one resource, not %d", len(tagDef.Resources))
	}
	tagResource := tagDef.Resources[0].Name
	accessH, err := newHierarchies(tagDef.Resources, tagDef.Resources)
	if err != nil {
		return err
	}
	maskH := accessH
	if tagDef.DataMaskDef != nil && len(tagDef.DataMaskDef.Resources) > 0 {
		if maskH, err = newHierarchies(tagDef.Resources, tagDef.DataMaskDef.Resources); err != nil {
			return fmt.Errorf("data mask definition: %w", err)
		}
	}
	var filterH *hierarchies
	if tagDef.RowFilterDef != nil && len(tagDef.RowFilterDef.Resources) > 0 {
		if filterH, err = newHierarchies(tagDef.Resources, tagDef.RowFilterDef.Resources); err != nil {
			return fmt.Errorf("row filter definition: %w", err)
		}
	}
	normalize := componentAccessType(def.Name)
	if tagDef.DataMaskDef != nil {
		for _, mt := range tagDef.DataMaskDef.MaskTypes {
			if name, ok := normalize(mt.Name); ok {
				if _, known := e.maskTypes[name]; !known {
					mt.Name = name
					e.maskTypes[name] = mt
				}
			}
		}
	}
	c := &policyCompiler{
		types:           e.types,
		normalize:       normalize,
		implied:         newImpliedGrants(e.types, append(slices.Clone(tagDef.AccessTypes), tagDef.MarkerAccessTypes...), normalize),
		fallback:        newImpliedGrants(e.types, append(slices.Clone(def.AccessTypes), def.MarkerAccessTypes...), asIs),
		conds:           newConditionCompiler(tagDef, serviceH, e.scripts),
		accessTypeCount: countNormalized(tagDef.AccessTypes, normalize),
		denyEnabled:     tagDef.Options.boolOption("enableDenyAndExceptionsInPolicies", true),
		maskPrefix:      def.Name + ":",
	}
	for i := range policies {
		p := &policies[i]
		if !p.Enabled() {
			continue
		}
		var h *hierarchies
		var dest *[]*compiledPolicy
		switch p.PolicyType {
		case PolicyTypeAccess:
			h, dest = accessH, &e.tagAccess
		case PolicyTypeDataMask:
			h, dest = maskH, &e.tagMasks
		case PolicyTypeRowFilter:
			if filterH == nil {
				continue
			}
			h, dest = filterH, &e.tagFilters
		case policyTypeAudit:
			continue
		default:
			return fmt.Errorf("policy %d (%s): unknown policy type %d", p.ID, p.Name, p.PolicyType)
		}
		r, ok := p.Resources[tagResource]
		if !ok || len(p.Resources) != 1 || len(p.AdditionalResources) > 0 {
			return fmt.Errorf("policy %d (%s): a tag policy names only the %q resource", p.ID, p.Name, tagResource)
		}
		cp, err := c.compileOrRefuse(p)
		if err != nil {
			return fmt.Errorf("policy %d (%s): %w", p.ID, p.Name, err)
		}
		lvl, ok := h.levels[tagResource]
		if !ok {
			return fmt.Errorf("policy %d (%s): the tag service defines no %q resource for policy type %d", p.ID, p.Name, tagResource, p.PolicyType)
		}
		cp.tag = newLevelMatcher(lvl, r)
		e.refuse(cp, true)
		*dest = append(*dest, cp)
	}
	return nil
}

func countNormalized(defs []AccessTypeDef, normalize func(string) (string, bool)) int {
	n := 0
	for _, d := range defs {
		if _, ok := normalize(d.Name); ok {
			n++
		}
	}
	return n
}
