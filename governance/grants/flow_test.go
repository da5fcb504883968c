package grants

import (
	"reflect"
	"strings"
	"testing"
)

// TestGrantFlow walks statements through plan, authorize, apply and diff
// as an executor would, checking what a backend is asked to write.
func TestGrantFlow(t *testing.T) {
	p := loadProfile(t)
	admin := Authority{Mode: AuthorityAdminRole, AdminRoles: []string{"sqe_admin"}}
	carol := Grantor{User: "carol", Roles: []string{"sqe_admin"}}
	orders := Object{Kind: ObjectTable, Catalog: "sales_wh", Namespace: "acdemo", Name: "orders"}
	analyst := []Grantee{{GranteeRole, "analyst"}}
	dave := []Grantee{{GranteeUser, "dave"}}

	var state []Policy
	run := func(a Action, privilege string, grantees []Grantee) []Change {
		t.Helper()
		plan, err := p.planStep(step{Action: a, Statement: Statement{
			Privileges: []string{privilege}, Object: orders, Grantees: grantees, Grantor: carol.User,
		}})
		if err != nil {
			t.Fatal(err)
		}
		plan, err = p.Authorize(carol, plan, state, admin)
		if err != nil {
			t.Fatal(err)
		}
		next, err := p.applyPlan(state, plan)
		if err != nil {
			t.Fatal(err)
		}
		changes := Diff(state, next)
		state = next
		return changes
	}
	summary := func(changes []Change) string {
		var parts []string
		for _, c := range changes {
			verb := "write"
			if c.Policy == nil {
				verb = "delete"
			}
			parts = append(parts, verb+" "+c.Resource.String())
		}
		return strings.Join(parts, ", ")
	}
	steps := []struct {
		action   Action
		priv     string
		grantees []Grantee
		want     string
	}{
		{ActionGrant, "SELECT", analyst, "write sales_wh, write sales_wh.acdemo, write sales_wh.acdemo.orders"},
		{ActionGrant, "SELECT", analyst, ""}, // repeating a grant writes nothing
		{ActionDeny, "SELECT", dave, "write sales_wh.acdemo.orders"},
		{ActionDeny, "SELECT", dave, ""}, // nor does repeating a denial
		{ActionRevoke, "SELECT", dave, "write sales_wh.acdemo.orders"},
		{ActionRevoke, "SELECT", analyst, "delete sales_wh.acdemo.orders"},
		{ActionRevoke, "SELECT", analyst, ""}, // nothing left to revoke
	}
	for i, s := range steps {
		if got := summary(run(s.action, s.priv, s.grantees)); got != s.want {
			t.Errorf("step %d (%s %s): changes %q, want %q", i, s.action, s.priv, got, s.want)
		}
	}
}

func TestDiffIgnoresListOrder(t *testing.T) {
	r := Resource{Root: "*", Catalog: "wh"}
	a := []Policy{{Resource: r, Allow: []Item{{Users: []string{"b", "a"}, Accesses: []string{"y", "x"}}}, Labels: []string{"2", "1"}}}
	b := []Policy{{Resource: r, Allow: []Item{{Users: []string{"a", "b"}, Accesses: []string{"x", "y"}}}, Labels: []string{"1", "2"}}}
	if d := Diff(a, b); len(d) != 0 {
		t.Errorf("Diff of reordered lists = %+v, want none", d)
	}
	if d := Diff(a, nil); len(d) != 1 || d[0].Policy != nil || d[0].Resource != r {
		t.Errorf("Diff to nothing = %+v, want one deletion", d)
	}
}

func TestApplyRefusesBadInput(t *testing.T) {
	p := loadProfile(t)
	grant, err := p.PlanGrant(Statement{
		Privileges: []string{"SELECT"},
		Object:     Object{Kind: ObjectTable, Catalog: "wh", Namespace: "ns", Name: "t"},
		Grantees:   []Grantee{{GranteeUser, "alice"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ApplyRevoke(nil, grant); err == nil || !strings.Contains(err.Error(), "plan is a GRANT") {
		t.Errorf("ApplyRevoke of a grant plan: %v", err)
	}
	if _, err := p.ApplyDeny(nil, grant); err == nil || !strings.Contains(err.Error(), "plan is a GRANT") {
		t.Errorf("ApplyDeny of a grant plan: %v", err)
	}
	r := Resource{Root: "*", Catalog: "wh"}
	twice := []Policy{{Resource: r}, {Resource: r}}
	if _, err := p.ApplyGrant(twice, grant); err == nil || !strings.Contains(err.Error(), "two policies for resource wh") {
		t.Errorf("ApplyGrant over two policies for one resource: %v", err)
	}
	if _, err := p.Authorize(Grantor{User: "carol"}, grant, nil, Authority{Mode: "everyone"}); err == nil || !strings.Contains(err.Error(), `unknown grant authority "everyone"`) {
		t.Errorf("Authorize with an unknown mode: %v", err)
	}
	headless := grant
	headless.Writes = headless.Writes[:len(headless.Writes)-1]
	if _, err := p.ApplyGrant(nil, headless); err == nil || !strings.Contains(err.Error(), "no write for the object it names") {
		t.Errorf("ApplyGrant of a plan without its named write: %v", err)
	}
}

func TestCanonicalMergesEqualItems(t *testing.T) {
	in := Policy{
		Resource: Resource{Root: "*", Catalog: "wh"},
		Deny: []Item{
			{Users: []string{"dave"}, Accesses: []string{"b", "a"}},
			{Users: []string{"dave"}, Accesses: []string{"a", "b", "a"}},
			{Users: []string{"dave"}}, // no access types: matches nothing
			{Accesses: []string{"a"}}, // nobody: matches nothing
		},
	}
	want := []Item{{Users: []string{"dave"}, Accesses: []string{"a", "b"}}}
	if got := in.canonical().Deny; !reflect.DeepEqual(got, want) {
		t.Errorf("canonical deny items = %+v, want %+v", got, want)
	}
}
