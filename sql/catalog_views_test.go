package sql

import (
	"context"
	"fmt"
	"testing"

	"github.com/sqe-db/sqe/storage"
)

// TestCatalogViewsFollowEveryChange checks that a remembered catalog view
// never outlives what it was computed from: each statement below runs
// after a change that must show at once, for the session that made it
// and for the others of the same caller, and never for another caller.
func TestCatalogViewsFollowEveryChange(t *testing.T) {
	e, _ := newGatedEngine(t)
	open := func(user string, roles ...string) *Session { return openAs(t, e, user, roles...) }
	carol, bob, bobAgain, alice, dave := open("carol", "sqe_admin"), open("bob", "analyst", "engineer"),
		open("bob", "analyst", "engineer"), open("alice", "analyst"), open("dave")
	bobEngineerOnly := open("bob", "engineer")
	const tables = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'acdemo' ORDER BY 1"
	const reltuples = "SELECT c.reltuples FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'acdemo' AND c.relname = 'orders'"
	const comment = "SELECT obj_description('acdemo.orders'::regclass)"
	none := []string(nil)
	runGateTwoSteps(t, []gateTwoStep{
		// Nothing granted: the schema is not there for bob.
		{s: bob, sql: tables, rows: none},
		{s: carol, sql: "GRANT USAGE ON SCHEMA acdemo TO ROLE analyst"},
		{s: carol, sql: "GRANT SELECT ON TABLE acdemo.orders TO ROLE analyst"},
		{s: bob, sql: tables, rows: []string{"orders"}},
		{s: bobAgain, sql: tables, rows: []string{"orders"}},
		{s: alice, sql: tables, rows: []string{"orders"}},
		// Another caller, and the same user with other roles, have views
		// of their own.
		{s: dave, sql: tables, rows: none},
		{s: bobEngineerOnly, sql: tables, rows: none},
		// A revoked grant hides the table at the next statement, in every
		// session of every caller that held it.
		{s: carol, sql: "REVOKE SELECT ON TABLE acdemo.orders FROM ROLE analyst"},
		{s: bob, sql: tables, rows: none},
		{s: bobAgain, sql: tables, rows: none},
		{s: alice, sql: tables, rows: none},
		{s: carol, sql: "GRANT SELECT ON ALL TABLES IN SCHEMA acdemo TO ROLE analyst"},
		{s: bob, sql: tables, rows: []string{"orders", "sales"}},
		// A DENY takes one away again.
		{s: carol, sql: "DENY SELECT ON TABLE acdemo.sales TO USER bob"},
		{s: bob, sql: tables, rows: []string{"orders"}},
		{s: alice, sql: tables, rows: []string{"orders", "sales"}},
		// DDL shows at once.
		{s: carol, sql: "CREATE TABLE acdemo.added (id bigint)"},
		{s: bob, sql: tables, rows: []string{"added", "orders"}},
		{s: carol, sql: "ALTER TABLE acdemo.added RENAME TO renamed"},
		{s: bob, sql: tables, rows: []string{"orders", "renamed"}},
		{s: carol, sql: "DROP TABLE acdemo.renamed"},
		{s: bob, sql: tables, rows: []string{"orders"}},
		// A comment, and a commit's row count.
		{s: bob, sql: comment, rows: []string{"NULL"}},
		{s: carol, sql: "COMMENT ON TABLE acdemo.orders IS 'sales orders'"},
		{s: bob, sql: comment, rows: []string{"sales orders"}},
		{s: bob, sql: reltuples, rows: []string{"3"}},
		{s: carol, sql: "INSERT INTO acdemo.orders VALUES (4, 'US', '444-44-4444', 4.00, DATE '2024-01-04')"},
		{s: bob, sql: reltuples, rows: []string{"4"}},
		// A gate-two row filter withholds the row count from bob only.
		{s: carol, sql: "CREATE POLICY eu ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')"},
		{s: bob, sql: reltuples, rows: []string{"-1"}},
		{s: alice, sql: reltuples, rows: []string{"4"}},
		{s: carol, sql: "DROP POLICY eu"},
		{s: bob, sql: reltuples, rows: []string{"4"}},
	})
}

