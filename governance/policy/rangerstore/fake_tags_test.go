package rangerstore

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/governance/rangerrest/rangertest"
)

// fakeTagStore is Ranger Admin's tag store as its REST API shows it: tag
// definitions unique by name, service resources found by guid or by
// resource signature, resource-private tags, and the maps tying tags to
// resources. The import changes it as ServiceTagsProcessor does, in one
// transaction: a refused import changes nothing.
type fakeTagStore struct {
	nextID    int64
	tagDefs   map[string]int64 // name -> id
	resources map[int64]fakeResource
	tags      map[int64]string // id -> type
	maps      map[int64]fakeTagMap
}

type fakeResource struct {
	guid, service string
	elements      map[string]ranger.PolicyResource
}

type fakeTagMap struct{ tag, resource int64 }

// importedTags is a ServiceTags upload; resourceToTagIds is kept raw, as
// Ranger fails on a null list where an empty one drops a resource's tags.
type importedTags struct {
	Op               string                     `json:"op"`
	ServiceName      string                     `json:"serviceName"`
	TagDefinitions   map[string]ranger.TagDef   `json:"tagDefinitions"`
	Tags             map[string]ranger.Tag      `json:"tags"`
	ServiceResources []ranger.ServiceResource   `json:"serviceResources"`
	ResourceToTagIDs map[string]json.RawMessage `json:"resourceToTagIds"`
}

func (f *fakeRanger) serveTagStore(mux *http.ServeMux) {
	f.tags = fakeTagStore{tagDefs: map[string]int64{}, resources: map[int64]fakeResource{},
		tags: map[int64]string{}, maps: map[int64]fakeTagMap{}}
	mux.HandleFunc("GET /service/tags/resources/service/{service}", f.auth(f.listTagResources))
	mux.HandleFunc("PUT /service/tags/importservicetags/{$}", f.auth(f.importServiceTags))
}

