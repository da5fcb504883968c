//go:build linux

package compattests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqe-db/sqe/compat-tests/bicorpus"
)

// The BI-tool test replays what Grafana, Metabase and Superset send while a
// user browses a database (testdata/bi/<tool>.json, copied from the client
// reference captures) against the shared SQE demo server and against a
// PostgreSQL 15 started by the test with the same acdemo schema and rows.
// Each query runs over the protocol its tool uses; it passes when SQE
// answers with PostgreSQL's column names and type OIDs and, where the rows
// are about the demo's own objects, the same rows. Queries failing today
// are listed in testdata/bi/known_failures.txt.

const (
	// refPostgresBinDir holds Debian's PostgreSQL 15 server binaries.
	refPostgresBinDir = "/usr/lib/postgresql/15/bin"
	// biKnownFailuresFile pins the queries SQE does not answer like
	// PostgreSQL yet.
	biKnownFailuresFile = "testdata/bi/known_failures.txt"
)

// refPostgresSchema is the demo as SQE presents it (acdemo.orders with its
// three rows, an empty acdemo.sales with the same columns as SQE's).
var refPostgresSchema = []string{
	"CREATE SCHEMA acdemo",
	`CREATE TABLE acdemo.orders (id bigint NOT NULL, region text, ssn text,
		amount numeric(12,2), order_date date)`,
	`INSERT INTO acdemo.orders VALUES
		(1, 'EU', '111-11-1111', 120.50, '2024-01-15'),
		(2, 'US', '222-22-2222', 75.00, '2024-02-03'),
		(3, 'EU', '333-33-3333', 310.25, '2024-03-22')`,
	`CREATE TABLE acdemo.sales (id bigint NOT NULL, region text, product text, quantity integer,
		price numeric(12,2), discount double precision, sold_on date)`,
}

// biCompare says which part of the answer must equal PostgreSQL's; column
// names and type OIDs are always compared.
type biCompare int

const (
	// biColumnsOnly: the rows are about the server itself (versions,
	// pids, plans) and cannot match.
	biColumnsOnly biCompare = iota
	// biRows: every row, in order.
	biRows
	// biRowsAbout: only the rows mentioning biCase.about, in order;
	// PostgreSQL lists its own objects too.
	biRowsAbout
)

// biCase is how one reference query is run here.
type biCase struct {
	id string
	// replace are old, new pairs applied to the entry's SQL: the
	// captures were made against a shop database (public.orders with
	// customer_id and placed, public.customers), the demo has
	// acdemo.orders(id, region, ssn, amount, order_date).
	replace []string
	// params replace the entry's params_example the same way.
	params  []string
	compare biCompare
	about   string
	// unordered compares rows as a set: the query has no ORDER BY.
	unordered bool
	// ignoreColumns are compared by name and type only (values that
	// depend on timing, such as row-count estimates).
	ignoreColumns []int
	// check, when set, is run on SQE's rows (and on PostgreSQL's, to keep
	// it honest): what the tool itself parses out of the answer.
	check func(rows [][]string) error
	// notRun explains why an entry is not executed.
	notRun string
	// split runs an entry holding several statements as separate ones.
	split string
}

