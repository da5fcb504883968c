package rangeradmin

import (
	"context"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestRenameRefusedWhilePolicyNamesTable: with gate one in Ranger, a
// table or namespace a policy names cannot be renamed out of it; a
// rename no policy names goes ahead, and so does a column rename (not
// gate one's). Ranger unreachable refuses.
func TestRenameRefusedWhilePolicyNamesTable(t *testing.T) {
	f := newFakeRanger(t)
	s := newService(t, f, "")
	ctx := context.Background()
	run(t, s, carol, grants.ActionDeny, statement("SELECT", orders, alice))
	rename := func(kind governance.RenameKind, ns, from, to string) error {
		_, err := s.BeforeRename(ctx, governance.ObjectRename{Kind: kind, Catalog: "wh", Namespace: ns, Table: from, From: from, To: to})
		return err
	}
	err := rename(governance.RenameTable, "sales", "orders", "orders2")
	if sqlstate(err) != pgerror.InsufficientPrivilege || !strings.Contains(err.Error(), `policy "`) {
		t.Errorf("rename of a table a policy names: %v, want 42501 naming the policy", err)
	}
	if err := rename(governance.RenameNamespace, "sales", "sales", "s2"); sqlstate(err) != pgerror.InsufficientPrivilege {
		t.Errorf("rename of a namespace policies name: %v, want 42501", err)
	}
	if err := rename(governance.RenameTable, "sales", "returns", "returns2"); err != nil {
		t.Errorf("rename of a table no policy names: %v", err)
	}
	if err := rename(governance.RenameColumn, "sales", "ssn", "tax_id"); err != nil {
		t.Errorf("column rename: %v", err)
	}
	f.server.Close()
	if err := rename(governance.RenameTable, "sales", "returns", "returns2"); err == nil {
		t.Errorf("rename with Ranger unreachable went ahead")
	}
}
