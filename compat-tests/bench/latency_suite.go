package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The latency suite (-suite latency) times the small statements that
// dashboards, BI tools and ORMs send, one client (pgx) at a time, on
// PostgreSQL 15 and then on SQE holding the same tables, each server
// alone on the machine: SELECT 1, a prepared one-row lookup, the catalog
// queries of Grafana, Metabase, Superset, SQLAlchemy, pgjdbc and psql
// over a catalog of 200 tables, a key lookup on a large table and a
// single-row INSERT. Every statement's answer is checked: the read
// statements must return as many rows on both servers, and the INSERTs
// must leave exactly one row each.

// latencyOptions are the latency suite's flags.
type latencyOptions struct {
	runs       int // timed runs per statement
	lookupRows int // rows of the key lookup's table
	sweeps     int // timed runs of the statement over all catalog tables; 0 leaves it out
}

// validate checks the flags.
func (o latencyOptions) validate() error {
	if o.runs < 1 || o.lookupRows < latencySmallRows || o.sweeps < 0 {
		return fmt.Errorf("-latency-runs must be positive, -latency-sweeps not negative, -latency-rows at least %d", latencySmallRows)
	}
	return nil
}

// catalogBuilders is how many connections create the catalog's tables
// at once.
const catalogBuilders = 4

// describeTable is the table psql describes.
const describeTable = `\d s1.t1`

// latencyRun is one server's part of the suite.
type latencyRun struct {
	timings []latencyTiming // one per statement
	// inserted is what latency.inserts held after the INSERTs: its rows
	// and distinct ids.
	inserted, distinct int64
}

// runLatencySuite measures both servers and prints the table; a failed
// statement, answers of different sizes or a lost or doubled INSERT fail
// it, after the table is printed.
func runLatencySuite(ctx context.Context, opts options, root, bin, work string) error {
	bi, notes, err := biStatements(root)
	if err != nil {
		return fmt.Errorf("latency: %w", err)
	}
	// PostgreSQL goes first: psql's queries for \d are read from it.
	progress("latency: PostgreSQL")
	stmts, pgRun, err := runLatencyOnPostgres(ctx, opts, work, bi)
	if err != nil {
		return fmt.Errorf("latency on PostgreSQL: %w", err)
	}
	progress("latency: SQE")
	sqeRun, err := runLatencyOnSQE(ctx, opts, bin, work, stmts)
	if err != nil {
		return fmt.Errorf("latency on SQE: %w", err)
	}
	rep := latencyReport{opts: opts.latency, stmts: stmts, sqe: sqeRun, pg: pgRun, notes: notes}
	if err := rep.write(os.Stdout); err != nil {
		return err
	}
	return rep.check()
}

// latencyStatementList is every statement of the suite, in order.
func latencyStatementList(o latencyOptions, bi []latencyStatement, describe latencyStatement) []latencyStatement {
	first, last := coreStatements(o.lookupRows)
	stmts := append(first, bi...)
	stmts = append(stmts, sqlalchemyStatements(o.sweeps)...)
	stmts = append(stmts,
		oneStep(`pgjdbc getColumns(null, "s%", "%", "%")`, pgjdbcGetColumns, protoUnnamed),
		describe)
	return append(stmts, last...)
}

