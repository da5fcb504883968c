package sql

import (
	"context"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// ownRowsPolicy is gate two for the test: on s.t, every user but the
// owner "admin" sees only the rows whose owner column is his name, with
// the secret column masked.
type ownRowsPolicy struct{}

func (ownRowsPolicy) SecurityFor(id auth.Identity) planner.Security {
	return ownRowsSecurity{user: id.User}
}

type ownRowsSecurity struct{ user string }

func (p ownRowsSecurity) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	rel, err := planner.OpenRelation{}.Secure(ctx, t)
	if err != nil || p.user == "admin" || t.QualifiedName().Name != "t" {
		return rel, err
	}
	rel.RowFilters = []string{"owner = '" + strings.ReplaceAll(p.user, "'", "''") + "'"}
	for i, c := range t.Columns() {
		if c.Name == "secret" {
			rel.Masks = map[int]string{i: "'***'"}
		}
	}
	return rel, nil
}

// A view reads its tables with the reader's own policies (security
// invoker): a row filter and a mask apply through the view, even when the
// view was created by someone who sees everything and even when the view
// does not project the filtered column.
func TestViewAppliesReaderPolicies(t *testing.T) {
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	e := NewEngine(EngineConfig{}, []storage.Catalog{cat}, ownRowsPolicy{})
	session := func(user string) *Session {
		s, err := e.NewSession(ctx, auth.Identity{User: user}, "sales_wh", nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	admin, bob := session("admin"), session("bob")
	runDDLScript(t, admin, []ddlStep{
		{query: "CREATE SCHEMA s"},
		{query: "CREATE TABLE s.t (id int, owner text, secret text)"},
		{query: "INSERT INTO s.t VALUES (1, 'bob', 'b1'), (2, 'carol', 'c2'), (3, 'bob', 'b3')"},
		{query: "CREATE VIEW s.all_ids AS SELECT id FROM s.t"},
		{query: "CREATE VIEW s.secrets AS SELECT id, secret FROM s.t WHERE id > 0"},
		{query: "CREATE VIEW s.counts AS SELECT count(*) AS n FROM s.all_ids"},
		{query: "SELECT id FROM s.all_ids ORDER BY id", rows: []string{"1", "2", "3"}},
		{query: "SELECT n FROM s.counts", rows: []string{"3"}},
	})
	runDDLScript(t, bob, []ddlStep{
		{query: "SELECT id FROM s.all_ids ORDER BY id", rows: []string{"1", "3"}},
		{query: "SELECT id, secret FROM s.secrets ORDER BY id", rows: []string{"1|***", "3|***"}},
		{query: "SELECT id FROM s.secrets WHERE secret = 'c2'", rows: []string{}},
		{query: "SELECT n FROM s.counts", rows: []string{"2"}},
		// A failing predicate is never evaluated on a hidden row.
		{query: "SELECT id FROM s.all_ids WHERE 1 / (id - 2) = 1 ORDER BY id", rows: []string{"3"}},
		{query: "SELECT id FROM s.all_ids WHERE 1 / (id - 3) <> 7 ORDER BY id", code: pgerror.DivisionByZero},
	})
}
