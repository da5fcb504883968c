package compattests

import (
	"context"
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
	"time"

	"github.com/jackc/pgx/v5"
)

// policyDownloadAdmin is a Ranger Admin that serves a plugin's policy and
// role downloads as Ranger documents them: basic auth, 304 when the
// plugin already has the version, and 503 while it is "down".
type policyDownloadAdmin struct {
	t          *testing.T
	serviceDef json.RawMessage

	mu       sync.Mutex
	version  int64
	maskType string
	down     bool
	// extra are policies served besides orders_ssn.
	extra []any
}

func (a *policyDownloadAdmin) set(f func(a *policyDownloadAdmin)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	f(a)
}

func (a *policyDownloadAdmin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if user, pass, ok := r.BasicAuth(); !ok || user != "admin" || pass != "ranger-secret" {
		http.Error(w, `{"statusCode":1,"msgDesc":"Authentication required"}`, http.StatusUnauthorized)
		return
	}
	if a.down {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	switch {
	case r.URL.Path == "/service/plugins/secure/policies/download/query":
		if r.URL.Query().Get("lastKnownVersion") == strconv.FormatInt(a.version, 10) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		policy := map[string]any{
			"id": 7, "name": "orders_ssn", "service": "query", "policyType": 1, "isEnabled": true,
			"resources": map[string]any{
				"database": map[string]any{"values": []string{"acdemo"}},
				"table":    map[string]any{"values": []string{"orders"}},
				"column":   map[string]any{"values": []string{"ssn"}},
			},
			"dataMaskPolicyItems": []any{map[string]any{
				"accesses":     []any{map[string]any{"type": "select", "isAllowed": true}},
				"users":        []string{"alice"},
				"dataMaskInfo": map[string]any{"dataMaskType": a.maskType},
			}},
		}
		writeJSONBody(a.t, w, map[string]any{"serviceName": "query", "serviceId": 3, "policyVersion": a.version,
			"policies": append([]any{policy}, a.extra...), "serviceDef": a.serviceDef})
	case r.URL.Path == "/service/roles/secure/download/query":
		if r.URL.Query().Get("lastKnownRoleVersion") == "1" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		writeJSONBody(a.t, w, map[string]any{"serviceName": "query", "roleVersion": 1, "rangerRoles": []any{}})
	default:
		http.Error(w, `{"statusCode":1,"msgDesc":"not found"}`, http.StatusNotFound)
	}
}

func writeJSONBody(t *testing.T, w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		t.Errorf("encode download: %v", err)
	}
}

