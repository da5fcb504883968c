package storage

import (
	"context"
	"errors"
	"fmt"
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
		{ActionListNamespaces, "wh", pgerror.InsufficientPrivilege, func(ctx context.Context, c Catalog) error { _, err := c.ListNamespaces(ctx); return err }},
		{ActionLoadNamespace, "wh.ns", pgerror.InsufficientPrivilege, func(ctx context.Context, c Catalog) error { _, err := c.NamespaceExists(ctx, "ns"); return err }},
		{ActionCreateNamespace, "wh.other", pgerror.InsufficientPrivilege, func(ctx context.Context, c Catalog) error { return c.CreateNamespace(ctx, "other") }},
		{ActionListTables, "wh.ns", pgerror.InsufficientPrivilege, func(ctx context.Context, c Catalog) error { _, err := c.ListTables(ctx, "ns"); return err }},
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

			// Refused without a principal, even by an authorizer that allows.
			open := openCatalog(t, "wh", dir, AllowAll{})
			if err := tt.call(t.Context(), open); !errors.Is(err, ErrForbidden) {
				t.Fatalf("call without principal returned %v, want ErrForbidden", err)
			}
		})
	}
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
