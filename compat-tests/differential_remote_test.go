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
	// diffRemoteKnownFile lists every record whose remote answer differs
	// from SQE's local one other than by a refusal to send it, with why.
	diffRemoteKnownFile = "known_remote_differences.txt"
	// diffRemoteEngine is the name sqe.toml gives the reference
	// PostgreSQL as an engine.
	diffRemoteEngine = "pg"
	// diffRemoteMinIdentical is the least share of records (in percent)
	// whose remote answer must be SQE's local one: the target, which the
	// suite meets (802 of 812 records; the rest are refused, by
	// construct, for the reasons the README gives).
	diffRemoteMinIdentical = 98
	// featureNotSupported is the SQLSTATE of a plan the SQL writer cannot
	// write exactly, which sqe.execution = 'remote' refuses to send.
	featureNotSupported = "0A000"
)

// diffRemoteRefusal is the text before the construct in a refusal to send
// a statement.
var diffRemoteRefusal = fmt.Sprintf("cannot run this statement on remote engine %q: ", diffRemoteEngine)

// remoteDiffResult is one record's verdict in remote mode.
type remoteDiffResult struct {
	rec  diffRecord
	diff string // "" when the remote answer is the local one
	// refusal is what the SQL writer could not write, "" when the
	// statement was sent (or refused for another reason).
	refusal string
	// sent says the engine ran the statement.
	sent bool
}

// TestDifferentialRemoteExecution runs the differential suite on one SQE
// twice: in a session that runs statements itself and in one with
// sqe.execution = 'remote', which sends each SELECT, written as SQL, to
// a PostgreSQL 15 holding the same rows (the reference PostgreSQL of
// the pair, as engine "pg"). The remote answer must be the local one,
// compared as TestDifferentialAgainstPostgres compares SQE with
// PostgreSQL. A record refused with 0A000 (the writer cannot write the
// plan exactly) counts as not identical, grouped by what was refused;
// any other difference must be listed in known_remote_differences.txt,
// since it may be a wrong answer, and a listed record that no longer
// differs fails the test so the list stays true. The share of identical
// answers must not fall below diffRemoteMinIdentical.
func TestDifferentialRemoteExecution(t *testing.T) {
	ctx := testContext(t, 4*time.Minute)
	records, err := loadDiffRecords(diffDir)
	if err != nil {
		t.Fatal(err)
	}
	known, err := loadKnownDifferences(filepath.Join(diffDir, diffRemoteKnownFile))
	if err != nil {
		t.Fatal(err)
	}
	checkKnownAreRecords(t, records, known, diffRemoteKnownFile)

	engineConfig := func(refPort string) string { return remoteEngineConfig(refPort, 1<<30) }
	pair := startTPCHPairConfigured(t, ctx, engineConfig, extraLoad{sqe: loadAllTypesSQE, postgres: loadAllTypesPostgres})
	pair.setSearchPath(t, ctx, tpchTestSchema)
	pair.setStatementTimeout(t, ctx)
	remote := &remoteSession{pair: pair, metricsAddr: pair.server.httpAddr(t)}
	remote.connect(t, ctx)
	// Connections replaced after a broken one live until the test ends.
	t.Cleanup(func() {
		_ = pair.sqe.Close(context.Background())
		_ = remote.conn.Close(context.Background())
	})

	results := make([]remoteDiffResult, 0, len(records))
	for _, rec := range records {
		res := remoteDiffResult{rec: rec}
		t.Run(rec.name, func(t *testing.T) {
			local := pair.run(t, ctx, pair.sqe, rec.sql)
			got, sent := remote.run(t, ctx, rec.sql)
			res.sent = sent
			res.diff = compareOutcomes(rec.mode, got, local)
			if res.diff != "" {
				res.refusal = refusedConstruct(got)
			}
			if got.elapsed > diffSlowQuery {
				t.Logf("slow remotely: %s (locally %s)", got.elapsed.Round(time.Millisecond), local.elapsed.Round(time.Millisecond))
			}
			k, listed := known[rec.name]
			switch {
			case res.diff != "" && res.refusal == "" && !listed:
				t.Errorf("%s:%d: the remote answer differs from the local one (\"PostgreSQL\" is the local answer): %s\n%s\nlocally: %s\nremotely: %s\n%s",
					rec.file, rec.line, res.diff, rec.sql, local.describe(), got.describe(), remote.sentSQL(ctx, rec.sql))
			case listed && res.diff == "":
				t.Errorf("%s:%d: listed in %s (%s) but the remote answer is now the local one: remove the line",
					rec.file, rec.line, diffRemoteKnownFile, k.reason)
			case listed && res.refusal != "":
				t.Errorf("%s:%d: listed in %s (%s) but the statement is now refused (%s): remove the line",
					rec.file, rec.line, diffRemoteKnownFile, k.reason, res.refusal)
			case res.diff != "" && res.refusal == "":
				t.Logf("known remote difference (%s): %s", k.reason, res.diff)
			}
		})
		results = append(results, res)
	}
	summary, identical, identicalSent := remoteDiffSummary(results, known)
	t.Logf("\n%s", summary)
	if identicalSent == 0 {
		t.Errorf("no record was answered by engine %s as SQE answers it: the remote session ran nothing there", diffRemoteEngine)
	}
	if percent := 100 * identical / max(len(results), 1); percent < diffRemoteMinIdentical {
		t.Errorf("%d%% of the records answer remotely as locally, want at least %d%%", percent, diffRemoteMinIdentical)
	}
}

