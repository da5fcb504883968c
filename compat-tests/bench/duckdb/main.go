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
	"strings"
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
	// ParquetQueries are the same queries over views of read_parquet
	// (-parquet), ParquetFiles how many files the views read.
	ParquetQueries []queryResult `json:"parquet_queries,omitempty"`
	ParquetFiles   int           `json:"parquet_files,omitempty"`
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
	parquet string
	threads int
	runs    int
	timeout time.Duration
}

func main() {
	var opts options
	flag.Float64Var(&opts.sf, "sf", 1, "TPC-H scale factor")
	flag.StringVar(&opts.db, "db", "", "DuckDB database file; generated when missing (required)")
	flag.StringVar(&opts.parquet, "parquet", "", "JSON file mapping each TPC-H table to its Parquet files: the queries run again over read_parquet of them")
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
	queries, err := datagen.Queries()
	if err != nil {
		return res, err
	}
	if _, err := os.Stat(opts.db); errors.Is(err, os.ErrNotExist) {
		start := time.Now()
		if err := buildDatabase(ctx, opts.db, opts.sf); err != nil {
			return res, err
		}
		res.LoadSeconds = time.Since(start).Seconds()
	} else if err != nil {
		return res, err
	}
	if res.Version, res.Queries, err = runOn(ctx, opts.db+"?access_mode=read_only", nil, queries, opts); err != nil {
		return res, err
	}
	if opts.parquet == "" {
		return res, nil
	}
	files, err := readFileList(opts.parquet)
	if err != nil {
		return res, err
	}
	views, n, err := parquetViews(files)
	if err != nil {
		return res, err
	}
	res.ParquetFiles = n
	fmt.Fprintf(os.Stderr, "duckdb: over %d Parquet files\n", n)
	_, res.ParquetQueries, err = runOn(ctx, "", views, queries, opts)
	return res, err
}

// runOn opens the database dsn ("" for one in memory), runs setup, and
// times every query with opts.threads threads. It returns DuckDB's
// version and the results.
func runOn(ctx context.Context, dsn string, setup []string, queries []datagen.Query, opts options) (version string, out []queryResult, err error) {
	db, err := sql.Open("duckdb", dsn)
	if err != nil {
		return "", nil, fmt.Errorf("open %q: %w", dsn, err)
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close database: %w", cerr)
		}
	}()
	// One connection, so the SET and the views apply to every query.
	db.SetMaxOpenConns(1)
	setup = append([]string{fmt.Sprintf("SET threads = %d", opts.threads)}, setup...)
	for _, stmt := range setup {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return "", nil, fmt.Errorf("%s: %w", firstLine(stmt), err)
		}
	}
	if err := db.QueryRowContext(ctx, "SELECT version()").Scan(&version); err != nil {
		return "", nil, fmt.Errorf("version: %w", err)
	}
	for _, q := range queries {
		fmt.Fprintf(os.Stderr, "duckdb: running %s\n", q.Name)
		out = append(out, timeQuery(ctx, db, q, opts.runs, opts.timeout))
	}
	return version, out, nil
}

// readFileList reads the -parquet file: table name to Parquet paths.
func readFileList(path string) (map[string][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var files map[string][]string
	if err := json.Unmarshal(data, &files); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return files, nil
}

// parquetViews are the statements that make each TPC-H table a view over
// read_parquet of its files, so the queries run unchanged, and how many
// files they read. Every table must have files.
func parquetViews(files map[string][]string) ([]string, int, error) {
	var stmts []string
	n := 0
	for _, t := range datagen.Tables() {
		paths := files[t.Name]
		if len(paths) == 0 {
			return nil, 0, fmt.Errorf("no Parquet files for table %s", t.Name)
		}
		quoted := make([]string, len(paths))
		for i, p := range paths {
			quoted[i] = "'" + strings.ReplaceAll(p, "'", "''") + "'"
		}
		stmts = append(stmts, "CREATE VIEW "+t.Name+" AS SELECT * FROM read_parquet(["+strings.Join(quoted, ", ")+"])")
		n += len(paths)
	}
	return stmts, n, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
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