// listTagResources answers a service's resources; with none, Jersey
// answers the null list with 204.
func (f *fakeRanger) listTagResources(w http.ResponseWriter, r *http.Request) {
	service := r.PathValue("service")
	f.log = append(f.log, "GET tag resources "+service)
	var out []any
	for _, id := range slices.Sorted(maps.Keys(f.tags.resources)) {
		res := f.tags.resources[id]
		if res.service == service {
			out = append(out, map[string]any{"id": id, "guid": res.guid, "version": 1, "serviceName": res.service,
				"resourceElements": res.elements, "resourceSignature": resourceSignature(res.service, res.elements)})
		}
	}
	if len(out) == 0 {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	rangertest.WriteJSON(w, out)
}

func (f *fakeRanger) importServiceTags(w http.ResponseWriter, r *http.Request) {
	st, ok := rangertest.Decode[importedTags](w, r)
	if !ok {
		return
	}
	f.log = append(f.log, "PUT importservicetags "+st.Op)
	if f.forbidWrites {
		rangertest.RESTError(w, http.StatusForbidden, "Access is denied")
		return
	}
	next := f.tags.clone()
	var err error
	switch st.Op {
	case "", "add_or_update": // add_or_update is ServiceTags' default
		err = next.addOrUpdate(f.service, &st)
	case "delete":
		next.delete(&st)
	default:
		// Ranger logs an unknown op and changes nothing.
	}
	if err != nil {
		rangertest.RESTError(w, http.StatusBadRequest, err.Error())
		return
	}
	f.tags = next
	w.WriteHeader(http.StatusNoContent)
}

func (ts fakeTagStore) clone() fakeTagStore {
	ts.tagDefs, ts.resources, ts.tags, ts.maps = maps.Clone(ts.tagDefs), maps.Clone(ts.resources), maps.Clone(ts.tags), maps.Clone(ts.maps)
	return ts
}

// addOrUpdate creates the tag definitions missing by name and the
// resources missing by guid or signature, then gives each resource
// listed in resourceToTagIds exactly those tags: an associated tag of the
// same type is kept, a missing one created and mapped, and the maps of
// the others deleted.
func (ts *fakeTagStore) addOrUpdate(service string, st *importedTags) error {
	for _, def := range st.TagDefinitions {
		if _, ok := ts.tagDefs[def.Name]; !ok {
			ts.nextID++
			ts.tagDefs[def.Name] = ts.nextID
		}
	}
	stored := map[int64]int64{} // the import's resource id -> the store's
	for _, r := range st.ServiceResources {
		id := ts.find(r)
		switch {
		case id == 0 && r.ServiceName != service:
			return fmt.Errorf("Error Populating XXServiceResource. No Service found with name: %s", r.ServiceName)
		case id == 0:
			id = ts.addResource(r.ServiceName, r.ResourceElements)
		case r.ServiceName != "" && len(r.ResourceElements) > 0:
			res := ts.resources[id]
			res.elements = r.ResourceElements
			ts.resources[id] = res
		}
		stored[r.ID] = id
	}
	for key, raw := range st.ResourceToTagIDs {
		local, _ := strconv.ParseInt(key, 10, 64)
		id, ok := stored[local]
		if !ok {
			continue // Ranger logs "Resource not found" and skips it
		}
		var tagIDs []int64
		if err := json.Unmarshal(raw, &tagIDs); err != nil || tagIDs == nil {
			return fmt.Errorf("resourceToTagIds[%s]: not a list of tag ids", key)
		}
		associated := ts.tagMapsOf(id)
		retained := map[int64]bool{}
		for _, tagID := range tagIDs {
			tag, ok := st.Tags[strconv.FormatInt(tagID, 10)]
			if !ok {
				continue // Ranger logs "Tag not found" and skips it
			}
			if _, ok := ts.tagDefs[tag.Type]; !ok {
				return fmt.Errorf("No TagDefinition-name:%s found", tag.Type)
			}
			match := int64(0)
			for _, have := range slices.Sorted(maps.Keys(associated)) {
				if ts.tags[have] == tag.Type && !retained[have] {
					match = have
					break
				}
			}
			if match == 0 {
				match = ts.addTag(id, tag.Type)
			}
			retained[match] = true
		}
		for tagID, mapID := range associated {
			if !retained[tagID] {
				delete(ts.maps, mapID)
				delete(ts.tags, tagID)
			}
		}
	}
	return nil
}

// delete removes the listed resources with their maps.
func (ts *fakeTagStore) delete(st *importedTags) {
	for _, r := range st.ServiceResources {
		id := ts.find(r)
		if id == 0 {
			continue
		}
		for tagID, mapID := range ts.tagMapsOf(id) {
			delete(ts.maps, mapID)
			delete(ts.tags, tagID)
		}
		delete(ts.resources, id)
	}
}

// find is a resource's id by guid, else by signature; 0 when absent.
func (ts *fakeTagStore) find(r ranger.ServiceResource) int64 {
	for id, res := range ts.resources {
		if r.GUID != "" && res.guid == r.GUID {
			return id
		}
	}
	if len(r.ResourceElements) == 0 {
		return 0
	}
	sig := resourceSignature(r.ServiceName, r.ResourceElements)
	for id, res := range ts.resources {
		if resourceSignature(res.service, res.elements) == sig {
			return id
		}
	}
	return 0
}

func (ts *fakeTagStore) addResource(service string, elements map[string]ranger.PolicyResource) int64 {
	ts.nextID++
	ts.resources[ts.nextID] = fakeResource{guid: fmt.Sprintf("resource-guid-%d", ts.nextID), service: service, elements: elements}
	return ts.nextID
}

// addTag creates a private tag of the type on the resource, and its map.
func (ts *fakeTagStore) addTag(resource int64, tagType string) int64 {
	ts.nextID++
	tag := ts.nextID
	ts.tags[tag] = tagType
	ts.nextID++
	ts.maps[ts.nextID] = fakeTagMap{tag: tag, resource: resource}
	return tag
}

// tagMapsOf is a resource's tags: tag id -> map id.
func (ts *fakeTagStore) tagMapsOf(resource int64) map[int64]int64 {
	out := map[int64]int64{}
	for id, m := range ts.maps {
		if m.resource == resource {
			out[m.tag] = id
		}
	}
	return out
}

// resourceSignature is what Ranger keys a service's resources by: the
// service and every element with its values and flags.
func resourceSignature(service string, elements map[string]ranger.PolicyResource) string {
	parts := []string{service}
	for _, k := range slices.Sorted(maps.Keys(elements)) {
		e := elements[k]
		parts = append(parts, fmt.Sprintf("%s=%q/%t/%t", k, e.Values, e.IsExcludes, e.IsRecursive))
	}
	return strings.Join(parts, ";")
}

// hiveResource is the resource a dotted name writes: database, table and
// column, with "," between a column's values.
func hiveResource(name string) map[string]ranger.PolicyResource {
	parts := strings.SplitN(name, ".", 3)
	out := map[string]ranger.PolicyResource{"database": {Values: []string{parts[0]}}, "table": {Values: []string{parts[1]}}}
	if len(parts) == 3 {
		out["column"] = ranger.PolicyResource{Values: strings.Split(parts[2], ",")}
	}
	return out
}

// tagResource tags a resource of the hive service, as Ranger's console
// does.
func (f *fakeRanger) tagResource(name string, tags ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.tags.addResource(f.service, hiveResource(name))
	for _, tag := range tags {
		if _, ok := f.tags.tagDefs[tag]; !ok {
			f.tags.nextID++
			f.tags.tagDefs[tag] = f.tags.nextID
		}
		f.tags.addTag(id, tag)
	}
}

// describeResource is how the tests write a stored resource: its database,
// table and column values joined by ".", a column's by ",".
func describeResource(elements map[string]ranger.PolicyResource) string {
	name := strings.Join(elements["database"].Values, ",") + "." + strings.Join(elements["table"].Values, ",")
	if col, ok := elements["column"]; ok {
		name += "." + strings.Join(col.Values, ",")
	}
	return name
}

// taggedResources is the store's resources, each with its tags sorted;
// a resource with no tag has an empty list.
func (f *fakeRanger) taggedResources() map[string][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string][]string{}
	for id, res := range f.tags.resources {
		tags := []string{}
		for tag := range f.tags.tagMapsOf(id) {
			tags = append(tags, f.tags.tags[tag])
		}
		slices.Sort(tags)
		out[describeResource(res.elements)] = tags
	}
	return out
}

// tagMaps is every tag-resource map: its id -> "resource=tag".
func (f *fakeRanger) tagMaps() map[int64]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[int64]string{}
	for id, m := range f.tags.maps {
		out[id] = describeResource(f.tags.resources[m.resource].elements) + "=" + f.tags.tags[m.tag]
	}
	return out
}

// tagDefs is every tag definition: name -> id.
func (f *fakeRanger) tagDefs() map[string]int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.tags.tagDefs)
}
