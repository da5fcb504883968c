package rangeradmin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sqe-db/sqe/governance/rangerrest/rangertest"
)

// fakeRanger is Ranger Admin as it documents itself, in memory: the
// public v2 policy and role APIs behind HTTP basic auth (401 without),
// one policy per exact resource (error 3010 on a second), policies echoed
// with every optional field populated, and the plugin grant and revoke
// APIs, which authorize the named grantor (403 without delegate admin).
type fakeRanger struct {
	t                     *testing.T
	user, password, admin string
	service               string
	mu                    sync.Mutex
	nextID                int64
	policies              map[int64]map[string]any
	roles                 map[int64]map[string]any
	log                   []string // writes, in order: "POST table wh.sales.orders"
	failGets              int      // answer this many GETs with 503
	forbidPolicyWrites    bool
	beforeCreate          func(f *fakeRanger) // runs (locked) before a POST of a policy
	failCreate            string              // answer 500 to a POST of this policy ("table wh.sales.orders")
	server                *httptest.Server
}

func newFakeRanger(t *testing.T) *fakeRanger {
	f := &fakeRanger{t: t, user: "admin", password: "s3cret-pw", admin: "admin", service: "polaris",
		policies: map[int64]map[string]any{}, roles: map[int64]map[string]any{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /service/public/v2/api/policy", f.auth(f.listPolicies))
	mux.HandleFunc("POST /service/public/v2/api/policy", f.auth(f.createPolicy))
	mux.HandleFunc("PUT /service/public/v2/api/policy/{id}", f.auth(f.updatePolicy))
	mux.HandleFunc("DELETE /service/public/v2/api/policy/{id}", f.auth(f.deletePolicy))
	mux.HandleFunc("GET /service/public/v2/api/roles", f.auth(f.listRoles))
	mux.HandleFunc("POST /service/public/v2/api/roles", f.auth(f.createRole))
	mux.HandleFunc("PUT /service/public/v2/api/roles/{id}", f.auth(f.updateRole))
	mux.HandleFunc("DELETE /service/public/v2/api/roles/{id}", f.auth(f.deleteRole))
	mux.HandleFunc("POST /service/plugins/services/grant/{service}", f.locked(f.grant))
	mux.HandleFunc("POST /service/plugins/services/revoke/{service}", f.locked(f.revoke))
	f.server = httptest.NewServer(mux)
	t.Cleanup(f.server.Close)
	return f
}

func (f *fakeRanger) locked(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		h(w, r)
	}
}

// auth is Spring Security in front of the public API.
func (f *fakeRanger) auth(h http.HandlerFunc) http.HandlerFunc {
	return f.locked(func(w http.ResponseWriter, r *http.Request) {
		if !rangertest.Authenticated(w, r, f.user, f.password) {
			return
		}
		if r.Method == http.MethodGet && f.failGets > 0 {
			f.failGets--
			rangertest.RESTError(w, http.StatusServiceUnavailable, "Service Unavailable")
			return
		}
		if r.Method != http.MethodGet && f.forbidPolicyWrites && strings.Contains(r.URL.Path, "/policy") {
			rangertest.RESTError(w, http.StatusForbidden, "User 'admin' does not have permission on the policy")
			return
		}
		h(w, r)
	})
}

func (f *fakeRanger) listPolicies(w http.ResponseWriter, r *http.Request) {
	var out []map[string]any
	for _, id := range f.ids(f.policies) {
		p := f.policies[id]
		if r.URL.Query().Get("serviceName") == "" || p["service"] == r.URL.Query().Get("serviceName") {
			out = append(out, p)
		}
	}
	if out == nil {
		out = []map[string]any{}
	}
	rangertest.WriteJSON(w, out)
}

func (f *fakeRanger) ids(m map[int64]map[string]any) []int64 {
	var ids []int64
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// store validates and stores a policy under id, as Ranger's validator
// does: one policy per exact resource signature.
func (f *fakeRanger) store(w http.ResponseWriter, id int64, p map[string]any) bool {
	sig := signature(p["resources"])
	for other, q := range f.policies {
		if other != id && q["service"] == p["service"] && signature(q["resources"]) == sig {
			rangertest.RESTError(w, http.StatusBadRequest, fmt.Sprintf("(0) Validation failure: error code[3010], reason[Another policy already exists for matching resource: policy-name=[%v], service=[%v]]", q["name"], q["service"]))
			return false
		}
	}
	p["id"] = float64(id)
	f.policies[id] = echoed(p)
	return true
}

func (f *fakeRanger) createPolicy(w http.ResponseWriter, r *http.Request) {
	p, ok := rangertest.Decode[map[string]any](w, r)
	if !ok {
		return
	}
	if f.beforeCreate != nil {
		hook := f.beforeCreate
		f.beforeCreate = nil
		hook(f)
	}
	if describe(p) == f.failCreate {
		rangertest.RESTError(w, http.StatusInternalServerError, "Internal Server Error")
		return
	}
	f.nextID++
	if f.store(w, f.nextID, p) {
		f.log = append(f.log, "POST "+describe(p))
		rangertest.WriteJSON(w, f.policies[f.nextID])
	}
}

func (f *fakeRanger) updatePolicy(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if _, ok := f.policies[id]; !ok {
		rangertest.RESTError(w, http.StatusNotFound, "no policy "+r.PathValue("id"))
		return
	}
	p, ok := rangertest.Decode[map[string]any](w, r)
	if !ok {
		return
	}
	if f.store(w, id, p) {
		f.log = append(f.log, "PUT "+describe(p))
		rangertest.WriteJSON(w, f.policies[id])
	}
}

func (f *fakeRanger) deletePolicy(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	p, ok := f.policies[id]
	if !ok {
		rangertest.RESTError(w, http.StatusNotFound, "no policy "+r.PathValue("id"))
		return
	}
	delete(f.policies, id)
	f.log = append(f.log, "DELETE "+describe(p))
	w.WriteHeader(http.StatusNoContent)
}

// grant is the plugin grant endpoint: no authentication, the grantor
// authorized by delegate admin on the resource, the item merged into the
// policy on the exact resource or a new grant-<n> policy.
func (f *fakeRanger) grant(w http.ResponseWriter, r *http.Request) {
	req, resources, ok := f.grantRequest(w, r)
	if !ok {
		return
	}
	item := map[string]any{"users": req.Users, "roles": req.Roles, "groups": []any{}, "delegateAdmin": req.DelegateAdmin,
		"accesses": accessList(req.AccessTypes)}
	if p := f.exact(resources); p != nil {
		p["policyItems"] = append(p["policyItems"].([]any), item)
		f.policies[int64(p["id"].(float64))] = echoed(p)
		f.log = append(f.log, "GRANT "+describe(p))
	} else {
		f.nextID++
		p := map[string]any{"service": f.service, "name": fmt.Sprintf("grant-%d", f.nextID), "resources": resources,
			"policyItems": []any{item}}
		f.store(w, f.nextID, p)
		f.log = append(f.log, "GRANT "+describe(p))
	}
	rangertest.WriteJSON(w, map[string]any{"statusCode": 0})
}

// revoke takes the access types away from the items naming exactly the
// request's principals.
func (f *fakeRanger) revoke(w http.ResponseWriter, r *http.Request) {
	req, resources, ok := f.grantRequest(w, r)
	if !ok {
		return
	}
	p := f.exact(resources)
	if p == nil {
		rangertest.WriteJSON(w, map[string]any{"statusCode": 0})
		return
	}
	var items []any
	for _, x := range p["policyItems"].([]any) {
		it := x.(map[string]any)
		if slices.Equal(strs(it["users"]), req.Users) && slices.Equal(strs(it["roles"]), req.Roles) {
			var left []string
			for _, a := range accessTypes(it) {
				if !slices.Contains(req.AccessTypes, a) {
					left = append(left, a)
				}
			}
			if len(left) == 0 {
				continue
			}
			it["accesses"] = accessList(left)
		}
		items = append(items, it)
	}
	p["policyItems"] = items
	f.policies[int64(p["id"].(float64))] = echoed(p)
	f.log = append(f.log, "REVOKE "+describe(p))
	rangertest.WriteJSON(w, map[string]any{"statusCode": 0})
}

func (f *fakeRanger) grantRequest(w http.ResponseWriter, r *http.Request) (grantRevokeRequest, map[string]any, bool) {
	req, ok := rangertest.Decode[grantRevokeRequest](w, r)
	if !ok {
		return req, nil, false
	}
	resources := map[string]any{}
	for k, v := range req.Resource {
		resources[k] = map[string]any{"values": []any{v}}
	}
	if !f.mayDelegate(req.Grantor, req.Resource, req.AccessTypes) {
		rangertest.RESTError(w, http.StatusForbidden, "User doesn't have necessary permission to grant access")
		return req, nil, false
	}
	return req, resources, true
}

// mayDelegate reports whether the grantor is the admin or holds delegate
// admin for every access type on a policy matching the resource ("*"
// matching anything at a level).
func (f *fakeRanger) mayDelegate(grantor string, res map[string]string, accesses []string) bool {
	if grantor == f.admin {
		return true
	}
	held := map[string]bool{}
	for _, p := range f.policies {
		if !matches(p["resources"], res) {
			continue
		}
		for _, x := range p["policyItems"].([]any) {
			it := x.(map[string]any)
			if it["delegateAdmin"] == true && slices.Contains(strs(it["users"]), grantor) {
				for _, a := range accessTypes(it) {
					held[a] = true
				}
			}
		}
	}
	for _, a := range accesses {
		if !held[a] {
			return false
		}
	}
	return true
}

func matches(resources any, res map[string]string) bool {
	rs := resources.(map[string]any)
	if len(rs) != len(res) {
		return false
	}
	for k, v := range res {
		r, ok := rs[k].(map[string]any)
		if !ok {
			return false
		}
		vals := strs(r["values"])
		if !slices.Contains(vals, v) && !slices.Contains(vals, "*") {
			return false
		}
	}
	return true
}

func (f *fakeRanger) exact(resources map[string]any) map[string]any {
	sig := signature(resources)
	for _, p := range f.policies {
		if signature(p["resources"]) == sig {
			return p
		}
	}
	return nil
}

func (f *fakeRanger) listRoles(w http.ResponseWriter, r *http.Request) {
	out := []map[string]any{}
	for _, id := range f.ids(f.roles) {
		out = append(out, f.roles[id])
	}
	rangertest.WriteJSON(w, out)
}

func (f *fakeRanger) createRole(w http.ResponseWriter, r *http.Request) {
	role, ok := rangertest.Decode[map[string]any](w, r)
	if !ok {
		return
	}
	f.nextID++
	role["id"] = float64(f.nextID)
	f.roles[f.nextID] = role
	f.log = append(f.log, fmt.Sprintf("POST role %v", role["name"]))
	rangertest.WriteJSON(w, role)
}

func (f *fakeRanger) updateRole(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	role, ok := rangertest.Decode[map[string]any](w, r)
	if !ok {
		return
	}
	if f.roles[id] == nil {
		rangertest.RESTError(w, http.StatusBadRequest, "bad role")
		return
	}
	f.roles[id] = role
	f.log = append(f.log, fmt.Sprintf("PUT role %v", role["name"]))
	rangertest.WriteJSON(w, role)
}

func (f *fakeRanger) deleteRole(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	role := f.roles[id]
	delete(f.roles, id)
	f.log = append(f.log, fmt.Sprintf("DELETE role %v", role["name"]))
	w.WriteHeader(http.StatusNoContent)
}

// echoed is the policy as Ranger returns it: every optional field
// populated, every item with empty lists, conditions and delegateAdmin.
func echoed(p map[string]any) map[string]any {
	defaults := map[string]any{
		"isEnabled": true, "isAuditEnabled": true, "version": float64(1), "policyType": float64(0), "policyPriority": float64(0),
		"isDenyAllElse": false, "description": "", "conditions": []any{}, "options": map[string]any{}, "validitySchedules": []any{},
		"policyLabels": []any{}, "policyItems": []any{}, "denyPolicyItems": []any{}, "allowExceptions": []any{},
		"denyExceptions": []any{}, "dataMaskPolicyItems": []any{}, "rowFilterPolicyItems": []any{}, "additionalResources": []any{},
		"zoneName": "", "serviceType": "polaris", "guid": fmt.Sprintf("guid-%v", p["id"]),
	}
	for k, v := range defaults {
		if p[k] == nil {
			p[k] = v
		}
	}
	for _, r := range p["resources"].(map[string]any) {
		rm := r.(map[string]any)
		for _, k := range []string{"isExcludes", "isRecursive"} {
			if rm[k] == nil {
				rm[k] = false
			}
		}
	}
	for _, field := range []string{"policyItems", "denyPolicyItems"} {
		for _, x := range p[field].([]any) {
			it := x.(map[string]any)
			for _, k := range []string{"users", "groups", "roles", "conditions"} {
				if it[k] == nil {
					it[k] = []any{}
				}
			}
			if it["delegateAdmin"] == nil {
				it["delegateAdmin"] = false
			}
			for _, a := range it["accesses"].([]any) {
				am := a.(map[string]any)
				if am["isAllowed"] == nil {
					am["isAllowed"] = true
				}
			}
		}
	}
	// Round-trip, so that stored values have the types JSON decoding gives.
	data, _ := json.Marshal(p)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return out
}

func signature(resources any) string {
	rs, _ := resources.(map[string]any)
	var parts []string
	for k, r := range rs {
		rm, _ := r.(map[string]any)
		vals := strs(rm["values"])
		slices.Sort(vals)
		parts = append(parts, k+"="+strings.Join(vals, ","))
	}
	slices.Sort(parts)
	return strings.Join(parts, ";")
}

// describe names a policy in the write log: its level and resource.
func describe(p map[string]any) string {
	rs := p["resources"].(map[string]any)
	var names []string
	level := ""
	for _, l := range []string{"catalog", "namespace", "table"} {
		if r, ok := rs[l].(map[string]any); ok {
			names = append(names, strs(r["values"])...)
			level = l
		}
	}
	return level + " " + strings.Join(names, ".")
}

func strs(v any) []string {
	var out []string
	switch x := v.(type) {
	case []any:
		for _, s := range x {
			out = append(out, fmt.Sprint(s))
		}
	case []string:
		out = x
	}
	return out
}

func accessTypes(item map[string]any) []string {
	var out []string
	for _, a := range item["accesses"].([]any) {
		out = append(out, fmt.Sprint(a.(map[string]any)["type"]))
	}
	return out
}

func accessList(types []string) []any {
	out := []any{}
	for _, t := range types {
		out = append(out, map[string]any{"type": t, "isAllowed": true})
	}
	return out
}

// policyOn returns the stored policy that describe names, or nil.
func (f *fakeRanger) policyOn(name string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.policies {
		if describe(p) == name {
			return p
		}
	}
	return nil
}

// add stores a policy or role as if written in the console.
func (f *fakeRanger) add(t *testing.T, policy map[string]any) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	rec := httptest.NewRecorder()
	if !f.store(rec, f.nextID, policy) {
		t.Fatalf("seed policy refused: %s", rec.Body)
	}
}

func (f *fakeRanger) addRole(name string, users, roles []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	members := func(names []string) []any {
		out := []any{}
		for _, n := range names {
			out = append(out, map[string]any{"name": n, "isAdmin": false})
		}
		return out
	}
	f.nextID++
	f.roles[f.nextID] = map[string]any{"id": float64(f.nextID), "name": name, "description": "", "users": members(users),
		"groups": []any{}, "roles": members(roles), "options": map[string]any{}}
}

func (f *fakeRanger) writes() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.log)
}
