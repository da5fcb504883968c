package sql

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestTableAccessStructured: TableAccess, which SHOW ACCESS prints, gives
// the access page the same decisions as data, with each one's deciding
// policy and store; SHOW ACCESS's rows are those decisions in order.
func TestTableAccessStructured(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, bob := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "analyst", "engineer")
	runGateTwoSteps(t, showAccessSetup(carol))
	ctx := context.Background()
	orders := []string{"sales_wh", "acdemo", "orders"}

	tests := []struct {
		user     string
		columns  map[string]AccessDecision // the columns checked, by name
		filters  []AccessDecision
		gateOne  string
		rolesAre []string
	}{
		{user: "bob",
			columns: map[string]AccessDecision{
				"id":  {Name: "id", Access: "raw"},
				"ssn": {Name: "ssn", Access: "masked", MaskType: "MASK_SHOW_LAST_4", Expression: showLastFour, Policy: "acdemo_mask_ssn", Source: "resource", Store: "embedded"},
			},
			filters:  []AccessDecision{{Name: "(rows)", Access: "filtered", Expression: "region = 'EU'", Policy: "acdemo_rowfilter_eu", Source: "resource", Store: "embedded"}},
			gateOne:  "allowed",
			rolesAre: []string{"analyst", "engineer"}},
		{user: "alice",
			columns: map[string]AccessDecision{
				"ssn":    {Name: "ssn", Access: "raw"},
				"region": {Name: "region", Access: "masked", MaskType: "MASK", Expression: `mask("region")`, Policy: "geo_mask", Source: "tag GEO", Store: "embedded"},
			},
			filters:  []AccessDecision{{Name: "(rows)", Access: "filtered", Expression: "'alice' = 'alice'", Policy: "geo_rows", Source: "tag GEO", Store: "embedded"}},
			gateOne:  "allowed",
			rolesAre: []string{"analyst"}},
		{user: "dave",
			columns: map[string]AccessDecision{"ssn": {Name: "ssn", Access: "raw"}},
			gateOne: "denied"},
	}
	for _, tc := range tests {
		a, err := carol.TableAccess(ctx, orders, tc.user)
		if err != nil {
			t.Fatalf("%s: %v", tc.user, err)
		}
		if a.Catalog != "sales_wh" || a.Schema != "acdemo" || a.Table != "orders" || a.User != tc.user {
			t.Errorf("%s: answer is about %s.%s.%s for %s", tc.user, a.Catalog, a.Schema, a.Table, a.User)
		}
		var names []string
		for _, c := range a.Columns {
			names = append(names, c.Name)
			if want, ok := tc.columns[c.Name]; ok && c != want {
				t.Errorf("%s: column %s = %+v, want %+v", tc.user, c.Name, c, want)
			}
		}
		if want := []string{"id", "region", "ssn", "amount", "order_date"}; !slices.Equal(names, want) {
			t.Errorf("%s: columns %v, want %v", tc.user, names, want)
		}
		if !reflect.DeepEqual(a.RowFilters, tc.filters) {
			t.Errorf("%s: row filters %+v, want %+v", tc.user, a.RowFilters, tc.filters)
		}
		if a.GateOne.Access != tc.gateOne || a.GateOne.Name != "(table)" {
			t.Errorf("%s: gate one %+v, want %s", tc.user, a.GateOne, tc.gateOne)
		}
		if !slices.Equal(a.Roles, tc.rolesAre) {
			t.Errorf("%s: roles %v, want %v", tc.user, a.Roles, tc.rolesAre)
		}
		// SHOW ACCESS prints exactly these decisions, then the notes.
		rows, _, err := run(t, carol, "SHOW ACCESS ON sales_wh.acdemo.orders FOR USER "+tc.user)
		if err != nil {
			t.Fatal(err)
		}
		if want := joinRows(a.showRows()); !slices.Equal(rows, want) {
			t.Errorf("%s: SHOW ACCESS rows\n%v\nwant the structured answer's\n%v", tc.user, rows, want)
		}
	}

	// Only an administrator asks about another user, before the table is
	// looked up.
	if _, err := bob.TableAccess(ctx, []string{"acdemo", "nowhere"}, "alice"); pgerror.Code(err) != pgerror.InsufficientPrivilege {
		t.Errorf("bob asking about alice: %v, want %s", err, pgerror.InsufficientPrivilege)
	}
	if _, err := carol.TableAccess(ctx, []string{"acdemo", "nowhere"}, "bob"); pgerror.Code(err) != pgerror.UndefinedTable {
		t.Errorf("a missing table: %v, want %s", err, pgerror.UndefinedTable)
	}
}

