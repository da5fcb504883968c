package sql

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/compat-tests/datagen"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// FuzzPrepare parses and binds (Session.Prepare: pg_query or the
// extension grammar, then the binder; nothing runs) mutations of the
// differential corpus, whose queries read the TPC-H tables, and of
// statements on the demo tables, among them writes and governance
// statements. Every outcome is a prepared statement or a *pgerror.Error;
// never a panic.
func FuzzPrepare(f *testing.F) {
	s := newTestSession(f)
	ctx := context.Background()
	if _, _, err := run(f, s, "CREATE SCHEMA IF NOT EXISTS public"); err != nil {
		f.Fatal(err)
	}
	for _, t := range datagen.Tables() {
		if _, _, err := run(f, s, t.CreateStatement("public")); err != nil {
			f.Fatalf("create %s: %v", t.Name, err)
		}
	}
	seeds := append(differentialStatements(f), prepareSeeds...)
	prepared := 0
	for _, q := range seeds {
		if _, err := s.Prepare(ctx, q, nil); err == nil {
			prepared++
		}
		f.Add(q)
	}
	// Most seeds must bind, or the fuzzer only explores refusals.
	if prepared < len(seeds)*2/3 {
		f.Fatalf("only %d of %d seed statements prepare", prepared, len(seeds))
	}
	f.Fuzz(func(t *testing.T, query string) {
		ps, err := s.Prepare(ctx, query, nil)
		if err != nil {
			var pe *pgerror.Error
			if !errors.As(err, &pe) || len(pe.Code) != 5 {
				t.Fatalf("error without a SQLSTATE for %q: %v", query, err)
			}
			return
		}
		if ps == nil {
			t.Fatalf("no statement and no error for %q", query)
		}
	})
}

// prepareSeeds are statements on the demo tables the differential corpus
// does not cover: writes, DDL and the extension grammar.
var prepareSeeds = []string{
	"SELECT id, region, amount FROM acdemo.orders WHERE id = $1",
	"INSERT INTO acdemo.orders (id, region, amount) VALUES ($1, $2, $3)",
	"INSERT INTO acdemo.orders SELECT * FROM acdemo.orders WHERE region = 'EU' RETURNING id",
	"UPDATE acdemo.orders SET amount = amount * 2 WHERE region = $1 RETURNING *",
	"DELETE FROM acdemo.orders WHERE id IN (SELECT id FROM acdemo.orders WHERE amount < 0)",
	"MERGE INTO acdemo.orders o USING (SELECT 1 AS id) s ON o.id = s.id WHEN MATCHED THEN UPDATE SET amount = 0 WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)",
	"CREATE TABLE acdemo.t2 (a int PRIMARY KEY, b text DEFAULT 'x', c numeric(10,2) NOT NULL)",
	"ALTER TABLE acdemo.orders ADD COLUMN note text",
	"COPY acdemo.orders FROM STDIN (FORMAT csv, HEADER MATCH)",
	"GRANT SELECT ON TABLE acdemo.orders TO ROLE analyst",
	"DENY SELECT ON acdemo.orders TO ROLE analyst",
	"CREATE POLICY eu ON acdemo.orders FOR SELECT TO analyst USING (region = 'EU')",
	"ALTER TABLE acdemo.orders ALTER COLUMN amount SET TAGS ('pii')",
	"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r",
	"SELECT $1::int + $2, $3::text || 'x', ARRAY[$4::int]",
}

// differentialStatements reads every tenth statement of the differential
// test corpus (one per "-- name:" block): each costs catalog look-ups, and
// the seeds run in every `go test`.
func differentialStatements(f *testing.F) []string {
	f.Helper()
	files, err := filepath.Glob("../compat-tests/testdata/differential/*.sql")
	if err != nil || len(files) == 0 {
		f.Fatalf("no differential corpus: %v", err)
	}
	var out []string
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for i, block := range strings.Split(string(data), "-- name:")[1:] {
			if i%10 != 0 {
				continue
			}
			_, body, ok := strings.Cut(block, "\n")
			if stmt := strings.TrimSpace(body); ok && stmt != "" {
				out = append(out, stmt)
			}
		}
	}
	return out
}
