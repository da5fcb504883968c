package ranger

import (
	"fmt"
	"strings"
)

// LevelValues matches one resource level of a policy at a time, with the
// matcher options (wildcards, case) its service definition gives that
// level for each policy type. It answers questions the evaluator's whole
// request matching does not ask: whether a policy's table values cover
// one named table, or whether a value names exactly one object, which is
// what following a rename needs.
type LevelValues struct {
	byType map[int]*hierarchies
}

// NewLevelValues compiles def's resource levels for access, data-mask and
// row-filter policies.
func NewLevelValues(def *ServiceDef) (*LevelValues, error) {
	lv := &LevelValues{byType: map[int]*hierarchies{}}
	access, err := newHierarchies(def.Resources, def.Resources)
	if err != nil {
		return nil, fmt.Errorf("service definition: %w", err)
	}
	lv.byType[PolicyTypeAccess] = access
	if def.DataMaskDef != nil && len(def.DataMaskDef.Resources) > 0 {
		if lv.byType[PolicyTypeDataMask], err = newHierarchies(def.Resources, def.DataMaskDef.Resources); err != nil {
			return nil, fmt.Errorf("data mask definition: %w", err)
		}
	}
	if def.RowFilterDef != nil && len(def.RowFilterDef.Resources) > 0 {
		if lv.byType[PolicyTypeRowFilter], err = newHierarchies(def.Resources, def.RowFilterDef.Resources); err != nil {
			return nil, fmt.Errorf("row filter definition: %w", err)
		}
	}
	return lv, nil
}

func (lv *LevelValues) level(policyType int, name string) *resourceLevel {
	h := lv.byType[policyType]
	if h == nil {
		return nil
	}
	return h.levels[name]
}

// Matches reports whether a policy of policyType whose resource at level
// is r covers the object named value there. A level the policy type does
// not define covers nothing.
func (lv *LevelValues) Matches(policyType int, level string, r PolicyResource, value string) bool {
	lvl := lv.level(policyType, level)
	if lvl == nil {
		return false
	}
	return newLevelMatcher(lvl, r).isMatchValue(value, nil)
}

// NamesOnly reports whether r, a policy's resource at level, covers
// exactly the one object named value: a single value that is that name
// (no wildcard where the level takes wildcards, no excludes).
func (lv *LevelValues) NamesOnly(policyType int, level string, r PolicyResource, value string) bool {
	lvl := lv.level(policyType, level)
	if lvl == nil || r.IsExcludes || len(r.Values) != 1 {
		return false
	}
	v := r.Values[0]
	if lvl.wildcard && hasWildcard(v) {
		return false
	}
	return lv.SameName(policyType, level, v, value)
}

// SameName reports whether a and b name the same object at level: equal,
// or equal but for case where the level ignores case.
func (lv *LevelValues) SameName(policyType int, level string, a, b string) bool {
	lvl := lv.level(policyType, level)
	if lvl != nil && lvl.ignoreCase {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// IsLiteral reports whether v, a value of a policy's resource at level,
// is a name rather than a pattern.
func (lv *LevelValues) IsLiteral(policyType int, level string, v string) bool {
	lvl := lv.level(policyType, level)
	return lvl != nil && !(lvl.wildcard && hasWildcard(v))
}
