package sql

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/planner/sqlwrite"
	"github.com/sqe-db/sqe/sql/remote/trino"
	"github.com/sqe-db/sqe/sql/remote/trinotest"
)

// bob's query in remote mode on a server following Trino's client
// protocol: the statement it receives is the secured plan in Trino's
// dialect (the row filter, the mask over the raw column, the catalog
// renamed), sent as the service user, and the rows it answers reach bob
// as a local answer would. An error is reported by Trino's error name.
func TestRemoteExecutionOnTrino(t *testing.T) {
	fake := trinotest.New(t)
	eng, err := trino.New(trino.Config{Name: "trino", URI: fake.URL, User: "sqe", Catalogs: sqlwrite.Catalogs{"sales_wh": "iceberg"}})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := newGatedEngine(t)
	e.cfg.Remote = &RemoteExecution{Engines: []RemoteEngine{{Engine: eng, MinScanBytes: 1 << 30}}}
	carol, bob := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "analyst", "engineer")
	for _, q := range []string{
		"GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst",
		"CREATE POLICY mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn",
		"CREATE POLICY eu ON TABLE sales_wh.acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')",
		"SET sqe.execution = 'remote'",
	} {
		if _, _, err := run(t, carol, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, _, err := run(t, bob, "SET sqe.execution = 'remote'"); err != nil {
		t.Fatal(err)
	}
	const query = "SELECT id, region, ssn FROM acdemo.orders ORDER BY id"
	// The server answers no statement it was not told of.
	_, _, err = run(t, bob, query)
	if err == nil || !strings.Contains(err.Error(), `remote engine "trino": NOT_SUPPORTED`) {
		t.Fatalf("a statement Trino refuses: %v", err)
	}
	queries := fake.Queries()
	if len(queries) != 1 {
		t.Fatalf("Trino received %d statements, want 1", len(queries))
	}
	sent := queries[0].SQL
	for _, part := range []string{`"iceberg"."acdemo"."orders"`, `"region" = 'EU'`, "translate(substr(\"ssn\"", "NULLS LAST"} {
		if !strings.Contains(sent, part) {
			t.Errorf("the statement sent lacks %s:\n%.800s", part, sent)
		}
	}
	if strings.Contains(sent, "COLLATE") || strings.Contains(sent, "111-11-1111") {
		t.Errorf("the statement is not Trino's, or holds a stored value:\n%.800s", sent)
	}
	if got := queries[0].Header.Get("X-Trino-User"); got != "sqe" {
		t.Errorf("sent as %q, want the service user sqe", got)
	}

	fake.Answer(sent, trinotest.Result{
		Columns: []trinotest.Column{{Name: "c7", Type: "bigint"}, {Name: "c8", Type: "varchar"}, {Name: "c9", Type: "varchar"}},
		Rows:    [][]any{{json.Number("1"), "EU", "xxx-xx-1111"}, {json.Number("3"), "EU", "xxx-xx-3333"}},
	})
	rows, _, err := run(t, bob, query)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1|EU|xxx-xx-1111", "3|EU|xxx-xx-3333"}; !slices.Equal(rows, want) {
		t.Errorf("bob's remote answer %q, want %q", rows, want)
	}

	// EXPLAIN names the engine; only an administrator sees the SQL.
	plan, _, err := run(t, bob, "EXPLAIN "+query)
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(plan, "\n"); !strings.Contains(text, "Remote on trino (Trino dialect)") || strings.Contains(text, "SQL:") {
		t.Errorf("bob's EXPLAIN:\n%s", text)
	}
	plan, _, err = run(t, carol, "EXPLAIN "+query)
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(plan, "\n"); !strings.Contains(text, "SQL: SELECT") || strings.Contains(text, "translate") {
		// carol is under no mask: her statement reads ssn raw.
		t.Errorf("carol's EXPLAIN:\n%s", text)
	}

	// Something Trino has no exact equivalent of: refused with 0A000 in
	// remote mode, run here in auto mode (its few bytes stay here too).
	_, _, err = run(t, bob, "SELECT upper(region) FROM acdemo.orders")
	if err == nil || !strings.Contains(err.Error(), "0A000") || !strings.Contains(err.Error(), "function upper") {
		t.Errorf("remote upper(): %v, want 0A000 naming it", err)
	}
	if _, _, err := run(t, bob, "SET sqe.execution = 'auto'"); err != nil {
		t.Fatal(err)
	}
	if rows, _, err := run(t, bob, "SELECT upper(region) FROM acdemo.orders ORDER BY 1"); err != nil || !slices.Equal(rows, []string{"EU", "EU"}) {
		t.Errorf("auto upper(): %q, %v", rows, err)
	}
	if n := len(fake.Queries()); n != 2 {
		t.Errorf("Trino received %d statements, want 2", n)
	}
}