// biCases covers every entry of the three files, in file order.
var biCases = map[string][]biCase{
	"grafana": {
		{id: "grafana-1"},
		{id: "grafana-2", check: checkServerVersionNum},
		{id: "grafana-3", compare: biRows},
		{id: "grafana-4", compare: biRowsAbout, about: "acdemo"},
		{id: "grafana-5", compare: biRowsAbout, about: "acdemo"},
		{id: "grafana-6", replace: []string{"'public'", "'acdemo'"}, compare: biRows},
		{id: "grafana-7", replace: []string{"'orders'", "'acdemo.orders'"}, compare: biRows, unordered: true},
		{id: "grafana-8", compare: biRowsAbout, about: "acdemo"},
		{id: "grafana-9", params: []string{"acdemo"}, compare: biRows},
		{id: "grafana-10", params: []string{"acdemo", "orders"}, compare: biRows},
		{id: "grafana-11", replace: []string{`"public"`, `"acdemo"`, "customer_id", "region", "placed", "order_date"},
			compare: biRows, unordered: true},
		{id: "grafana-12", replace: []string{"FROM orders", "FROM acdemo.orders", "placed", "order_date"}, compare: biRows},
		{id: "grafana-13", replace: []string{"FROM customers", "FROM acdemo.orders", "created_at", "order_date"},
			compare: biRows, unordered: true},
	},
	"metabase": {
		{id: "metabase-1", compare: biRows},
		{id: "metabase-2", split: " / "},
		{id: "metabase-3", compare: biRows},
		{id: "metabase-4"},
		{id: "metabase-5", compare: biRows},
		{id: "metabase-6", compare: biRowsAbout, about: "acdemo", unordered: true},
		{id: "metabase-7", params: []string{"^pg_", "information_schema", "acdemo"}, compare: biRows,
			ignoreColumns: []int{4}},
		{id: "metabase-8", replace: []string{`"public"."orders"`, `"acdemo"."orders"`}, compare: biRows},
		{id: "metabase-9", params: []string{"acdemo", "orders", "acdemo", "orders"}, compare: biRows},
		{id: "metabase-10", params: []string{"orders", "acdemo"}, compare: biRows},
		{id: "metabase-11", params: []string{"acdemo", "orders"}, compare: biRows},
		{id: "metabase-12"},
		{id: "metabase-13", notRun: "COPY FROM STDIN writes rows: it would change the shared demo table other tests read"},
		{id: "metabase-14", replace: []string{`"public"."orders"."placed"`, `"acdemo"."orders"."order_date"`,
			`"public"."orders"`, `"acdemo"."orders"`}, compare: biRows},
	},
	"superset": {
		{id: "superset-1", notRun: "a pointer to SQLAlchemy's reflection SQL, not a statement (TestPythonSQLAlchemyScenario covers it)"},
		{id: "superset-2", compare: biRowsAbout, about: demoDatabase},
		{id: "superset-3", notRun: "a description of Inspector calls, not a statement (TestPythonSQLAlchemyScenario covers them)"},
		{id: "superset-4", replace: []string{`"public"`, `"acdemo"`}},
		{id: "superset-5", check: checkExplainCost},
		{id: "superset-6", check: checkPositiveInt},
		{id: "superset-7", compare: biRows},
		{id: "superset-8", replace: []string{"placed", "order_date"}, compare: biRows, unordered: true},
		{id: "superset-9", compare: biRows},
	},
}

// biAnswer is what one server answered: the columns and rows of the last
// statement, or its error.
type biAnswer struct {
	columns []string // "name:oid"
	rows    [][]string
	err     error
}

func TestBIQueries(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 90*time.Second)
	known, err := bicorpus.ReadKnownFailures(biKnownFailuresFile)
	if err != nil {
		t.Fatal(err)
	}
	ref := startRefPostgres(t, ctx)

	seen := map[string]bool{}
	for _, tool := range bicorpus.Tools {
		entries, err := bicorpus.ReadEntries(filepath.Join("testdata", "bi"), tool)
		if err != nil {
			t.Fatal(err)
		}
		cases := biCases[tool]
		if len(cases) != len(entries) {
			t.Fatalf("%s: %d entries in testdata, %d cases here: every entry needs a case", tool, len(entries), len(cases))
		}
		sqeConn := biConnect(t, ctx, shared.server.host, shared.server.port, shared.token)
		pgConn := biConnect(t, ctx, "127.0.0.1", ref.port, "")
		for i, c := range cases {
			e := entries[i]
			if e.ID != c.id {
				t.Fatalf("%s: entry %d is %s, case is %s", tool, i, e.ID, c.id)
			}
			seen[c.id] = true
			t.Run(c.id, func(t *testing.T) {
				if c.notRun != "" {
					if _, listed := known[c.id]; listed {
						t.Errorf("%s is not run (%s) but is listed in %s", c.id, c.notRun, biKnownFailuresFile)
					}
					t.Skipf("not run: %s", c.notRun)
				}
				stmts, params := c.statements(e)
				proto := bicorpus.ProtocolOf(tool, e)
				want := runBIStatements(ctx, pgConn, proto, stmts, params)
				if want.err != nil {
					t.Fatalf("PostgreSQL fails on %s (%s): %v\nSQL: %s", c.id, proto, want.err, strings.Join(stmts, "; "))
				}
				if c.check != nil {
					if err := c.check(want.rows); err != nil {
						t.Fatalf("PostgreSQL's answer fails the check of %s: %v", c.id, err)
					}
				}
				got := runBIStatements(ctx, sqeConn, proto, stmts, params)
				failure := c.judge(want, got)
				kf, listed := known[c.id]
				switch {
				case failure == "" && listed:
					t.Errorf("%s now answers like PostgreSQL: remove it from %s", c.id, biKnownFailuresFile)
				case failure != "" && !listed:
					t.Errorf("%s (%s) differs from PostgreSQL: %s\nSQL: %s\nparams: %q",
						c.id, proto, failure, strings.Join(stmts, "; "), params)
				case failure != "" && listed && biFailureKind(failure) != biFailureKind(kf.Gives):
					t.Errorf("%s is listed as failing with %q but now fails with: %s", c.id, biFailureKind(kf.Gives), failure)
				case listed:
					t.Logf("known failure (%s): %s", kf.Feature, failure)
				default:
					t.Logf("same columns %q; rows compared: %q", got.columns, c.comparable(got.rows))
				}
			})
		}
	}
	for id := range known {
		if !seen[id] {
			t.Errorf("%s lists %s, which is no entry of testdata/bi", biKnownFailuresFile, id)
		}
	}
}

