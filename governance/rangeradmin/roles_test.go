package rangeradmin

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestCheckAccessFollowsNestedRoles: readers lists analyst as a member
// role, so analyst's members hold readers' grants; a cycle between two
// roles ends the walk instead of looping.
func TestCheckAccessFollowsNestedRoles(t *testing.T) {
	f := newFakeRanger(t)
	f.addRole("analyst", []string{"alice"}, nil)
	f.addRole("readers", nil, []string{"analyst"})
	f.addRole("loop_a", []string{"alice"}, []string{"loop_b"})
	f.addRole("loop_b", nil, []string{"loop_a"})
	s := newService(t, f, "")
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, grants.Grantee{Kind: grants.GranteeRole, Name: "readers"}))

	cases := []struct {
		user    string
		allowed bool
		reason  string
	}{
		{"alice", true, "Allowed via ROLE 'readers'"},
		{"dave", false, "No matching grant for dave"},
	}
	check := func(when string) {
		for _, c := range cases {
			d, err := s.CheckAccess(context.Background(), carol, "SELECT", orders, c.user)
			if err != nil {
				t.Fatal(err)
			}
			if d.Allowed != c.allowed || !strings.HasPrefix(d.Reason, c.reason) || d.Store != access.StoreRanger {
				t.Errorf("%s: CHECK ACCESS for %s = %+v, want %v %q", when, c.user, d, c.allowed, c.reason)
			}
		}
	}
	check("after the role grant")
	run(t, s, carol, grants.ActionDeny, statement("SELECT", orders, grants.Grantee{Kind: grants.GranteeRole, Name: "analyst"}))
	cases[0] = struct {
		user    string
		allowed bool
		reason  string
	}{"alice", false, "Denied via ROLE 'analyst'"}
	check("after denying analyst")

	if _, err := s.CheckAccess(context.Background(), access.Caller{User: "alice"}, "SELECT", orders, "bob"); err == nil {
		t.Error("alice may check bob's access")
	}

	// A role's answer: its own grants and its parents' (analyst is a
	// member of readers), as a member holding nothing else has them.
	for _, c := range []struct {
		role    string
		allowed bool
		reason  string
	}{
		{"readers", true, "Allowed via ROLE 'readers'"},
		{"analyst", false, "Denied via ROLE 'analyst'"},
		{"loop_a", false, "No matching grant for a member of role loop_a"},
	} {
		d, err := s.CheckRoleAccess(context.Background(), carol, "SELECT", orders, c.role)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed != c.allowed || !strings.HasPrefix(d.Reason, c.reason) || d.Store != access.StoreRanger {
			t.Errorf("role %s: %+v, want %v %q", c.role, d, c.allowed, c.reason)
		}
	}
	if _, err := s.CheckRoleAccess(context.Background(), access.Caller{User: "alice"}, "SELECT", orders, "readers"); pgerror.Code(err) != pgerror.InsufficientPrivilege {
		t.Errorf("alice checking a role's access: %v", err)
	}
}

func TestEffectiveRolesSeenSet(t *testing.T) {
	member := func(names ...string) []roleMember {
		var out []roleMember
		for _, n := range names {
			out = append(out, roleMember{Name: n})
		}
		return out
	}
	roles := []storedRole{
		{Name: "a", Users: member("u"), Roles: member("c")},
		{Name: "b", Roles: member("a")},
		{Name: "c", Roles: member("b")},
		{Name: "unrelated", Users: member("v")},
	}
	if got := effectiveRoles(roles, "u"); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("effective roles = %q, want a, b, c once each", got)
	}
}

func TestRoleStatements(t *testing.T) {
	f := newFakeRanger(t)
	s := newService(t, f, "")
	ctx := context.Background()
	steps := []struct {
		name string
		do   func() error
		code string
	}{
		{"create", func() error { return s.CreateRole(ctx, carol, "analyst") }, ""},
		{"create again", func() error { return s.CreateRole(ctx, carol, "analyst") }, pgerror.DuplicateObject},
		{"create without admin role", func() error { return s.CreateRole(ctx, access.Caller{User: "dave"}, "x") }, pgerror.InsufficientPrivilege},
		{"grant to a user", func() error {
			return s.GrantRoles(ctx, carol, []string{"analyst"}, []access.RoleMember{{Name: "alice"}})
		}, ""},
		{"grant to itself", func() error {
			return s.GrantRoles(ctx, carol, []string{"analyst"}, []access.RoleMember{{Role: true, Name: "analyst"}})
		}, pgerror.InvalidGrantOperation},
		{"grant a missing role", func() error {
			return s.GrantRoles(ctx, carol, []string{"nope"}, []access.RoleMember{{Name: "alice"}})
		}, pgerror.UndefinedObject},
		{"drop a missing role", func() error { _, err := s.DropRole(ctx, carol, []string{"nope"}, false); return err }, pgerror.UndefinedObject},
	}
	for _, st := range steps {
		if err := st.do(); sqlstate(err) != st.code || st.code == "" && err != nil {
			t.Fatalf("%s: error %v, want SQLSTATE %q", st.name, err, st.code)
		}
	}
	roles, err := s.roles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := effectiveRoles(roles, "alice"); !slices.Equal(got, []string{"analyst"}) {
		t.Fatalf("alice's roles = %q, want analyst", got)
	}
	if err := s.RevokeRoles(ctx, carol, []string{"analyst"}, []access.RoleMember{{Name: "alice"}}); err != nil {
		t.Fatal(err)
	}
	if roles, _ = s.roles(ctx); len(effectiveRoles(roles, "alice")) != 0 {
		t.Error("alice still holds analyst after REVOKE")
	}
	missing, err := s.DropRole(ctx, carol, []string{"analyst", "nope"}, true)
	if err != nil || !slices.Equal(missing, []string{"nope"}) {
		t.Fatalf("DROP ROLE IF EXISTS = %q, %v; want nope reported missing", missing, err)
	}
	if roles, _ = s.roles(ctx); len(roles) != 0 {
		t.Errorf("roles left after DROP ROLE: %v", roles)
	}
}

