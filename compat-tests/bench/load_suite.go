package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// The load suite (-suite load) runs pgbench with custom scripts, a read
// mix and a write mix, against SQE and then against PostgreSQL 15 loaded
// with the same tables, each server alone on the machine, in each query
// protocol asked for. Every transaction must succeed, and after each write
// run the tables must hold exactly one INSERT and one UPDATE per counted
// transaction.

// loadOptions are the load, connection and soak suites' flags.
type loadOptions struct {
	clients   int
	threads   int
	duration  time.Duration
	protocols []string // pgbench -M modes
	conns     int      // idle connections of the conns suite
	soak      soakOptions
}

// validate checks the flags.
func (o loadOptions) validate() error {
	if o.clients < 1 || o.threads < 1 || o.conns < 1 || o.soak.clients < 1 || o.soak.rate < 1 {
		return errors.New("-load-clients, -load-threads, -load-conns, -soak-clients and -soak-rate must be positive")
	}
	if o.duration < time.Second || o.soak.duration < time.Second || o.soak.interval < time.Second {
		return errors.New("-load-duration, -soak-duration and -soak-interval must be at least 1s")
	}
	if o.soak.maintain < 0 {
		return errors.New("-soak-maintenance must not be negative")
	}
	for _, p := range o.protocols {
		if !slices.Contains([]string{"simple", "extended", "prepared"}, p) {
			return fmt.Errorf("-load-protocols: %q is not simple, extended or prepared", p)
		}
	}
	return nil
}

// loadMix is one pgbench script and the name the table gives it.
type loadMix struct {
	name   string
	script string // file under testdata/
	writes bool
}

var loadMixes = []loadMix{
	{name: "read", script: "load_read.sql"},
	{name: "write", script: "load_write.sql", writes: true},
}

// loadResult is one pgbench run of the suite.
type loadResult struct {
	mix, protocol, server string
	res                   pgbenchResult
}

// loadScript is the path of a pgbench script of this program.
func loadScript(root, name string) string {
	return filepath.Join(root, "compat-tests", "bench", "testdata", name)
}

// runLoadSuite measures both servers and prints the table; any failed
// transaction or lost write fails it, after the table is printed.
func runLoadSuite(ctx context.Context, opts options, root, bin, work string) error {
	progress("load: SQE")
	sqeResults, sqeErr := runLoadOnSQE(ctx, opts, root, bin, work)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	progress("load: PostgreSQL")
	pgResults, pgErr := runLoadOnPostgres(ctx, opts, root, work)
	results := append(sqeResults, pgResults...)
	if err := writeLoadReport(os.Stdout, opts.load, results); err != nil {
		return err
	}
	errs := []error{sqeErr, pgErr}
	for _, r := range results {
		if !r.res.ok() {
			errs = append(errs, fmt.Errorf("%s mix on %s (%s): %d of %d transactions failed %s",
				r.mix, r.server, r.protocol, r.res.failed, r.res.processed+r.res.failed, r.res.aborted))
		}
	}
	return errors.Join(errs...)
}