// statements is the case's SQL after substitution, split when asked, with
// client-side '?' placeholders numbered the way pgjdbc sends them, and the
// parameters to bind.
func (c biCase) statements(e bicorpus.Entry) ([]string, []string) {
	sql := e.SQL
	for i := 0; i+1 < len(c.replace); i += 2 {
		sql = strings.ReplaceAll(sql, c.replace[i], c.replace[i+1])
	}
	sql = bicorpus.NumberPlaceholders(sql)
	params := e.ParamsExample
	if c.params != nil {
		params = c.params
	}
	if c.split == "" {
		return []string{sql}, params
	}
	return strings.Split(sql, c.split), params
}

// judge returns "" when got matches want under the case's comparison, or
// what differs: SQE's error as "SQLSTATE message", or "mismatch: ...".
func (c biCase) judge(want, got biAnswer) string {
	if got.err != nil {
		var pe *pgconn.PgError
		if errors.As(got.err, &pe) {
			return pe.Code + " " + pe.Message
		}
		return "error " + got.err.Error()
	}
	if !slices.Equal(want.columns, got.columns) {
		return fmt.Sprintf("mismatch: columns %q, PostgreSQL %q", got.columns, want.columns)
	}
	if c.check != nil {
		if err := c.check(got.rows); err != nil {
			return "mismatch: " + err.Error()
		}
	}
	wantRows, gotRows := c.comparable(want.rows), c.comparable(got.rows)
	if c.compare != biColumnsOnly && !slices.Equal(wantRows, gotRows) {
		return fmt.Sprintf("mismatch: rows %q, PostgreSQL %q", gotRows, wantRows)
	}
	return ""
}

// comparable is the part of rows the case compares, one string per row.
func (c biCase) comparable(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		r = slices.Clone(r)
		for _, i := range c.ignoreColumns {
			if i < len(r) {
				r[i] = "(ignored)"
			}
		}
		line := strings.Join(r, "|")
		if c.compare == biRowsAbout && !strings.Contains(line, c.about) {
			continue
		}
		out = append(out, line)
	}
	if c.unordered {
		slices.Sort(out)
	}
	return out
}

// biFailureKind is what a failure is pinned by: the SQLSTATE of SQE's
// error, or "mismatch" when SQE answers differently.
func biFailureKind(failure string) string {
	kind, _, _ := strings.Cut(failure, " ")
	return strings.TrimSuffix(kind, ":")
}

// biConnect opens a connection for the BI queries: alice, plaintext on
// loopback, the session settings pgjdbc sends at startup (which the other
// tools accept as well), UTC so timestamps print the same on both servers.
func biConnect(t *testing.T, ctx context.Context, host, port, password string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s user=alice dbname=%s sslmode=disable", host, port, demoDatabase))
	if err != nil {
		t.Fatalf("parse config: %v", err)
	}
	cfg.Password = password
	cfg.Fallbacks = nil
	cfg.DefaultQueryExecMode = pgx.QueryExecModeCacheStatement
	cfg.RuntimeParams["TimeZone"] = "UTC"
	cfg.RuntimeParams["DateStyle"] = "ISO"
	cfg.RuntimeParams["extra_float_digits"] = "2"
	return connectConfig(t, ctx, cfg)
}