// startRangerPolicyServer runs sqe serve with [policy] engine = "ranger"
// against a Ranger Admin in this process that serves one policy,
// orders_ssn (MASK_NULL on acdemo.orders.ssn for alice), with a cache TTL
// of a second, and connects as alice (an administrator) after creating
// acdemo.orders (id, ssn) with the rows values.
func startRangerPolicyServer(t *testing.T, values string) (*policyDownloadAdmin, *server, context.Context, *pgx.Conn) {
	t.Helper()
	def, err := os.ReadFile(filepath.Join("..", "governance", "ranger", "testdata", "reference", "service-defs", "ranger-servicedef-hive.json"))
	if err != nil {
		t.Fatal(err)
	}
	admin := &policyDownloadAdmin{t: t, serviceDef: def, version: 5, maskType: "MASK_NULL"}
	ranger := httptest.NewServer(admin)
	t.Cleanup(ranger.Close)
	dir := t.TempDir()
	// The password is a secret: sqe.toml names the file that holds it.
	passwordFile := filepath.Join(dir, "ranger-password")
	if err := os.WriteFile(passwordFile, []byte("ranger-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf("[policy]\nengine = \"ranger\"\n[policy.ranger]\nurl = %q\nservice_name = \"query\"\nadmin_user = \"admin\"\nadmin_password_file = %q\ncache_ttl_secs = 1\n", ranger.URL, passwordFile)
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startTestServerIn(t, filepath.Join(dir, "data"), false)
	token, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 2*time.Minute)
	conn := connect(t, ctx, srv, token)
	for _, q := range []string{
		"CREATE SCHEMA acdemo",
		"CREATE TABLE acdemo.orders (id int, ssn text)",
		"INSERT INTO acdemo.orders VALUES " + values,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return admin, srv, ctx, conn
}

// TestRangerPolicyEngine runs sqe serve with [policy] engine = "ranger"
// against a Ranger Admin in this process: the mask it serves applies, a
// change made in Ranger applies once the cache TTL passes, Ranger down
// past the TTL admits no row, and enforcement resumes when it is back,
// without a restart.
func TestRangerPolicyEngine(t *testing.T) {
	admin, srv, ctx, conn := startRangerPolicyServer(t, "(1, '111-11-1111'), (2, '222-22-2222')")
	read := func() string {
		t.Helper()
		rows, err := textRowsOf(ctx, conn, "SELECT id, coalesce(ssn, 'NULL') FROM acdemo.orders ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(rows))
		for i, r := range rows {
			out[i] = *r[0] + "|" + *r[1]
		}
		return strings.Join(out, ",")
	}
	eventually := func(want, why string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			got := read()
			if got == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: rows %q, want %q", why, got, want)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	// SHOW ACCESS names Ranger's policy behind the mask, and Ranger down
	// as the reason no row is admitted.
	explain := func() string {
		t.Helper()
		rows, err := textRowsOf(ctx, conn, "SHOW ACCESS ON acdemo.orders FOR USER alice")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rows {
			switch *r[0] {
			case "ssn":
				out = append(out, strings.Join([]string{*r[0], *r[1], *r[2], *r[4], *r[5], *r[6]}, "|"))
			case "(rows)":
				// The reason, without the store's own message.
				reason := strings.SplitN(*r[7], ": ", 3)
				out = append(out, strings.Join(append([]string{*r[0], *r[1], *r[6]}, reason[:min(2, len(reason))]...), "|"))
			}
		}
		return strings.Join(out, ",")
	}
	if got := read(); got != "1|NULL,2|NULL" {
		t.Fatalf("Ranger's MASK_NULL for alice: rows %q", got)
	}
	if got, want := explain(), "ssn|masked|MASK_NULL|orders_ssn|resource|ranger"; got != want {
		t.Errorf("SHOW ACCESS: %q, want %q", got, want)
	}
	admin.set(func(a *policyDownloadAdmin) { a.version, a.maskType = 6, "MASK_SHOW_LAST_4" })
	eventually("1|xxx-xx-1111,2|xxx-xx-2222", "a mask changed in Ranger after the TTL")
	admin.set(func(a *policyDownloadAdmin) { a.down = true })
	eventually("", "Ranger unreachable past the TTL")
	if got, want := explain(), "ssn|raw||||,(rows)|no rows|ranger|fail closed|policy store unreachable"; got != want {
		t.Errorf("SHOW ACCESS with Ranger down: %q, want %q", got, want)
	}
	admin.set(func(a *policyDownloadAdmin) { a.down = false })
	eventually("1|xxx-xx-1111,2|xxx-xx-2222", "Ranger back")
	if log := srv.log(); strings.Contains(log, "ranger-secret") {
		t.Errorf("the server log holds Ranger's password:\n%s", log)
	}
}

// TestRangerPolicyEngineRefusesRename: with gate two's policies in
// Ranger, a rename that would take a column or table out of a policy is
// refused, naming the policy, and the mask still applies; a rename no
// policy names goes ahead.
func TestRangerPolicyEngineRefusesRename(t *testing.T) {
	_, _, ctx, conn := startRangerPolicyServer(t, "(1, '111-11-1111')")
	for _, q := range []string{
		"ALTER TABLE acdemo.orders RENAME COLUMN ssn TO tax_id",
		"ALTER TABLE acdemo.orders RENAME TO orders_2024",
	} {
		_, err := conn.Exec(ctx, q)
		if pe := asPgError(t, err); pe.Code != "42501" || !strings.Contains(pe.Message, `policy "orders_ssn"`) {
			t.Errorf("%s: %s %q, want 42501 naming orders_ssn", q, pe.Code, pe.Message)
		}
	}
	if _, err := conn.Exec(ctx, "ALTER TABLE acdemo.orders RENAME COLUMN id TO order_id"); err != nil {
		t.Errorf("a rename no policy names: %v", err)
	}
	rows, err := textRowsOf(ctx, conn, "SELECT order_id, coalesce(ssn, 'NULL') FROM acdemo.orders")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || *rows[0][1] != "NULL" {
		t.Errorf("after the refused renames alice reads %v, want ssn masked", rows)
	}
}

// TestRangerPolicyEngineRefusesUnevaluablePolicy: a policy whose
// condition SQE cannot evaluate (a condition type the service definition
// does not define) is refused when Ranger's download is compiled: the
// server log names it and why, the table it applies to admits no row
// (gate two fails closed, and SHOW ACCESS says why), and other tables are
// unaffected.
func TestRangerPolicyEngineRefusesUnevaluablePolicy(t *testing.T) {
	admin, srv, ctx, conn := startRangerPolicyServer(t, "(1, '111-11-1111'), (2, '222-22-2222')")
	for _, q := range []string{"CREATE TABLE acdemo.customers (id int)", "INSERT INTO acdemo.customers VALUES (1), (2)"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	count := func(table string) int {
		t.Helper()
		rows, err := textRowsOf(ctx, conn, "SELECT id FROM acdemo."+table)
		if err != nil {
			t.Fatal(err)
		}
		return len(rows)
	}
	if n := count("orders"); n != 2 {
		t.Fatalf("before: %d rows of orders", n)
	}
	admin.set(func(a *policyDownloadAdmin) {
		a.version = 6
		a.extra = []any{map[string]any{
			"id": 9, "name": "orders_office_hours", "service": "query", "policyType": 2, "isEnabled": true,
			"resources": map[string]any{
				"database": map[string]any{"values": []string{"acdemo"}},
				"table":    map[string]any{"values": []string{"orders"}},
			},
			"rowFilterPolicyItems": []any{map[string]any{
				"accesses":      []any{map[string]any{"type": "select", "isAllowed": true}},
				"users":         []string{"bob"},
				"conditions":    []any{map[string]any{"type": "time-of-day", "values": []string{"9am-5pm"}}},
				"rowFilterInfo": map[string]any{"filterExpr": "id > 1"},
			}},
		}}
	})
	deadline := time.Now().Add(20 * time.Second)
	for count("orders") != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("a refused policy on orders: %d rows admitted, want none", count("orders"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	if n := count("customers"); n != 2 {
		t.Errorf("customers, which the refused policy does not name: %d rows, want 2", n)
	}
	// Through psql too: the table answers no row, not an error.
	token, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	res := runPsql(t, srv, psqlRun{user: "alice", password: token, args: []string{"-A", "-c", "SELECT id FROM acdemo.orders"}})
	if res.exitCode != 0 || !strings.Contains(res.stdout, "(0 rows)") {
		t.Errorf("psql read of orders under a refused policy: exit %d\n%s%s", res.exitCode, res.stdout, res.stderr)
	}
	rows, err := textRowsOf(ctx, conn, "SHOW ACCESS ON acdemo.orders FOR USER alice")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rows {
		if *r[0] == "(rows)" && r[7] != nil && strings.Contains(*r[7], "policy cannot be evaluated") && strings.Contains(*r[7], "policy 9") {
			found = true
		}
	}
	if !found {
		t.Errorf("SHOW ACCESS does not give the refused policy as the reason: %v", rows)
	}
	log := srv.log()
	if !strings.Contains(log, "policy refused") || !strings.Contains(log, "policy_id=9") || !strings.Contains(log, "time-of-day") {
		t.Errorf("the server log does not name the refused policy and why:\n%s", log)
	}
	if strings.Contains(log, "111-11-1111") {
		t.Errorf("the server log holds a value of the data")
	}
}

// TestRangerConditionOnClientAddress: a row filter whose items hold
// Ranger's ip-range condition (which an administrator adds to the hive
// service definition) is decided by the address the client connected
// from: over loopback TCP the loopback item's filter applies, not the
// office network's.
func TestRangerConditionOnClientAddress(t *testing.T) {
	admin, _, ctx, conn := startRangerPolicyServer(t, "(1, '111-11-1111'), (2, '222-22-2222'), (3, '333-33-3333')")
	var def map[string]any
	if err := json.Unmarshal(admin.serviceDef, &def); err != nil {
		t.Fatal(err)
	}
	conditions, _ := def["policyConditions"].([]any)
	def["policyConditions"] = append(conditions, map[string]any{"itemId": 100, "name": "ip-range",
		"evaluator": "org.apache.ranger.plugin.conditionevaluator.RangerIpMatcher", "label": "IP range"})
	withIPRange, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	item := func(ipRange, filter string) map[string]any {
		return map[string]any{
			"accesses":      []any{map[string]any{"type": "select", "isAllowed": true}},
			"users":         []string{"alice"},
			"conditions":    []any{map[string]any{"type": "ip-range", "values": []string{ipRange}}},
			"rowFilterInfo": map[string]any{"filterExpr": filter},
		}
	}
	admin.set(func(a *policyDownloadAdmin) {
		a.version, a.serviceDef = 6, withIPRange
		a.extra = []any{map[string]any{
			"id": 9, "name": "orders_by_network", "service": "query", "policyType": 2, "isEnabled": true,
			"resources": map[string]any{
				"database": map[string]any{"values": []string{"acdemo"}},
				"table":    map[string]any{"values": []string{"orders"}},
			},
			"rowFilterPolicyItems": []any{item("10.20.*", "id = 1"), item("127.0.0.0/8", "id > 1")},
		}}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		rows, err := textRowsOf(ctx, conn, "SELECT id FROM acdemo.orders ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		got := make([]string, len(rows))
		for i, r := range rows {
			got[i] = *r[0]
		}
		if strings.Join(got, ",") == "2,3" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("alice over loopback reads ids %v, want the loopback item's filter (2,3)", got)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
