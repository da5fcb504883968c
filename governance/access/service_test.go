package access

import (
	"context"
	"slices"
	"testing"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

func newTestService(t *testing.T) *Service {
	t.Helper()
	store, err := governance.OpenStore(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	s, err := New(store, Config{AdminRoles: []string{"sqe_admin"}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	carol = Caller{User: "carol", Roles: []string{"analyst", "sqe_admin"}}
	alice = storage.Principal{User: "alice", Roles: []string{"analyst"}}
	dave  = storage.Principal{User: "dave"}
)

func table(name string) grants.Object {
	return grants.Object{Kind: grants.ObjectTable, Catalog: "sales_wh", Namespace: "acdemo", Name: name}
}

// check is one authorization question and its expected answer.
type check struct {
	who    storage.Principal
	action storage.Action
	target storage.Ident
	allow  bool
}

func runChecks(t *testing.T, s *Service, step string, checks []check) {
	t.Helper()
	for _, c := range checks {
		err := s.Authorize(context.Background(), c.who, c.action, c.target)
		if (err == nil) != c.allow {
			t.Errorf("%s: %s %s on %s: allowed=%v, want %v (%v)", step, c.who.User, c.action, c.target, err == nil, c.allow, err)
		}
	}
}

func TestGrantDenyRevokeDecideCatalogOperations(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	orders := storage.Ident{Catalog: "sales_wh", Namespace: "acdemo", Table: "orders"}
	other := storage.Ident{Catalog: "sales_wh", Namespace: "acdemo", Table: "other"}
	ns := storage.Ident{Catalog: "sales_wh", Namespace: "acdemo"}
	cat := storage.Ident{Catalog: "sales_wh"}

	runChecks(t, s, "before any grant", []check{
		{alice, storage.ActionListNamespaces, cat, false},
		{alice, storage.ActionLoadTable, orders, false},
		// An administrator is allowed what no deny refuses it.
		{storage.Principal{User: "carol", Roles: []string{"sqe_admin"}}, storage.ActionDropTable, orders, true},
	})

	grant := grants.Statement{Privileges: []string{"SELECT"}, Object: table("orders"),
		Grantees: []grants.Grantee{{Kind: grants.GranteeRole, Name: "analyst"}}}
	plan, err := s.Change(ctx, carol, grants.ActionGrant, grant)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Writes) != 3 {
		t.Fatalf("a table grant wrote %d levels, want 3", len(plan.Writes))
	}
	runChecks(t, s, "after GRANT SELECT TO ROLE analyst", []check{
		{alice, storage.ActionListNamespaces, cat, true},
		{alice, storage.ActionLoadNamespace, ns, true},
		{alice, storage.ActionLoadTable, orders, true},
		{alice, storage.ActionLoadTable, other, false},
		{alice, storage.ActionUpdateTable, orders, false},
		{alice, storage.ActionCreateTable, ns, false},
		{dave, storage.ActionLoadTable, orders, false},
	})

	deny := grants.Statement{Privileges: []string{"SELECT"}, Object: table("orders"),
		Grantees: []grants.Grantee{{Kind: grants.GranteeUser, Name: "alice"}}}
	if _, err := s.Change(ctx, carol, grants.ActionDeny, deny); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Change(ctx, carol, grants.ActionDeny, deny); err != nil {
		t.Fatalf("a repeated DENY: %v", err)
	}
	runChecks(t, s, "after DENY SELECT TO USER alice", []check{
		{alice, storage.ActionLoadTable, orders, false},
		{storage.Principal{User: "bob", Roles: []string{"analyst"}}, storage.ActionLoadTable, orders, true},
	})
	if _, err := s.Change(ctx, carol, grants.ActionRevoke, deny); err != nil {
		t.Fatal(err)
	}
	runChecks(t, s, "after REVOKE of the denial", []check{{alice, storage.ActionLoadTable, orders, true}})
	if _, err := s.Change(ctx, carol, grants.ActionRevoke, grant); err != nil {
		t.Fatal(err)
	}
	runChecks(t, s, "after REVOKE SELECT FROM ROLE analyst", []check{
		{alice, storage.ActionLoadTable, orders, false},
		// Revoke releases the deepest level only: discovery stays.
		{alice, storage.ActionListNamespaces, cat, true},
	})

	// ALL TABLES IN SCHEMA covers a table created later.
	all := grants.Statement{Privileges: []string{"SELECT"}, Object: table(grants.Wildcard),
		Grantees: []grants.Grantee{{Kind: grants.GranteeRole, Name: "analyst"}}}
	if _, err := s.Change(ctx, carol, grants.ActionGrant, all); err != nil {
		t.Fatal(err)
	}
	runChecks(t, s, "after GRANT SELECT ON ALL TABLES", []check{
		{alice, storage.ActionLoadTable, storage.Ident{Catalog: "sales_wh", Namespace: "acdemo", Table: "created_later"}, true},
	})
}

func TestChangeRefusals(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		caller Caller
		action grants.Action
		st     grants.Statement
		code   string
	}{
		{"not an administrator", Caller{User: "alice", Roles: []string{"analyst"}}, grants.ActionGrant,
			grants.Statement{Privileges: []string{"SELECT"}, Object: table("orders"), Grantees: []grants.Grantee{{Kind: grants.GranteeUser, Name: "bob"}}},
			pgerror.InsufficientPrivilege},
		{"a group grantee", carol, grants.ActionGrant,
			grants.Statement{Privileges: []string{"SELECT"}, Object: table("orders"), Grantees: []grants.Grantee{{Kind: grants.GranteeGroup, Name: "eng"}}},
			pgerror.FeatureNotSupported},
		{"a privilege wider than the object", carol, grants.ActionGrant,
			grants.Statement{Privileges: []string{"ALL"}, Object: table("orders"), Grantees: []grants.Grantee{{Kind: grants.GranteeUser, Name: "bob"}}},
			"0LP01"},
	} {
		_, err := s.Change(ctx, tc.caller, tc.action, tc.st)
		if got := pgerror.Code(err); got != tc.code {
			t.Errorf("%s: %v (SQLSTATE %s), want %s", tc.name, err, got, tc.code)
		}
	}
	policies, _, err := s.store.AccessPolicies(ctx)
	if err != nil || len(policies) != 0 {
		t.Fatalf("refused statements wrote %d policies (%v)", len(policies), err)
	}
}

// SHOW GRANTS ON a prefix matches at dot boundaries only, and a caller who
// is not an administrator sees only the rows naming it or its roles.
func TestShowGrantsFilters(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	for _, o := range []grants.Object{
		{Kind: grants.ObjectTable, Catalog: "wh", Namespace: "sales", Name: "orders"},
		{Kind: grants.ObjectTable, Catalog: "wharf", Namespace: "ns", Name: "t"},
	} {
		st := grants.Statement{Privileges: []string{"SELECT"}, Object: o,
			Grantees: []grants.Grantee{{Kind: grants.GranteeRole, Name: "analyst"}, {Kind: grants.GranteeUser, Name: "bob"}}}
		if _, err := s.Change(ctx, carol, grants.ActionGrant, st); err != nil {
			t.Fatal(err)
		}
	}
	objects := func(rows []GrantRow) map[string]bool {
		out := map[string]bool{}
		for _, r := range rows {
			out[r.Object] = true
		}
		return out
	}
	rows, err := s.ShowGrants(ctx, carol, GrantFilter{Object: "wh"})
	if err != nil {
		t.Fatal(err)
	}
	if got := objects(rows); !got["wh"] || !got["wh.sales"] || !got["wh.sales.orders"] || got["wharf"] || got["wharf.ns.t"] {
		t.Fatalf("SHOW GRANTS ON wh lists %v", got)
	}
	rows, err = s.ShowGrants(ctx, Caller{User: "alice", Roles: []string{"analyst"}}, GrantFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Grantee != "analyst" {
			t.Fatalf("alice sees a grant of %s %s", r.GranteeKind, r.Grantee)
		}
	}
	if len(rows) == 0 {
		t.Fatal("alice sees none of her role's grants")
	}
}

// TestEffectiveGrantsFollowStoredRoles: a user's effective grants are its
// own and those of every role the store gives it, nested; a caller asking
// about itself also sees its token roles' grants.
func TestEffectiveGrantsFollowStoredRoles(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	for _, r := range []string{"analyst", "readers", "ops"} {
		if err := s.CreateRole(ctx, carol, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.GrantRoles(ctx, carol, []string{"analyst"}, []RoleMember{{Name: "alice"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.GrantRoles(ctx, carol, []string{"readers"}, []RoleMember{{Role: true, Name: "analyst"}}); err != nil {
		t.Fatal(err)
	}
	grant := func(action grants.Action, g grants.Grantee, name string) {
		t.Helper()
		st := grants.Statement{Privileges: []string{"SELECT"}, Object: table(name), Grantees: []grants.Grantee{g}}
		if _, err := s.Change(ctx, carol, action, st); err != nil {
			t.Fatal(err)
		}
	}
	grant(grants.ActionGrant, grants.Grantee{Kind: grants.GranteeRole, Name: "readers"}, "orders")
	grant(grants.ActionDeny, grants.Grantee{Kind: grants.GranteeUser, Name: "alice"}, "payments")
	grant(grants.ActionGrant, grants.Grantee{Kind: grants.GranteeUser, Name: "bob"}, "orders")
	grant(grants.ActionGrant, grants.Grantee{Kind: grants.GranteeRole, Name: "ops"}, "refunds")

	holders := func(caller Caller, user string) map[string]bool {
		t.Helper()
		rows, err := s.EffectiveGrants(ctx, caller, user)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, r := range rows {
			out[r.GranteeKind+" "+r.Grantee+" "+r.Effect] = true
		}
		return out
	}
	if got := holders(carol, "alice"); !got["ROLE readers ALLOW"] || !got["USER alice DENY"] || len(got) != 2 {
		t.Errorf("carol asking about alice: %v", got)
	}
	// alice's session carries ops from her token: her own view includes it.
	if got := holders(Caller{User: "alice", Roles: []string{"ops"}}, "alice"); !got["ROLE ops ALLOW"] || !got["ROLE readers ALLOW"] {
		t.Errorf("alice asking about herself: %v", got)
	}
	if _, err := s.EffectiveGrants(ctx, Caller{User: "alice"}, "bob"); pgerror.Code(err) != pgerror.InsufficientPrivilege {
		t.Errorf("alice asking about bob: %v, want 42501", err)
	}
}

// TestDenyBindsAdministrators: an administrator's default access is an
// allow that a deny beats, whether the deny names the administrator, a
// role it holds or the administrator role itself; CHECK ACCESS names the
// deny; and the administrator may still revoke it, after which its
// access returns.
func TestDenyBindsAdministrators(t *testing.T) {
	orders := storage.Ident{Catalog: "sales_wh", Namespace: "acdemo", Table: "orders"}
	other := storage.Ident{Catalog: "sales_wh", Namespace: "acdemo", Table: "other"}
	ns := storage.Ident{Catalog: "sales_wh", Namespace: "acdemo"}
	admin := storage.Principal{User: carol.User, Roles: carol.Roles}
	for _, tc := range []struct {
		name       string
		privilege  string
		denied     grants.Grantee
		via        string
		refused    []storage.Action // on orders, after the deny
		stillAllow []storage.Action // on orders, after the deny
	}{
		{"a deny on the administrator", "SELECT", grants.Grantee{Kind: grants.GranteeUser, Name: "carol"}, "USER 'carol'",
			[]storage.Action{storage.ActionLoadTable}, []storage.Action{storage.ActionDropTable}},
		{"a deny on a role it holds", "SELECT", grants.Grantee{Kind: grants.GranteeRole, Name: "analyst"}, "ROLE 'analyst'",
			[]storage.Action{storage.ActionLoadTable}, []storage.Action{storage.ActionUpdateTable}},
		{"a deny on the administrator role", "SELECT", grants.Grantee{Kind: grants.GranteeRole, Name: "sqe_admin"}, "ROLE 'sqe_admin'",
			[]storage.Action{storage.ActionLoadTable}, nil},
		// table-data-write implies reading, so its deny refuses both.
		{"a deny of writes", "MODIFY", grants.Grantee{Kind: grants.GranteeUser, Name: "carol"}, "USER 'carol'",
			[]storage.Action{storage.ActionUpdateTable, storage.ActionLoadTable}, []storage.Action{storage.ActionDropTable}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestService(t)
			ctx := context.Background()
			var before []check
			for _, a := range append(slices.Clone(tc.refused), tc.stillAllow...) {
				before = append(before, check{admin, a, orders, true})
			}
			runChecks(t, s, "before the deny", before)
			deny := grants.Statement{Privileges: []string{tc.privilege}, Object: table("orders"), Grantees: []grants.Grantee{tc.denied}}
			if _, err := s.Change(ctx, carol, grants.ActionDeny, deny); err != nil {
				t.Fatal(err)
			}
			after := []check{
				{admin, storage.ActionLoadTable, other, true},
				{admin, storage.ActionListTables, ns, true},
			}
			for _, a := range tc.refused {
				after = append(after, check{admin, a, orders, false})
			}
			for _, a := range tc.stillAllow {
				after = append(after, check{admin, a, orders, true})
			}
			runChecks(t, s, "after the deny", after)
			d, err := s.CheckAccess(ctx, carol, tc.privilege, table("orders"), "carol")
			if err != nil {
				t.Fatal(err)
			}
			if d.Allowed || d.Reason != "Denied via "+tc.via || d.Policy != "sales_wh.acdemo.orders" {
				t.Errorf("CHECK ACCESS after the deny: %+v, want denied via %s by policy sales_wh.acdemo.orders", d, tc.via)
			}
			// Grant authority is not data access: the deny does not keep
			// the administrator from revoking it.
			if _, err := s.Change(ctx, carol, grants.ActionRevoke, deny); err != nil {
				t.Fatalf("the denied administrator revoking the deny: %v", err)
			}
			runChecks(t, s, "after REVOKE of the deny", before)
			if d, err := s.CheckAccess(ctx, carol, tc.privilege, table("orders"), "carol"); err != nil || !d.Allowed {
				t.Errorf("CHECK ACCESS after the revoke: %+v (%v), want allowed", d, err)
			}
		})
	}
}

// TestAdministratorDeniedOnOneAccessType: a deny of any one access type
// of a privilege refuses the administrator, even when no policy decides
// the types before it.
func TestAdministratorDeniedOnOneAccessType(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	w, err := CheckTarget(s.profile, carol, true, "SELECT", table("orders"), "carol", s.cfg.Realm)
	if err != nil {
		t.Fatal(err)
	}
	last := w.Accesses[len(w.Accesses)-1]
	deny := grants.Statement{Privileges: []string{last}, Object: table("orders"),
		Grantees: []grants.Grantee{{Kind: grants.GranteeUser, Name: "carol"}}}
	if _, err := s.Change(ctx, carol, grants.ActionDeny, deny); err != nil {
		t.Fatal(err)
	}
	d, err := s.CheckAccess(ctx, carol, "SELECT", table("orders"), "carol")
	if err != nil {
		t.Fatal(err)
	}
	if d.Allowed || d.Reason != "Denied via USER 'carol'" {
		t.Fatalf("a deny of %s (of %v): %+v, want denied", last, w.Accesses, d)
	}
}
