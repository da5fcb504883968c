package rangeradmin

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// seedOwner gives alice discovery of wh.sales (written by an administrator)
// and an owner delegate admin on the table: by user for bob, by role for
// members of "owners", which Ranger's grant API does not see in the
// caller's session.
func seedOwner(t *testing.T, f *fakeRanger) {
	t.Helper()
	admin := newService(t, f, "")
	run(t, admin, carol, grants.ActionGrant, grants.Statement{Privileges: []string{"USAGE"},
		Object: grants.Object{Kind: grants.ObjectSchema, Catalog: "wh", Namespace: "sales"}, Grantees: []grants.Grantee{alice}})
	run(t, admin, carol, grants.ActionGrant, grants.Statement{Privileges: []string{"SELECT"}, Object: orders,
		Grantees:        []grants.Grantee{{Kind: grants.GranteeUser, Name: "bob"}, {Kind: grants.GranteeRole, Name: "owners"}},
		WithGrantOption: true})
}

func TestDelegateModeUsesTheGrantAPI(t *testing.T) {
	f := newFakeRanger(t)
	seedOwner(t, f)
	s := newService(t, f, grants.AuthorityRangerDelegate)
	bob := access.Caller{User: "bob"}

	seeded := len(f.writes())
	plan := run(t, s, bob, grants.ActionGrant, statement("SELECT", orders, alice))
	if len(plan.Writes) != 1 || !plan.Writes[0].Named {
		t.Errorf("plan writes %+v, want the table level only: alice already holds discovery", plan.Writes)
	}
	want := []string{"GRANT table wh.sales.orders", "PUT table wh.sales.orders"}
	if got := f.writes()[seeded:]; !slices.Equal(got, want) {
		t.Fatalf("writes = %q, want %q (grant API, then the provenance labels)", got, want)
	}
	labels := strs(f.policyOn("table wh.sales.orders")["policyLabels"])
	if !slices.Contains(labels, "chm-grantor:bob") || !slices.Contains(labels, "chm:USER:alice:SELECT") {
		t.Errorf("labels = %q, want bob as grantor and alice's grant", labels)
	}

	seeded = len(f.writes())
	run(t, s, bob, grants.ActionRevoke, statement("SELECT", orders, alice))
	if got := f.writes()[seeded]; got != "REVOKE table wh.sales.orders" {
		t.Errorf("REVOKE wrote %q first, want the revoke API", got)
	}
	if labels := strs(f.policyOn("table wh.sales.orders")["policyLabels"]); slices.Contains(labels, "chm:USER:alice:SELECT") {
		t.Errorf("labels after REVOKE = %q, alice's grant label is still there", labels)
	}
	for _, it := range f.policyOn("table wh.sales.orders")["policyItems"].([]any) {
		if slices.Contains(strs(it.(map[string]any)["users"]), "alice") {
			t.Errorf("alice still holds an item after REVOKE: %v", it)
		}
	}
}

// TestDelegateModeRefusals: Ranger's 403 for a grantor it does not see as
// a delegate admin is 42501 naming the level; DENY stays admin-only.
func TestDelegateModeRefusals(t *testing.T) {
	cases := []struct {
		name   string
		caller access.Caller
		action grants.Action
		want   string // in the message or detail
	}{
		{"delegate admin only through a role Ranger does not resolve", access.Caller{User: "erin", Roles: []string{"owners"}},
			grants.ActionGrant, "Ranger refused grantor erin at the table level"},
		{"no delegate admin at all", access.Caller{User: "dave"}, grants.ActionGrant, "does not hold delegate admin"},
		{"DENY by an owner", access.Caller{User: "bob"}, grants.ActionDeny, "DENY requires an administrator role"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeRanger(t)
			seedOwner(t, f)
			s := newService(t, f, grants.AuthorityRangerDelegate)
			_, err := s.Change(context.Background(), c.caller, c.action, statement("SELECT", orders, alice))
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != pgerror.InsufficientPrivilege {
				t.Fatalf("error = %v, want SQLSTATE 42501", err)
			}
			if !strings.Contains(pe.Message+" "+pe.Detail, c.want) {
				t.Errorf("error %q / %q does not say %q", pe.Message, pe.Detail, c.want)
			}
		})
	}
}
