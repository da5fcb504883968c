package compattests

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// startRemotePostgres starts a PostgreSQL 15 holding the demo's tables
// (startRefPostgres loads them), logging every statement it receives,
// for SQE to send statements to as its remote engine.
func startRemotePostgres(t *testing.T, ctx context.Context) (*refPostgres, *pgx.Conn) {
	t.Helper()
	pg := startRefPostgres(t, ctx)
	conn, err := pgx.Connect(ctx, fmt.Sprintf("host=127.0.0.1 port=%s user=alice dbname=%s sslmode=disable", pg.port, demoDatabase))
	if err != nil {
		t.Fatalf("connect to PostgreSQL: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	for _, stmt := range []string{
		"ALTER SYSTEM SET log_statement = 'all'",
		"SELECT pg_reload_conf()",
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	return pg, conn
}

// remoteEngineConfig is sqe.toml with PostgreSQL at port as the engine
// "pg" for the demo catalog; auto sends a statement reading at least
// minScanBytes.
func remoteEngineConfig(port string, minScanBytes int) string {
	return fmt.Sprintf(`[[engine]]
name = "pg"
type = "postgres"
uri = "postgres://127.0.0.1:%s/%s?sslmode=disable"
user = "alice"
remote_min_scan_bytes = %d
[engine.catalogs]
%s = ""
`, port, demoDatabase, minScanBytes, demoDatabase)
}

// statementsReceived are the statements PostgreSQL logged as received
// that read acdemo.orders, once it has logged at least one.
func statementsReceived(t *testing.T, pg *refPostgres) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var out []string
		for _, line := range strings.Split(pg.log.String(), "\n") {
			// The extended protocol's statements are logged as executed.
			_, stmt, ok := strings.Cut(line, "statement: ")
			if !ok {
				_, stmt, ok = strings.Cut(line, "execute <unnamed>: ")
			}
			if ok && strings.Contains(stmt, `"orders"`) {
				out = append(out, stmt)
			}
		}
		if len(out) > 0 || time.Now().After(deadline) {
			return out
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// bob's SELECT with sqe.execution = 'remote' runs on the engine as the
// secured statement: PostgreSQL receives the row filter and the mask, the
// raw ssn appears only as the mask's argument, and bob gets the two EU
// rows masked, as he does locally. A predicate that fails on the hidden
// row does not fail there either. EXPLAIN says where the plan runs, and
// shows the statement to administrators only.
func TestRemoteExecutionSendsTheSecuredStatement(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 3*time.Minute)
	pg, pgConn := startRemotePostgres(t, ctx)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte(remoteEngineConfig(pg.port, 1<<30)), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startTestServerIn(t, filepath.Join(dir, "data"), true)
	bobToken, err := srv.mintCLI("bob")
	if err != nil {
		t.Fatal(err)
	}
	bob := connectConfig(t, ctx, pgxConfig(t, srv, "bob", demoDatabase, "disable", bobToken))
	const query = "SELECT id, region, ssn FROM acdemo.orders ORDER BY id"
	local, err := textRowsOf(ctx, bob, query)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bob.Exec(ctx, "SET sqe.execution = 'remote'"); err != nil {
		t.Fatal(err)
	}
	remote, err := textRowsOf(ctx, bob, query)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"1", "EU", "xxx-xx-1111"}, {"3", "EU", "xxx-xx-3333"}}
	if got := derefRows(remote); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("bob's remote answer %v, want %v", got, want)
	}
	if !slices.EqualFunc(derefRows(local), derefRows(remote), slices.Equal) {
		t.Fatalf("bob's local answer %v differs from the remote one %v", derefRows(local), derefRows(remote))
	}

	received := statementsReceived(t, pg)
	if len(received) != 1 {
		t.Fatalf("PostgreSQL received %d statements reading orders, want 1: %q", len(received), received)
	}
	sent := received[0]
	for _, part := range []string{`"region" = 'EU'`, "translate(", "ORDER BY"} {
		if !strings.Contains(sent, part) {
			t.Errorf("the statement sent lacks %q:\n%s", part, sent)
		}
	}
	// The raw column is read only as the mask's argument: in the
	// length and substr calls that cut it, inside translate.
	uses := regexp.MustCompile(`"ssn"`).FindAllStringIndex(sent, -1)
	inMask := regexp.MustCompile(`(length|substr)\("ssn"`).FindAllStringIndex(sent, -1)
	if len(uses) == 0 || len(uses) != len(inMask) {
		t.Errorf("the raw ssn is read outside the mask (%d reads, %d in the mask):\n%s", len(uses), len(inMask), sent)
	}
	for _, raw := range []string{"111-11-1111", "222-22-2222", "333-33-3333"} {
		if strings.Contains(sent, raw) {
			t.Errorf("the statement sent holds the stored value %s", raw)
		}
	}

	// A predicate that fails on bob's hidden row (id 2) is guarded by
	// his row filter on PostgreSQL's own optimizer too.
	guarded, err := textRowsOf(ctx, bob, "SELECT id FROM acdemo.orders WHERE 10 / (id - 2) > 0 ORDER BY id")
	if err != nil {
		t.Fatalf("a predicate failing only on a hidden row: %v", err)
	}
	if got := derefRows(guarded); !slices.EqualFunc(got, [][]string{{"3"}}, slices.Equal) {
		t.Errorf("guarded predicate: %v, want [[3]]", got)
	}

	// The extended protocol, a parameter and binary results.
	var id int64
	var ssn string
	if err := bob.QueryRow(ctx, "SELECT id, ssn FROM acdemo.orders WHERE id > $1 ORDER BY id", 1).Scan(&id, &ssn); err != nil || id != 3 || ssn != "xxx-xx-3333" {
		t.Errorf("a prepared remote statement: %d %q %v, want 3 xxx-xx-3333", id, ssn, err)
	}

	checkRemoteLeakProbes(t, ctx, bob)
	checkRemoteTimeZone(t, ctx, bob)

	explain := func(conn *pgx.Conn) string {
		t.Helper()
		rows, err := textRowsOf(ctx, conn, "EXPLAIN "+query)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range derefRows(rows) {
			b.WriteString(r[0] + "\n")
		}
		return b.String()
	}
	if plan := explain(bob); !strings.Contains(plan, "Remote on pg (PostgreSQL dialect): sqe.execution = 'remote'") || strings.Contains(plan, "SQL:") {
		t.Errorf("bob's EXPLAIN must say where the plan runs and not show the statement:\n%s", plan)
	}
	carolToken, err := srv.mintAdmin("carol")
	if err != nil {
		t.Fatal(err)
	}
	carol := connectConfig(t, ctx, pgxConfig(t, srv, "carol", demoDatabase, "disable", carolToken))
	if _, err := carol.Exec(ctx, "SET sqe.execution = 'remote'"); err != nil {
		t.Fatal(err)
	}
	if plan := explain(carol); !strings.Contains(plan, `SQL: SELECT`) {
		t.Errorf("an administrator's EXPLAIN shows the statement sent:\n%s", plan)
	}

	checkRemoteCancellation(t, ctx, carol, pgConn)

	// Under 'auto' the demo's few bytes stay under the engine's 1GiB.
	if _, err := bob.Exec(ctx, "SET sqe.execution = 'auto'"); err != nil {
		t.Fatal(err)
	}
	if plan := explain(bob); !strings.Contains(plan, "Runs in SQE: its scans read ") || strings.Contains(plan, "Remote on") {
		t.Errorf("auto under remote_min_scan_bytes runs here and says why:\n%s", plan)
	}
	metrics := scrape(t, srv.httpAddr(t))
	if got := metrics[`sqe_remote_statements_total{engine="pg",outcome="ok"}`]; got < 2 {
		t.Errorf("sqe_remote_statements_total ok = %v, want at least 2", got)
	}
	if got := metrics[`sqe_remote_bytes_total{engine="pg"}`]; got <= 0 {
		t.Errorf("sqe_remote_bytes_total = %v, want the answers' bytes", got)
	}
}

