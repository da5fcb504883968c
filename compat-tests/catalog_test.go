package compattests

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// updateCatalog rewrites the generated catalog queries and the list of
// entries that differ, instead of checking them.
var updateCatalog = flag.Bool("update-catalog", false, "rewrite testdata/catalog from the reference PostgreSQL and SQE's answers")

const (
	catalogDir = "testdata/catalog"
	// catalogQueriesFile holds the generated queries.
	catalogQueriesFile = "operators_functions.sql"
	// catalogDifferencesFile lists every entry whose answer is not
	// PostgreSQL's, with a category: the expectation the test holds SQE
	// to.
	catalogDifferencesFile = "differences.txt"
)

// catalogVerdict is one entry's outcome over its queries.
type catalogVerdict struct {
	entry     string
	identical bool
	// missing: SQE has no such function or operator (42883).
	missing  bool
	category string
	detail   string
}

// TestDifferentialCatalog regenerates the catalog queries from a fresh
// PostgreSQL 15 (failing if the checked-in file is stale), runs each on
// PostgreSQL and on SQE, and compares the answers as the differential
// suite does. An entry is identical when all its queries are; the log
// gives the coverage (entries, identical, different, missing). An entry
// not identical must be listed in differences.txt, and a listed one that
// has become identical must be removed: the list is the expectation, so a
// regression fails the test while low coverage alone does not.
func TestDifferentialCatalog(t *testing.T) {
	ctx := testContext(t, 4*time.Minute)
	pg := startRefPostgres(t, ctx)
	refCfg, err := pgx.ParseConfig(fmt.Sprintf("host=127.0.0.1 port=%s user=alice dbname=%s sslmode=disable", pg.port, demoDatabase))
	if err != nil {
		t.Fatal(err)
	}
	refCfg.Fallbacks = nil
	ref := connectConfig(t, ctx, refCfg)

	start := time.Now()
	entries, err := loadCatalogEntries(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	records, err := generateCatalogRecords(ctx, ref, entries)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated %d queries for %d entries in %s", len(records), len(entries), time.Since(start).Round(time.Millisecond))
	queriesPath := filepath.Join(catalogDir, catalogQueriesFile)
	generated := formatCatalogFile(records)
	if *updateCatalog {
		if err := os.WriteFile(queriesPath, []byte(generated), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if onDisk, err := os.ReadFile(queriesPath); err != nil || string(onDisk) != generated {
		t.Fatalf("%s is not what PostgreSQL's catalog generates (%v): run go test -run TestDifferentialCatalog ./compat-tests/ -update-catalog",
			queriesPath, err)
	}
	// The checked-in file is what runs, through the suite's own reader.
	parsed, err := parseDiffFile(queriesPath)
	if err != nil {
		t.Fatal(err)
	}
	signatures := map[string]string{}
	for _, e := range entries {
		signatures[e.id] = e.signature
	}

	sqeCfg := pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.token)
	conns := &catalogConns{sqeCfg: sqeCfg, refCfg: refCfg, ref: ref, sqe: connectConfig(t, ctx, sqeCfg)}
	t.Cleanup(conns.close)
	for _, c := range []*pgx.Conn{conns.sqe, conns.ref} {
		if _, err := c.Exec(ctx, "SET statement_timeout = '"+diffStatementTimeout+"'"); err != nil {
			t.Fatal(err)
		}
	}

	start = time.Now()
	verdicts := map[string]*catalogVerdict{}
	var order []string
	for _, rec := range parsed {
		id := catalogEntryOf(rec.name)
		v, ok := verdicts[id]
		if !ok {
			v = &catalogVerdict{entry: id, identical: true}
			verdicts[id] = v
			order = append(order, id)
		}
		refOut := conns.run(t, ctx, false, rec.sql)
		if (rec.mode == modeError) != (refOut.err != nil) {
			t.Errorf("%s: PostgreSQL answers %s, not as when the file was generated: regenerate it", rec.name, refOut.describe())
			continue
		}
		sqeOut := conns.run(t, ctx, true, rec.sql)
		diff := compareOutcomes(rec.mode, sqeOut, refOut)
		if diff == "" || !v.identical {
			continue
		}
		v.identical = false
		v.category, v.missing = catalogCategory(rec.mode, sqeOut, refOut)
		v.detail = rec.name + ": " + diff
	}
	t.Logf("ran %d queries on both servers in %s", len(parsed), time.Since(start).Round(time.Millisecond))

	t.Logf("\n%s", catalogCoverage(order, verdicts))

	listPath := filepath.Join(catalogDir, catalogDifferencesFile)
	if *updateCatalog {
		if err := os.WriteFile(listPath, []byte(formatCatalogDifferences(order, verdicts, signatures)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	listed, err := loadCatalogDifferences(listPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range order {
		v := verdicts[id]
		_, isListed := listed[id]
		switch {
		case !v.identical && !isListed:
			t.Errorf("%s (%s) no longer answers as PostgreSQL does: %s", id, signatures[id], v.detail)
		case v.identical && isListed:
			t.Errorf("%s (%s) is listed in %s but now answers as PostgreSQL does: remove the line (or run with -update-catalog)",
				id, signatures[id], catalogDifferencesFile)
		}
		delete(listed, id)
	}
	for id := range listed {
		t.Errorf("%s lists %s, which is no entry of the catalog queries", catalogDifferencesFile, id)
	}
}

// catalogConns are the two connections, replaced when a query breaks one.
type catalogConns struct {
	sqeCfg, refCfg *pgx.ConnConfig
	sqe, ref       *pgx.Conn
}

func (c *catalogConns) close() {
	_ = c.sqe.Close(context.Background())
	_ = c.ref.Close(context.Background())
}

// run runs sql on SQE or PostgreSQL within diffQueryTimeout, reconnecting
// if the query broke the connection.
func (c *catalogConns) run(t *testing.T, ctx context.Context, onSQE bool, sql string) outcome {
	t.Helper()
	conn, cfg := c.ref, c.refCfg
	if onSQE {
		conn, cfg = c.sqe, c.sqeCfg
	}
	qctx, cancel := context.WithTimeout(ctx, diffQueryTimeout)
	out := runForDiff(qctx, conn, sql)
	cancel()
	if !conn.IsClosed() {
		return out
	}
	fresh, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("reconnect after a broken connection: %v", err)
	}
	if _, err := fresh.Exec(ctx, "SET statement_timeout = '"+diffStatementTimeout+"'"); err != nil {
		t.Fatalf("reconnect: %v", err)
	}
	if onSQE {
		c.sqe = fresh
	} else {
		c.ref = fresh
	}
	return out
}

// catalogCategory names why an answer differs, and whether the entry is
// missing from SQE.
func catalogCategory(mode diffMode, sqe, ref outcome) (string, bool) {
	switch {
	case sqe.err != nil && sqe.code == "42883":
		if strings.Contains(sqe.err.Error(), "operator") {
			return "missing operator", true
		}
		return "missing function", true
	case sqe.err != nil && sqe.code == "0A000":
		return "unsupported in SQE", false
	case sqe.err != nil && ref.err != nil:
		return "different SQLSTATE", false
	case sqe.err != nil:
		return "SQE fails where PostgreSQL answers", false
	case ref.err != nil:
		return "SQE answers where PostgreSQL fails", false
	case sqe.columns != ref.columns || len(sqe.rows) != len(ref.rows):
		return "different shape", false
	}
	return "different value", false
}

// catalogCoverage is the coverage line and the count per category.
func catalogCoverage(order []string, verdicts map[string]*catalogVerdict) string {
	identical, missing := 0, 0
	byCategory := map[string]int{}
	for _, id := range order {
		v := verdicts[id]
		switch {
		case v.identical:
			identical++
		case v.missing:
			missing++
		}
		if !v.identical {
			byCategory[v.category]++
		}
	}
	total := len(order)
	var b strings.Builder
	fmt.Fprintf(&b, "catalog coverage: %d entries, %d identical (%.1f%%), %d different, %d missing\n",
		total, identical, 100*float64(identical)/float64(max(total, 1)), total-identical-missing, missing)
	cats := make([]string, 0, len(byCategory))
	for c := range byCategory {
		cats = append(cats, c)
	}
	sort.Slice(cats, func(i, j int) bool {
		if byCategory[cats[i]] != byCategory[cats[j]] {
			return byCategory[cats[i]] > byCategory[cats[j]]
		}
		return cats[i] < cats[j]
	})
	for _, c := range cats {
		fmt.Fprintf(&b, "  %4d  %s\n", byCategory[c], c)
	}
	return b.String()
}

const catalogDifferencesHeader = `# Catalog entries (operators and functions of PostgreSQL 15 over types SQE supports) whose
# answer on SQE is not PostgreSQL's, one a line:
#   <entry id> | <signature> | <category>: <first differing query and how it differs>
# TestDifferentialCatalog fails when an entry not listed here differs (a regression) and when
# a listed one answers as PostgreSQL does. Rewrite with -update-catalog after a change.
`

func formatCatalogDifferences(order []string, verdicts map[string]*catalogVerdict, signatures map[string]string) string {
	var b strings.Builder
	b.WriteString(catalogDifferencesHeader)
	for _, id := range order {
		v := verdicts[id]
		if v.identical {
			continue
		}
		detail := strings.ReplaceAll(v.detail, "\n", " ")
		detail = strings.ReplaceAll(detail, " | ", " / ")
		if len(detail) > 200 {
			detail = detail[:200] + "..."
		}
		fmt.Fprintf(&b, "%s | %s | %s: %s\n", id, signatures[id], v.category, strings.ToValidUTF8(detail, ""))
	}
	return b.String()
}

// loadCatalogDifferences reads the listed entry ids.
func loadCatalogDifferences(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog differences: %w", err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, " | ", 3)
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: want \"<entry id> | <signature> | <reason>\", got %q", filepath.Base(path), n, line)
		}
		id := strings.TrimSpace(fields[0])
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("%s:%d: %s listed twice", filepath.Base(path), n, id)
		}
		out[id] = fields[2]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read catalog differences: %w", err)
	}
	return out, nil
}