// TestRoleAccess: a role's answer is what a member holding nothing else
// sees: its own grants and policies (and its parent roles'), decided by
// the same evaluation as a user's, and only an administrator may ask.
func TestRoleAccess(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, bob := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "analyst", "engineer")
	runGateTwoSteps(t, append(showAccessSetup(carol),
		gateTwoStep{s: carol, sql: "CREATE ROLE eu_analyst", anyRows: true},
		gateTwoStep{s: carol, sql: "GRANT engineer TO ROLE eu_analyst", anyRows: true}))
	ctx := context.Background()
	orders := []string{"sales_wh", "acdemo", "orders"}
	tests := []struct {
		role            string
		ssn             string
		filters         int
		gateOne, reason string
		roles           []string
	}{
		{role: "analyst", ssn: "raw", gateOne: "allowed", reason: "Allowed via ROLE 'analyst'", roles: []string{"analyst"}},
		{role: "engineer", ssn: "masked", filters: 1, gateOne: "denied",
			reason: "No matching grant for a member of role engineer", roles: []string{"engineer"}},
		// A role granted another role is evaluated with both.
		{role: "eu_analyst", ssn: "masked", filters: 1, gateOne: "denied", roles: []string{"engineer", "eu_analyst"}},
		{role: "sqe_admin", ssn: "raw", gateOne: "allowed", reason: "Allowed: a member of role sqe_admin holds an administrator role", roles: []string{"sqe_admin"}},
	}
	for _, tc := range tests {
		a, err := carol.RoleAccess(ctx, orders, tc.role)
		if err != nil {
			t.Fatalf("%s: %v", tc.role, err)
		}
		if a.Role != tc.role || a.User != "" || a.Table != "orders" {
			t.Errorf("%s: answer about role %q, user %q, table %s", tc.role, a.Role, a.User, a.Table)
		}
		for _, c := range a.Columns {
			if c.Name == "ssn" && c.Access != tc.ssn {
				t.Errorf("%s: ssn %+v, want %s", tc.role, c, tc.ssn)
			}
		}
		if len(a.RowFilters) != tc.filters {
			t.Errorf("%s: row filters %+v, want %d", tc.role, a.RowFilters, tc.filters)
		}
		if a.GateOne.Access != tc.gateOne || !strings.HasPrefix(a.GateOne.Detail, tc.reason) {
			t.Errorf("%s: gate one %+v, want %s (%s)", tc.role, a.GateOne, tc.gateOne, tc.reason)
		}
		if !slices.Equal(a.Roles, tc.roles) {
			t.Errorf("%s: evaluated with roles %v, want %v", tc.role, a.Roles, tc.roles)
		}
	}
	if _, err := bob.RoleAccess(ctx, orders, "engineer"); pgerror.Code(err) != pgerror.InsufficientPrivilege {
		t.Errorf("bob asking about a role: %v, want %s", err, pgerror.InsufficientPrivilege)
	}
}

// joinRows is rows as run returns them, values joined by "|".
func joinRows(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		for j, v := range r {
			if j > 0 {
				out[i] += "|"
			}
			out[i] += v
		}
	}
	return out
}

// TestAccessReportListings: the tables an administrator may ask about are
// those gate one shows it, and the users and roles are every store's:
// role members, grantees and the users and roles policies name. Only an
// administrator lists them.
func TestAccessReportListings(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, bob, dave := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "analyst", "engineer"), openAs(t, e, "dave")
	runGateTwoSteps(t, append(showAccessSetup(carol),
		gateTwoStep{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.sales TO USER frank", anyRows: true},
		gateTwoStep{s: carol, sql: "CREATE POLICY ops_rows ON TABLE acdemo.sales ROW FILTER TO ROLE ops USING (true)", anyRows: true}))
	ctx := context.Background()

	tables, err := carol.VisibleTables(ctx, "sales_wh")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(tables, TableRef{Catalog: "sales_wh", Schema: "acdemo", Table: "orders"}) ||
		!slices.Contains(tables, TableRef{Catalog: "sales_wh", Schema: "acdemo", Table: "sales"}) {
		t.Errorf("carol sees %v, want acdemo.orders and acdemo.sales among them", tables)
	}
	if got, err := dave.VisibleTables(ctx, "sales_wh"); err != nil || len(got) != 0 {
		t.Errorf("dave, in no role, sees %v (%v), want nothing", got, err)
	}
	if _, err := carol.VisibleTables(ctx, "nowhere"); pgerror.Code(err) != pgerror.InvalidCatalogName {
		t.Errorf("a missing catalog: %v, want %s", err, pgerror.InvalidCatalogName)
	}

	p, err := carol.KnownPrincipals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := Principals{
		Users: []string{"alice", "bob", "frank"},      // role members, a grantee, a policy's user
		Roles: []string{"analyst", "engineer", "ops"}, // the store's roles, a policy's role
	}
	for _, u := range want.Users {
		if !slices.Contains(p.Users, u) {
			t.Errorf("users %v lack %s", p.Users, u)
		}
	}
	for _, r := range want.Roles {
		if !slices.Contains(p.Roles, r) {
			t.Errorf("roles %v lack %s", p.Roles, r)
		}
	}
	if !slices.IsSorted(p.Users) || !slices.IsSorted(p.Roles) {
		t.Errorf("principals not sorted: %+v", p)
	}
	if _, err := bob.KnownPrincipals(ctx); pgerror.Code(err) != pgerror.InsufficientPrivilege {
		t.Errorf("bob listing principals: %v, want %s", err, pgerror.InsufficientPrivilege)
	}
}
