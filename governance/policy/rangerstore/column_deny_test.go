package rangerstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// denyItems renders the deny items of the column's policy in the fake as
// "select: users [..] roles [..]", or "" when there is no such policy.
func denyItems(f *fakeRanger, column string) string {
	p := f.policy("query", "deny_acdemo.orders."+column)
	if p == nil {
		return ""
	}
	var out []string
	items, _ := p["denyPolicyItems"].([]any)
	for _, it := range items {
		m := it.(map[string]any)
		var accesses []string
		for _, a := range m["accesses"].([]any) {
			accesses = append(accesses, a.(map[string]any)["type"].(string))
		}
		out = append(out, fmt.Sprintf("%s: users %v roles %v", strings.Join(accesses, ","), m["users"], m["roles"]))
	}
	return fmt.Sprintf("type %v on %v: %s", p["policyType"], p["resources"].(map[string]any)["column"].(map[string]any)["values"], strings.Join(out, "; "))
}

// TestColumnDeniesInRanger: DENY SELECT (column) writes one hive access
// policy per column to Ranger Admin, with a deny item of select naming
// every grantee; a later DENY edits it in place (PUT), REVOKE takes
// grantees out of it and removes it with the last one (DELETE); and the
// enforcer reading the store back hides the column, naming the policy.
func TestColumnDeniesInRanger(t *testing.T) {
	f := newFakeRanger(t, "query_tag")
	s := newStore(t, f, newClock())
	ctx := context.Background()
	alice := policy.Grantee{Kind: grants.GranteeUser, Name: "alice"}
	analyst := policy.Grantee{Kind: grants.GranteeRole, Name: "analyst"}
	target := func(col string) policy.Target {
		return policy.Target{Database: "acdemo", Table: "orders", Column: col}
	}
	steps := []struct {
		name      string
		revoke    bool
		column    string
		grantees  []policy.Grantee
		writes    []string
		ssn, reg  string // denyItems of each column after the step
		aliceSees string // alice's hidden columns after the step
	}{
		{name: "deny ssn to alice", column: "ssn", grantees: []policy.Grantee{alice},
			writes: []string{"POST query/deny_acdemo.orders.ssn"},
			ssn:    "type 0 on [ssn]: select: users [alice] roles <nil>", aliceSees: "ssn deny_acdemo.orders.ssn"},
		{name: "deny it again: nothing to write", column: "ssn", grantees: []policy.Grantee{alice},
			ssn: "type 0 on [ssn]: select: users [alice] roles <nil>", aliceSees: "ssn deny_acdemo.orders.ssn"},
		{name: "deny ssn to the analysts: merged", column: "ssn", grantees: []policy.Grantee{analyst},
			writes: []string{"PUT query/deny_acdemo.orders.ssn"},
			ssn:    "type 0 on [ssn]: select: users [alice] roles [analyst]", aliceSees: "ssn deny_acdemo.orders.ssn"},
		{name: "deny region to the analysts: a policy of its own", column: "region", grantees: []policy.Grantee{analyst},
			writes: []string{"POST query/deny_acdemo.orders.region"},
			ssn:    "type 0 on [ssn]: select: users [alice] roles [analyst]", reg: "type 0 on [region]: select: users <nil> roles [analyst]",
			aliceSees: "region deny_acdemo.orders.region,ssn deny_acdemo.orders.ssn"},
		{name: "revoke ssn from alice", revoke: true, column: "ssn", grantees: []policy.Grantee{alice},
			writes: []string{"PUT query/deny_acdemo.orders.ssn"},
			ssn:    "type 0 on [ssn]: select: users <nil> roles [analyst]", reg: "type 0 on [region]: select: users <nil> roles [analyst]",
			aliceSees: "region deny_acdemo.orders.region,ssn deny_acdemo.orders.ssn"},
		{name: "revoke ssn from the analysts: the policy goes", revoke: true, column: "ssn", grantees: []policy.Grantee{analyst},
			writes: []string{"DELETE query/deny_acdemo.orders.ssn"},
			reg:    "type 0 on [region]: select: users <nil> roles [analyst]", aliceSees: "region deny_acdemo.orders.region"},
		{name: "revoke ssn again: nothing to write", revoke: true, column: "ssn", grantees: []policy.Grantee{analyst},
			reg: "type 0 on [region]: select: users <nil> roles [analyst]", aliceSees: "region deny_acdemo.orders.region"},
	}
	e := policy.NewEnforcer(policy.Config{Store: s})
	orders := &columnsTable{name: planner.TableName{Catalog: "sales_wh", Schema: "acdemo", Name: "orders"},
		cols: []planner.TableColumn{{Name: "id", Type: types.Int8}, {Name: "region", Type: types.Text}, {Name: "ssn", Type: types.Text}}}
	for _, st := range steps {
		before := len(writes(f))
		var err error
		if st.revoke {
			_, err = policy.RevokeColumnDeny(ctx, s, target(st.column), st.grantees)
		} else {
			err = policy.DenyColumn(ctx, s, target(st.column), st.grantees)
		}
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := writes(f)[before:]; !slices.Equal(got, st.writes) {
			t.Errorf("%s: writes %q, want %q", st.name, got, st.writes)
		}
		if got := denyItems(f, "ssn"); got != st.ssn {
			t.Errorf("%s: ssn's policy %q, want %q", st.name, got, st.ssn)
		}
		if got := denyItems(f, "region"); got != st.reg {
			t.Errorf("%s: region's policy %q, want %q", st.name, got, st.reg)
		}
		x := e.Explain(ctx, auth.Identity{User: "alice", Roles: []string{"analyst"}}, orders)
		var hidden []string
		for _, c := range x.Columns {
			if c.Access == policy.AccessHidden {
				hidden = append(hidden, c.Name+" "+c.Decider.Policy)
			}
		}
		slices.Sort(hidden)
		if got := strings.Join(hidden, ","); got != st.aliceSees || x.NoRows != "" {
			t.Errorf("%s: alice's hidden columns %q (%s), want %q", st.name, got, x.NoRows, st.aliceSees)
		}
	}
}

