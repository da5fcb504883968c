package rangeradmin

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// The Ranger backend offers what SQL's gate-one statements call.
var _ sql.AccessControl = (*Service)(nil)

var (
	carol  = access.Caller{User: "carol", Roles: []string{"sqe_admin"}}
	alice  = grants.Grantee{Kind: grants.GranteeUser, Name: "alice"}
	orders = grants.Object{Kind: grants.ObjectTable, Catalog: "wh", Namespace: "sales", Name: "orders"}
)

func newService(t *testing.T, f *fakeRanger, mode grants.AuthorityMode) *Service {
	t.Helper()
	s, err := New(Config{URL: f.server.URL, ServiceName: f.service, AdminUser: f.user, AdminPassword: f.password,
		AdminRoles: []string{"sqe_admin"}, Authority: mode, RetryDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func statement(privilege string, o grants.Object, g grants.Grantee) grants.Statement {
	return grants.Statement{Privileges: []string{privilege}, Object: o, Grantees: []grants.Grantee{g}}
}

// run carries out one statement and fails the test on an error.
func run(t *testing.T, s *Service, caller access.Caller, a grants.Action, st grants.Statement) grants.Plan {
	t.Helper()
	plan, err := s.Change(context.Background(), caller, a, st)
	if err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	return plan
}

func sqlstate(err error) string {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func TestTableGrantWritesThreeLevelsOutermostFirst(t *testing.T) {
	f := newFakeRanger(t)
	s := newService(t, f, "")
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, grants.Grantee{Kind: grants.GranteeRole, Name: "analyst"}))
	want := []string{"POST catalog wh", "POST namespace wh.sales", "POST table wh.sales.orders"}
	if got := f.writes(); !slices.Equal(got, want) {
		t.Fatalf("writes = %q, want %q", got, want)
	}
	table := f.policyOn("table wh.sales.orders")
	if got := strs(table["policyLabels"]); !slices.Contains(got, "chm-grantor:carol") || !slices.Contains(got, "chm:ROLE:analyst:SELECT") {
		t.Errorf("table policy labels = %q, want the grantor and the grant", got)
	}
	if got := strs(f.policyOn("catalog wh")["policyLabels"]); len(got) != 0 {
		t.Errorf("catalog policy labels = %q, want none: traversal levels are shared", got)
	}
	root := table["resources"].(map[string]any)["root"].(map[string]any)
	if got := strs(root["values"]); !slices.Equal(got, []string{"*"}) {
		t.Errorf("root = %q, want the realm *", got)
	}
}

// TestRepeatedStatementsAreIdempotent repeats each statement: Ranger
// echoes items with every optional field filled in, and the second run
// must still find nothing to write.
func TestRepeatedStatementsAreIdempotent(t *testing.T) {
	for _, a := range []grants.Action{grants.ActionGrant, grants.ActionDeny} {
		t.Run(string(a), func(t *testing.T) {
			f := newFakeRanger(t)
			s := newService(t, f, "")
			run(t, s, carol, a, statement("SELECT", orders, alice))
			first := f.writes()
			run(t, s, carol, a, statement("SELECT", orders, alice))
			if got := f.writes(); !slices.Equal(got, first) {
				t.Fatalf("second %s wrote %q", a, got[len(first):])
			}
			table := f.policyOn("table wh.sales.orders")
			field := map[grants.Action]string{grants.ActionGrant: "policyItems", grants.ActionDeny: "denyPolicyItems"}[a]
			if n := len(table[field].([]any)); n != 1 {
				t.Errorf("%s has %d items, want 1", field, n)
			}
		})
	}
}

func TestRevokeClearsDeny(t *testing.T) {
	f := newFakeRanger(t)
	s := newService(t, f, "")
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, alice))
	run(t, s, carol, grants.ActionDeny, statement("SELECT", orders, alice))
	if n := len(f.policyOn("table wh.sales.orders")["denyPolicyItems"].([]any)); n != 1 {
		t.Fatalf("deny items after DENY = %d, want 1", n)
	}
	run(t, s, carol, grants.ActionRevoke, statement("SELECT", orders, alice))
	if p := f.policyOn("table wh.sales.orders"); p != nil {
		t.Errorf("table policy left after REVOKE: allow %v deny %v", p["policyItems"], p["denyPolicyItems"])
	}
	if w := f.writes(); w[len(w)-1] != "DELETE table wh.sales.orders" {
		t.Errorf("last write = %q, want the emptied table policy deleted", w[len(w)-1])
	}
	for _, outer := range []string{"catalog wh", "namespace wh.sales"} {
		if f.policyOn(outer) == nil {
			t.Errorf("REVOKE removed the shared %s policy", outer)
		}
	}
}

