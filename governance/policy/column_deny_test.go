package policy

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

func newEmbeddedStore(t *testing.T) *Embedded {
	t.Helper()
	gov, err := governance.OpenStore(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gov.Close() })
	store, err := NewEmbedded(gov)
	if err != nil {
		t.Fatal(err)
	}
	return store
}

// columnDenyStep is one DENY or REVOKE of column denials, then what each
// caller sees of acdemo.orders: its hidden columns, with the policy that
// hid each.
type columnDenyStep struct {
	name     string
	revoke   bool
	column   string
	grantees []Grantee
	revoked  bool              // for a REVOKE: whether anything was denied
	hidden   map[string]string // user -> "column policy" of each hidden column, joined
}

// columnDenySteps is the script both stores run: repeated denials merge
// into one policy per column, a revoke takes back one grantee, and the
// last revoke removes the column's policy.
func columnDenySteps() []columnDenyStep {
	aliceG := Grantee{Kind: grants.GranteeUser, Name: "alice"}
	analyst := Grantee{Kind: grants.GranteeRole, Name: "analyst"}
	return []columnDenyStep{
		{name: "deny ssn to alice", column: "ssn", grantees: []Grantee{aliceG},
			hidden: map[string]string{"alice": "ssn deny_acdemo.orders.ssn", "bob": ""}},
		{name: "deny it again", column: "ssn", grantees: []Grantee{aliceG},
			hidden: map[string]string{"alice": "ssn deny_acdemo.orders.ssn", "bob": ""}},
		{name: "deny region to alice and the analysts", column: "region", grantees: []Grantee{aliceG, analyst},
			hidden: map[string]string{"alice": "region deny_acdemo.orders.region,ssn deny_acdemo.orders.ssn", "bob": "region deny_acdemo.orders.region"}},
		{name: "deny ssn to the analysts", column: "ssn", grantees: []Grantee{analyst},
			hidden: map[string]string{"alice": "region deny_acdemo.orders.region,ssn deny_acdemo.orders.ssn", "bob": "region deny_acdemo.orders.region,ssn deny_acdemo.orders.ssn"}},
		{name: "revoke ssn from alice, an analyst still", revoke: true, column: "ssn", grantees: []Grantee{aliceG}, revoked: true,
			hidden: map[string]string{"alice": "region deny_acdemo.orders.region,ssn deny_acdemo.orders.ssn", "bob": "region deny_acdemo.orders.region,ssn deny_acdemo.orders.ssn"}},
		{name: "revoke ssn from the analysts", revoke: true, column: "ssn", grantees: []Grantee{analyst}, revoked: true,
			hidden: map[string]string{"alice": "region deny_acdemo.orders.region", "bob": "region deny_acdemo.orders.region"}},
		{name: "revoke ssn again", revoke: true, column: "ssn", grantees: []Grantee{analyst}, revoked: false,
			hidden: map[string]string{"alice": "region deny_acdemo.orders.region", "bob": "region deny_acdemo.orders.region"}},
		{name: "revoke region from both", revoke: true, column: "region", grantees: []Grantee{analyst, aliceG}, revoked: true,
			hidden: map[string]string{"alice": "", "bob": ""}},
	}
}

// runColumnDenySteps runs the script against store, checking through an
// Enforcer what alice and bob see, and that each column's policy exists
// exactly while it denies someone.
func runColumnDenySteps(t *testing.T, store Store) {
	t.Helper()
	ctx := context.Background()
	e := NewEnforcer(Config{Store: store})
	callers := map[string]auth.Identity{"alice": alice, "bob": bob}
	for _, st := range columnDenySteps() {
		target := Target{Database: "acdemo", Table: "orders", Column: st.column}
		if st.revoke {
			revoked, err := RevokeColumnDeny(ctx, store, target, st.grantees)
			if err != nil || revoked != st.revoked {
				t.Fatalf("%s: revoked %v (%v), want %v", st.name, revoked, err, st.revoked)
			}
		} else if err := DenyColumn(ctx, store, target, st.grantees); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		for user, want := range st.hidden {
			x := e.Explain(ctx, callers[user], ordersTable())
			var got []string
			for _, c := range x.Columns {
				if c.Access == AccessHidden {
					got = append(got, c.Name+" "+c.Decider.Policy)
				}
			}
			slices.Sort(got)
			if joined := strings.Join(got, ","); joined != want || x.NoRows != "" {
				t.Errorf("%s: %s's hidden columns %q (%s), want %q", st.name, user, joined, x.NoRows, want)
			}
		}
		snap, err := store.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range snap.Policies {
			names = append(names, p.Name)
		}
		for _, col := range []string{"ssn", "region"} {
			name := "deny_acdemo.orders." + col
			denied := false
			for _, h := range st.hidden {
				denied = denied || slices.Contains(strings.Split(h, ","), col+" "+name)
			}
			if slices.Contains(names, name) != denied {
				t.Errorf("%s: policies %v; %s should exist: %v", st.name, names, name, denied)
			}
		}
	}
}

func TestColumnDeniesInTheEmbeddedStore(t *testing.T) {
	runColumnDenySteps(t, newEmbeddedStore(t))
}

// TestColumnDenyKeepsItsPolicyShape: the column's policy is a hive access
// policy on exactly that column with one deny item of select; a policy of
// that name protecting anything else is not edited.
func TestColumnDenyKeepsItsPolicyShape(t *testing.T) {
	ctx := context.Background()
	store := newEmbeddedStore(t)
	aliceG := []Grantee{{Kind: grants.GranteeUser, Name: "alice"}}
	if err := DenyColumn(ctx, store, ssnCol, append(aliceG, Grantee{Kind: grants.GranteeGroup, Name: "eng"})); err != nil {
		t.Fatal(err)
	}
	snap, err := store.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Policies) != 1 {
		t.Fatalf("%d policies, want 1", len(snap.Policies))
	}
	p := snap.Policies[0]
	it := p.DenyPolicyItems
	if p.PolicyType != ranger.PolicyTypeAccess || !slices.Equal(p.Resources["column"].Values, []string{"ssn"}) ||
		!slices.Equal(p.Resources["table"].Values, []string{"orders"}) || !slices.Equal(p.Resources["database"].Values, []string{"acdemo"}) ||
		len(p.PolicyItems) != 0 || len(it) != 1 || len(it[0].Accesses) != 1 || it[0].Accesses[0].Type != "select" ||
		!slices.Equal(it[0].Users, []string{"alice"}) || !slices.Equal(it[0].Groups, []string{"eng"}) {
		t.Fatalf("the column's policy: %+v", p)
	}

	other, err := RowFilter("deny_acdemo.orders.region", orders, aliceG, "true")
	if err != nil {
		t.Fatal(err)
	}
	if err := store.PutPolicy(ctx, other, false); err != nil {
		t.Fatal(err)
	}
	region := Target{Database: "acdemo", Table: "orders", Column: "region"}
	if err := DenyColumn(ctx, store, region, aliceG); pgerror.Code(err) != pgerror.DuplicateObject {
		t.Errorf("DENY over a row filter of the column's name: %v, want 42710", err)
	}
	if _, err := RevokeColumnDeny(ctx, store, region, aliceG); pgerror.Code(err) != pgerror.DuplicateObject {
		t.Errorf("REVOKE over a row filter of the column's name: %v, want 42710", err)
	}
}
