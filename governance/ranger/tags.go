package ranger

import (
	"fmt"
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
// to any-access (DESCENDANT), as Ranger's tag enricher finds them.
func (e *Evaluator) tagsFor(req *Request) []ResourceTag {
	if req.TagsGiven {
		return req.Tags
	}
	if len(e.tagged) == 0 {
		return nil
	}
	anyAccess := req.isAny()
	var out []ResourceTag
	for i := range e.tagged {
		tr := &e.tagged[i]
		mt := tr.resource.matchType(req.Resource)
		switch {
		case mt == MatchNone:
			continue
		case !anyAccess && mt == MatchDescendant:
			continue
		}
		for _, t := range tr.tags {
			out = append(out, ResourceTag{Type: t.Type, Attributes: t.Attributes, MatchType: mt})
		}
	}
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