// TestEffectiveGrantsThroughRanger: SHOW EFFECTIVE GRANTS lists what a
// user holds directly and through Ranger's nested roles, and nothing of
// other grantees; only an administrator asks about others.
func TestEffectiveGrantsThroughRanger(t *testing.T) {
	f := newFakeRanger(t)
	f.addRole("analyst", []string{"alice"}, nil)
	f.addRole("readers", nil, []string{"analyst"})
	s := newService(t, f, "")
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, grants.Grantee{Kind: grants.GranteeRole, Name: "readers"}))
	run(t, s, carol, grants.ActionDeny, statement("SELECT", orders, grants.Grantee{Kind: grants.GranteeUser, Name: "alice"}))
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, grants.Grantee{Kind: grants.GranteeUser, Name: "bob"}))

	rows, err := s.EffectiveGrants(context.Background(), carol, "alice")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range rows {
		got[r.GranteeKind+" "+r.Grantee+" "+r.Effect] = true
	}
	if !got["ROLE readers ALLOW"] || !got["USER alice DENY"] || got["USER bob ALLOW"] || len(got) != 2 {
		t.Fatalf("effective grants of alice: %v", got)
	}
	if _, err := s.EffectiveGrants(context.Background(), access.Caller{User: "alice"}, "bob"); pgerror.Code(err) != pgerror.InsufficientPrivilege {
		t.Fatalf("alice asking about bob: %v, want 42501", err)
	}
}

// TestCheckAccessDenyBindsAdministrators: with Ranger, Polaris enforces
// and knows nothing of [auth] admin_roles, so CHECK ACCESS gives an
// administrator no access of its own: Ranger's policies decide, a deny on
// the administrator role included, and the administrator may still revoke
// that deny.
func TestCheckAccessDenyBindsAdministrators(t *testing.T) {
	f := newFakeRanger(t)
	f.addRole("sqe_admin", []string{"carol"}, nil)
	s := newService(t, f, "")
	admins := grants.Grantee{Kind: grants.GranteeRole, Name: "sqe_admin"}
	decide := func(when string, allowed bool, reason string) {
		t.Helper()
		d, err := s.CheckAccess(context.Background(), carol, "SELECT", orders, "carol")
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed != allowed || !strings.HasPrefix(d.Reason, reason) {
			t.Errorf("%s: CHECK ACCESS for carol = %+v, want %v %q", when, d, allowed, reason)
		}
	}
	decide("before any grant", false, "No matching grant for carol")
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, admins))
	decide("after the grant", true, "Allowed via ROLE 'sqe_admin'")
	run(t, s, carol, grants.ActionDeny, statement("SELECT", orders, admins))
	decide("after the deny", false, "Denied via ROLE 'sqe_admin'")
	run(t, s, carol, grants.ActionRevoke, statement("SELECT", orders, admins))
	decide("after the revoke", false, "No matching grant for carol")
}

// TestCheckAccessRefusedPolicy: a policy with a condition SQE cannot
// evaluate denies the access it would decide, and CHECK ACCESS says
// which policy and why, never allowing on it.
func TestCheckAccessRefusedPolicy(t *testing.T) {
	f := newFakeRanger(t)
	s := newService(t, f, "")
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, grants.Grantee{Kind: grants.GranteeUser, Name: "alice"}))
	if d, err := s.CheckAccess(context.Background(), carol, "SELECT", orders, "alice"); err != nil || !d.Allowed {
		t.Fatalf("before the condition: %+v, %v", d, err)
	}
	f.mu.Lock()
	for _, p := range f.policies {
		for _, item := range p["policyItems"].([]any) {
			item.(map[string]any)["conditions"] = []any{map[string]any{"type": "time-of-day", "values": []string{"9am-5pm"}}}
		}
	}
	f.mu.Unlock()
	s = newService(t, f, "") // no policy cache between the two
	d, err := s.CheckAccess(context.Background(), carol, "SELECT", orders, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if d.Allowed || !strings.Contains(d.Reason, "cannot be evaluated") || !strings.Contains(d.Reason, "time-of-day") {
		t.Errorf("CHECK ACCESS under a policy SQE cannot evaluate = %+v, want a denial naming it", d)
	}
}