// runLatencyOnPostgres starts a durable cluster (the INSERTs are flushed
// as SQE's are), loads the tables and the catalog, reads psql's queries
// for \d, and measures. It returns the suite's statements.
func runLatencyOnPostgres(ctx context.Context, opts options, work string, bi []latencyStatement) (stmts []latencyStatement, run latencyRun, err error) {
	pg, err := startPostgres(ctx, opts.pgBin, work, "postgres-latency", true)
	if err != nil {
		return nil, run, err
	}
	defer func() {
		if serr := pg.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	setup, err := pg.createDatabase(ctx, sqeDatabase)
	if err != nil {
		return nil, run, err
	}
	defer setup.Close(context.WithoutCancel(ctx))
	// SQE serves one database. PostgreSQL's default one, postgres, would
	// be one more row of pg_database (superset-2); without it both list
	// the same databases.
	if _, err := setup.Exec(ctx, "DROP DATABASE postgres"); err != nil {
		return nil, run, err
	}
	connect := func() (*pgx.Conn, error) { return pg.connect(ctx, sqeDatabase) }
	progress("latency: PostgreSQL: %s-row table, %d-table catalog", sizeLabel(opts.latency.lookupRows), latencyTables)
	if err := loadLatencyTables(ctx, setup, connect, append(latencySetup(false, opts.latency.lookupRows), latencyPostgresKeys()...)); err != nil {
		return nil, run, err
	}
	describe, err := capturePsqlDescribe(ctx, opts.pgBin, fmt.Sprintf("host=127.0.0.1 port=%d user=%s dbname=%s sslmode=disable", pg.port, benchUser, sqeDatabase), setup)
	if err != nil {
		return nil, run, err
	}
	stmts = latencyStatementList(opts.latency, bi, describe)
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=127.0.0.1 port=%d user=%s dbname=%s sslmode=disable", pg.port, benchUser, sqeDatabase))
	if err != nil {
		return nil, run, err
	}
	run, err = measureLatencyServer(ctx, "PostgreSQL", cfg, setup, stmts, opts.latency.runs, false)
	return stmts, run, err
}

// runLatencyOnSQE serves a fresh data directory, creates the same tables
// and catalog through pgwire as the bench administrator, and measures.
func runLatencyOnSQE(ctx context.Context, opts options, bin, work string, stmts []latencyStatement) (run latencyRun, err error) {
	srv, _, err := startMeasuredSQE(ctx, bin, work, "sqe-latency", 0)
	if err != nil {
		return run, err
	}
	defer func() {
		if serr := srv.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	setup, err := srv.connect(ctx)
	if err != nil {
		return run, err
	}
	defer setup.Close(context.WithoutCancel(ctx))
	connect := func() (*pgx.Conn, error) { return srv.connect(ctx) }
	progress("latency: SQE: %s-row table, %d-table catalog", sizeLabel(opts.latency.lookupRows), latencyTables)
	if err := loadLatencyTables(ctx, setup, connect, latencySetup(true, opts.latency.lookupRows)); err != nil {
		return run, err
	}
	token, err := srv.token(benchUser, []string{benchAdminRole}, 8*time.Hour)
	if err != nil {
		return run, err
	}
	cfg, err := srv.connConfig(benchUser, token)
	if err != nil {
		return run, err
	}
	return measureLatencyServer(ctx, "SQE", cfg, setup, stmts, opts.latency.runs, true)
}

// loadLatencyTables runs the tables' setup on conn, then creates the
// catalog: its schemas on conn, its tables over catalogBuilders
// connections from connect.
func loadLatencyTables(ctx context.Context, conn *pgx.Conn, connect func() (*pgx.Conn, error), setup []string) error {
	if err := execAll(ctx, conn, setup); err != nil {
		return err
	}
	schemas, tables := catalogDDL()
	if err := execAll(ctx, conn, schemas); err != nil {
		return err
	}
	start := time.Now()
	work := make(chan string)
	errs := make([]error, catalogBuilders)
	var wg sync.WaitGroup
	for i := range catalogBuilders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := connect()
			if err != nil {
				errs[i] = err
				for range work {
				}
				return
			}
			defer c.Close(context.WithoutCancel(ctx))
			for ddl := range work {
				if errs[i] != nil {
					continue
				}
				if _, err := c.Exec(ctx, ddl); err != nil {
					errs[i] = fmt.Errorf("%s: %w", ddl, err)
				}
			}
		}()
	}
	for _, ddl := range tables {
		work <- ddl
	}
	close(work)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	progress("latency: %d tables created in %s", len(tables), time.Since(start).Round(time.Millisecond))
	return nil
}

// capturePsqlDescribe runs psql 15's \d with -E against conninfo and
// makes a statement of the queries it printed; conn, on the same
// database, finds the table's OID psql sent back.
func capturePsqlDescribe(ctx context.Context, pgBin, conninfo string, conn *pgx.Conn) (latencyStatement, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(pgBin, "psql"), "-X", "-E", "-v", "ON_ERROR_STOP=1", "-d", conninfo, "-c", describeTable)
	cmd.Env = withoutSQEVars(os.Environ())
	out, err := cmd.CombinedOutput()
	if err != nil {
		return latencyStatement{}, fmt.Errorf("psql -E -c '%s': %w\n%s", describeTable, err, out)
	}
	queries := parsePsqlEcho(string(out))
	if len(queries) == 0 {
		return latencyStatement{}, fmt.Errorf("psql -E -c '%s' printed no query:\n%s", describeTable, out)
	}
	var oid string
	if err := conn.QueryRow(ctx, queries[0]).Scan(&oid, nil, nil); err != nil {
		return latencyStatement{}, fmt.Errorf("psql's table look-up for %s: %w", describeTable, err)
	}
	return psqlDescribe("psql "+describeTable, queries, oid)
}