// runBIStatements runs stmts in order over proto and returns the answer
// of the last one, or the first error.
func runBIStatements(ctx context.Context, conn *pgx.Conn, proto bicorpus.Protocol, stmts, params []string) biAnswer {
	var a biAnswer
	for _, sql := range stmts {
		switch proto {
		case bicorpus.Ping:
			a = biAnswer{err: conn.Ping(ctx)}
		case bicorpus.Simple:
			a = runBISimple(ctx, conn, sql)
		case bicorpus.Pgx:
			a = runBIPgx(ctx, conn, sql, params)
		case bicorpus.JDBC:
			a = runBIJDBC(ctx, conn, sql, params)
		}
		if a.err != nil {
			return a
		}
	}
	return a
}

func runBISimple(ctx context.Context, conn *pgx.Conn, sql string) biAnswer {
	results, err := conn.PgConn().Exec(ctx, sql).ReadAll()
	if err != nil {
		return biAnswer{err: err}
	}
	if len(results) == 0 {
		return biAnswer{}
	}
	return textAnswer(results[len(results)-1])
}

func runBIJDBC(ctx context.Context, conn *pgx.Conn, sql string, params []string) biAnswer {
	values := make([][]byte, len(params))
	oids := make([]uint32, len(params))
	for i, p := range params {
		values[i] = []byte(p)
		oids[i] = 1043 // varchar: what setString declares
	}
	res := conn.PgConn().ExecParams(ctx, sql, values, oids, nil, nil).Read()
	if res.Err != nil {
		return biAnswer{err: res.Err}
	}
	return textAnswer(res)
}

// textAnswer is a text-format result as strings, NULL as "NULL".
func textAnswer(res *pgconn.Result) biAnswer {
	a := biAnswer{columns: columnsOf(res.FieldDescriptions)}
	for _, row := range res.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			if v == nil {
				cells[i] = "NULL"
			} else {
				cells[i] = string(v)
			}
		}
		a.rows = append(a.rows, cells)
	}
	return a
}

// runBIPgx runs sql the way pgx does by default and prints each decoded
// value as JSON, so both servers' values compare through the same decoder.
func runBIPgx(ctx context.Context, conn *pgx.Conn, sql string, params []string) biAnswer {
	args := make([]any, len(params))
	for i, p := range params {
		args[i] = p
	}
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		return biAnswer{err: err}
	}
	defer rows.Close()
	a := biAnswer{columns: columnsOf(rows.FieldDescriptions())}
	for rows.Next() {
		values, err := rows.Values()
		if err != nil {
			return biAnswer{err: err}
		}
		cells := make([]string, len(values))
		for i, v := range values {
			b, err := json.Marshal(v)
			if err != nil {
				return biAnswer{err: fmt.Errorf("encode column %d: %w", i, err)}
			}
			cells[i] = string(b)
		}
		a.rows = append(a.rows, cells)
	}
	if err := rows.Err(); err != nil {
		return biAnswer{err: err}
	}
	return a
}

func columnsOf(fields []pgconn.FieldDescription) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = fmt.Sprintf("%s:%d", f.Name, f.DataTypeOID)
	}
	return out
}

// checkServerVersionNum: Grafana divides server_version_num by 100 and
// expects a PostgreSQL 15 number (1500..1599).
func checkServerVersionNum(rows [][]string) error {
	if len(rows) != 1 || len(rows[0]) != 1 {
		return fmt.Errorf("want one value, got %q", rows)
	}
	n, err := strconv.Atoi(rows[0][0])
	if err != nil || n < 1500 || n > 1599 {
		return fmt.Errorf("server_version_num/100 = %q, want 15xx", rows[0][0])
	}
	return nil
}

// explainCost is what Superset parses out of EXPLAIN's first row.
var explainCost = regexp.MustCompile(`cost=([\d\.]+)\.\.([\d\.]+)`)