// TestConsoleEditsSurviveWriteBack grants into a policy edited in the
// console: every field gate one does not model, and the items it does not
// touch, come back as they were.
func TestConsoleEditsSurviveWriteBack(t *testing.T) {
	data, err := os.ReadFile("testdata/console_policy.json")
	if err != nil {
		t.Fatal(err)
	}
	var seed map[string]any
	if err := json.Unmarshal(data, &seed); err != nil {
		t.Fatal(err)
	}
	f := newFakeRanger(t)
	f.add(t, seed)
	before := f.policyOn("table wh.sales.orders")
	s := newService(t, f, "")
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, grants.Grantee{Kind: grants.GranteeRole, Name: "analyst"}))
	after := f.policyOn("table wh.sales.orders")
	if w := f.writes(); !slices.Contains(w, "PUT table wh.sales.orders") {
		t.Fatalf("writes = %q, want the console policy updated in place", w)
	}
	for _, field := range []string{"id", "name", "description", "isAuditEnabled", "allowExceptions", "validitySchedules", "options", "denyPolicyItems"} {
		if !jsonEqual(before[field], after[field]) {
			t.Errorf("%s changed: %v -> %v", field, before[field], after[field])
		}
	}
	if got := strs(after["policyLabels"]); !slices.Contains(got, "owner:finance") || !slices.Contains(got, "chm:ROLE:analyst:SELECT") {
		t.Errorf("labels = %q, want the console's kept and the grant's added", got)
	}
	items := after["policyItems"].([]any)
	if !slices.ContainsFunc(items, func(x any) bool { return jsonEqual(x, before["policyItems"].([]any)[0]) }) {
		t.Errorf("the engineer item with its condition was not kept: %v", items)
	}
	if !slices.ContainsFunc(items, func(x any) bool { return slices.Equal(strs(x.(map[string]any)["roles"]), []string{"analyst"}) }) {
		t.Errorf("no item for analyst: %v", items)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestHTTPErrorsMap(t *testing.T) {
	cases := []struct {
		name  string
		setup func(f *fakeRanger, cfg *Config)
		code  string // "" for success
	}{
		{"wrong password is a configuration error", func(f *fakeRanger, cfg *Config) { cfg.AdminPassword = "not-the-password" }, pgerror.InternalError},
		{"403 on the policy API", func(f *fakeRanger, cfg *Config) { f.forbidPolicyWrites = true }, pgerror.InsufficientPrivilege},
		{"a read retried past a 503", func(f *fakeRanger, cfg *Config) { f.failGets = 2 }, ""},
		{"Ranger down for every attempt", func(f *fakeRanger, cfg *Config) { f.failGets = 10 }, pgerror.IOError},
		{"nothing listening", func(f *fakeRanger, cfg *Config) { cfg.URL = "http://127.0.0.1:1" }, pgerror.IOError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeRanger(t)
			cfg := Config{URL: f.server.URL, ServiceName: f.service, AdminUser: f.user, AdminPassword: f.password,
				AdminRoles: []string{"sqe_admin"}, RetryDelay: time.Millisecond}
			c.setup(f, &cfg)
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Change(context.Background(), carol, grants.ActionGrant, statement("SELECT", orders, alice))
			if got := sqlstate(err); got != c.code || c.code == "" && err != nil {
				t.Fatalf("error %v (SQLSTATE %q), want SQLSTATE %q", err, got, c.code)
			}
			if err == nil {
				return
			}
			var pe *pgerror.Error
			errors.As(err, &pe)
			for _, text := range []string{err.Error(), pe.Detail, pe.Hint, cfg.String()} {
				if strings.Contains(text, cfg.AdminPassword) {
					t.Errorf("the password leaks: %q", text)
				}
			}
		})
	}
}