// TestColumnDenyKeepsConsoleFields: a column's policy edited in Ranger's
// console (a description, a deny item of its own) keeps what SQE does not
// change; a console policy on the same column under another name is
// Ranger's one access policy for that resource, and SQE says so.
func TestColumnDenyKeepsConsoleFields(t *testing.T) {
	f := newFakeRanger(t, "")
	s := newStore(t, f, newClock())
	ctx := context.Background()
	ssn := policy.Target{Database: "acdemo", Table: "orders", Column: "ssn"}
	f.add(t, map[string]any{"service": "query", "name": "deny_acdemo.orders.ssn", "policyType": 0, "description": "kept by the console",
		"resources":       map[string]any{"database": values("acdemo"), "table": values("orders"), "column": values("ssn")},
		"denyPolicyItems": []any{map[string]any{"accesses": []any{map[string]any{"type": "update"}}, "users": []any{"bob"}}}})
	if err := policy.DenyColumn(ctx, s, ssn, []policy.Grantee{{Kind: grants.GranteeUser, Name: "alice"}}); err != nil {
		t.Fatal(err)
	}
	p := f.policy("query", "deny_acdemo.orders.ssn")
	if p["description"] != "kept by the console" || len(p["denyPolicyItems"].([]any)) != 2 {
		t.Errorf("after DENY: %v", p)
	}
	if _, err := policy.RevokeColumnDeny(ctx, s, ssn, []policy.Grantee{{Kind: grants.GranteeUser, Name: "alice"}}); err != nil {
		t.Fatal(err)
	}
	if p := f.policy("query", "deny_acdemo.orders.ssn"); p == nil || len(p["denyPolicyItems"].([]any)) != 1 {
		t.Errorf("after REVOKE the console's item should stay: %v", p)
	}

	f.add(t, map[string]any{"service": "query", "name": "console_region", "policyType": 0,
		"resources": map[string]any{"database": values("acdemo"), "table": values("orders"), "column": values("region")}})
	err := policy.DenyColumn(ctx, s, policy.Target{Database: "acdemo", Table: "orders", Column: "region"}, []policy.Grantee{{Kind: grants.GranteeUser, Name: "alice"}})
	if sqlstate(err) != pgerror.DuplicateObject || !strings.Contains(err.Error(), "already covers") {
		t.Errorf("DENY over a console policy on the column: %v, want 42710 naming the resource conflict", err)
	}
}

// columnsTable is a planner.Table that is never scanned.
type columnsTable struct {
	name planner.TableName
	cols []planner.TableColumn
}

func (c *columnsTable) QualifiedName() planner.TableName { return c.name }
func (c *columnsTable) OID() uint32                      { return 16400 }
func (c *columnsTable) Columns() []planner.TableColumn   { return c.cols }
func (c *columnsTable) RowEstimate() int64               { return -1 }
func (c *columnsTable) Scan(context.Context, []int, iceberg.BooleanExpression) (planner.RecordStream, error) {
	return nil, errors.New("not scanned in these tests")
}
