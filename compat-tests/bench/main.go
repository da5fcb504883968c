package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// demoSalesRows is the size of acdemo.sales that `sqe serve --demo` loads.
const demoSalesRows = 1_000_000

// defaultPGBin is where Debian installs PostgreSQL 15's server programs.
const defaultPGBin = "/usr/lib/postgresql/15/bin"

type options struct {
	runs      int
	largeRows int
	pgBin     string
	// suite is "all", "sales" (acdemo.sales), "tpch", "policy" (gate
	// two's overhead), "load" (pgbench), "conns" (idle connections),
	// "latency" (small statements, one client), or "copy" (COPY FROM
	// STDIN), "soak" or "maintenance", never part of "all".
	suite       string
	copyRows    int
	policyRows  int
	tpch        tpchOptions
	load        loadOptions
	latency     latencyOptions
	maintenance maintenanceSuiteOptions
}

func main() {
	var opts options
	flag.IntVar(&opts.runs, "runs", 5, "timed runs per query, after one warm-up")
	flag.IntVar(&opts.largeRows, "large-rows", 4_000_000, "rows of acdemo.sales in the second data directory")
	flag.StringVar(&opts.pgBin, "pg-bin", envOr("PG_BIN", defaultPGBin), "directory of PostgreSQL's initdb and postgres (env PG_BIN)")
	flag.StringVar(&opts.suite, "suite", "all", "what to measure: all, sales (acdemo.sales), tpch, policy (gate two's overhead), load (pgbench), conns (idle connections), latency (small statements of dashboards and ORMs, one client), copy (COPY FROM STDIN), soak or maintenance (single-row INSERTs with automatic maintenance)")
	flag.IntVar(&opts.copyRows, "copy-rows", 1_000_000, "rows the copy suite loads")
	flag.IntVar(&opts.policyRows, "policy-rows", 10_000_000, "rows of the policy suite's table")
	opts.tpch.sfs = scaleFactors{1}
	flag.Var(&opts.tpch.sfs, "tpch-sf", "TPC-H scale factors, comma-separated (1,10): one table each, then how the times grew")
	flag.IntVar(&opts.tpch.runs, "tpch-runs", 3, "timed runs per TPC-H query, after one warm-up")
	flag.StringVar(&opts.tpch.cacheDir, "tpch-cache", "", "directory keeping generated TPC-H data between runs (default: the user cache dir)")
	flag.DurationVar(&opts.tpch.timeout, "tpch-timeout", 2*time.Minute, "limit on one run of a TPC-H query")
	flag.Int64Var(&opts.tpch.sqeMemLimit, "tpch-sqe-mem", 6<<30, "bytes of resident memory past which the SQE server is stopped during a TPC-H query")
	flag.StringVar(&opts.tpch.memoryLimit, "tpch-memory-limit", "2GiB", "the SQE server's [query] memory_limit during the TPC-H queries")
	flag.Int64Var(&opts.tpch.dataCacheBytes, "tpch-data-cache", 6<<30, "bytes of the SQE server's [cache] data_bytes during the TPC-H queries (the decoded column chunks a warm run reads again); the server may grow past -tpch-sqe-mem by as much")
	flag.BoolVar(&opts.tpch.postgres, "postgres", true, "also run the TPC-H queries on PostgreSQL, whose answers SQE's are checked against")
	flag.Func("tpch-queries", "TPC-H queries to run, comma-separated (Q1,Q9); default all 22", func(v string) error {
		opts.tpch.only = strings.Split(v, ",")
		return nil
	})
	flag.StringVar(&opts.tpch.profileDir, "tpch-profile", "", "directory to write SQE's CPU and allocation profiles of each TPC-H query into (tpch-sf<SF>-<query>.cpu.pb.gz, .allocs.pb.gz; for go tool pprof); empty: none")
	flag.IntVar(&opts.tpch.profileSeconds, "tpch-profile-seconds", 5, "length of each query's CPU profile, the query repeated meanwhile")
	flag.BoolVar(&opts.tpch.duckdb, "duckdb", true, "also run the TPC-H queries on DuckDB (module compat-tests/bench/duckdb)")
	var protocols string
	flag.IntVar(&opts.load.clients, "load-clients", 32, "pgbench clients of the load suite")
	flag.IntVar(&opts.load.threads, "load-threads", 2, "pgbench threads (-j) of the load and soak suites")
	flag.DurationVar(&opts.load.duration, "load-duration", time.Minute, "length of each pgbench run of the load suite")
	flag.StringVar(&protocols, "load-protocols", "simple,extended,prepared", "pgbench query protocols (-M) the load suite runs, comma-separated; the soak uses the first")
	flag.IntVar(&opts.load.conns, "load-conns", 1000, "idle connections the conns suite opens")
	flag.DurationVar(&opts.load.soak.duration, "soak-duration", 30*time.Minute, "length of the soak")
	flag.IntVar(&opts.load.soak.clients, "soak-clients", 4, "pgbench clients of the soak")
	flag.IntVar(&opts.load.soak.rate, "soak-rate", 4, "transactions per second the soak's pgbench aims at (-R)")
	flag.DurationVar(&opts.load.soak.interval, "soak-interval", time.Minute, "how often the soak samples the server")
	flag.DurationVar(&opts.load.soak.maintain, "soak-maintenance", time.Minute, "how often the soak compacts and expires the snapshots of the tables it writes (0: never)")
	flag.IntVar(&opts.latency.runs, "latency-runs", 200, "timed runs of each statement of the latency suite, after one warm-up")
	flag.IntVar(&opts.latency.lookupRows, "latency-rows", 1_000_000, "rows of the latency suite's key lookup table")
	flag.IntVar(&opts.latency.sweeps, "latency-sweeps", 3, "timed runs of the latency suite's SQLAlchemy reflection of all 200 catalog tables, 1,000 queries each (0: none)")
	flag.DurationVar(&opts.maintenance.duration, "maint-duration", 2*time.Minute, "length of the maintenance suite's INSERTs")
	flag.DurationVar(&opts.maintenance.interval, "maint-interval", 10*time.Second, "how often the maintenance suite samples the table")
	flag.IntVar(&opts.maintenance.writers, "maint-writers", 4, "connections the maintenance suite INSERTs on")
	flag.IntVar(&opts.maintenance.rate, "maint-rate", 20, "single-row INSERTs per second of the maintenance suite, in all")
	flag.DurationVar(&opts.maintenance.snapshotAge, "maint-snapshot-age", time.Minute, "the server's [maintenance] snapshot_max_age in the maintenance suite")
	flag.DurationVar(&opts.maintenance.debounce, "maint-debounce", 5*time.Second, "the server's [maintenance] debounce in the maintenance suite")
	flag.Parse()
	opts.load.protocols = strings.Split(protocols, ",")
	if err := errors.Join(opts.load.validate(), opts.latency.validate(), opts.maintenance.validate()); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if opts.runs < 1 || opts.largeRows < 1 || opts.policyRows < 1 || opts.tpch.runs < 1 || opts.tpch.profileSeconds < 1 {
		fmt.Fprintln(os.Stderr, "bench: -runs, -large-rows, -policy-rows, -tpch-runs and -tpch-profile-seconds must be positive")
		os.Exit(2)
	}
	if !slices.Contains([]string{"all", "sales", "tpch", "policy", "load", "conns", "latency", "copy", "soak", "maintenance"}, opts.suite) {
		fmt.Fprintln(os.Stderr, "bench: -suite must be all, sales, tpch, policy, load, conns, latency, copy, soak or maintenance")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, opts)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// run does the whole benchmark. Every server it starts is stopped before
// it returns, whatever happens.
func run(ctx context.Context, opts options) (err error) {
	root, err := moduleRoot(ctx)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "sqe-bench-")
	if err != nil {
		return err
	}
	defer func() {
		if rerr := os.RemoveAll(work); rerr != nil && err == nil {
			err = rerr
		}
	}()
	// The PostgreSQL user must be able to reach its directory inside.
	if err := os.Chmod(work, 0o711); err != nil {
		return err
	}

	progress("building sqe")
	bin, err := buildServer(ctx, root, work)
	if err != nil {
		return err
	}
	switch opts.suite {
	case "copy":
		return runCopySuite(ctx, opts, bin, work)
	case "soak":
		return runSoakSuite(ctx, opts, root, bin, work)
	case "maintenance":
		return runMaintenanceSuite(ctx, opts, bin, work)
	}
	var errs []error
	if opts.suite == "all" || opts.suite == "sales" {
		errs = append(errs, runSales(ctx, opts, bin, work))
	}
	if opts.suite == "all" || opts.suite == "tpch" {
		errs = append(errs, runTPCH(ctx, opts, root, bin, work))
	}
	if opts.suite == "all" || opts.suite == "policy" {
		errs = append(errs, runPolicySuite(ctx, opts, bin, work))
	}
	if opts.suite == "all" || opts.suite == "load" {
		errs = append(errs, runLoadSuite(ctx, opts, root, bin, work))
	}
	if opts.suite == "all" || opts.suite == "conns" {
		errs = append(errs, runConnsSuite(ctx, opts, bin, work))
	}
	if opts.suite == "all" || opts.suite == "latency" {
		errs = append(errs, runLatencySuite(ctx, opts, root, bin, work))
	}
	return errors.Join(errs...)
}

