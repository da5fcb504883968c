package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// refuser refuses one action and records every question it is asked.
type refuser struct {
	refuse Action
	mu     sync.Mutex
	asked  []string
}

func (r *refuser) Authorize(_ context.Context, p Principal, a Action, target Ident) error {
	r.mu.Lock()
	r.asked = append(r.asked, fmt.Sprintf("%s %s %s", p.User, a, target))
	r.mu.Unlock()
	if a == r.refuse {
		return errors.New("policy says no")
	}
	return nil
}

func (r *refuser) saw(q string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range r.asked {
		if a == q {
			return true
		}
	}
	return false
}

func TestAuthorizerGatesEveryAction(t *testing.T) {
	dir := t.TempDir()
	setup := openCatalog(t, "wh", dir, AllowAll{})
	createIDTable(t, setup, "ns", "t")

	type call func(ctx context.Context, cat Catalog) error
	loadThenAppend := func(ctx context.Context, cat Catalog) error {
		tbl, err := setup.LoadTable(adminCtx(t), "ns", "t") // loaded by someone allowed
		if err != nil {
			return err
		}
		tbl.host = cat.(*embeddedCatalog) // appended through the gated catalog
		_, err = tbl.Append(ctx, idBatches(t, 0, 1, 1))
		return err
	}
	tests := []struct {
		action Action
		target string
		code   string
		call   call
	}{
		{ActionCreateNamespace, "wh.other", pgerror.InsufficientPrivilege, func(ctx context.Context, c Catalog) error { return c.CreateNamespace(ctx, "other") }},
		{ActionLoadTable, "wh.ns.t", pgerror.InsufficientPrivilege, func(ctx context.Context, c Catalog) error { _, err := c.LoadTable(ctx, "ns", "t"); return err }},
		{ActionCreateTable, "wh.ns.t2", pgerror.InsufficientPrivilege, func(ctx context.Context, c Catalog) error {
			_, err := c.CreateTable(ctx, "ns", "t2", idSchema, CreateTableOptions{})
			return err
		}},
		{ActionUpdateTable, "wh.ns.t", pgerror.InsufficientPrivilege, loadThenAppend},
	}
	for _, tt := range tests {
		t.Run(string(tt.action), func(t *testing.T) {
			r := &refuser{refuse: tt.action}
			cat := openCatalog(t, "wh", dir, r)

			// Refused with a principal.
			err := tt.call(adminCtx(t), cat)
			if !errors.Is(err, ErrForbidden) {
				t.Fatalf("refused call returned %v, want ErrForbidden", err)
			}
			if got := pgerror.Code(err); got != tt.code {
				t.Fatalf("SQLSTATE %s, want %s", got, tt.code)
			}
			if strings.Contains(err.Error(), testAdmin.Token) || strings.Contains(pgerror.From(err).Message, "policy") {
				t.Fatalf("refusal leaks detail: %v / %q", err, pgerror.From(err).Message)
			}
			if q := fmt.Sprintf("carol %s %s", tt.action, tt.target); !r.saw(q) {
				t.Fatalf("authorizer was not asked %q; asked %v", q, r.asked)
			}

			// Refused without a principal, even by an authorizer that allows
			// (a load finds the namespace invisible, so the table absent).
			open := openCatalog(t, "wh", dir, AllowAll{})
			if err := tt.call(t.Context(), open); !errors.Is(err, ErrForbidden) && !errors.Is(err, ErrNoSuchTable) {
				t.Fatalf("call without principal returned %v, want ErrForbidden or ErrNoSuchTable", err)
			}
		})
	}
}