// TestDuplicateResourceMergesIntoExisting has another writer create the
// catalog policy between the read and the write: Ranger refuses the POST
// with 3010 and the grant merges into that policy instead.
func TestDuplicateResourceMergesIntoExisting(t *testing.T) {
	f := newFakeRanger(t)
	f.beforeCreate = func(f *fakeRanger) {
		f.nextID++
		f.policies[f.nextID] = echoed(map[string]any{"id": float64(f.nextID), "service": f.service, "name": "bob's discovery",
			"resources":   map[string]any{"root": map[string]any{"values": []any{"*"}}, "catalog": map[string]any{"values": []any{"wh"}}},
			"policyItems": []any{map[string]any{"users": []any{"bob"}, "accesses": accessList([]string{"namespace-list"})}}})
	}
	s := newService(t, f, "")
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, alice))
	cat := f.policyOn("catalog wh")
	if cat["name"] != "bob's discovery" {
		t.Fatalf("catalog policy = %v, want the one created concurrently", cat["name"])
	}
	var users []string
	for _, it := range cat["policyItems"].([]any) {
		users = append(users, strs(it.(map[string]any)["users"])...)
	}
	if !slices.Contains(users, "bob") || !slices.Contains(users, "alice") {
		t.Errorf("catalog policy users = %q, want bob's item kept and alice's merged", users)
	}
	if f.policyOn("table wh.sales.orders") == nil {
		t.Error("the grant did not reach the table")
	}
}

func TestDeepestLevelFailureSaysOuterLevelsStay(t *testing.T) {
	f := newFakeRanger(t)
	f.failCreate = "table wh.sales.orders"
	s := newService(t, f, "")
	_, err := s.Change(context.Background(), carol, grants.ActionGrant, statement("SELECT", orders, alice))
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.IOError {
		t.Fatalf("error = %v, want SQLSTATE 58030", err)
	}
	if !strings.Contains(pe.Detail, "wh, wh.sales were written and left in place") {
		t.Errorf("detail = %q, want the outer levels named as left in place", pe.Detail)
	}
	if f.policyOn("catalog wh") == nil || f.policyOn("namespace wh.sales") == nil {
		t.Error("outer levels were not written first")
	}
}

func TestShowGrantsReadsRangerBack(t *testing.T) {
	f := newFakeRanger(t)
	s := newService(t, f, "")
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, alice))
	run(t, s, carol, grants.ActionDeny, statement("SELECT", orders, grants.Grantee{Kind: grants.GranteeUser, Name: "dave"}))
	rows, err := s.ShowGrants(context.Background(), carol, access.GrantFilter{Object: "wh.sales.orders"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"alice ALLOW table-data-read carol", "dave DENY table-data-read carol"}
	var got []string
	for _, r := range rows {
		if r.AccessType == "table-data-read" {
			got = append(got, strings.Join([]string{r.Grantee, r.Effect, r.AccessType, r.GrantedBy}, " "))
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows = %q, want %q", got, want)
	}
	own, err := s.ShowGrants(context.Background(), access.Caller{User: "alice"}, access.GrantFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range own {
		if r.Grantee != "alice" {
			t.Errorf("alice sees another grantee's row: %+v", r)
		}
	}
}
