package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

// result is what the program prints; the bench program decodes the same
// shape.
type result struct {
	SF          float64       `json:"sf"`
	Threads     int           `json:"threads"`
	Version     string        `json:"version"`
	LoadSeconds float64       `json:"load_seconds"`
	Queries     []queryResult `json:"queries"`
}

type queryResult struct {
	Name string `json:"name"`
	// RunsNS are the timed runs' wall times in nanoseconds.
	RunsNS []int64 `json:"runs_ns"`
	Rows   int64   `json:"rows"`
	Error  string  `json:"error,omitempty"`
}

type options struct {
	sf      float64
	db      string
	threads int
	runs    int
	timeout time.Duration
}

func main() {
	var opts options
	flag.Float64Var(&opts.sf, "sf", 1, "TPC-H scale factor")
	flag.StringVar(&opts.db, "db", "", "DuckDB database file; generated when missing (required)")
	flag.IntVar(&opts.threads, "threads", 2, "DuckDB worker threads")
	flag.IntVar(&opts.runs, "runs", 3, "timed runs per query, after one warm-up")
	flag.DurationVar(&opts.timeout, "timeout", 5*time.Minute, "limit on one run of a query")
	flag.Parse()
	if opts.db == "" || opts.runs < 1 || opts.threads < 1 {
		fmt.Fprintln(os.Stderr, "duckdb: -db is required; -runs and -threads must be positive")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	res, err := run(ctx, opts)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "duckdb:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, "duckdb:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, opts options) (res result, err error) {
	res = result{SF: opts.sf, Threads: opts.threads}
	if _, err := os.Stat(opts.db); errors.Is(err, os.ErrNotExist) {
		start := time.Now()
		if err := buildDatabase(ctx, opts.db, opts.sf); err != nil {
			return res, err
		}
		res.LoadSeconds = time.Since(start).Seconds()
	} else if err != nil {
		return res, err
	}
	db, err := sql.Open("duckdb", opts.db+"?access_mode=read_only")
	if err != nil {
		return res, fmt.Errorf("open %s: %w", opts.db, err)
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close database: %w", cerr)
		}
	}()
	// One connection, so the SET applies to every query.
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, fmt.Sprintf("SET threads = %d", opts.threads)); err != nil {
		return res, fmt.Errorf("set threads: %w", err)
	}
	if err := db.QueryRowContext(ctx, "SELECT version()").Scan(&res.Version); err != nil {
		return res, fmt.Errorf("version: %w", err)
	}
	queries, err := datagen.Queries()
	if err != nil {
		return res, err
	}
	for _, q := range queries {
		fmt.Fprintf(os.Stderr, "duckdb: running %s\n", q.Name)
		res.Queries = append(res.Queries, timeQuery(ctx, db, q, opts.runs, opts.timeout))
	}
	return res, nil
}

// timeQuery runs q once to warm up and then runs times. A failure ends the
// query's runs and is reported in the result, not as an error.
func timeQuery(ctx context.Context, db *sql.DB, q datagen.Query, runs int, timeout time.Duration) queryResult {
	r := queryResult{Name: q.Name}
	n, err := readAll(ctx, db, q.SQL, timeout)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Rows = n
	for range runs {
		start := time.Now()
		n, err := readAll(ctx, db, q.SQL, timeout)
		elapsed := time.Since(start)
		if err != nil {
			r.Error = err.Error()
			return r
		}
		if n != r.Rows {
			r.Error = fmt.Sprintf("returned %d rows, the warm-up %d", n, r.Rows)
			return r
		}
		r.RunsNS = append(r.RunsNS, elapsed.Nanoseconds())
	}
	return r
}

// readAll runs query and reads every row of its result.
func readAll(ctx context.Context, db *sql.DB, query string, timeout time.Duration) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}