// Listings leave out what the caller may not see, and a table in a
// namespace the caller cannot see is absent rather than refused.
func TestCatalogHidesWhatCallerCannotSee(t *testing.T) {
	dir := t.TempDir()
	setup := openCatalog(t, "wh", dir, AllowAll{})
	createIDTable(t, setup, "ns", "t")
	createIDTable(t, setup, "ns", "u")
	for _, tc := range []struct {
		refuse     Action
		namespaces []string
		tables     []string // nil: ListTables fails with ErrNoSuchNamespace
		loadErr    error    // what LoadTable of ns.t gives
	}{
		{refuse: ActionListNamespaces, namespaces: nil, loadErr: ErrNoSuchTable},
		{refuse: ActionLoadNamespace, namespaces: nil, loadErr: ErrNoSuchTable},
		// Without table-list the caller still sees the tables it may load.
		{refuse: ActionListTables, namespaces: []string{"ns"}, tables: []string{"t", "u"}},
		{refuse: ActionLoadTable, namespaces: []string{"ns"}, tables: []string{"t", "u"}, loadErr: ErrForbidden},
	} {
		t.Run(string(tc.refuse), func(t *testing.T) {
			cat := openCatalog(t, "wh", dir, &refuser{refuse: tc.refuse})
			ctx := adminCtx(t)
			ns, err := cat.ListNamespaces(ctx)
			if err != nil || !slices.Equal(ns, tc.namespaces) {
				t.Fatalf("ListNamespaces = %v, %v; want %v", ns, err, tc.namespaces)
			}
			exists, err := cat.NamespaceExists(ctx, "ns")
			if err != nil || exists != (tc.namespaces != nil) {
				t.Fatalf("NamespaceExists = %v, %v", exists, err)
			}
			tables, err := cat.ListTables(ctx, "ns")
			if tc.tables == nil {
				if !errors.Is(err, ErrNoSuchNamespace) {
					t.Fatalf("ListTables of a hidden namespace = %v, %v", tables, err)
				}
			} else if err != nil || !slices.Equal(tables, tc.tables) {
				t.Fatalf("ListTables = %v, %v; want %v", tables, err, tc.tables)
			}
			_, err = cat.LoadTable(ctx, "ns", "t")
			if tc.loadErr == nil && err != nil || tc.loadErr != nil && !errors.Is(err, tc.loadErr) {
				t.Fatalf("LoadTable = %v, want %v", err, tc.loadErr)
			}
			var loadable []string
			if tc.loadErr == nil {
				loadable = tc.tables
			}
			checkLoadTables(t, ctx, cat, loadable)
		})
	}
	// A caller that may load only some tables lists only those.
	cat := openCatalog(t, "wh", dir, onlyTable{name: "u"})
	tables, err := cat.ListTables(adminCtx(t), "ns")
	if err != nil || !slices.Equal(tables, []string{"u"}) {
		t.Fatalf("ListTables with one loadable table = %v, %v", tables, err)
	}
	checkLoadTables(t, adminCtx(t), cat, []string{"u"})
}

// checkLoadTables checks that LoadTables of ns gives the tables named
// want, through the embedded catalog's single query and through
// ListTables and LoadTable alike.
func checkLoadTables(t *testing.T, ctx context.Context, cat Catalog, want []string) {
	t.Helper()
	for _, c := range []Catalog{cat, struct{ Catalog }{cat}} {
		tables, err := LoadTables(ctx, c, "ns")
		if err != nil {
			t.Fatalf("LoadTables: %v", err)
		}
		var got []string
		for _, tbl := range tables {
			got = append(got, tbl.Ident().Table)
		}
		if !slices.Equal(got, want) {
			t.Errorf("LoadTables (%T) = %v, want %v", c, got, want)
		}
	}
}

// onlyTable allows everything but listing tables and loading any table
// other than name.
type onlyTable struct{ name string }

func (o onlyTable) Authorize(_ context.Context, _ Principal, a Action, target Ident) error {
	switch {
	case a == ActionListTables, a == ActionLoadTable && target.Table != o.name:
		return errors.New("no")
	}
	return nil
}

func TestRefusedAppendCommitsNothing(t *testing.T) {
	dir := t.TempDir()
	setup := openCatalog(t, "wh", dir, AllowAll{})
	tbl := createIDTable(t, setup, "ns", "t")
	if _, err := tbl.Append(t.Context(), idBatches(t, 0, 5, 5)); !errors.Is(err, ErrForbidden) {
		t.Fatalf("append without principal = %v, want ErrForbidden", err)
	}
	tbl, err := setup.LoadTable(adminCtx(t), "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if tbl.SnapshotID() != 0 {
		t.Fatalf("refused append committed snapshot %d", tbl.SnapshotID())
	}
}

func TestAllowAllAllowsEverything(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	if _, err := cat.ListNamespaces(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.ListTables(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.Append(ctx, idBatches(t, 0, 3, 3)); err != nil {
		t.Fatal(err)
	}
}

func TestPrincipalContextAndRedaction(t *testing.T) {
	if _, ok := PrincipalFrom(t.Context()); ok {
		t.Fatal("empty context has a principal")
	}
	ctx := WithPrincipal(t.Context(), testAdmin)
	p, ok := PrincipalFrom(ctx)
	if !ok || p.User != "carol" || p.Token != testAdmin.Token {
		t.Fatalf("PrincipalFrom = %#v, %v", p, ok)
	}
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		if s := fmt.Sprintf(format, p); strings.Contains(s, testAdmin.Token) || !strings.Contains(s, "carol") {
			t.Errorf("Sprintf(%q) = %q: must name the user and hide the token", format, s)
		}
	}
}
