package compattests

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

const (
	// diffDir holds the suite's queries (*.sql) and its known differences.
	diffDir = "testdata/differential"
	// diffKnownFile lists every query whose SQE answer differs, with why.
	diffKnownFile = "known_differences.txt"
	// diffStatementTimeout is both engines' statement_timeout: a query
	// slower than this on SQE fails with 57014 and shows as a difference,
	// so one slow plan cannot eat the suite's time budget.
	diffStatementTimeout = "5s"
	// diffQueryTimeout is the client's backstop should a server not
	// honour statement_timeout.
	diffQueryTimeout = 10 * time.Second
	// diffSlowQuery is when a query's SQE time is worth a log line.
	diffSlowQuery = time.Second
	// internalErrorCode is the SQLSTATE of an internal error, whose detail
	// only the server log has.
	internalErrorCode = "XX000"
	// diffMinRecords is the least the suite may shrink to.
	diffMinRecords = 400
)

// diffResult is one record's verdict.
type diffResult struct {
	rec  diffRecord
	diff string // "" when SQE answered as PostgreSQL did
}

// TestDifferentialAgainstPostgres loads TPC-H (SF 0.01) and types.all_types
// into SQE and into PostgreSQL 15, runs every query of testdata/differential
// on both, and compares the answers: column count, then rows in text format
// (in order for ordered records, as multisets for unordered ones), floats
// within diffFloatTolerance, errors by SQLSTATE. A query that differs must be
// listed in known_differences.txt, and a listed query that no longer
// differs fails the test too, so the list stays true. The log ends with a
// summary: identical answers and known differences by reason.
func TestDifferentialAgainstPostgres(t *testing.T) {
	ctx := testContext(t, 4*time.Minute)
	records, err := loadDiffRecords(diffDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) < diffMinRecords {
		t.Errorf("%d queries in %s, want at least %d", len(records), diffDir, diffMinRecords)
	}
	known, err := loadKnownDifferences(filepath.Join(diffDir, diffKnownFile))
	if err != nil {
		t.Fatal(err)
	}
	checkKnownAreRecords(t, records, known, diffKnownFile)

	pair := startTPCHPair(t, ctx, extraLoad{sqe: loadAllTypesSQE, postgres: loadAllTypesPostgres})
	pair.setSearchPath(t, ctx, tpchTestSchema)
	pair.setStatementTimeout(t, ctx)
	// Connections replaced after a broken one live until the test ends.
	t.Cleanup(func() {
		_ = pair.sqe.Close(context.Background())
		_ = pair.ref.Close(context.Background())
	})

	results := make([]diffResult, 0, len(records))
	for _, rec := range records {
		res := diffResult{rec: rec}
		t.Run(rec.name, func(t *testing.T) {
			ref := pair.run(t, ctx, pair.ref, rec.sql)
			res.diff = "PostgreSQL's answer does not fit the record"
			switch {
			case rec.mode == modeError && ref.err == nil:
				t.Fatalf("%s:%d: the record expects an error, PostgreSQL answers %s\n%s", rec.file, rec.line, ref.describe(), rec.sql)
			case rec.mode != modeError && ref.err != nil:
				t.Fatalf("%s:%d: PostgreSQL fails, fix the query: %v\n%s", rec.file, rec.line, ref.err, rec.sql)
			}
			sqe := pair.run(t, ctx, pair.sqe, rec.sql)
			res.diff = compareOutcomes(rec.mode, sqe, ref)
			if sqe.elapsed > diffSlowQuery {
				t.Logf("slow on SQE: %s (PostgreSQL %s)", sqe.elapsed.Round(time.Millisecond), ref.elapsed.Round(time.Millisecond))
			}
			if sqe.code == internalErrorCode {
				t.Logf("SQE's log for that error: %s", pair.server.logLinesWith(requestID(sqe.err)))
			}
			k, listed := known[rec.name]
			switch {
			case res.diff != "" && !listed:
				t.Errorf("%s:%d: SQE differs from PostgreSQL: %s\n%s\nPostgreSQL: %s", rec.file, rec.line, res.diff, rec.sql, ref.describe())
			case res.diff == "" && listed:
				t.Errorf("%s:%d: listed in %s (%s) but SQE now answers as PostgreSQL does: remove the line",
					rec.file, rec.line, diffKnownFile, k.reason)
			case res.diff != "":
				t.Logf("known difference (%s): %s", k.reason, res.diff)
			}
		})
		results = append(results, res)
	}
	t.Logf("\n%s", diffSummary(results, known))
}