// runSales measures acdemo.sales at two sizes on SQE and at the smaller
// one on PostgreSQL, and prints the table.
func runSales(ctx context.Context, opts options, bin, work string) (err error) {
	smallDir, largeDir := filepath.Join(work, "sqe-small"), filepath.Join(work, "sqe-large")
	progress("preparing the %s-row data dir (sqe serve --demo)", sizeLabel(demoSalesRows))
	prep, err := startSQE(ctx, bin, work, smallDir, true, "sqe-prepare")
	if err != nil {
		return err
	}
	if err := prep.Stop(); err != nil {
		return err
	}
	progress("preparing the %s-row data dir (storage API)", sizeLabel(opts.largeRows))
	if err := prepareLargeDir(ctx, largeDir, opts.largeRows); err != nil {
		return err
	}

	rep := report{smallRows: demoSalesRows, largeRows: opts.largeRows, runs: opts.runs}
	pg, err := measureSmall(ctx, opts, bin, work, smallDir, &rep)
	if pg != nil {
		defer func() {
			if serr := pg.Stop(); serr != nil && err == nil {
				err = serr
			}
		}()
	}
	if err != nil {
		return err
	}
	// PostgreSQL is done; it should not share the machine with SQE's runs.
	if err := pg.Stop(); err != nil {
		return err
	}
	progress("measuring SQE at %s rows", sizeLabel(opts.largeRows))
	rep.sqeLarge, err = measureSQE(ctx, bin, work, largeDir, "sqe-large", opts.runs, opts.largeRows, nil)
	if err != nil {
		return err
	}
	if err := rep.write(os.Stdout); err != nil {
		return err
	}
	return checkAnswers(rep)
}

