package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
)

var (
	restAlice = Principal{User: "alice", Roles: []string{"analyst"}, Token: "alice-token-7f3a"}
	restBob   = Principal{User: "bob", Roles: []string{"engineer"}, Token: "bob-token-91c2"}
)

// restOrders is alice's empty table sales.orders in a fake REST catalog
// opened with cfg, and the context she acts in.
func restOrders(t *testing.T, cfg RESTConfig) (*fakeREST, Catalog, context.Context, *Table) {
	t.Helper()
	f := newFakeREST(t, restAlice.Token)
	cat := openFakeREST(t, f, cfg)
	alice := WithPrincipal(t.Context(), restAlice)
	if err := cat.CreateNamespace(alice, "sales"); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.CreateTable(alice, "sales", "orders", idSchema, CreateTableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return f, cat, alice, tbl
}

func openFakeREST(t *testing.T, f *fakeREST, cfg RESTConfig) Catalog {
	t.Helper()
	if cfg.Name == "" {
		cfg.Name = "lake"
	}
	cfg.URI = f.srv.URL
	if cfg.Warehouse == "" {
		cfg.Warehouse = "wh"
	}
	cat, err := OpenREST(t.Context(), cfg)
	if err != nil {
		t.Fatalf("OpenREST: %v", err)
	}
	t.Cleanup(func() {
		if err := cat.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return cat
}

// assertAllAuth checks that every request since the last check was made,
// and carried want as its bearer token.
func assertAllAuth(t *testing.T, f *fakeREST, who string, want string) []fakeRequest {
	t.Helper()
	reqs := f.seen()
	if len(reqs) == 0 {
		t.Fatalf("%s: no request reached the catalog", who)
	}
	for _, r := range reqs {
		if r.Auth != "Bearer "+want {
			t.Errorf("%s: %s %s carried %q, want the bearer token %q", who, r.Method, r.Path, r.Auth, want)
		}
	}
	return reqs
}

func scanIDs(t *testing.T, ctx context.Context, tbl *Table) []int64 {
	t.Helper()
	st, err := tbl.Scan(ctx, ScanRequest{Columns: []string{"id"}})
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	defer st.Close()
	var ids []int64
	for {
		rec, err := st.Next()
		if errors.Is(err, io.EOF) {
			return ids
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		for i := range int(rec.NumRows()) {
			ids = append(ids, valueAt(rec.Column(0), i).(int64))
		}
		rec.Release()
	}
}

func TestRESTForwardsEachCallersToken(t *testing.T) {
	f := newFakeREST(t, restAlice.Token, restBob.Token)
	cat := openFakeREST(t, f, RESTConfig{})
	if reqs := f.seen(); len(reqs) != 0 {
		t.Fatalf("opening sent %d request(s) before any user asked; want none: %v", len(reqs), reqs)
	}

	alice := WithPrincipal(t.Context(), restAlice)
	if err := cat.CreateNamespace(alice, "sales"); err != nil {
		t.Fatalf("CreateNamespace: %v", err)
	}
	reqs := assertAllAuth(t, f, "alice", restAlice.Token)
	if reqs[0].Method != http.MethodGet || reqs[0].Path != "/config" {
		t.Errorf("first request is %s %s, want GET /config", reqs[0].Method, reqs[0].Path)
	}
	tbl, err := cat.CreateTable(alice, "sales", "orders", idSchema, CreateTableOptions{})
	if err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	tbl, err = tbl.Append(alice, idBatches(t, 1, 4, 10))
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	if got := scanIDs(t, alice, tbl); fmt.Sprint(got) != "[1 2 3]" {
		t.Errorf("alice reads %v, want [1 2 3]", got)
	}
	assertAllAuth(t, f, "alice", restAlice.Token)

	bob := WithPrincipal(t.Context(), restBob)
	names, err := cat.ListNamespaces(bob)
	if err != nil || fmt.Sprint(names) != "[sales]" {
		t.Fatalf("bob's ListNamespaces = %v, %v; want [sales]", names, err)
	}
	tables, err := cat.ListTables(bob, "sales")
	if err != nil || fmt.Sprint(tables) != "[orders]" {
		t.Fatalf("bob's ListTables = %v, %v; want [orders]", tables, err)
	}
	bobTbl, err := cat.LoadTable(bob, "sales", "orders")
	if err != nil {
		t.Fatalf("bob's LoadTable: %v", err)
	}
	if got := scanIDs(t, bob, bobTbl); fmt.Sprint(got) != "[1 2 3]" {
		t.Errorf("bob reads %v, want [1 2 3]", got)
	}
	if _, err := bobTbl.Append(bob, idBatches(t, 4, 5, 10)); err != nil {
		t.Fatalf("bob's Append: %v", err)
	}
	reqs = assertAllAuth(t, f, "bob", restBob.Token)
	for _, r := range reqs {
		if r.Path == "/config" {
			t.Errorf("the configuration was fetched again for bob")
		}
	}
}

func TestRESTRefusesCallerWithoutToken(t *testing.T) {
	f := newFakeREST(t, restAlice.Token)
	cat := openFakeREST(t, f, RESTConfig{})
	for name, ctx := range map[string]context.Context{
		"no token":     WithPrincipal(t.Context(), Principal{User: "loader"}),
		"no principal": t.Context(),
	} {
		_, err := cat.ListNamespaces(ctx)
		if err == nil {
			t.Fatalf("%s: ListNamespaces succeeded", name)
		}
		want := pgerror.InvalidAuthorizationSpecification
		if name == "no principal" {
			want = pgerror.InsufficientPrivilege
		}
		if code := pgerror.Code(err); code != want {
			t.Errorf("%s: SQLSTATE %s (%v), want %s", name, code, err, want)
		}
	}
	if reqs := f.seen(); len(reqs) != 0 {
		t.Errorf("requests without a token reached the catalog: %v", reqs)
	}
}

func TestRESTErrorMapping(t *testing.T) {
	f := newFakeREST(t, restAlice.Token)
	cat := openFakeREST(t, f, RESTConfig{})
	alice := WithPrincipal(t.Context(), restAlice)
	if err := cat.CreateNamespace(alice, "sales"); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.CreateTable(alice, "sales", "orders", idSchema, CreateTableOptions{}); err != nil {
		t.Fatal(err)
	}

	refuse := func(status int, typ string, match func(r *http.Request, path string) bool) {
		f.setFault(func(r *http.Request, path string) (int, string, string, bool) {
			if match(r, path) {
				return status, typ, "refused by the test", true
			}
			return 0, "", "", false
		})
	}
	always := func(*http.Request, string) bool { return true }
	load := func() error { _, err := cat.LoadTable(alice, "sales", "orders"); return err }
	list := func() error { _, err := cat.ListTables(alice, "sales"); return err }
	cases := []struct {
		name     string
		status   int
		typ      string
		op       func() error
		code     string
		message  string
		sentinel error
	}{
		{"403 on a table", 403, "ForbiddenException", load, "42501", "permission denied for table orders", ErrForbidden},
		{"403 on a schema", 403, "ForbiddenException", list, "42501", "permission denied for schema sales", ErrForbidden},
		{"401", 401, "NotAuthorizedException", load, "28000", `catalog "lake" did not accept the session's credentials`, nil},
		{"419", 419, "AuthorizationExpiredException", load, "28000", `catalog "lake" did not accept the session's credentials`, nil},
		{"503", 503, "ServiceUnavailableException", load, "58000", `catalog "lake" is unavailable`, nil},
		{"500", 500, "ServiceFailureException", load, "58000", `catalog "lake" failed with a server error`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			refuse(tc.status, tc.typ, always)
			defer f.setFault(nil)
			err := tc.op()
			pe := pgerror.From(err)
			if pe.Code != tc.code || pe.Message != tc.message {
				t.Errorf("got %s %q, want %s %q", pe.Code, pe.Message, tc.code, tc.message)
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tc.sentinel)
			}
		})
	}

	t.Run("404", func(t *testing.T) {
		_, err := cat.LoadTable(alice, "sales", "missing")
		if pe := pgerror.From(err); pe.Code != "42P01" || pe.Message != `relation "sales.missing" does not exist` || !errors.Is(err, ErrNoSuchTable) {
			t.Errorf("missing table: %s %q", pe.Code, pe.Message)
		}
		_, err = cat.LoadTable(alice, "nowhere", "orders")
		if pe := pgerror.From(err); pe.Code != "3F000" || pe.Message != `schema "nowhere" does not exist` || !errors.Is(err, ErrNoSuchNamespace) {
			t.Errorf("missing namespace: %s %q", pe.Code, pe.Message)
		}
		_, err = cat.ListTables(alice, "nowhere")
		if pe := pgerror.From(err); pe.Code != "3F000" {
			t.Errorf("list tables of a missing namespace: %s %q", pe.Code, pe.Message)
		}
	})

	t.Run("unknown token", func(t *testing.T) {
		_, err := cat.ListNamespaces(WithPrincipal(t.Context(), Principal{User: "mallory", Token: "forged"}))
		if code := pgerror.Code(err); code != "28000" {
			t.Errorf("forged token: SQLSTATE %s (%v), want 28000", code, err)
		}
	})
}

func TestRESTFirstConfigFailureIsNotKept(t *testing.T) {
	f := newFakeREST(t, restAlice.Token)
	cat := openFakeREST(t, f, RESTConfig{})
	_, err := cat.ListNamespaces(WithPrincipal(t.Context(), Principal{User: "mallory", Token: "forged"}))
	if code := pgerror.Code(err); code != "28000" {
		t.Fatalf("forged token fetching the configuration: SQLSTATE %s (%v), want 28000", code, err)
	}
	f.seen()
	if _, err := cat.ListNamespaces(WithPrincipal(t.Context(), restAlice)); err != nil {
		t.Fatalf("alice after a refused first user: %v", err)
	}
	assertAllAuth(t, f, "alice", restAlice.Token)
}

func TestRESTCommitConflict(t *testing.T) {
	f, _, alice, tbl := restOrders(t, RESTConfig{})
	var err error
	isCommit := func(r *http.Request, path string) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(path, "/tables/orders")
	}

	// One lost race: the append is replayed on the reloaded table.
	conflicts := 0
	f.setFault(func(r *http.Request, path string) (int, string, string, bool) {
		if isCommit(r, path) && conflicts == 0 {
			conflicts++
			return http.StatusConflict, "CommitFailedException", "branch main has changed", true
		}
		return 0, "", "", false
	})
	tbl, err = tbl.Append(alice, idBatches(t, 1, 3, 10))
	if err != nil {
		t.Fatalf("Append after one conflict: %v", err)
	}
	if got := scanIDs(t, alice, tbl); fmt.Sprint(got) != "[1 2]" {
		t.Errorf("after a replayed append: %v, want [1 2]", got)
	}

	// A table that never stops moving: 40001 after the retries.
	f.setFault(func(r *http.Request, path string) (int, string, string, bool) {
		if isCommit(r, path) {
			return http.StatusConflict, "CommitFailedException", "branch main has changed", true
		}
		return 0, "", "", false
	})
	_, err = tbl.Append(alice, idBatches(t, 3, 4, 10))
	if code := pgerror.Code(err); code != pgerror.SerializationFailure || !errors.Is(err, ErrCommitConflict) {
		t.Errorf("endless conflicts: SQLSTATE %s (%v), want 40001", code, err)
	}

	// A refused commit is the catalog's permission error, not a conflict.
	f.setFault(func(r *http.Request, path string) (int, string, string, bool) {
		if isCommit(r, path) {
			return http.StatusForbidden, "ForbiddenException", "no TABLE_WRITE_DATA", true
		}
		return 0, "", "", false
	})
	_, err = tbl.Append(alice, idBatches(t, 3, 4, 10))
	if pe := pgerror.From(err); pe.Code != "42501" || pe.Message != "permission denied for table orders" {
		t.Errorf("refused commit: %s %q, want 42501 permission denied for table orders", pe.Code, pe.Message)
	}
}

func TestRESTErrorsNeverCarryTheToken(t *testing.T) {
	f := newFakeREST(t, restAlice.Token)
	cat := openFakeREST(t, f, RESTConfig{})
	alice := WithPrincipal(t.Context(), restAlice)
	// A careless server that echoes the request's credentials back.
	for _, status := range []int{400, 403, 404, 500, 503} {
		f.setFault(func(r *http.Request, path string) (int, string, string, bool) {
			return status, "ServiceFailureException", "bad request with " + r.Header.Get("Authorization"), true
		})
		_, err := cat.LoadTable(alice, "sales", "orders")
		if err == nil {
			t.Fatalf("status %d: no error", status)
		}
		for e := error(err); e != nil; e = errors.Unwrap(e) {
			for _, text := range []string{e.Error(), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e)} {
				if strings.Contains(text, restAlice.Token) {
					t.Errorf("status %d: error text carries the token: %s", status, text)
				}
			}
		}
		if pe := pgerror.From(err); strings.Contains(pe.Message+pe.Detail+pe.Hint, restAlice.Token) {
			t.Errorf("status %d: client message carries the token", status)
		}
	}
}