// runLoadOnSQE serves a fresh data directory, creates the tables and runs
// every mix in every protocol.
func runLoadOnSQE(ctx context.Context, opts options, root, bin, work string) (results []loadResult, err error) {
	srv, _, err := startMeasuredSQE(ctx, bin, work, "sqe-load", 0)
	if err != nil {
		return nil, err
	}
	defer func() {
		if serr := srv.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	conn, err := srv.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := execAll(ctx, conn, loadSetup(true)); err != nil {
		return nil, fmt.Errorf("sqe: %w", err)
	}
	target, err := srv.pgbenchTarget(opts.load.totalTime())
	if err != nil {
		return nil, err
	}
	return runLoadMixes(ctx, opts, root, work, "SQE", conn, target)
}

// runLoadOnPostgres does the same on a fresh PostgreSQL cluster, with
// the primary keys a PostgreSQL user would declare.
func runLoadOnPostgres(ctx context.Context, opts options, root, work string) (results []loadResult, err error) {
	pg, err := startPostgres(ctx, opts.pgBin, work, "postgres-load", true)
	if err != nil {
		return nil, err
	}
	defer func() {
		if serr := pg.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	conn, err := pg.createDatabase(ctx, sqeDatabase)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := execAll(ctx, conn, append(loadSetup(false), loadPostgresIndexes()...)); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	target := pgbenchTarget{host: "127.0.0.1", port: strconv.Itoa(pg.port), user: benchUser, database: sqeDatabase}
	return runLoadMixes(ctx, opts, root, work, "PostgreSQL 15", conn, target)
}

// runLoadMixes runs each mix in each protocol against target; conn checks
// the writes. A failed run is recorded and the next one runs.
func runLoadMixes(ctx context.Context, opts options, root, work, server string, conn *pgx.Conn, target pgbenchTarget) ([]loadResult, error) {
	var results []loadResult
	var errs []error
	for _, protocol := range opts.load.protocols {
		for _, mix := range loadMixes {
			progress("load: %s mix on %s, %s protocol, %d clients for %s", mix.name, server, protocol, opts.load.clients, opts.load.duration)
			before, err := readWriteCounts(ctx, conn)
			if err != nil {
				return results, fmt.Errorf("%s: %w", server, err)
			}
			logDir, err := os.MkdirTemp(work, "pgbench-")
			if err != nil {
				return results, err
			}
			res, err := runPgbench(ctx, opts.pgBin, pgbenchRun{
				scripts:   []string{loadScript(root, mix.script)},
				protocol:  protocol,
				clients:   opts.load.clients,
				threads:   opts.load.threads,
				duration:  opts.load.duration,
				logPrefix: filepath.Join(logDir, "tx"),
			}, target)
			if err != nil {
				return results, fmt.Errorf("%s mix on %s: %w", mix.name, server, err)
			}
			results = append(results, loadResult{mix: mix.name, protocol: protocol, server: server, res: res})
			if !mix.writes {
				continue
			}
			after, err := readWriteCounts(ctx, conn)
			if err != nil {
				return results, fmt.Errorf("%s: %w", server, err)
			}
			if err := checkWrites(before, after, res.processed); err != nil {
				errs = append(errs, fmt.Errorf("write mix on %s (%s): %w", server, protocol, err))
			}
		}
	}
	return results, errors.Join(errs...)
}

// totalTime bounds how long the pgbench runs against one server take, for
// the lifetime of the token they log in with.
func (o loadOptions) totalTime() time.Duration {
	return time.Duration(len(o.protocols)*len(loadMixes)) * o.duration
}

// startMeasuredSQE starts `sqe serve` on a new data directory under work
// with its HTTP endpoint on a known port, for /metrics, and room for
// maxConns connections (0: the default). It returns the endpoint's address.
func startMeasuredSQE(ctx context.Context, bin, work, name string, maxConns int) (*sqeServer, string, error) {
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	httpAddr := "127.0.0.1:" + strconv.Itoa(port)
	env := []string{"SQE_HTTP__LISTEN=" + httpAddr}
	if maxConns > 0 {
		env = append(env, "SQE_PGWIRE__MAX_CONNECTIONS="+strconv.Itoa(maxConns))
	}
	srv, err := startSQEWith(ctx, bin, work, filepath.Join(work, name), false, name, env)
	if err != nil {
		return nil, "", err
	}
	return srv, httpAddr, nil
}

// pgbenchTarget is where pgbench logs in as the bench administrator, with
// a token valid for at least d.
func (s *sqeServer) pgbenchTarget(d time.Duration) (pgbenchTarget, error) {
	token, err := s.token(benchUser, []string{benchAdminRole}, d+time.Hour)
	if err != nil {
		return pgbenchTarget{}, fmt.Errorf("token for pgbench: %w", err)
	}
	cfg, err := s.connConfig(benchUser, token)
	if err != nil {
		return pgbenchTarget{}, err
	}
	return pgbenchTarget{host: cfg.Host, port: strconv.Itoa(int(cfg.Port)), user: benchUser, database: sqeDatabase, password: token}, nil
}

// writeLoadReport prints one line per run.
func writeLoadReport(w io.Writer, o loadOptions, results []loadResult) error {
	if _, err := fmt.Fprintf(w, "\npgbench, custom scripts (-n): %d clients, %d threads, %s per run\n", o.clients, min(o.threads, o.clients), o.duration); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "%-6s %-9s %-14s %10s %7s %10s %10s %10s\n", "mix", "protocol", "server", "xacts", "failed", "tps", "p50", "p99"); err != nil {
		return err
	}
	for _, r := range results {
		failed := strconv.FormatInt(r.res.failed, 10)
		if r.res.aborted != "" {
			failed = "aborted"
		}
		if _, err := fmt.Fprintf(w, "%-6s %-9s %-14s %10d %7s %10.1f %10s %10s\n", r.mix, r.protocol, r.server,
			r.res.processed, failed, r.res.tps, formatDuration(r.res.p50), formatDuration(r.res.p99)); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintln(w, "\nmean latency of each statement, in milliseconds, and its failures (pgbench -r):"); err != nil {
		return err
	}
	for _, r := range results {
		if _, err := fmt.Fprintf(w, "%s mix, %s protocol, %s:\n%s", r.mix, r.protocol, r.server, r.res.statements); err != nil {
			return err
		}
	}
	return nil
}
