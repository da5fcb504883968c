package rangerstore

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sqe-db/sqe/governance/rangerrest/rangertest"
)

// fakeRanger is Ranger Admin as it documents itself, in memory, for one
// hive-model service and the tag service linked to it: the secure plugin
// downloads of policies and roles (304 when the version asked for is
// current), the public v2 service and policy APIs (one policy per name
// and per resources in a service: errors 3006 and 3010), the tag store
// (fake_tags_test.go), HTTP basic auth everywhere (401 without), and
// versions moved as Ranger moves them: a change to a tag policy moves the
// version of the services linked to the tag service too.
type fakeRanger struct {
	t                   *testing.T
	user, password      string
	service, tagService string
	hiveDef, tagDef     json.RawMessage
	server              *httptest.Server

	mu            sync.Mutex
	nextID        int64
	policies      map[int64]map[string]any
	policyVersion map[string]int64
	roles         []any
	roleVersion   int64
	zones         map[string]any // securityZones of the policy download
	tags          fakeTagStore   // the tag store's resources, tags and maps
	down          bool           // answer 503 to every request
	forbidWrites  bool           // answer 403 to policy writes and tag imports
	hold          chan struct{}  // when set, requests to paths containing holdOn wait for it to close
	holdOn        string
	log           []string // requests, in order: "policies -1", "roles 3", "POST query/p1"
	pluginIDs     []string // pluginId of each download
}

func newFakeRanger(t *testing.T, tagService string) *fakeRanger {
	f := &fakeRanger{t: t, user: "admin", password: "s3cret-pw", service: "query", tagService: tagService,
		hiveDef: readServiceDef(t, "hive"), tagDef: readServiceDef(t, "tag"),
		policies: map[int64]map[string]any{}, policyVersion: map[string]int64{"query": 1}, roles: []any{}, roleVersion: 1}
	if tagService != "" {
		f.policyVersion[tagService] = 1
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /service/plugins/secure/policies/download/{service}", f.auth(f.downloadPolicies))
	mux.HandleFunc("GET /service/roles/secure/download/{service}", f.auth(f.downloadRoles))
	mux.HandleFunc("GET /service/public/v2/api/service/name/{name}", f.auth(f.getService))
	mux.HandleFunc("GET /service/public/v2/api/service/{service}/policy/{name}", f.auth(f.getPolicyByName))
	mux.HandleFunc("POST /service/public/v2/api/policy", f.auth(f.createPolicy))
	mux.HandleFunc("PUT /service/public/v2/api/policy/{id}", f.auth(f.updatePolicy))
	mux.HandleFunc("DELETE /service/public/v2/api/policy/{id}", f.auth(f.deletePolicy))
	f.serveTagStore(mux)
	f.server = httptest.NewServer(mux)
	t.Cleanup(f.server.Close)
	return f
}

// readServiceDef is Ranger's own service definition, as the downloads
// carry it.
func readServiceDef(t *testing.T, name string) json.RawMessage {
	t.Helper()
	data, err := os.ReadFile("../../ranger/testdata/reference/service-defs/ranger-servicedef-" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// auth is Spring Security in front of Ranger Admin's REST API.
func (f *fakeRanger) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if hold := f.holding(r); hold != nil {
			<-hold
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if !rangertest.Authenticated(w, r, f.user, f.password) {
			return
		}
		if f.down {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, "<html><body>Service Unavailable</body></html>")
			return
		}
		h(w, r)
	}
}

func (f *fakeRanger) holding(r *http.Request) chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.holdOn != "" && strings.Contains(r.URL.Path, f.holdOn) {
		return f.hold
	}
	return nil
}

func validationError(w http.ResponseWriter, code int, reason string) {
	rangertest.RESTError(w, http.StatusBadRequest, fmt.Sprintf("(0) Validation failure: error code[%d], reason[%s], field[null], subfield[null], type[]", code, reason))
}

// lastKnown is a download's version parameter; Ranger's default is -1.
func lastKnown(r *http.Request, param string) int64 {
	v, err := strconv.ParseInt(r.URL.Query().Get(param), 10, 64)
	if err != nil {
		return -1
	}
	return v
}