func TestRESTServiceToken(t *testing.T) {
	f := newFakeREST(t, "svc-token-55")
	cat := openFakeREST(t, f, RESTConfig{ServiceToken: "svc-token-55"})
	reqs := assertAllAuth(t, f, "open", "svc-token-55")
	if reqs[0].Path != "/config" {
		t.Errorf("opening with a service token sent %s, want GET /config", reqs[0].Path)
	}
	if err := cat.CreateNamespace(WithPrincipal(t.Context(), restAlice), "ops"); err != nil {
		t.Fatal(err)
	}
	assertAllAuth(t, f, "alice with a service token", "svc-token-55")

	if _, err := OpenREST(t.Context(), RESTConfig{Name: "x", URI: f.srv.URL, Warehouse: "wh", ServiceToken: "wrong"}); pgerror.Code(err) != "28000" {
		t.Errorf("OpenREST with a refused service token: %v, want SQLSTATE 28000", err)
	}
	if _, err := OpenREST(t.Context(), RESTConfig{Name: "x", URI: f.srv.URL, ServiceToken: "a", Credential: "b:c"}); err == nil {
		t.Errorf("OpenREST with both a service token and a credential succeeded")
	}
}

func TestRESTDDL(t *testing.T) {
	f := newFakeREST(t, restAlice.Token)
	cat := openFakeREST(t, f, RESTConfig{})
	ctx := WithPrincipal(t.Context(), restAlice)
	if err := cat.CreateNamespace(ctx, "sales"); err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, "sales"); pgerror.Code(err) != pgerror.DuplicateSchema || !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("second CreateNamespace: %v, want 42P06", err)
	}
	if ok, err := cat.NamespaceExists(ctx, "sales"); !ok || err != nil {
		t.Errorf("NamespaceExists(sales) = %v, %v", ok, err)
	}
	if ok, err := cat.NamespaceExists(ctx, "nope"); ok || err != nil {
		t.Errorf("NamespaceExists(nope) = %v, %v", ok, err)
	}
	tbl, err := cat.CreateTable(ctx, "sales", "orders", idSchema, CreateTableOptions{
		Properties:       map[string]string{"comment": "orders"},
		Partitioning:     []PartitionField{{Transform: "bucket", Param: 4, Column: "id"}},
		ColumnProperties: map[string]map[string]string{"name": {DeclaredTypeKey: "character varying(20)"}},
	})
	if err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	props := tbl.Properties()
	if props["comment"] != "orders" || props[ColumnProperty(DeclaredTypeKey, 2)] != "character varying(20)" || props[propDeleteMode] != deleteMode {
		t.Errorf("table properties: %v", props)
	}
	if _, err := cat.CreateTable(ctx, "sales", "orders", idSchema, CreateTableOptions{}); pgerror.Code(err) != pgerror.DuplicateTable {
		t.Errorf("second CreateTable: %v, want 42P07", err)
	}
	if tbl, err = tbl.Append(ctx, idBatches(t, 1, 6, 2)); err != nil {
		t.Fatal(err)
	}
	tbl, err = tbl.Alter(ctx, func(a *Alteration) error {
		_, err := a.AddColumn("qty", arrow.PrimitiveTypes.Int32, false, "")
		return err
	})
	if err != nil {
		t.Fatalf("Alter: %v", err)
	}
	if got := tbl.Schema().Field(2).Name; got != "qty" {
		t.Errorf("added column is %q", got)
	}
	if err := cat.DropNamespace(ctx, "sales"); pgerror.Code(err) != codeDependentObjects || !errors.Is(err, ErrNotEmpty) {
		t.Errorf("DropNamespace of a non-empty namespace: %v, want 2BP01", err)
	}
	renamed, err := cat.RenameTable(ctx, "sales", "orders", "orders2")
	if err != nil {
		t.Fatalf("RenameTable: %v", err)
	}
	if renamed.Ident().Table != "orders2" || countRows(t, renamed) != 5 {
		t.Errorf("renamed table %v has %d rows, want orders2 with 5", renamed.Ident(), countRows(t, renamed))
	}
	if _, err := cat.CreateTable(ctx, "sales", "other", idSchema, CreateTableOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.RenameTable(ctx, "sales", "other", "orders2"); pgerror.Code(err) != pgerror.DuplicateTable {
		t.Errorf("rename onto an existing table: %v, want 42P07", err)
	}
	truncated, err := renamed.Truncate(ctx)
	if err != nil {
		t.Fatalf("Truncate: %v", err)
	}
	if n := countRows(t, truncated); n != 0 {
		t.Errorf("%d rows after truncate", n)
	}
	for _, name := range []string{"orders2", "other"} {
		if err := cat.DropTable(ctx, "sales", name); err != nil {
			t.Fatalf("DropTable %s: %v", name, err)
		}
	}
	if err := cat.DropTable(ctx, "sales", "orders2"); pgerror.Code(err) != pgerror.UndefinedTable {
		t.Errorf("second DropTable: %v, want 42P01", err)
	}
	if err := cat.DropNamespace(ctx, "sales"); err != nil {
		t.Fatalf("DropNamespace: %v", err)
	}
	if names, err := cat.ListNamespaces(ctx); err != nil || len(names) != 0 {
		t.Errorf("namespaces after the drop: %v, %v", names, err)
	}
	assertAllAuth(t, f, "alice", restAlice.Token)
}
