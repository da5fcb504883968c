package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

// duckdbModule is the DuckDB program's module, relative to the main
// module's root. It is a module of its own so that SQE never depends on
// DuckDB.
const duckdbModule = "compat-tests/bench/duckdb"

// duckdbQuery is one query's outcome as the DuckDB program prints it.
type duckdbQuery struct {
	Name   string  `json:"name"`
	RunsNS []int64 `json:"runs_ns"`
	Rows   int64   `json:"rows"`
	Error  string  `json:"error"`
}

// duckdbOutput is the JSON the DuckDB program prints.
type duckdbOutput struct {
	Threads        int           `json:"threads"`
	Version        string        `json:"version"`
	LoadSeconds    float64       `json:"load_seconds"`
	Queries        []duckdbQuery `json:"queries"`
	ParquetQueries []duckdbQuery `json:"parquet_queries"`
	ParquetFiles   int           `json:"parquet_files"`
}

// duckdbResults are DuckDB's two configurations: its own database file
// (native) and views over read_parquet of SQE's data files (parquet, nil
// when not measured). note says which DuckDB ran, or why it did not;
// parquetNote why the Parquet configuration did not run.
type duckdbResults struct {
	native, parquet   []tpchResult
	note, parquetNote string
}

// measureTPCHOnDuckDB builds and runs the DuckDB program on the database
// file db (created by the program when missing) and, when fileList is not
// empty, on the Parquet files it lists (writeDataFileList). It does not
// fail the benchmark: when DuckDB cannot run, the notes say why and the
// results are nil.
func measureTPCHOnDuckDB(ctx context.Context, o tpchOptions, root, work, db, fileList string, queries []datagen.Query) duckdbResults {
	progress("building the DuckDB program")
	bin := filepath.Join(work, "duckdb-bench")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	build.Dir = filepath.Join(root, duckdbModule)
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		return duckdbResults{note: fmt.Sprintf("DuckDB not measured: build failed: %v: %s", err, firstLine(string(out)))}
	}
	progress("measuring TPC-H on DuckDB (generating its database first if missing)")
	var stdout bytes.Buffer
	args := []string{"-sf", strconv.FormatFloat(o.sf, 'f', -1, 64), "-db", db, "-threads", "2",
		"-runs", strconv.Itoa(o.runs), "-timeout", o.timeout.String()}
	if fileList != "" {
		args = append(args, "-parquet", fileList)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout = &stdout
	c, err := startChild("duckdb", cmd, filepath.Join(work, "duckdb.log"))
	if err != nil {
		return duckdbResults{note: "DuckDB not measured: " + err.Error()}
	}
	select {
	case <-c.exited:
	case <-ctx.Done():
		_ = c.stop(syscall.SIGTERM, 15*time.Second)
		return duckdbResults{note: "DuckDB not measured: interrupted"}
	}
	if c.waitErr != nil {
		return duckdbResults{note: fmt.Sprintf("DuckDB not measured: %v: %s", c.waitErr, firstLine(c.logTail()))}
	}
	var out duckdbOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return duckdbResults{note: fmt.Sprintf("DuckDB not measured: bad output: %v", err)}
	}
	res := duckdbResults{native: duckdbResultsOf(out.Queries, queries)}
	res.note = fmt.Sprintf("DuckDB %s, %d threads", out.Version, out.Threads)
	if out.LoadSeconds > 0 {
		res.note += fmt.Sprintf(", database generated in %.0f s", out.LoadSeconds)
	}
	if fileList != "" {
		res.parquet = duckdbResultsOf(out.ParquetQueries, queries)
		res.note += fmt.Sprintf("; DuckDB on SQE's Parquet: read_parquet of the %d data files of the tables' current snapshots", out.ParquetFiles)
	}
	return res
}

// duckdbResultsOf puts the program's results in the order of queries; a
// query it did not report is a failure.
func duckdbResultsOf(got []duckdbQuery, queries []datagen.Query) []tpchResult {
	byName := map[string]tpchResult{}
	for _, q := range got {
		r := tpchResult{rows: q.Rows}
		for _, ns := range q.RunsNS {
			r.runs = append(r.runs, time.Duration(ns))
		}
		if q.Error != "" {
			r.failure = "error: " + firstLine(q.Error)
		}
		byName[q.Name] = r
	}
	res := make([]tpchResult, len(queries))
	for i, q := range queries {
		r, ok := byName[q.Name]
		if !ok {
			r.failure = "error: not run"
		}
		res[i] = r
	}
	return res
}
