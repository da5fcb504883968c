package polarisadmin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/polarisadmin/polaristest"
	"github.com/sqe-db/sqe/sql/pgerror"
)

const testSecret = "s3cr3t-root"

var (
	admin = access.Caller{User: "carol", Roles: []string{"sqe_admin"}}
	table = grants.Object{Kind: grants.ObjectTable, Catalog: "sales_wh", Namespace: "acdemo", Name: "orders"}
)

func newTestService(t *testing.T, cfg func(*Config)) (*Service, *polaristest.Server) {
	t.Helper()
	fake := polaristest.New(t, testSecret, "polaris_wh")
	fake.AddPrincipal("alice", "bob", "dave")
	if err := fake.CreateTable("polaris_wh", "acdemo", "orders"); err != nil {
		t.Fatal(err)
	}
	c := Config{URL: fake.URL, ClientID: "root", ClientSecret: testSecret, AdminRoles: []string{"sqe_admin"},
		Catalogs: map[string]string{"sales_wh": "polaris_wh"}}
	if cfg != nil {
		cfg(&c)
	}
	svc, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return svc, fake
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// writes lists the management writes the fake answered: method, path and
// body, without token requests and reads.
func writes(fake *polaristest.Server) []string {
	var out []string
	for _, r := range fake.Requests() {
		if r.Method == http.MethodGet || !strings.HasPrefix(r.Path, "/api/management/v1/") {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s %s %d", r.Method, strings.TrimPrefix(r.Path, "/api/management/v1"), strings.TrimSpace(r.Body), r.Status))
	}
	return out
}

func TestGrantWritesPolarisGrants(t *testing.T) {
	ctx := context.Background()
	svc, fake := newTestService(t, nil)
	mustDo(t, svc.CreateRole(ctx, admin, "analyst"))
	mustDo(t, svc.GrantRoles(ctx, admin, []string{"analyst"}, []access.RoleMember{{Name: "alice"}}))
	fake.Requests()
	_, err := svc.Change(ctx, admin, grants.ActionGrant, grants.Statement{Privileges: []string{"SELECT"}, Object: table,
		Grantees: []grants.Grantee{{Kind: grants.GranteeRole, Name: "analyst"}}})
	mustDo(t, err)
	got := writes(fake)
	want := []string{
		`POST /catalogs/polaris_wh/catalog-roles {"catalogRole":{"name":"analyst"}} 409`,
		`PUT /principal-roles/analyst/catalog-roles/polaris_wh {"catalogRole":{"name":"analyst"}} 201`,
		`PUT /catalogs/polaris_wh/catalog-roles/analyst/grants {"grant":{"type":"catalog","privilege":"NAMESPACE_LIST"}} 201`,
		`PUT /catalogs/polaris_wh/catalog-roles/analyst/grants {"grant":{"type":"namespace","namespace":["acdemo"],"privilege":"NAMESPACE_READ_PROPERTIES"}} 201`,
		`PUT /catalogs/polaris_wh/catalog-roles/analyst/grants {"grant":{"type":"table","namespace":["acdemo"],"tableName":"orders","privilege":"TABLE_READ_DATA"}} 201`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("writes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	d, err := svc.CheckAccess(ctx, admin, "SELECT", table, "alice")
	mustDo(t, err)
	if !d.Allowed || d.Reason != "Allowed via ROLE 'analyst'" {
		t.Errorf("alice: %+v", d)
	}
	d, err = svc.CheckAccess(ctx, admin, "SELECT", table, "dave")
	mustDo(t, err)
	if d.Allowed || d.Reason != "No matching grant for dave TABLE_READ_DATA on sales_wh.acdemo.orders" {
		t.Errorf("dave: %+v", d)
	}
	d, err = svc.CheckAccess(ctx, admin, "INSERT", table, "alice")
	mustDo(t, err)
	if d.Allowed {
		t.Errorf("alice INSERT: %+v", d)
	}
	// A role's answer: what the principal role reaches.
	d, err = svc.CheckRoleAccess(ctx, admin, "SELECT", table, "analyst")
	mustDo(t, err)
	if !d.Allowed || d.Reason != "Allowed via ROLE 'analyst'" {
		t.Errorf("role analyst: %+v", d)
	}
	d, err = svc.CheckRoleAccess(ctx, admin, "INSERT", table, "analyst")
	mustDo(t, err)
	if d.Allowed || d.Reason != "No matching grant for a member of role analyst TABLE_WRITE_DATA on sales_wh.acdemo.orders" {
		t.Errorf("role analyst INSERT: %+v", d)
	}
	if _, err := svc.CheckRoleAccess(ctx, access.Caller{User: "alice"}, "SELECT", table, "analyst"); err == nil {
		t.Error("alice may check a role's access")
	}

	rows, err := svc.ShowGrants(ctx, admin, access.GrantFilter{Grantee: &grants.Grantee{Kind: grants.GranteeRole, Name: "analyst"}})
	mustDo(t, err)
	var lines []string
	for _, r := range rows {
		lines = append(lines, fmt.Sprintf("%s|%s|%s|%s|%s", r.AccessType, r.Object, r.GranteeKind, r.Grantee, r.Effect))
	}
	wantRows := []string{
		"NAMESPACE_LIST|sales_wh|ROLE|analyst|ALLOW",
		"NAMESPACE_READ_PROPERTIES|sales_wh.acdemo|ROLE|analyst|ALLOW",
		"TABLE_READ_DATA|sales_wh.acdemo.orders|ROLE|analyst|ALLOW",
	}
	if !slices.Equal(lines, wantRows) {
		t.Errorf("SHOW GRANTS:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(wantRows, "\n"))
	}

	// REVOKE takes the named level only.
	_, err = svc.Change(ctx, admin, grants.ActionRevoke, grants.Statement{Privileges: []string{"SELECT"}, Object: table,
		Grantees: []grants.Grantee{{Kind: grants.GranteeRole, Name: "analyst"}}})
	mustDo(t, err)
	var left []string
	for _, g := range fake.Grants("polaris_wh", "analyst") {
		left = append(left, g.Type+":"+g.Privilege)
	}
	if want := []string{"catalog:NAMESPACE_LIST", "namespace:NAMESPACE_READ_PROPERTIES"}; !slices.Equal(left, want) {
		t.Errorf("after REVOKE: %v, want %v", left, want)
	}
}

func TestUserGrantAndNestedRole(t *testing.T) {
	ctx := context.Background()
	svc, fake := newTestService(t, nil)
	_, err := svc.Change(ctx, admin, grants.ActionGrant, grants.Statement{Privileges: []string{"SELECT", "INSERT"}, Object: table,
		Grantees: []grants.Grantee{{Kind: grants.GranteeUser, Name: "bob"}}})
	mustDo(t, err)
	// INSERT revoked, SELECT stays: the two map to disjoint privileges.
	_, err = svc.Change(ctx, admin, grants.ActionRevoke, grants.Statement{Privileges: []string{"INSERT"}, Object: table,
		Grantees: []grants.Grantee{{Kind: grants.GranteeUser, Name: "bob"}}})
	mustDo(t, err)
	for priv, want := range map[string]bool{"SELECT": true, "INSERT": false} {
		d, err := svc.CheckAccess(ctx, admin, priv, table, "bob")
		mustDo(t, err)
		if d.Allowed != want {
			t.Errorf("bob %s: %+v", priv, d)
		}
		if want && d.Reason != "Allowed via USER 'bob'" {
			t.Errorf("bob %s reason %q", priv, d.Reason)
		}
	}
	rows, err := svc.ShowGrants(ctx, admin, access.GrantFilter{Object: "sales_wh.acdemo.orders"})
	mustDo(t, err)
	if len(rows) != 1 || rows[0].GranteeKind != "USER" || rows[0].Grantee != "bob" || rows[0].AccessType != "TABLE_READ_DATA" {
		t.Errorf("SHOW GRANTS ON orders: %+v", rows)
	}
	// A user who is not a principal is refused before anything is written.
	_, err = svc.Change(ctx, admin, grants.ActionGrant, grants.Statement{Privileges: []string{"SELECT"}, Object: table,
		Grantees: []grants.Grantee{{Kind: grants.GranteeUser, Name: "mallory"}}})
	if pgerror.Code(err) != pgerror.UndefinedObject {
		t.Errorf("grant to a non-principal: %v", err)
	}

	// auditors nested in lead_auditors; alice holds lead_auditors.
	mustDo(t, svc.CreateRole(ctx, admin, "auditors"))
	mustDo(t, svc.CreateRole(ctx, admin, "lead_auditors"))
	if err := svc.CreateRole(ctx, admin, "auditors"); pgerror.Code(err) != pgerror.DuplicateObject {
		t.Errorf("CREATE ROLE twice: %v", err)
	}
	mustDo(t, svc.GrantRoles(ctx, admin, []string{"auditors"}, []access.RoleMember{{Role: true, Name: "lead_auditors"}}))
	mustDo(t, svc.GrantRoles(ctx, admin, []string{"lead_auditors"}, []access.RoleMember{{Name: "alice"}}))
	_, err = svc.Change(ctx, admin, grants.ActionGrant, grants.Statement{Privileges: []string{"SELECT"}, Object: table,
		Grantees: []grants.Grantee{{Kind: grants.GranteeRole, Name: "auditors"}}})
	mustDo(t, err)
	d, err := svc.CheckAccess(ctx, admin, "SELECT", table, "alice")
	mustDo(t, err)
	if !d.Allowed || d.Reason != "Allowed via ROLE 'auditors'" {
		t.Errorf("alice through lead_auditors: %+v", d)
	}
	eff, err := svc.EffectiveGrants(ctx, admin, "alice")
	mustDo(t, err)
	if len(eff) != 3 {
		t.Errorf("effective grants of alice: %+v", eff)
	}
	mustDo(t, svc.RevokeRoles(ctx, admin, []string{"lead_auditors"}, []access.RoleMember{{Name: "alice"}}))
	d, err = svc.CheckAccess(ctx, admin, "SELECT", table, "alice")
	mustDo(t, err)
	if d.Allowed {
		t.Errorf("alice after REVOKE ROLE: %+v", d)
	}
	missing, err := svc.DropRole(ctx, admin, []string{"auditors", "nobody"}, true)
	mustDo(t, err)
	if !slices.Equal(missing, []string{"nobody"}) || fake.Grants("polaris_wh", "auditors") != nil {
		t.Errorf("DROP ROLE: missing %v, grants left %v", missing, fake.Grants("polaris_wh", "auditors"))
	}
}

func TestRefusals(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t, nil)
	st := grants.Statement{Privileges: []string{"SELECT"}, Object: table, Grantees: []grants.Grantee{{Kind: grants.GranteeUser, Name: "alice"}}}
	for _, c := range []struct {
		name   string
		caller access.Caller
		action grants.Action
		st     grants.Statement
		code   string
	}{
		{"deny", admin, grants.ActionDeny, st, pgerror.FeatureNotSupported},
		{"deny by a non-admin", access.Caller{User: "bob"}, grants.ActionDeny, st, pgerror.FeatureNotSupported},
		{"grant by a non-admin", access.Caller{User: "bob"}, grants.ActionGrant, st, pgerror.InsufficientPrivilege},
		{"widening", admin, grants.ActionGrant, grants.Statement{Privileges: []string{"ALL"}, Object: table, Grantees: st.Grantees}, pgerror.InvalidGrantOperation},
		{"unmapped catalog", admin, grants.ActionGrant, grants.Statement{Privileges: []string{"SELECT"},
			Object: grants.Object{Kind: grants.ObjectTable, Catalog: "other", Namespace: "n", Name: "t"}, Grantees: st.Grantees}, pgerror.FeatureNotSupported},
		{"native access type", admin, grants.ActionGrant, grants.Statement{Privileges: []string{"table-data-read"}, Object: table, Grantees: st.Grantees}, pgerror.FeatureNotSupported},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := svc.Change(ctx, c.caller, c.action, c.st)
			if pgerror.Code(err) != c.code {
				t.Fatalf("got %v (%s), want %s", err, pgerror.Code(err), c.code)
			}
		})
	}
	if err := svc.MayChange(admin, grants.ActionDeny); pgerror.Code(err) != pgerror.FeatureNotSupported ||
		!strings.Contains(err.Error(), "DENY is not supported") {
		t.Errorf("MayChange DENY: %v", err)
	}
}

// TestFailsClosed: Polaris down, slow or refusing the server's
// credentials fails the statement (never an allow), and no error carries
// the client secret or a token.
func TestFailsClosed(t *testing.T) {
	ctx := context.Background()
	svc, fake := newTestService(t, func(c *Config) { c.Timeout = 200 * time.Millisecond })
	mustDo(t, svc.CreateRole(ctx, admin, "analyst"))
	fake.SetDown(true)
	d, err := svc.CheckAccess(ctx, admin, "SELECT", table, "alice")
	if err == nil || d.Allowed || pgerror.Code(err) != codeSystemError {
		t.Errorf("down: %+v, %v", d, err)
	}
	fake.SetDown(false)
	fake.SetDelay(2 * time.Second)
	d, err = svc.CheckAccess(ctx, admin, "SELECT", table, "alice")
	if err == nil || d.Allowed || pgerror.Code(err) != codeSystemError {
		t.Errorf("slow: %+v, %v", d, err)
	}
	fake.SetDelay(0)

	bad, _ := newTestService(t, func(c *Config) { c.ClientSecret = "wrong-secret-value" })
	_, err = bad.ShowGrants(ctx, admin, access.GrantFilter{})
	if err == nil || pgerror.Code(err) != pgerror.InternalError {
		t.Fatalf("wrong secret: %v", err)
	}
	var pe *pgerror.Error
	text := err.Error()
	if errors.As(err, &pe) {
		text += pe.Detail + pe.Hint
	}
	for _, secret := range []string{"wrong-secret-value", testSecret, "principal:"} {
		if strings.Contains(text, secret) {
			t.Errorf("error %q carries a secret", text)
		}
	}
}

func TestMappingCoversProfile(t *testing.T) {
	p, err := grants.Load()
	mustDo(t, err)
	m, err := p.LoadPolarisMapping()
	mustDo(t, err)
	for _, name := range p.Privileges() {
		for _, kind := range []grants.ObjectKind{grants.ObjectCatalog, grants.ObjectSchema, grants.ObjectTable, grants.ObjectView} {
			if _, ok := p.AccessTypes(name, kind); !ok {
				continue
			}
			obj := grants.Object{Kind: kind, Catalog: "c"}
			if kind != grants.ObjectCatalog {
				obj.Namespace = "n"
			}
			if kind == grants.ObjectTable || kind == grants.ObjectView {
				obj.Name = "t"
			}
			plan, err := p.PlanGrant(grants.Statement{Privileges: []string{name}, Object: obj, Grantees: []grants.Grantee{{Kind: grants.GranteeRole, Name: "r"}}})
			mustDo(t, err)
			ws, err := m.Writes(plan)
			mustDo(t, err)
			if len(ws) == 0 || !ws[len(ws)-1].Named {
				data, _ := json.Marshal(ws)
				t.Errorf("%s on %s: %s", name, kind, data)
			}
		}
	}
}