// derefRows turns textRowsOf's rows into strings, NULL as "NULL".
func derefRows(rows [][]*string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		for _, v := range r {
			if v == nil {
				out[i] = append(out[i], "NULL")
			} else {
				out[i] = append(out[i], *v)
			}
		}
	}
	return out
}

// An engine that cannot be reached leaves an 'auto' statement to SQE,
// with a NOTICE saying so, and fails a 'remote' one with class 08.
func TestRemoteExecutionWhenTheEngineIsUnreachable(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 2*time.Minute)
	port, err := freeLoopbackPort()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// Every statement passes remote_min_scan_bytes = 1.
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte("[query]\nexecution = \"auto\"\n"+remoteEngineConfig(port, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startTestServerIn(t, filepath.Join(dir, "data"), true)
	token, err := srv.mintCLI("bob")
	if err != nil {
		t.Fatal(err)
	}
	cfg := pgxConfig(t, srv, "bob", demoDatabase, "disable", token)
	var notices []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n.Severity+" "+n.Message) }
	bob := connectConfig(t, ctx, cfg)
	rows, err := textRowsOf(ctx, bob, "SELECT id, ssn FROM acdemo.orders ORDER BY id")
	if err != nil {
		t.Fatalf("auto with the engine down: %v", err)
	}
	want := [][]string{{"1", "xxx-xx-1111"}, {"3", "xxx-xx-3333"}}
	if got := derefRows(rows); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("auto with the engine down: %v, want %v", got, want)
	}
	if !slices.ContainsFunc(notices, func(n string) bool {
		return strings.HasPrefix(n, "NOTICE ") && strings.Contains(n, `remote engine "pg" cannot be reached`)
	}) {
		t.Errorf("no NOTICE that the statement ran here: %q", notices)
	}
	if _, err := bob.Exec(ctx, "SET sqe.execution = 'remote'"); err != nil {
		t.Fatal(err)
	}
	_, err = textRowsOf(ctx, bob, "SELECT id FROM acdemo.orders")
	if pe := asPgError(t, err); pe.Code != "08001" || !strings.Contains(pe.Message, `could not reach remote engine "pg"`) {
		t.Errorf("remote with the engine down: %s %s, want 08001", pe.Code, pe.Message)
	}
	if _, err := bob.Exec(ctx, "SET sqe.execution = 'everywhere'"); err == nil || asPgError(t, err).Code != "22023" {
		t.Errorf("SET sqe.execution to an unknown mode: %v, want 22023", err)
	}
	if got := scrape(t, srv.httpAddr(t))[`sqe_remote_statements_total{engine="pg",outcome="local"}`]; got != 1 {
		t.Errorf("statements auto ran here = %v, want 1", got)
	}
}