// TestCatalogViewsNeedVersions checks that nothing is remembered when a
// part of what the view depends on cannot say its version.
func TestCatalogViewsNeedVersions(t *testing.T) {
	s := newCatalogTestSession(t, refuseFor{namespace: "none"})
	cat, err := s.engine.catalog(s.database)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := (catalogSource{s}).catalogView(context.Background(), cat); ok || err != nil {
		t.Errorf("an authorizer without versions: view remembered (%v)", err)
	}
	s = newCatalogTestSession(t, storage.AllowAll{})
	if cat, err = s.engine.catalog(s.database); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := (catalogSource{s}).catalogView(context.Background(), cat); !ok || err != nil {
		t.Errorf("AllowAll without gate two: view not remembered (%v)", err)
	}
}

// TestCatalogViewsReused checks that the view is computed once for a
// caller's sessions while nothing changes, and again after a change.
func TestCatalogViewsReused(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, bob, bobAgain := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "analyst"), openAs(t, e, "bob", "analyst")
	const tables = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'acdemo' ORDER BY 1"
	remembered := func(s *Session) *catalogView {
		t.Helper()
		if _, _, err := run(t, s, tables); err != nil {
			t.Fatal(err)
		}
		e.catalogViews.mu.Lock()
		defer e.catalogViews.mu.Unlock()
		for key, el := range e.catalogViews.entries {
			if key.user == s.identity.User {
				return el.Value.(*catalogView)
			}
		}
		t.Fatalf("no view remembered for %s", s.identity.User)
		return nil
	}
	for _, q := range []string{"GRANT USAGE ON SCHEMA acdemo TO ROLE analyst", "GRANT SELECT ON TABLE acdemo.orders TO ROLE analyst"} {
		if _, _, err := run(t, carol, q); err != nil {
			t.Fatal(err)
		}
	}
	first := remembered(bob)
	if again := remembered(bobAgain); again != first {
		t.Error("a second session of the same caller computed the view again")
	}
	if _, _, err := run(t, carol, "REVOKE SELECT ON TABLE acdemo.orders FROM ROLE analyst"); err != nil {
		t.Fatal(err)
	}
	if after := remembered(bob); after == first {
		t.Error("the view outlived a REVOKE")
	}
}

// TestCatalogViewsBounded checks that the views stay within their bounds
// in callers and bytes, dropping the least recently used first, and that
// a view in use is never the one dropped.
func TestCatalogViewsBounded(t *testing.T) {
	c := newCatalogViews()
	key := func(i int) catalogViewKey { return catalogViewKey{database: "db", user: fmt.Sprint("u", i)} }
	for i := range catalogViewsSize + 10 {
		c.view(key(i), catalogViewState{})
	}
	if n := c.order.Len(); n != catalogViewsSize {
		t.Fatalf("%d views remembered, want %d", n, catalogViewsSize)
	}
	if _, ok := c.entries[key(0)]; ok {
		t.Error("the least recently used view was kept")
	}
	big := c.view(key(-1), catalogViewState{})
	c.grew(big, catalogViewsBytes+1)
	if c.order.Len() != 1 || c.order.Front().Value.(*catalogView) != big {
		t.Errorf("after one view grew past the bytes: %d views, want only it", c.order.Len())
	}
	small := c.view(key(-2), catalogViewState{})
	c.grew(small, 10)
	if _, ok := c.entries[key(-1)]; ok {
		t.Error("the view past the bytes was kept once another was used")
	}
	if c.bytes != 10 {
		t.Errorf("bytes = %d, want 10", c.bytes)
	}
	// A view at another state replaces the remembered one.
	if again := c.view(key(-2), catalogViewState{policies: 1}); again == small || c.bytes != 0 {
		t.Errorf("a view at a new state: same view %v, bytes %d", again == small, c.bytes)
	}
}
