package ranger

import (
	"maps"
	"slices"
)

// clone is a copy of the definition sharing nothing with it, so that a
// definition built from another never changes it.
func (d *ServiceDef) clone() *ServiceDef {
	out := *d
	out.Options = maps.Clone(d.Options)
	out.Configs = slices.Clone(d.Configs)
	out.Resources = cloneResourceDefs(d.Resources)
	out.AccessTypes = cloneAccessTypeDefs(d.AccessTypes)
	out.MarkerAccessTypes = cloneAccessTypeDefs(d.MarkerAccessTypes)
	out.PolicyConditions = slices.Clone(d.PolicyConditions)
	for i := range out.PolicyConditions {
		out.PolicyConditions[i].EvaluatorOptions = maps.Clone(out.PolicyConditions[i].EvaluatorOptions)
	}
	out.ContextEnrichers = slices.Clone(d.ContextEnrichers)
	for i := range out.ContextEnrichers {
		out.ContextEnrichers[i].EnricherOptions = maps.Clone(out.ContextEnrichers[i].EnricherOptions)
	}
	if d.DataMaskDef != nil {
		md := *d.DataMaskDef
		md.MaskTypes = slices.Clone(md.MaskTypes)
		for i := range md.MaskTypes {
			md.MaskTypes[i].DataMaskOptions = maps.Clone(md.MaskTypes[i].DataMaskOptions)
		}
		md.AccessTypes = cloneAccessTypeDefs(md.AccessTypes)
		md.Resources = cloneResourceDefs(md.Resources)
		out.DataMaskDef = &md
	}
	if d.RowFilterDef != nil {
		out.RowFilterDef = &RowFilterDef{
			AccessTypes: cloneAccessTypeDefs(d.RowFilterDef.AccessTypes),
			Resources:   cloneResourceDefs(d.RowFilterDef.Resources),
		}
	}
	return &out
}

func cloneResourceDefs(in []ResourceDef) []ResourceDef {
	out := slices.Clone(in)
	for i := range out {
		out[i].MatcherOptions = maps.Clone(out[i].MatcherOptions)
		out[i].AccessTypeRestrictions = slices.Clone(out[i].AccessTypeRestrictions)
	}
	return out
}

func cloneAccessTypeDefs(in []AccessTypeDef) []AccessTypeDef {
	out := slices.Clone(in)
	for i := range out {
		out[i].ImpliedGrants = slices.Clone(out[i].ImpliedGrants)
	}
	return out
}
