package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqe-db/sqe/compat-tests/datagen"
	"github.com/sqe-db/sqe/storage"
)

// tpchNamespace is the schema the TPC-H tables live in, on every engine.
const tpchNamespace = "tpch"

// tpchOptions are the flags of the TPC-H part.
type tpchOptions struct {
	// sfs are the scale factors to measure, one table each; sf is the
	// one being measured.
	sfs      scaleFactors
	sf       float64
	runs     int
	cacheDir string
	timeout  time.Duration
	duckdb   bool
	// postgres runs the queries on PostgreSQL too: its answers are the
	// reference the check compares SQE's with.
	postgres bool
	// only, when set, names the queries to run (Q1, Q9...); the others
	// are left out of the table.
	only []string
	// sqeMemLimit stops an SQE server whose resident set grows past it.
	sqeMemLimit int64
	// memoryLimit is the SQE server's [query] memory_limit: past it a
	// query's joins, aggregates and sorts spill to disk.
	memoryLimit string
	// dataCacheBytes is the SQE server's [cache] data_bytes: what it keeps
	// of the decoded data between runs, outside the heap.
	dataCacheBytes int64
	// profileDir, when set, receives a CPU profile of each query run for
	// profileSeconds and its allocation profile, from SQE's /debug/pprof/.
	profileDir     string
	profileSeconds int
}

// runTPCH measures the TPC-H queries at each scale factor and prints one
// table per scale factor, then, with several, how the times grew.
func runTPCH(ctx context.Context, opts options, root, bin, work string) error {
	if dir := opts.tpch.profileDir; dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("profile dir: %w", err)
		}
	}
	var reps []tpchReport
	var errs []error
	for _, sf := range opts.tpch.sfs {
		o := opts.tpch
		o.sf = sf
		rep, err := runTPCHAt(ctx, opts.pgBin, o, root, bin, work)
		if err != nil {
			return err
		}
		if err := rep.write(os.Stdout); err != nil {
			return err
		}
		errs = append(errs, rep.check())
		reps = append(reps, rep)
	}
	if err := writeTPCHGrowth(os.Stdout, reps); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// runTPCHAt measures the TPC-H queries at o.sf on SQE, on PostgreSQL with
// zero and two parallel workers per gather, and on DuckDB (its own
// database, and views over SQE's Parquet data files), one engine at a
// time so they never share the machine. A query SQE fails is shown as its
// error.
func runTPCHAt(ctx context.Context, pgBin string, o tpchOptions, root, bin, work string) (tpchReport, error) {
	queries, err := datagen.Queries()
	if err != nil {
		return tpchReport{}, err
	}
	if len(o.only) > 0 {
		queries = slices.DeleteFunc(queries, func(q datagen.Query) bool { return !slices.Contains(o.only, q.Name) })
		if len(queries) == 0 {
			return tpchReport{}, fmt.Errorf("-tpch-queries %s names no TPC-H query", strings.Join(o.only, ","))
		}
	}
	dataset, err := tpchCacheDir(o)
	if err != nil {
		return tpchReport{}, err
	}
	rep := tpchReport{sf: o.sf, runs: o.runs, queries: queries, memoryLimit: o.memoryLimit, dataCache: o.dataCacheBytes}

	sqeDir := filepath.Join(dataset, fmt.Sprintf("sqe-f%d", sqeDataFormat))
	if err := prepareTPCHDir(ctx, sqeDir, o.sf); err != nil {
		return rep, err
	}
	// The data files are listed while no server runs on the directory.
	fileList := filepath.Join(work, fmt.Sprintf("tpch-sf%s-files.json", strconv.FormatFloat(o.sf, 'f', -1, 64)))
	if files, err := sqeDataFiles(ctx, sqeDir); err != nil {
		rep.parquetNote = "DuckDB on SQE's Parquet not measured: " + err.Error()
		fileList = ""
	} else if err := writeDataFileList(fileList, files); err != nil {
		return rep, err
	}
	if rep.sqe, err = measureTPCHOnSQE(ctx, o, bin, work, sqeDir, queries); err != nil {
		return rep, err
	}
	if o.postgres {
		if rep.pg0, rep.pg2, err = measureTPCHOnPostgres(ctx, pgBin, o, work, queries); err != nil {
			return rep, err
		}
	} else {
		rep.pg0, rep.pg2 = notRun(len(queries), "n/a"), notRun(len(queries), "n/a")
	}
	if o.duckdb {
		d := measureTPCHOnDuckDB(ctx, o, root, work, filepath.Join(dataset, "duckdb.db"), fileList, queries)
		rep.duck, rep.duckParquet, rep.duckNote = d.native, d.parquet, d.note
		if rep.duck != nil {
			checkRowCounts(rep.duck, rep.pg0)
		}
		if rep.duckParquet != nil {
			checkRowCounts(rep.duckParquet, rep.pg0)
		}
	} else {
		rep.duckNote = "DuckDB not run (-duckdb=false)"
	}
	return rep, ctx.Err()
}

// sqeDataFormat changes whenever SQE writes its data files differently
// (format 2: decimals of precision 18 or less stored as integers), so
// that the kept SQE data directory is loaded again and measures what SQE
// writes now.
const sqeDataFormat = 2

// tpchCacheDir is the directory that keeps one scale factor's generated
// data between runs, created if needed. Its name carries the generator's
// version, so data from an older generator is never reused.
func tpchCacheDir(o tpchOptions) (string, error) {
	base := o.cacheDir
	if base == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		base = filepath.Join(cache, "sqe-bench")
	}
	dir := filepath.Join(base, fmt.Sprintf("tpch-v%d-sf%s", datagen.Version, strconv.FormatFloat(o.sf, 'f', -1, 64)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("tpch cache: %w", err)
	}
	return dir, nil
}