// checkRemoteLeakProbes runs gate two's leak probes (sql's
// TestGateTwoLeakProbes) on bob's session in remote mode: bob sees
// acdemo.orders through the row filter region = 'EU' (hiding row 2) and
// MASK_SHOW_LAST_4 on ssn. A probe the writer cannot send fails with
// 0A000, which is silent; one that is sent must give bob's local answer
// and never a hidden row, a stored ssn or an error the hidden row raises,
// on PostgreSQL's optimizer, which knows nothing of SQE's barrier.
func checkRemoteLeakProbes(t *testing.T, ctx context.Context, bob *pgx.Conn) {
	t.Helper()
	secrets := []string{"111-11-1111", "222-22-2222", "333-33-3333", "|US|", "US}", "{US", ",US"}
	probes := []struct {
		sql  string
		rows []string // "" joined by |; nil: only the absence of secrets is checked
		code string
	}{
		{sql: "SELECT id FROM acdemo.orders WHERE 1/(id-2) = 1", rows: []string{"3"}},
		{sql: "SELECT id FROM acdemo.orders o JOIN (VALUES (1)) v(x) ON 1/(o.id-2) = x", rows: []string{"3"}},
		{sql: "SELECT id FROM acdemo.orders GROUP BY id HAVING 1/(id-2) > -10 ORDER BY id", rows: []string{"1", "3"}},
		{sql: "SELECT id FROM acdemo.orders ORDER BY 1/(id-2)", rows: []string{"1", "3"}},
		{sql: "SELECT CASE WHEN id = 2 THEN 1/0 ELSE id END FROM acdemo.orders ORDER BY 1", rows: []string{"1", "3"}},
		{sql: "SELECT id FROM acdemo.orders o WHERE EXISTS (SELECT 1 WHERE 1/(o.id-2) = 1)", rows: []string{"3"}},
		{sql: "SELECT id FROM acdemo.orders WHERE 9223372036854775807 * ((id - 1) * (3 - id) + 1) > 0 ORDER BY id", rows: []string{"1", "3"}},
		{sql: "SELECT id FROM acdemo.orders WHERE CASE WHEN region = 'US' THEN ssn::int ELSE 0 END = 0 ORDER BY id", rows: []string{"1", "3"}},
		{sql: "SELECT id FROM acdemo.orders WHERE region::int = 1", code: "22P02"},
		{sql: "SELECT id FROM acdemo.orders WHERE ssn::int > 0", code: "22P02"},
		{sql: "SELECT count(*) FROM acdemo.orders WHERE ssn = '111-11-1111'", rows: []string{"0"}},
		{sql: "SELECT count(*) FROM acdemo.orders WHERE ssn LIKE '111%'", rows: []string{"0"}},
		{sql: "SELECT ssn, count(*) FROM acdemo.orders GROUP BY ssn ORDER BY ssn", rows: []string{"xxx-xx-1111|1", "xxx-xx-3333|1"}},
		{sql: "SELECT DISTINCT ssn FROM acdemo.orders ORDER BY ssn", rows: []string{"xxx-xx-1111", "xxx-xx-3333"}},
		{sql: "SELECT o.id FROM acdemo.orders o JOIN (VALUES ('111-11-1111')) v(s) ON o.ssn = v.s", rows: []string{}},
		{sql: "SELECT min(ssn), max(ssn), min(id), max(id), count(*) FROM acdemo.orders", rows: []string{"xxx-xx-1111|xxx-xx-3333|1|3|2"}},
		{sql: "SELECT count(*) FROM acdemo.orders o1 JOIN acdemo.orders o2 ON o1.ssn = o2.ssn", rows: []string{"2"}},
		{sql: "SELECT id, ssn FROM acdemo.orders WHERE ssn > 'xxx-xx-2' ORDER BY id", rows: []string{"3|xxx-xx-3333"}},
	}
	sent := 0
	for _, p := range probes {
		rows, err := textRowsOf(ctx, bob, p.sql)
		var lines []string
		for _, r := range derefRows(rows) {
			lines = append(lines, strings.Join(r, "|"))
		}
		text := "|" + strings.Join(lines, "|\n|") + "|"
		if err != nil {
			text += err.Error()
		}
		for _, secret := range secrets {
			if strings.Contains(text, secret) {
				t.Errorf("remote %s: %q reached the caller:\n%s", p.sql, secret, text)
			}
		}
		if err != nil && asPgError(t, err).Code == "0A000" {
			continue // not sent: the writer refuses it
		}
		sent++
		switch {
		case p.code != "":
			if err == nil || asPgError(t, err).Code != p.code {
				t.Errorf("remote %s: %v, want %s", p.sql, err, p.code)
			}
		case err != nil:
			t.Errorf("remote %s: %v", p.sql, err)
		case p.rows != nil && !slices.Equal(lines, p.rows) && !(len(lines) == 0 && len(p.rows) == 0):
			t.Errorf("remote %s: %q, want %q", p.sql, lines, p.rows)
		}
	}
	t.Logf("%d of %d leak probes were sent to the engine, the rest refused with 0A000", sent, len(probes))
	if sent < len(probes)/2 {
		t.Errorf("only %d of %d leak probes were sent: the probes no longer test the engine", sent, len(probes))
	}
}

