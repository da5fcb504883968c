package compattests

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sqe-db/sqe/governance/polarisadmin/polaristest"
	"github.com/sqe-db/sqe/governance/rangerrest/rangertest"
)

// policyStoreAdmin is Ranger Admin's public policy API as the ranger
// gate-one backend uses it: policies listed by service, created and
// updated, and an empty role store; basic auth on every request.
type policyStoreAdmin struct {
	mu       sync.Mutex
	nextID   int64
	policies map[int64]map[string]any
}

func (a *policyStoreAdmin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !rangertest.Authenticated(w, r, "admin", "ranger-secret") {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/service/public/v2/api/roles":
		rangertest.WriteJSON(w, []any{})
	case r.Method == http.MethodGet && r.URL.Path == "/service/public/v2/api/policy":
		out := []map[string]any{}
		for id := int64(1); id <= a.nextID; id++ {
			if p, ok := a.policies[id]; ok && p["service"] == r.URL.Query().Get("serviceName") {
				out = append(out, p)
			}
		}
		rangertest.WriteJSON(w, out)
	case r.Method == http.MethodPost && r.URL.Path == "/service/public/v2/api/policy":
		p, ok := rangertest.Decode[map[string]any](w, r)
		if !ok {
			return
		}
		a.nextID++
		p["id"] = float64(a.nextID)
		a.policies[a.nextID] = p
		rangertest.WriteJSON(w, p)
	case r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, "/service/public/v2/api/policy/"):
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/service/public/v2/api/policy/"), 10, 64)
		p, ok := rangertest.Decode[map[string]any](w, r)
		if !ok {
			return
		}
		p["id"] = float64(id)
		a.policies[id] = p
		rangertest.WriteJSON(w, p)
	default:
		rangertest.RESTError(w, http.StatusNotFound, r.Method+" "+r.URL.Path)
	}
}

// TestGateOneRangerRefusesUnevaluablePolicy: with [access_control]
// backend = "ranger", a grant whose policy a Ranger administrator gave a
// condition SQE cannot evaluate (time-of-day) is refused by CHECK ACCESS
// through psql, which names the policy and the condition, never allowed.
func TestGateOneRangerRefusesUnevaluablePolicy(t *testing.T) {
	admin := &policyStoreAdmin{policies: map[int64]map[string]any{}}
	ranger := httptest.NewServer(admin)
	t.Cleanup(ranger.Close)
	// Polaris enforces the ranger backend's grants: the one catalog is a
	// Polaris rest catalog called with each user's token.
	polaris := polaristest.New(t, "polaris-root-secret", "sales_wh")
	polaris.AddPrincipal("alice", "carol")
	polaris.GrantCatalogAdmin("carol", "data_admin")
	if err := polaris.CreateTable("sales_wh", "acdemo", "orders"); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	passwordFile := filepath.Join(dir, "ranger-password")
	if err := os.WriteFile(passwordFile, []byte("ranger-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`[access_control]
backend = "ranger"
url = %q

[access_control.ranger]
service_name = "polaris"
admin_user = "admin"
admin_password_file = %q

[[catalog]]
name = "sales_wh"
type = "rest"
uri = %q
warehouse = "sales_wh"
`, ranger.URL, passwordFile, polaris.URL+"/api/catalog")
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startTestServerIn(t, filepath.Join(dir, "data"), false)
	token, err := srv.mintAdmin("carol")
	if err != nil {
		t.Fatal(err)
	}
	psql := func(sql string) psqlResult {
		t.Helper()
		return runPsql(t, srv, psqlRun{user: "carol", password: token, args: []string{"-A", "-F", "|", "-c", sql}})
	}
	if res := psql("GRANT SELECT ON sales_wh.acdemo.orders TO USER alice"); res.exitCode != 0 {
		t.Fatalf("GRANT: %s%s", res.stdout, res.stderr)
	}
	const check = "CHECK ACCESS SELECT ON sales_wh.acdemo.orders FOR USER alice"
	if res := psql(check); res.exitCode != 0 || !strings.Contains(res.stdout, "Allowed") {
		t.Fatalf("CHECK ACCESS before the condition: %s%s", res.stdout, res.stderr)
	}
	// A Ranger administrator adds a condition SQE has no evaluator for.
	admin.mu.Lock()
	for _, p := range admin.policies {
		items, _ := p["policyItems"].([]any)
		for _, item := range items {
			item.(map[string]any)["conditions"] = []any{map[string]any{"type": "time-of-day", "values": []string{"9am-5pm"}}}
		}
	}
	conditioned, _ := json.Marshal(admin.policies)
	admin.mu.Unlock()
	if !strings.Contains(string(conditioned), "time-of-day") {
		t.Fatalf("no policy item to condition: %s", conditioned)
	}
	res := psql(check)
	if res.exitCode != 0 || strings.Contains(res.stdout, "Allowed") || !strings.Contains(res.stdout, "cannot be evaluated") || !strings.Contains(res.stdout, "time-of-day") {
		t.Errorf("CHECK ACCESS under a policy SQE cannot evaluate:\n%s%s", res.stdout, res.stderr)
	}
}