// prepareTPCHDir fills an SQE data directory with the TPC-H tables through
// the storage API, unless a previous run completed it (it then holds a
// marker file beside it). The server adds the rest of the directory when
// it first starts.
func prepareTPCHDir(ctx context.Context, dir string, sf float64) (err error) {
	marker := dir + ".complete"
	if done, err := os.ReadFile(marker); err == nil {
		progress("reusing the TPC-H SF %g data dir", sf)
		if string(done) == tpchDirAnalyzed {
			return nil
		}
		// A directory loaded before the benchmark analyzed its tables.
		if err := analyzeTPCHDir(ctx, dir); err != nil {
			return err
		}
		return os.WriteFile(marker, []byte(tpchDirAnalyzed), 0o644)
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	progress("generating TPC-H SF %g into an SQE data dir (storage API)", sf)
	start := time.Now()
	cat, err := storage.OpenEmbedded(ctx, sqeDatabase, dir, storage.AllowAll{})
	if err != nil {
		return fmt.Errorf("prepare TPC-H data dir: %w", err)
	}
	loadErr := datagen.LoadSQE(storage.WithPrincipal(ctx, storage.Principal{User: benchUser}), cat, tpchNamespace, sf)
	if err := errors.Join(loadErr, cat.Close()); err != nil {
		return fmt.Errorf("prepare TPC-H data dir: %w", err)
	}
	if err := analyzeTPCHDir(ctx, dir); err != nil {
		return err
	}
	progress("TPC-H data dir ready in %s", time.Since(start).Round(time.Second))
	return os.WriteFile(marker, []byte(tpchDirAnalyzed), 0o644)
}

// tpchDirAnalyzed is the marker of a data directory whose tables are
// loaded and analyzed.
const tpchDirAnalyzed = "loaded, analyzed\n"

// analyzeTPCHDir collects the statistics of the TPC-H tables in dir, as
// PostgreSQL's load analyzes its tables: each engine plans with what it
// knows of the data.
func analyzeTPCHDir(ctx context.Context, dir string) error {
	progress("analyzing the TPC-H tables")
	cat, err := storage.OpenEmbedded(ctx, sqeDatabase, dir, storage.AllowAll{})
	if err != nil {
		return fmt.Errorf("analyze TPC-H data dir: %w", err)
	}
	err = datagen.AnalyzeSQE(storage.WithPrincipal(ctx, storage.Principal{User: benchUser}), cat, tpchNamespace)
	if err := errors.Join(err, cat.Close()); err != nil {
		return fmt.Errorf("analyze TPC-H data dir: %w", err)
	}
	return nil
}

// measureTPCHOnPostgres starts a PostgreSQL cluster, loads the same rows
// into it, and runs the queries with max_parallel_workers_per_gather 0,
// then 2. Its failures are errors: it is the reference.
func measureTPCHOnPostgres(ctx context.Context, pgBin string, o tpchOptions, work string, queries []datagen.Query) (par0, par2 []tpchResult, err error) {
	progress("starting PostgreSQL and loading TPC-H SF %g into it", o.sf)
	// A cluster per scale factor, removed once stopped: the next scale
	// factor's starts afresh, and an SF 10 cluster holds tens of GiB.
	name := "pg-tpch-sf" + strconv.FormatFloat(o.sf, 'f', -1, 64)
	pg, err := startPostgres(ctx, pgBin, work, name, false)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		serr := pg.Stop()
		if serr == nil {
			serr = os.RemoveAll(filepath.Join(work, name))
		}
		if serr != nil && err == nil {
			err = serr
		}
	}()
	conn, err := pg.createDatabase(ctx, tpchNamespace)
	if err != nil {
		return nil, nil, err
	}
	start := time.Now()
	err = datagen.LoadPostgres(ctx, conn, tpchNamespace, o.sf)
	if cerr := conn.Close(context.WithoutCancel(ctx)); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: %w", err)
	}
	progress("PostgreSQL loaded in %s", time.Since(start).Round(time.Second))
	open := func(ctx context.Context) (*pgx.Conn, error) { return pg.connect(ctx, tpchNamespace) }
	for _, workers := range []int{0, 2} {
		progress("measuring TPC-H on PostgreSQL, max_parallel_workers_per_gather = %d", workers)
		s := &session{open: open, setup: []string{
			"SET search_path TO " + tpchNamespace,
			fmt.Sprintf("SET max_parallel_workers_per_gather = %d", workers),
		}}
		res, err := runTPCHQueries(ctx, s, queries, o, true)
		s.close(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("postgres (%d workers): %w", workers, err)
		}
		if workers == 0 {
			par0 = res
		} else {
			par2 = res
		}
	}
	return par0, par2, nil
}

// scaleFactors is the -tpch-sf flag: one or more scale factors, separated
// by commas, each positive and given once, in the order to measure them.
type scaleFactors []float64

func (s *scaleFactors) String() string {
	parts := make([]string, len(*s))
	for i, sf := range *s {
		parts[i] = strconv.FormatFloat(sf, 'f', -1, 64)
	}
	return strings.Join(parts, ",")
}

func (s *scaleFactors) Set(v string) error {
	var out scaleFactors
	for part := range strings.SplitSeq(v, ",") {
		sf, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || !(sf > 0) || math.IsInf(sf, 0) {
			return fmt.Errorf("scale factor %q is not a positive number", part)
		}
		if slices.Contains(out, sf) {
			return fmt.Errorf("scale factor %g given twice", sf)
		}
		out = append(out, sf)
	}
	*s = out
	return nil
}
