package ranger

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

// taggedResource is a resource of the tag store and the tags on it.
type taggedResource struct {
	resource *resourceMatcher
	tags     []Tag
}

func compileServiceTags(h *hierarchies, st *ServiceTags) ([]taggedResource, error) {
	var out []taggedResource
	for _, sr := range st.ServiceResources {
		m, err := newResourceMatcher(h, sr.ResourceElements)
		if err != nil {
			return nil, fmt.Errorf("resource %d: %w", sr.ID, err)
		}
		tr := taggedResource{resource: m}
		for _, id := range st.ResourceToTagIDs[strconv.FormatInt(sr.ID, 10)] {
			t, ok := st.Tags[strconv.FormatInt(id, 10)]
			if !ok {
				return nil, fmt.Errorf("resource %d: unknown tag %d", sr.ID, id)
			}
			tr.tags = append(tr.tags, t)
		}
		if len(tr.tags) > 0 {
			out = append(out, tr)
		}
	}
	return out, nil
}

// tagsFor returns the tags of the requested resource: the request's own
// when it brings them, otherwise those of the tag store. A tag on an
// ancestor applies to the request (ANCESTOR); a tag on a descendant only
// when descendants is set (DESCENDANT): Ranger's tag enricher sets it for
// any-access, and row filters set it so that a column's tag reaches its
// table.
func (e *Evaluator) tagsFor(req *Request, descendants bool) []ResourceTag {
	if req.TagsGiven {
		return req.Tags
	}
	if len(e.tagged) == 0 {
		return nil
	}
	var out []ResourceTag
	for i := range e.tagged {
		tr := &e.tagged[i]
		mt := tr.resource.matchType(req.Resource, req)
		switch {
		case mt == MatchNone:
			continue
		case !descendants && mt == MatchDescendant:
			continue
		}
		for _, t := range tr.tags {
			out = append(out, ResourceTag{Type: t.Type, Attributes: t.Attributes, MatchType: mt})
		}
	}
	return out
}

// tagCandidate is a tag policy reached through one of the resource's tags.
type tagCandidate struct {
	p   *compiledPolicy
	tag *ResourceTag
}

// tagCandidates pairs the tags that count (applies) with the policies
// naming them, in the order Ranger evaluates tag masks and row filters:
// the tag closest to the resource first, then higher priority, then
// policy name.
func tagCandidates(tags []ResourceTag, policies []*compiledPolicy, applies func(*ResourceTag) bool) []tagCandidate {
	if len(tags) == 0 || len(policies) == 0 {
		return nil
	}
	var out []tagCandidate
	for i := range tags {
		tag := &tags[i]
		if !applies(tag) {
			continue
		}
		for _, p := range policies {
			if p.tag.isMatchValue(tag.Type, nil) {
				out = append(out, tagCandidate{p, tag})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b tagCandidate) int {
		if c := cmp.Compare(tagOrder(a.tag), tagOrder(b.tag)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.p.priority, a.p.priority); c != 0 {
			return c
		}
		return cmp.Compare(a.p.name, b.p.name)
	})
	return out
}

// tagMatchType is how a tag policy sees a tag: unset means SELF, and a tag
// on an ancestor counts as the resource's own.
func tagMatchType(t *ResourceTag) MatchType {
	if t.MatchType == MatchNone || t.MatchType == MatchAncestor {
		return MatchSelf
	}
	return t.MatchType
}

// tagOrder ranks a tag by how close it is to the resource, for choosing
// among masks: the resource's own tags first, then those of everything
// below a parent, of ancestors, of descendants.
func tagOrder(t *ResourceTag) int {
	switch t.MatchType {
	case MatchSelf, MatchNone:
		return 0
	case MatchSelfAndAllDescendants:
		return 1
	case MatchAncestor:
		return 2
	}
	return 3
}