// measureLatencyServer opens the measuring connection from cfg (UTC and
// ISO dates, as pgjdbc asks at startup; pgx's statement cache), times
// every statement on it, then reads what the INSERTs left with setup.
func measureLatencyServer(ctx context.Context, server string, cfg *pgx.ConnConfig, setup *pgx.Conn, stmts []latencyStatement, runs int, sqe bool) (latencyRun, error) {
	var run latencyRun
	cfg.DefaultQueryExecMode = pgx.QueryExecModeCacheStatement
	cfg.RuntimeParams["TimeZone"] = "UTC"
	cfg.RuntimeParams["DateStyle"] = "ISO"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return run, fmt.Errorf("connect to %s: %w", server, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	for _, st := range stmts {
		if ctx.Err() != nil {
			return run, ctx.Err()
		}
		if sqe && st.skipSQE != "" {
			run.timings = append(run.timings, latencyTiming{skipped: true})
			continue
		}
		n := runs
		if st.runs > 0 {
			n = st.runs
		}
		progress("latency: %s: %s, %d runs", server, st.label, n)
		run.timings = append(run.timings, timeStatement(ctx, conn, st, n))
	}
	err = setup.QueryRow(ctx, "SELECT count(*), count(DISTINCT id) FROM latency.inserts").Scan(&run.inserted, &run.distinct)
	if err != nil {
		return run, fmt.Errorf("%s: count latency.inserts: %w", server, err)
	}
	return run, nil
}

// latencyTiming is what the runs of one statement on one server gave.
type latencyTiming struct {
	runs []time.Duration
	// rows are the warm-up's answers, one per step.
	rows []stepRows
	// err is the first failure; the statement's runs stop there.
	err     error
	skipped bool
}

// stepRows is what one step returned: its rows, and those naming no
// system schema.
type stepRows struct {
	all, user int64
}

// timeStatement runs st once to warm up, then runs times, each timed
// from sending its first step to reading the last row of its last, and
// checks every run returned as many rows per step as the warm-up.
func timeStatement(ctx context.Context, conn *pgx.Conn, st latencyStatement, runs int) latencyTiming {
	var t latencyTiming
	rows, err := runStatement(ctx, conn, st, -1)
	if err != nil {
		t.err = err
		return t
	}
	t.rows = rows
	for i := range runs {
		start := time.Now()
		got, err := runStatement(ctx, conn, st, i)
		elapsed := time.Since(start)
		if err != nil {
			t.err = fmt.Errorf("run %d: %w", i+1, err)
			return t
		}
		for s := range got {
			if got[s].all != rows[s].all {
				t.err = fmt.Errorf("run %d: query %d returned %d rows, the warm-up %d", i+1, s+1, got[s].all, rows[s].all)
				return t
			}
		}
		t.runs = append(t.runs, elapsed)
	}
	return t
}

// runStatement sends every step of st once and returns what each
// returned.
func runStatement(ctx context.Context, conn *pgx.Conn, st latencyStatement, run int) ([]stepRows, error) {
	var rows []stepRows
	step := 0
	for _, seq := range st.seqs {
		oid := ""
		for i, s := range seq.steps {
			step++
			sql := s.sql
			if seq.bindOID && i > 0 {
				sql = strings.ReplaceAll(sql, oidMarker, oid)
			}
			var r stepResult
			if err := r.run(ctx, conn, s, sql, run); err != nil {
				return rows, fmt.Errorf("query %d: %w", step, err)
			}
			if seq.bindOID && i == 0 {
				if r.first == "" {
					return rows, fmt.Errorf("query %d found no table", step)
				}
				oid = r.first
			}
			rows = append(rows, r.rows)
		}
	}
	return rows, nil
}

// stepResult is what reading one step's answer gave.
type stepResult struct {
	rows stepRows
	// first is the first row's first value, as text.
	first string
}

// add counts one row, given as text.
func (r *stepResult) add(values []string) {
	if r.rows.all == 0 && len(values) > 0 {
		r.first = values[0]
	}
	r.rows.all++
	if !namesSystemSchema(values) {
		r.rows.user++
	}
}

// run sends one step as its client does and reads every row.
func (r *stepResult) run(ctx context.Context, conn *pgx.Conn, s latencyStep, sql string, run int) error {
	switch s.proto {
	case protoSimple:
		return r.readSimple(conn.PgConn().Exec(ctx, sql))
	case protoUnnamed:
		values := make([][]byte, len(s.params))
		oids := make([]uint32, len(s.params))
		for i, p := range s.params {
			values[i] = []byte(p)
			oids[i] = 1043 // varchar: what pgjdbc's setString declares
		}
		return r.readResult(conn.PgConn().ExecParams(ctx, sql, values, oids, nil, nil))
	default:
		var args []any
		if s.args != nil {
			args = s.args(run)
		} else {
			for _, p := range s.params {
				args = append(args, p)
			}
		}
		rows, err := conn.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			v, err := rows.Values()
			if err != nil {
				return err
			}
			text := make([]string, len(v))
			for i, x := range v {
				text[i] = fmt.Sprint(x)
			}
			r.add(text)
		}
		return rows.Err()
	}
}

// readSimple reads every result of a simple query.
func (r *stepResult) readSimple(mrr *pgconn.MultiResultReader) error {
	for mrr.NextResult() {
		if err := r.readResult(mrr.ResultReader()); err != nil {
			_ = mrr.Close()
			return err
		}
	}
	return mrr.Close()
}

// readResult reads one result's rows, in text.
func (r *stepResult) readResult(rr *pgconn.ResultReader) error {
	for rr.NextRow() {
		raw := rr.Values()
		text := make([]string, len(raw))
		for i, v := range raw {
			text[i] = string(v)
		}
		r.add(text)
	}
	_, err := rr.Close()
	return err
}
