package access

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// TestRenameMovesGrantsAndDenials: a table's (and a namespace's) grants
// and denials follow a rename, a denial covers the new name from before
// the rename on, and an abandoned rename leaves the policies as they
// were.
func TestRenameMovesGrantsAndDenials(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	analyst := []grants.Grantee{{Kind: grants.GranteeRole, Name: "analyst"}}
	aliceUser := []grants.Grantee{{Kind: grants.GranteeUser, Name: "alice"}}
	bob := storage.Principal{User: "bob", Roles: []string{"analyst"}}
	// Every table of the namespace for analyst and orders too, but orders
	// denied to alice: a rename must not let the namespace grant reach her
	// under the new name.
	for _, c := range []struct {
		action grants.Action
		object grants.Object
		to     []grants.Grantee
	}{
		{grants.ActionGrant, table("orders"), analyst},
		{grants.ActionGrant, table(grants.Wildcard), analyst},
		{grants.ActionDeny, table("orders"), aliceUser},
	} {
		if _, err := s.Change(ctx, carol, c.action, grants.Statement{Privileges: []string{"SELECT"}, Object: c.object, Grantees: c.to}); err != nil {
			t.Fatal(err)
		}
	}
	id := func(ns, tbl string) storage.Ident {
		return storage.Ident{Catalog: "sales_wh", Namespace: ns, Table: tbl}
	}
	runChecks(t, s, "before the rename", []check{
		{alice, storage.ActionLoadTable, id("acdemo", "orders"), false},
		{bob, storage.ActionLoadTable, id("acdemo", "orders"), true},
		{alice, storage.ActionLoadTable, id("acdemo", "orders2"), true}, // no table yet: the namespace grant
	})

	rename := governance.ObjectRename{Kind: governance.RenameTable, Catalog: "sales_wh", Namespace: "acdemo", Table: "orders", From: "orders", To: "orders2"}
	f, err := s.BeforeRename(ctx, rename)
	if err != nil {
		t.Fatal(err)
	}
	runChecks(t, s, "between widening and the rename", []check{
		{alice, storage.ActionLoadTable, id("acdemo", "orders"), false},
		{alice, storage.ActionLoadTable, id("acdemo", "orders2"), false},
	})
	if err := f.Abandoned(ctx); err != nil {
		t.Fatal(err)
	}
	runChecks(t, s, "after an abandoned rename", []check{
		{alice, storage.ActionLoadTable, id("acdemo", "orders2"), true},
	})

	f, err = s.BeforeRename(ctx, rename)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Renamed(ctx); err != nil {
		t.Fatal(err)
	}
	runChecks(t, s, "after the rename", []check{
		{alice, storage.ActionLoadTable, id("acdemo", "orders2"), false},
		{bob, storage.ActionLoadTable, id("acdemo", "orders2"), true},
	})
	rows, err := s.ShowGrants(ctx, carol, GrantFilter{})
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, r := range rows {
		switch r.Object {
		case "sales_wh.acdemo.orders":
			t.Errorf("SHOW GRANTS still names the old table: %+v", r)
		case "sales_wh.acdemo.orders2":
			moved++
		}
	}
	if moved != 6 { // analyst's three access types and alice's three denials
		t.Errorf("SHOW GRANTS shows %d rows on the new name, want 6: %+v", moved, rows)
	}

	// A namespace rename moves the namespace's policies and its tables'.
	f, err = s.BeforeRename(ctx, governance.ObjectRename{Kind: governance.RenameNamespace, Catalog: "sales_wh", Namespace: "acdemo", From: "acdemo", To: "sales"})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Renamed(ctx); err != nil {
		t.Fatal(err)
	}
	runChecks(t, s, "after the namespace rename", []check{
		{alice, storage.ActionLoadTable, id("sales", "orders2"), false},
		{bob, storage.ActionLoadTable, id("sales", "orders2"), true},
		{bob, storage.ActionLoadTable, id("sales", "anything"), true},
		{bob, storage.ActionLoadTable, id("acdemo", "orders2"), false},
	})
}

// TestRefuseRenameOfRangerPolicies: with the policies in Ranger, a rename
// that a policy names exactly is refused; one a pattern covers under both
// names is not.
func TestRefuseRenameOfRangerPolicies(t *testing.T) {
	var sd ranger.ServiceDef
	if err := json.Unmarshal(grants.PolarisServiceDef(), &sd); err != nil {
		t.Fatal(err)
	}
	policy := func(name, ns, tbl string) ranger.Policy {
		res := map[string]ranger.PolicyResource{"root": {Values: []string{"*"}}, "catalog": {Values: []string{"sales_wh"}},
			"namespace": {Values: []string{ns}}}
		if tbl != "" {
			res["table"] = ranger.PolicyResource{Values: []string{tbl}}
		}
		return ranger.Policy{Name: name, Resources: res}
	}
	policies := []ranger.Policy{policy("ns_all", "acdemo", "*"), policy("orders_deny", "acdemo", "orders"), policy("ns", "acdemo", "")}
	for _, c := range []struct {
		r      governance.ObjectRename
		refuse string
	}{
		{governance.ObjectRename{Kind: governance.RenameTable, Catalog: "sales_wh", Namespace: "acdemo", From: "orders", To: "o"}, "orders_deny"},
		{governance.ObjectRename{Kind: governance.RenameTable, Catalog: "sales_wh", Namespace: "acdemo", From: "sales", To: "s"}, ""},
		{governance.ObjectRename{Kind: governance.RenameTable, Catalog: "other", Namespace: "acdemo", From: "orders", To: "o"}, ""},
		{governance.ObjectRename{Kind: governance.RenameNamespace, Catalog: "sales_wh", Namespace: "acdemo", From: "acdemo", To: "a"}, "ns_all"},
		{governance.ObjectRename{Kind: governance.RenameColumn, Catalog: "sales_wh", Namespace: "acdemo", Table: "orders", From: "ssn", To: "s"}, ""},
	} {
		err := RefuseRename(&sd, policies, c.r)
		if c.refuse == "" {
			if err != nil {
				t.Errorf("%s: %v", c.r, err)
			}
			continue
		}
		if pgerror.Code(err) != pgerror.InsufficientPrivilege || pgerror.From(err).Message == "" ||
			!strings.Contains(pgerror.From(err).Message, `"`+c.refuse+`"`) {
			t.Errorf("%s: %v, want 42501 naming %s", c.r, err, c.refuse)
		}
	}
}
