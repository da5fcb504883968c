package sql

import (
	"context"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/storage"
)

// changingPolicy is a gate two whose policy the test changes between
// statements.
type changingPolicy struct{ p *rowPolicy }

func (c changingPolicy) SecurityFor(auth.Identity) planner.Security { return c }

func (c changingPolicy) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	return c.p.Secure(ctx, t)
}

// A prepared statement is bound again as its caller at every EXECUTE:
// a row filter or mask that changed since PREPARE applies, masked values
// stay masked, and a statement whose rows changed shape under a new mask
// is refused rather than sent with its old row description.
func TestExecuteRechecksPolicies(t *testing.T) {
	s, cat := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "INSERT INTO w.items (id, t, k) VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30), (4, 'd', 40)", tag: "INSERT 0 4"},
	})
	policy := &rowPolicy{}
	ctx := storage.WithPrincipal(context.Background(), storage.Principal{User: "loader"})
	e := NewEngine(EngineConfig{}, []storage.Catalog{cat}, changingPolicy{policy})
	bob, err := e.NewSession(ctx, auth.Identity{User: "bob"}, "sales_wh", []StartupSetting{{Name: "search_path", Value: "w"}})
	if err != nil {
		t.Fatal(err)
	}
	runDMLSteps(t, bob, []dmlStep{
		{sql: "PREPARE all_items AS SELECT id, t FROM w.items ORDER BY id", tag: "PREPARE"},
		{sql: "PREPARE above(int) AS SELECT id, t FROM w.items WHERE id > $1 ORDER BY id", tag: "PREPARE"},
		{sql: "PREPARE wipe AS DELETE FROM w.items WHERE k > 0", tag: "PREPARE"},
		{sql: "EXECUTE all_items", rows: []string{"1|a", "2|b", "3|c", "4|d"}, tag: "SELECT 4"},
	})
	*policy = rowPolicy{filter: "id % 2 = 0", masks: map[int]string{2: "upper(t)"}}
	runDMLSteps(t, bob, []dmlStep{
		{sql: "EXECUTE all_items", rows: []string{"2|B", "4|D"}, tag: "SELECT 2"},
		{sql: "EXECUTE above(2)", rows: []string{"4|D"}, tag: "SELECT 1"},
		{sql: "EXECUTE wipe", tag: "DELETE 2"},
	})
	runDMLSteps(t, s, []dmlStep{
		{sql: "SELECT id FROM w.items ORDER BY id", rows: []string{"1", "3"}, tag: "SELECT 2"},
	})
	// A statement whose rows changed shape since PREPARE is refused, as
	// PostgreSQL refuses a cached plan whose result type changed.
	runDMLSteps(t, bob, []dmlStep{
		{sql: "PREPARE star AS SELECT * FROM w.items WHERE id = 1", tag: "PREPARE"},
	})
	runDMLSteps(t, s, []dmlStep{
		{sql: "ALTER TABLE w.items ADD COLUMN z int", tag: "ALTER TABLE"},
	})
	runDMLSteps(t, bob, []dmlStep{
		{sql: "EXECUTE star", code: "0A000", msg: "cached plan must not change result type"},
		{sql: "EXECUTE all_items", tag: "SELECT 0"},
	})
}