// measureSmall measures SQE on the demo data dir, then copies its rows
// into a new PostgreSQL cluster and measures that. The cluster is
// returned, running or not, for the caller to stop.
func measureSmall(ctx context.Context, opts options, bin, work, dataDir string, rep *report) (*pgServer, error) {
	progress("measuring SQE at %s rows", sizeLabel(demoSalesRows))
	var pg *pgServer
	var pgConn *pgx.Conn
	m, err := measureSQE(ctx, bin, work, dataDir, "sqe-small", opts.runs, demoSalesRows,
		func(sqeConn *pgx.Conn) error {
			// The same rows go to PostgreSQL while this server is up.
			progress("starting PostgreSQL and copying %s rows into it", sizeLabel(demoSalesRows))
			var err error
			if pg, err = startPostgres(ctx, opts.pgBin, work, "pg", false); err != nil {
				return err
			}
			if pgConn, err = pg.createSalesDatabase(ctx); err != nil {
				return err
			}
			n, err := copySales(ctx, sqeConn, pgConn)
			if err != nil {
				return err
			}
			if n != demoSalesRows {
				return fmt.Errorf("copied %d rows into postgres, want %d", n, demoSalesRows)
			}
			return nil
		})
	if pgConn != nil {
		defer pgConn.Close(context.WithoutCancel(ctx))
	}
	if err != nil {
		return pg, err
	}
	rep.sqeSmall = m
	progress("measuring PostgreSQL at %s rows", sizeLabel(demoSalesRows))
	if rep.pgSmall, err = measure(ctx, pgConn, opts.runs); err != nil {
		return pg, fmt.Errorf("postgres: %w", err)
	}
	return pg, nil
}

// measureSQE serves dataDir, runs the queries, samples the server's peak
// RSS, then calls after (when set) while the server is still up, and stops
// the server.
func measureSQE(ctx context.Context, bin, work, dataDir, name string, runs, wantRows int, after func(*pgx.Conn) error) (m measurement, err error) {
	srv, err := startSQE(ctx, bin, work, dataDir, false, name)
	if err != nil {
		return m, err
	}
	defer func() {
		if serr := srv.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	conn, err := srv.connect(ctx)
	if err != nil {
		return m, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if m, err = measure(ctx, conn, runs); err != nil {
		return m, fmt.Errorf("%s: %w", name, err)
	}
	if err := checkSize(m, wantRows); err != nil {
		return m, fmt.Errorf("%s: %w", name, err)
	}
	if m.peakRSS, err = peakRSS(srv.pid()); err != nil {
		return m, err
	}
	if after != nil {
		err = after(conn)
	}
	return m, err
}

// checkSize makes sure the server answered over the table size we meant.
func checkSize(m measurement, wantRows int) error {
	want := strconv.Itoa(wantRows)
	if got := m.queries[0].answer; len(got) != 1 || got[0] != want {
		return fmt.Errorf("count(*) returned %v, want %s", got, want)
	}
	if m.stream.rows != int64(wantRows) {
		return fmt.Errorf("streaming returned %d rows, want %d", m.stream.rows, wantRows)
	}
	return nil
}

// checkAnswers compares SQE's answers with PostgreSQL's over the same rows.
func checkAnswers(rep report) error {
	var errs []error
	for i, q := range benchQueries {
		if err := sameAnswer(rep.sqeSmall.queries[i].answer, rep.pgSmall.queries[i].answer); err != nil {
			errs = append(errs, fmt.Errorf("%s: SQE and PostgreSQL disagree: %w", q.label, err))
		}
	}
	if rep.sqeSmall.stream.rows != rep.pgSmall.stream.rows {
		errs = append(errs, fmt.Errorf("%s: SQE returned %d rows, PostgreSQL %d", streamLabel, rep.sqeSmall.stream.rows, rep.pgSmall.stream.rows))
	}
	return errors.Join(errs...)
}

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("find module root: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("find module root: run from inside the sqe module")
	}
	return filepath.Dir(gomod), nil
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}