// requestID is the id an internal error message names, "" if none.
func requestID(err error) string {
	if err == nil {
		return ""
	}
	_, rest, ok := strings.Cut(err.Error(), "request id ")
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, ")")
	return id
}

// awaitLogLinesWith is logLinesWith once some line holds needle, or after
// limit: the server's log reaches the test through a pipe, so a line the
// server wrote before answering may not have arrived yet.
func (s *server) awaitLogLinesWith(needle string, limit time.Duration) string {
	deadline := time.Now().Add(limit)
	for {
		lines := s.logLinesWith(needle)
		if lines != "" || time.Now().After(deadline) {
			return lines
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// logLinesWith returns the server log lines that contain needle.
func (s *server) logLinesWith(needle string) string {
	if needle == "" {
		return "(no request id)"
	}
	var lines []string
	for _, l := range strings.Split(s.log(), "\n") {
		if strings.Contains(l, needle) {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// checkKnownAreRecords fails the test for an id file lists that no record
// has.
func checkKnownAreRecords(t *testing.T, records []diffRecord, known map[string]knownDifference, file string) {
	t.Helper()
	names := make(map[string]bool, len(records))
	for _, r := range records {
		names[r.name] = true
	}
	for id := range known {
		if !names[id] {
			t.Errorf("%s lists %s, which is no query of the suite", file, id)
		}
	}
}

// run runs sql on conn (one of the pair's) within diffQueryTimeout. A
// query that times out closes its connection; the pair then reconnects so
// the next query still runs.
func (p *referencePair) run(t *testing.T, ctx context.Context, conn *pgx.Conn, sql string) outcome {
	t.Helper()
	qctx, cancel := context.WithTimeout(ctx, diffQueryTimeout)
	defer cancel()
	out := runForDiff(qctx, conn, sql)
	if conn.IsClosed() {
		p.reconnect(t, ctx, conn)
	}
	return out
}

// reconnect replaces a closed connection of the pair.
func (p *referencePair) reconnect(t *testing.T, ctx context.Context, closed *pgx.Conn) {
	t.Helper()
	var (
		fresh *pgx.Conn
		err   error
	)
	if closed == p.sqe {
		fresh, err = pgx.ConnectConfig(ctx, pgxConfig(t, p.server, tpchTestUser, demoDatabase, "disable", p.token))
	} else {
		fresh, err = pgx.Connect(ctx, fmt.Sprintf("host=127.0.0.1 port=%s user=alice dbname=%s sslmode=disable", p.refPort, demoDatabase))
	}
	if err != nil {
		t.Fatalf("reconnect after a broken connection: %v", err)
	}
	for _, set := range []string{"SET search_path TO " + tpchTestSchema, "SET statement_timeout = '" + diffStatementTimeout + "'"} {
		if _, err := fresh.Exec(ctx, set); err != nil {
			_ = fresh.Close(ctx)
			t.Fatalf("%s: %v", set, err)
		}
	}
	if closed == p.sqe {
		p.sqe = fresh
	} else {
		p.ref = fresh
	}
}

// setStatementTimeout sets diffStatementTimeout on both connections.
func (p *referencePair) setStatementTimeout(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, conn := range []*pgx.Conn{p.sqe, p.ref} {
		if _, err := conn.Exec(ctx, "SET statement_timeout = '"+diffStatementTimeout+"'"); err != nil {
			t.Fatalf("set statement_timeout: %v", err)
		}
	}
}

// diffSummary counts the results: total, identical, and the known
// differences grouped by reason, most common first.
func diffSummary(results []diffResult, known map[string]knownDifference) string {
	identical := 0
	byReason := map[string][]string{}
	for _, r := range results {
		if r.diff == "" {
			identical++
			continue
		}
		reason := "not listed"
		if k, ok := known[r.rec.name]; ok {
			reason = k.reason
		}
		byReason[reason] = append(byReason[reason], r.rec.name)
	}
	reasons := make([]string, 0, len(byReason))
	for r := range byReason {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		a, b := byReason[reasons[i]], byReason[reasons[j]]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return reasons[i] < reasons[j]
	})
	var b strings.Builder
	total := len(results)
	fmt.Fprintf(&b, "differential suite: %d queries, %d identical to PostgreSQL (%.1f%%), %d differ\n",
		total, identical, 100*float64(identical)/float64(max(total, 1)), total-identical)
	for _, r := range reasons {
		fmt.Fprintf(&b, "  %3d  %s: %s\n", len(byReason[r]), r, strings.Join(byReason[r], ", "))
	}
	return b.String()
}