// refusedConstruct is what a 0A000 refusal to send a statement names
// ("function upper", "Append", "type numeric"...), "" when o is not
// such a refusal. The words before "cannot" name the construct.
func refusedConstruct(o outcome) string {
	if o.code != featureNotSupported || o.err == nil {
		return ""
	}
	_, what, ok := strings.Cut(firstLine(o.err.Error()), diffRemoteRefusal)
	if !ok {
		return ""
	}
	// pgconn's error text ends with " (SQLSTATE 0A000)".
	what, _, _ = strings.Cut(what, " (SQLSTATE ")
	if construct, _, ok := strings.Cut(what, " cannot "); ok {
		what = strings.TrimSuffix(construct, " and")
	}
	what = strings.TrimPrefix(what, "plan node ")
	return strings.TrimPrefix(what, "planner.")
}

// remoteSession is a connection to the pair's SQE, as the pair's user,
// whose statements run on the remote engine.
type remoteSession struct {
	pair *referencePair
	conn *pgx.Conn
	// metricsAddr serves the server's /metrics, whose count of remote
	// statements tells whether a record's statement was sent; sentBefore
	// is that count before the record ran.
	metricsAddr string
	sentBefore  float64
}

// connect opens the session with the pair's search_path and
// statement_timeout and sqe.execution = 'remote'.
func (r *remoteSession) connect(t *testing.T, ctx context.Context) {
	t.Helper()
	conn, err := pgx.ConnectConfig(ctx, pgxConfig(t, r.pair.server, tpchTestUser, demoDatabase, "disable", r.pair.token))
	if err != nil {
		t.Fatalf("connect the remote session: %v", err)
	}
	for _, set := range []string{
		"SET search_path TO " + tpchTestSchema,
		"SET statement_timeout = '" + diffStatementTimeout + "'",
		"SET sqe.execution = 'remote'",
	} {
		if _, err := conn.Exec(ctx, set); err != nil {
			_ = conn.Close(ctx)
			t.Fatalf("%s: %v", set, err)
		}
	}
	r.conn = conn
}

// run runs sql in the session within diffQueryTimeout, reconnecting
// when that breaks the connection so the next record still runs, and
// says whether the engine ran a statement for it. Only this session
// sends statements, so the count of remote statements tells.
func (r *remoteSession) run(t *testing.T, ctx context.Context, sql string) (outcome, bool) {
	t.Helper()
	qctx, cancel := context.WithTimeout(ctx, diffQueryTimeout)
	defer cancel()
	out := runForDiff(qctx, r.conn, sql)
	if r.conn.IsClosed() {
		r.connect(t, ctx)
	}
	var sent float64
	for key, v := range scrape(t, r.metricsAddr) {
		if strings.HasPrefix(key, "sqe_remote_statements_total{") && strings.Contains(key, fmt.Sprintf("engine=%q", diffRemoteEngine)) {
			sent += v
		}
	}
	ran := sent > r.sentBefore
	r.sentBefore = sent
	return out, ran
}

// sentSQL is the statement the session sends for sql, from EXPLAIN's
// "SQL:" line (the pair's user is an administrator, who is shown it), for
// messages.
func (r *remoteSession) sentSQL(ctx context.Context, sql string) string {
	qctx, cancel := context.WithTimeout(ctx, diffQueryTimeout)
	defer cancel()
	rows, err := textRowsOf(qctx, r.conn, "EXPLAIN "+sql)
	if err != nil {
		return "EXPLAIN: " + err.Error()
	}
	var lines []string
	for _, row := range derefRows(rows) {
		if len(row) > 0 && strings.Contains(row[0], "SQL: ") {
			lines = append(lines, strings.TrimSpace(row[0]))
		}
	}
	if len(lines) == 0 {
		return "EXPLAIN shows no statement sent"
	}
	return "sent: " + strings.Join(lines, "\n")
}

// remoteDiffSummary counts the results: total, identical (and how many
// of those the engine answered), refusals by construct, most common
// first, and the other differences. It returns the text and the two
// identical counts.
func remoteDiffSummary(results []remoteDiffResult, known map[string]knownDifference) (string, int, int) {
	identical, identicalSent := 0, 0
	var notSent []string
	refused := map[string][]string{}
	var other []string
	for _, r := range results {
		switch {
		case r.diff == "":
			identical++
			if r.sent {
				identicalSent++
			} else {
				notSent = append(notSent, r.rec.name)
			}
		case r.refusal != "":
			refused[r.refusal] = append(refused[r.refusal], r.rec.name)
		default:
			reason := "not listed"
			if k, ok := known[r.rec.name]; ok {
				reason = k.reason
			}
			other = append(other, fmt.Sprintf("%s (%s): %s", r.rec.name, reason, r.diff))
		}
	}
	total := len(results)
	refusals := total - identical - len(other)
	var b strings.Builder
	fmt.Fprintf(&b, "differential suite in remote mode: %d records, %d answer remotely as locally (%.2f%%), %d refused (0A000), %d differ otherwise\n",
		total, identical, 100*float64(identical)/float64(max(total, 1)), refusals, len(other))
	fmt.Fprintf(&b, "  of the %d identical, %d were answered by engine %s; these failed in SQE before they could be sent, or are not SELECTs: %s\n",
		identical, identicalSent, diffRemoteEngine, strings.Join(notSent, ", "))
	constructs := make([]string, 0, len(refused))
	for c := range refused {
		constructs = append(constructs, c)
	}
	sort.Slice(constructs, func(i, j int) bool {
		a, b := refused[constructs[i]], refused[constructs[j]]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return constructs[i] < constructs[j]
	})
	for _, c := range constructs {
		fmt.Fprintf(&b, "  %3d  refused: %s: %s\n", len(refused[c]), c, strings.Join(refused[c], ", "))
	}
	for _, o := range other {
		fmt.Fprintf(&b, "    1  differs: %s\n", o)
	}
	return b.String(), identical, identicalSent
}