// checkRemoteCancellation checks that the statement timeout, a client's
// cancel request and a closed client end a remote statement on the engine
// too (conn is unusable afterwards):
// PostgreSQL's acdemo.sales is made a view that sleeps for a minute, and
// after SQE answers 57014 PostgreSQL runs nothing reading it.
func checkRemoteCancellation(t *testing.T, ctx context.Context, conn, pgConn *pgx.Conn) {
	t.Helper()
	for _, stmt := range []string{
		"DROP TABLE acdemo.sales",
		`CREATE VIEW acdemo.sales AS SELECT s.* FROM (SELECT pg_sleep(60)) z,
			(VALUES (1::bigint, 'EU'::text, 'p'::text, 1, 1.00::numeric(12,2), 0.5::float8, '2024-01-01'::date))
			s(id, region, product, quantity, price, discount, sold_on)`,
	} {
		if _, err := pgConn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	engineIdle := func(how string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			var n int
			if err := pgConn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%"sales"%' AND pid <> pg_backend_pid()`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("after %s, PostgreSQL still runs the remote statement", how)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if _, err := conn.Exec(ctx, "SET statement_timeout = '300ms'"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := textRowsOf(ctx, conn, "SELECT id FROM acdemo.sales")
	if pe := asPgError(t, err); pe.Code != "57014" || !strings.Contains(pe.Message, "statement timeout") {
		t.Fatalf("remote statement past statement_timeout: %s %s, want 57014", pe.Code, pe.Message)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the timeout ended the remote statement only after %s", d)
	}
	engineIdle("the statement timeout")
	if _, err := conn.Exec(ctx, "SET statement_timeout = 0"); err != nil {
		t.Fatal(err)
	}
	// A CancelRequest (psql's Ctrl-C) while the engine runs it.
	go func() {
		time.Sleep(300 * time.Millisecond)
		_ = conn.PgConn().CancelRequest(ctx)
	}()
	_, err = conn.Exec(ctx, "SELECT id FROM acdemo.sales")
	if pe := asPgError(t, err); pe.Code != "57014" || !strings.Contains(pe.Message, "user request") {
		t.Fatalf("cancelled remote statement: %s %s, want 57014", pe.Code, pe.Message)
	}
	engineIdle("a cancel request")
	// A client that goes away: pgx drops the connection when the
	// query's context ends.
	qctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := conn.Exec(qctx, "SELECT id FROM acdemo.sales"); err == nil {
		t.Fatal("the remote statement of a client that went away answered")
	}
	engineIdle("the client went away")
}

// checkRemoteTimeZone compares remote answers that read the session's
// time zone with local ones, in zones east and west of UTC: the engine
// runs each statement in the caller's TimeZone.
func checkRemoteTimeZone(t *testing.T, ctx context.Context, conn *pgx.Conn) {
	t.Helper()
	const query = `SELECT id, order_date::timestamptz::text, date_trunc('month', order_date::timestamptz)::text,
		extract(hour FROM TIMESTAMPTZ '2024-01-15 03:00:00+00'), (order_date + interval '1 day')::date,
		to_char(order_date::timestamptz, 'YYYY-MM-DD HH24:MI TZ') FROM acdemo.orders ORDER BY id`
	for _, zone := range []string{"America/New_York", "Asia/Kolkata", "UTC"} {
		answers := map[string][][]string{}
		for _, mode := range []string{"local", "remote"} {
			for _, stmt := range []string{"SET TimeZone = '" + zone + "'", "SET sqe.execution = '" + mode + "'"} {
				if _, err := conn.Exec(ctx, stmt); err != nil {
					t.Fatalf("%s: %v", stmt, err)
				}
			}
			rows, err := textRowsOf(ctx, conn, query)
			if err != nil {
				t.Fatalf("%s in %s: %v", mode, zone, err)
			}
			answers[mode] = derefRows(rows)
		}
		if !slices.EqualFunc(answers["local"], answers["remote"], slices.Equal) || len(answers["local"]) != 2 {
			t.Errorf("in %s, local %v, remote %v", zone, answers["local"], answers["remote"])
		}
	}
	if _, err := conn.Exec(ctx, "SET sqe.execution = 'remote'"); err != nil {
		t.Fatal(err)
	}
}