func (f *fakeRanger) downloadPolicies(w http.ResponseWriter, r *http.Request) {
	last := lastKnown(r, "lastKnownVersion")
	f.log = append(f.log, fmt.Sprintf("policies %d", last))
	f.pluginIDs = append(f.pluginIDs, r.URL.Query().Get("pluginId"))
	if r.PathValue("service") != f.service {
		rangertest.RESTError(w, http.StatusBadRequest, "Service:"+r.PathValue("service")+" not found")
		return
	}
	if last == f.policyVersion[f.service] {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	out := map[string]any{"serviceName": f.service, "serviceId": 1, "policyVersion": f.policyVersion[f.service],
		"policyUpdateTime": 1767225600000, "policies": f.list(f.service), "serviceDef": f.hiveDef,
		"auditMode": "audit-default", "serviceConfig": map[string]any{}}
	if f.tagService != "" {
		out["tagPolicies"] = map[string]any{"serviceName": f.tagService, "serviceId": 2,
			"policyVersion": f.policyVersion[f.tagService], "policyUpdateTime": 1767225600000,
			"policies": f.list(f.tagService), "serviceDef": f.tagDef, "auditMode": "audit-default", "serviceConfig": map[string]any{}}
	}
	if f.zones != nil {
		out["securityZones"] = f.zones
	}
	rangertest.WriteJSON(w, out)
}

func (f *fakeRanger) downloadRoles(w http.ResponseWriter, r *http.Request) {
	last := lastKnown(r, "lastKnownRoleVersion")
	f.log = append(f.log, fmt.Sprintf("roles %d", last))
	if r.PathValue("service") != f.service {
		rangertest.RESTError(w, http.StatusBadRequest, "Service:"+r.PathValue("service")+" not found")
		return
	}
	if last == f.roleVersion {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	rangertest.WriteJSON(w, map[string]any{"serviceName": r.PathValue("service"), "roleVersion": f.roleVersion,
		"roleUpdateTime": 1767225600000, "rangerRoles": f.roles})
}

func (f *fakeRanger) getService(w http.ResponseWriter, r *http.Request) {
	f.log = append(f.log, "GET service "+r.PathValue("name"))
	switch r.PathValue("name") {
	case f.service:
		rangertest.WriteJSON(w, map[string]any{"id": 1, "name": f.service, "type": "hive", "isEnabled": true,
			"tagService": f.tagService, "configs": map[string]any{"username": "hive"}})
	case f.tagService:
		rangertest.WriteJSON(w, map[string]any{"id": 2, "name": f.tagService, "type": "tag", "isEnabled": true, "configs": map[string]any{}})
	default:
		rangertest.RESTError(w, http.StatusNotFound, "Not found")
	}
}

func (f *fakeRanger) getPolicyByName(w http.ResponseWriter, r *http.Request) {
	f.log = append(f.log, "GET "+r.PathValue("service")+"/"+r.PathValue("name"))
	if id := f.byName(r.PathValue("service"), r.PathValue("name")); id != 0 {
		rangertest.WriteJSON(w, f.policies[id])
		return
	}
	rangertest.RESTError(w, http.StatusNotFound, "Not found")
}

func (f *fakeRanger) createPolicy(w http.ResponseWriter, r *http.Request) {
	p, ok := f.decode(w, r)
	if !ok {
		return
	}
	f.log = append(f.log, fmt.Sprintf("POST %v/%v", p["service"], p["name"]))
	f.nextID++
	if f.store(w, f.nextID, p) {
		rangertest.WriteJSON(w, f.policies[f.nextID])
	}
}

func (f *fakeRanger) updatePolicy(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	p, ok := f.decode(w, r)
	if !ok {
		return
	}
	f.log = append(f.log, fmt.Sprintf("PUT %v/%v", p["service"], p["name"]))
	if body, ok := p["id"].(float64); ok && int64(body) != id {
		rangertest.RESTError(w, http.StatusBadRequest, "policyID mismatch")
		return
	}
	old, ok := f.policies[id]
	if !ok {
		rangertest.RESTError(w, http.StatusNotFound, "Not found")
		return
	}
	p["version"] = old["version"].(float64) + 1
	if f.store(w, id, p) {
		rangertest.WriteJSON(w, f.policies[id])
	}
}

func (f *fakeRanger) deletePolicy(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	p, ok := f.policies[id]
	if !ok {
		rangertest.RESTError(w, http.StatusNotFound, "Not found")
		return
	}
	f.log = append(f.log, fmt.Sprintf("DELETE %v/%v", p["service"], p["name"]))
	if f.forbidWrites {
		rangertest.RESTError(w, http.StatusForbidden, "User 'admin' does not have delegated-admin privilege on given resources")
		return
	}
	delete(f.policies, id)
	f.bump(p["service"].(string))
	w.WriteHeader(http.StatusNoContent)
}

func (f *fakeRanger) decode(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
	p, ok := rangertest.Decode[map[string]any](w, r)
	if !ok {
		return nil, false
	}
	if f.forbidWrites {
		rangertest.RESTError(w, http.StatusForbidden, "User 'admin' does not have delegated-admin privilege on given resources")
		return nil, false
	}
	return p, true
}

// store validates a policy as Ranger's RangerPolicyValidator does and
// keeps it under id.
func (f *fakeRanger) store(w http.ResponseWriter, id int64, p map[string]any) bool {
	service, _ := p["service"].(string)
	if service == "" || service != f.service && service != f.tagService {
		validationError(w, 3007, fmt.Sprintf("no service found with name[%s]", service))
		return false
	}
	for other, q := range f.policies {
		if other == id || q["service"] != service {
			continue
		}
		if q["name"] == p["name"] {
			validationError(w, 3006, fmt.Sprintf("Another policy already exists for this name: policy-id=[%d], service=[%s]", other, service))
			return false
		}
		if signature(q) == signature(p) {
			validationError(w, 3010, fmt.Sprintf("Another policy already exists for matching resource: policy-name=[%v], service=[%s]", q["name"], service))
			return false
		}
	}
	p["id"] = float64(id)
	if p["version"] == nil {
		p["version"] = float64(1)
	}
	if p["guid"] == nil || p["guid"] == "" {
		p["guid"] = fmt.Sprintf("guid-%d", id)
	}
	for k, v := range map[string]any{"isEnabled": true, "isAuditEnabled": true, "policyType": float64(0), "policyPriority": float64(0)} {
		if p[k] == nil {
			p[k] = v
		}
	}
	f.policies[id] = p
	f.bump(service)
	return true
}

// bump moves a service's policy version, and that of the services linked
// to it when it is the tag service.
func (f *fakeRanger) bump(service string) {
	f.policyVersion[service]++
	if service == f.tagService {
		f.policyVersion[f.service]++
	}
}

func (f *fakeRanger) list(service string) []any {
	out := []any{}
	for _, id := range f.ids() {
		if p := f.policies[id]; p["service"] == service {
			out = append(out, p)
		}
	}
	return out
}

func (f *fakeRanger) ids() []int64 {
	var ids []int64
	for id := range f.policies {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (f *fakeRanger) byName(service, name string) int64 {
	for id, p := range f.policies {
		if p["service"] == service && p["name"] == name {
			return id
		}
	}
	return 0
}

// signature is a policy's kind and resources, which Ranger allows one
// policy of per service.
func signature(p map[string]any) string {
	rs, _ := p["resources"].(map[string]any)
	parts := []string{fmt.Sprint(p["policyType"])}
	for k, r := range rs {
		vals := fmt.Sprint(r.(map[string]any)["values"])
		parts = append(parts, k+"="+vals)
	}
	slices.Sort(parts[1:])
	return strings.Join(parts, ";")
}

// add stores a policy as if written in Ranger's console.
func (f *fakeRanger) add(t *testing.T, policy map[string]any) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	rec := httptest.NewRecorder()
	if !f.store(rec, f.nextID, policy) {
		t.Fatalf("policy refused: %s", rec.Body)
	}
}

// setRole adds or replaces a role, as the console's role page does.
func (f *fakeRanger) setRole(name string, users ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	members := []any{}
	for _, u := range users {
		members = append(members, map[string]any{"name": u, "isAdmin": false})
	}
	role := map[string]any{"id": len(f.roles) + 1, "name": name, "users": members, "groups": []any{}, "roles": []any{}}
	for i, r := range f.roles {
		if r.(map[string]any)["name"] == name {
			role["id"] = i + 1
			f.roles[i] = role
			f.roleVersion++
			return
		}
	}
	f.roles = append(f.roles, role)
	f.roleVersion++
}

// policy is the stored policy of that name in service, or nil.
func (f *fakeRanger) policy(service, name string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.policies[f.byName(service, name)]
}

func (f *fakeRanger) set(change func(f *fakeRanger)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change(f)
}

// requests are the requests served so far.
func (f *fakeRanger) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.log)
}

// downloads are the policy and role downloads served so far.
func (f *fakeRanger) downloads() []string {
	var out []string
	for _, r := range f.requests() {
		if strings.HasPrefix(r, "policies ") || strings.HasPrefix(r, "roles ") {
			out = append(out, r)
		}
	}
	return out
}
