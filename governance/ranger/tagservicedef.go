package ranger

import (
	"maps"
	"slices"
	"strings"
)

// tagItemIDStride is how Ranger Admin numbers a component's types in the
// tag service definition: the component's item id plus its service
// definition id × (MAX_ACCESS_TYPES_IN_SERVICE_DEF + 1), so that the ids
// of different components never collide.
const tagItemIDStride = 1000 + 1

// tagResourceName is the tag service's resource
// (RangerServiceTag.TAG_RESOURCE_NAME).
const tagResourceName = "tag"

// TagServiceDefFor builds the tag service definition as Ranger Admin
// serves it at runtime to the plugins of component
// (AbstractServiceStore.updateTagServiceDefForUpdatingAccessTypes):
// tagDef's own resources, access types, conditions and enrichers, plus
//   - the component's access types named "component:type" ("hive:select"),
//     their implied grants named alike;
//   - its mask types named alike ("hive:MASK_SHOW_LAST_4") and its
//     data-mask access types, with the tag resource as data-mask resource;
//   - only when rowFilters is set, its row-filter access types with the tag
//     resource as row-filter resource: Ranger Admin copies them only with
//     ranger.servicedef.autopropagate.rowfilterdef.to.tag=true, and
//     otherwise leaves tagDef's rowFilterDef as it is.
//
// The component's types replace any of its types tagDef already has, so
// building from a definition built for the same component gives the same
// definition. Neither argument is changed.
func TagServiceDefFor(component, tagDef *ServiceDef, rowFilters bool) *ServiceDef {
	out := tagDef.clone()
	q := qualifier{prefix: component.Name + ":", offset: component.ID * tagItemIDStride}
	var tagResource []ResourceDef
	for _, r := range out.Resources {
		if r.Name == tagResourceName {
			tagResource = []ResourceDef{r}
			break
		}
	}
	out.AccessTypes = q.accessTypes(out.AccessTypes, component.AccessTypes)

	var masks, componentMasks DataMaskDef
	if out.DataMaskDef != nil {
		masks = *out.DataMaskDef
	}
	if component.DataMaskDef != nil {
		componentMasks = *component.DataMaskDef
	}
	masks.MaskTypes = q.maskTypes(masks.MaskTypes, componentMasks.MaskTypes)
	masks.AccessTypes = q.accessTypes(masks.AccessTypes, completeAccessTypes(componentMasks.AccessTypes, component.AccessTypes))
	masks.Resources = tagPolicyResources(masks.AccessTypes, masks.Resources, tagResource)
	if out.DataMaskDef != nil || len(masks.MaskTypes) > 0 || len(masks.AccessTypes) > 0 {
		out.DataMaskDef = &masks
	}

	if rowFilters {
		var filters, componentFilters RowFilterDef
		if out.RowFilterDef != nil {
			filters = *out.RowFilterDef
		}
		if component.RowFilterDef != nil {
			componentFilters = *component.RowFilterDef
		}
		filters.AccessTypes = q.accessTypes(filters.AccessTypes, completeAccessTypes(componentFilters.AccessTypes, component.AccessTypes))
		filters.Resources = tagPolicyResources(filters.AccessTypes, filters.Resources, tagResource)
		if out.RowFilterDef != nil || len(filters.AccessTypes) > 0 {
			out.RowFilterDef = &filters
		}
	}
	return out
}

// qualifier names one component's types in the tag service definition.
type qualifier struct {
	prefix string
	offset int64
}

// accessTypes is existing with the component's types, qualified, in place
// of any of them it already had.
func (q qualifier) accessTypes(existing, component []AccessTypeDef) []AccessTypeDef {
	out := slices.DeleteFunc(existing, func(a AccessTypeDef) bool { return strings.HasPrefix(a.Name, q.prefix) })
	for _, a := range component {
		t := AccessTypeDef{ItemID: q.offset + a.ItemID, Name: q.prefix + a.Name, Label: a.Label}
		for _, g := range a.ImpliedGrants {
			t.ImpliedGrants = append(t.ImpliedGrants, q.prefix+g)
		}
		out = append(out, t)
	}
	return out
}

// maskTypes is existing with the component's mask types, qualified, in
// place of any of them it already had.
func (q qualifier) maskTypes(existing, component []DataMaskTypeDef) []DataMaskTypeDef {
	out := slices.DeleteFunc(existing, func(m DataMaskTypeDef) bool { return strings.HasPrefix(m.Name, q.prefix) })
	for _, m := range component {
		m.ItemID += q.offset
		m.Name = q.prefix + m.Name
		m.DataMaskOptions = maps.Clone(m.DataMaskOptions)
		out = append(out, m)
	}
	return out
}

// completeAccessTypes fills a data-mask or row-filter access type (often
// just a name) from the access type of the same name, as Ranger's
// ServiceDefUtil.normalize does: its id, name and implied grants, and its
// label unless the short form has one.
func completeAccessTypes(short, full []AccessTypeDef) []AccessTypeDef {
	out := make([]AccessTypeDef, 0, len(short))
	for _, s := range short {
		i := slices.IndexFunc(full, func(f AccessTypeDef) bool { return f.Name == s.Name })
		if i < 0 {
			out = append(out, s)
			continue
		}
		t := full[i]
		if s.Label != "" {
			t.Label = s.Label
		}
		out = append(out, t)
	}
	return out
}

// tagPolicyResources are the resources of the tag service's data-mask or
// row-filter definition, as Ranger Admin sets them: the tag resource once
// there are access types, none without.
func tagPolicyResources(accessTypes []AccessTypeDef, resources, tagResource []ResourceDef) []ResourceDef {
	switch {
	case len(accessTypes) == 0:
		return nil
	case len(resources) == 0:
		return cloneResourceDefs(tagResource)
	}
	return resources
}