func checkExplainCost(rows [][]string) error {
	if len(rows) == 0 || len(rows[0]) != 1 || !explainCost.MatchString(rows[0][0]) {
		return fmt.Errorf("EXPLAIN's first row has no cost=a..b: %q", rows)
	}
	return nil
}

func checkPositiveInt(rows [][]string) error {
	if len(rows) != 1 || len(rows[0]) != 1 {
		return fmt.Errorf("want one value, got %q", rows)
	}
	if n, err := strconv.Atoi(rows[0][0]); err != nil || n <= 0 {
		return fmt.Errorf("want a positive integer, got %q", rows[0][0])
	}
	return nil
}

// refPostgres is a throw-away PostgreSQL 15 cluster holding the demo
// schema, for comparing answers.
type refPostgres struct {
	port   string
	cmd    *exec.Cmd
	log    *syncBuffer
	exited chan struct{}
}

// startRefPostgres initialises a cluster in a temporary directory (as the
// postgres OS user when running as root: PostgreSQL refuses root), starts
// it on a free loopback port with trust authentication for alice, loads
// the demo schema into sales_wh, and stops it when the test ends.
func startRefPostgres(t *testing.T, ctx context.Context) *refPostgres {
	t.Helper()
	if _, err := os.Stat(filepath.Join(refPostgresBinDir, "postgres")); err != nil {
		t.Fatalf("PostgreSQL 15 server binaries not found (%v): install the postgresql-15 package (make test does this)", err)
	}
	// Not t.TempDir: its parent is private to root, and the server runs
	// as postgres.
	dir, err := os.MkdirTemp("", "sqe-refpg-")
	if err != nil {
		t.Fatalf("temp dir: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	cred := refPostgresCredential(t)
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatalf("chown %s: %v", dir, err)
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.CommandContext(ctx, filepath.Join(refPostgresBinDir, "initdb"), "-D", data, "-U", "alice",
		"--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	initdb.Env = withoutPrefixes(os.Environ(), "PG", "LC_", "LANG")
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	port, err := freeLoopbackPort()
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	cmd := exec.Command(filepath.Join(refPostgresBinDir, "postgres"), "-D", data, "-p", port,
		"-c", "listen_addresses=127.0.0.1", "-k", dir, "-c", "timezone=UTC",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	cmd.Env = initdb.Env
	p := &refPostgres{port: port, cmd: cmd, log: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.log, p.log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start postgres: %v", err)
	}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(p.stop)
	p.load(t, ctx)
	return p
}

// stop asks for a fast shutdown (SIGINT to the postmaster) and kills it
// if it has not exited in time.
func (p *refPostgres) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// load waits for the server, creates the demo database and its schema.
func (p *refPostgres) load(t *testing.T, ctx context.Context) {
	t.Helper()
	connStr := func(db string) string {
		return fmt.Sprintf("host=127.0.0.1 port=%s user=alice dbname=%s sslmode=disable", p.port, db)
	}
	var admin *pgx.Conn
	deadline := time.Now().Add(30 * time.Second)
	for {
		var err error
		admin, err = pgx.Connect(ctx, connStr("postgres"))
		if err == nil {
			break
		}
		select {
		case <-p.exited:
			t.Fatalf("postgres exited: %s", p.log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("postgres did not accept connections within 30s: %v\n%s", err, p.log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	_, err := admin.Exec(ctx, "CREATE DATABASE "+demoDatabase)
	_ = admin.Close(ctx)
	if err != nil {
		t.Fatalf("create database: %v", err)
	}
	conn, err := pgx.Connect(ctx, connStr(demoDatabase))
	if err != nil {
		t.Fatalf("connect to %s: %v", demoDatabase, err)
	}
	defer conn.Close(ctx)
	for _, stmt := range refPostgresSchema {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("load demo schema: %s: %v", stmt, err)
		}
	}
}

// refPostgresCredential is the postgres OS user when running as root, nil
// otherwise.
func refPostgresCredential(t *testing.T) *syscall.Credential {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		t.Fatalf("running as root needs the postgres OS user: %v", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatalf("postgres user ids: %v", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

// freeLoopbackPort asks the kernel for a loopback port nobody listens on.
func freeLoopbackPort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	return port, err
}
