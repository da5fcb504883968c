package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

// tpchReport is everything one scale factor's TPC-H table shows: per
// query, the result of each engine.
type tpchReport struct {
	sf   float64
	runs int
	// memoryLimit is SQE's [query] memory_limit.
	memoryLimit string
	// dataCache is SQE's [cache] data_bytes.
	dataCache int64
	queries   []datagen.Query
	// sqe's first run of each query is its first after a server restart
	// (cold); its median is of the runs after it (warm).
	sqe []tpchResult
	pg0 []tpchResult
	pg2 []tpchResult
	// duck (DuckDB on its own database file) and duckParquet (DuckDB on
	// SQE's Parquet data files) are nil when not measured; duckNote says
	// which DuckDB ran, or why it did not, and parquetNote why the
	// Parquet configuration did not run.
	duck        []tpchResult
	duckParquet []tpchResult
	duckNote    string
	parquetNote string
}

// maxFailureWidth keeps long error messages from stretching the table.
const maxFailureWidth = 72

// tpchHeader is the TPC-H table's header. The three ratios are the
// targets: SQE cold within 2x of DuckDB on the same Parquet files, SQE
// warm within 2x of DuckDB native, and PostgreSQL with two workers at
// least 5x slower than SQE warm.
func tpchHeader() []string {
	return []string{"TPC-H query", "SQE cold", "SQE warm", "PG 0 workers", "PG 2 workers",
		"DuckDB native", "DuckDB on SQE Parquet",
		"SQE cold / DuckDB Parquet", "SQE warm / DuckDB native", "PG 2 workers / SQE warm", "SQE answer"}
}

// write prints the table: times, the three ratios, then whether SQE's
// answer is PostgreSQL's.
func (r tpchReport) write(w io.Writer) error {
	notes := r.duckNote
	if r.parquetNote != "" {
		notes += "; " + r.parquetNote
	}
	cache := "0 (no cache)"
	if r.dataCache > 0 {
		cache = formatBytes(r.dataCache)
	}
	if _, err := fmt.Fprintf(w, "\nTPC-H at scale factor %g, all rows read through the client. SQE cold: the first run after a server restart\n"+
		"(the operating system's page cache is not dropped); SQE warm and every other engine: median of %d runs after a warm-up.\n"+
		"SQE's [query] memory_limit: %s (past it joins, aggregates and sorts spill to disk); [cache] data_bytes: %s.\n"+
		"Targets: SQE cold / DuckDB Parquet and SQE warm / DuckDB native at most 2, PG 2 workers / SQE warm at least 5.\n%s\n\n",
		r.sf, r.runs, r.memoryLimit, cache, notes); err != nil {
		return err
	}
	return writeTable(w, tpchHeader(), r.lines())
}

// lines are the table's rows, one per query, in tpchHeader's columns.
func (r tpchReport) lines() [][]string {
	var lines [][]string
	for i, q := range r.queries {
		sqe := r.sqe[i]
		cold, warm := firstTime(sqe), medianTime(sqe)
		duck, parquet := notMeasured(), notMeasured()
		if r.duck != nil {
			duck = medianTime(r.duck[i])
		}
		if r.duckParquet != nil {
			parquet = medianTime(r.duckParquet[i])
		}
		pg0, pg2 := medianTime(r.pg0[i]), medianTime(r.pg2[i])
		warmCell := warm.cell()
		if sqe.failure != "" {
			warmCell = "" // the cold column already says why
		}
		lines = append(lines, []string{q.Name,
			cold.cell(), warmCell, pg0.cell(), pg2.cell(), duck.cell(), parquet.cell(),
			timeRatio(cold, parquet), timeRatio(warm, duck), timeRatio(pg2, warm),
			answerCell(sqe, r.pg0[i])})
	}
	return lines
}

// check fails when SQE answered a query differently from PostgreSQL.
func (r tpchReport) check() error {
	var errs []error
	for i, q := range r.queries {
		if r.sqe[i].failure != "" || r.pg0[i].failure != "" {
			continue // no answer to compare, or no reference
		}
		if err := sameAnswer(r.sqe[i].answer, r.pg0[i].answer); err != nil {
			errs = append(errs, fmt.Errorf("TPC-H %s: SQE and PostgreSQL disagree: %w", q.Name, err))
		}
	}
	return errors.Join(errs...)
}

// checkRowCounts marks as failed each result of res that returned another
// number of rows than PostgreSQL's (ref): DuckDB reports row counts only,
// and a differing count means it did not read the same rows (a data file
// left out, say).
func checkRowCounts(res, ref []tpchResult) {
	for i := range res {
		if res[i].failure == "" && ref[i].failure == "" && res[i].rows != ref[i].rows {
			res[i].failure = fmt.Sprintf("error: %d rows, PostgreSQL %d", res[i].rows, ref[i].rows)
		}
	}
}

// tpchTime is one cell's time, or why there is none.
type tpchTime struct {
	d       time.Duration
	failure string
}

// notMeasured is the cell of an engine that did not run.
func notMeasured() tpchTime { return tpchTime{failure: "n/a"} }

func firstTime(r tpchResult) tpchTime {
	if r.failure != "" {
		return tpchTime{failure: r.failure}
	}
	return tpchTime{d: r.first}
}

func medianTime(r tpchResult) tpchTime {
	if r.failure != "" {
		return tpchTime{failure: r.failure}
	}
	return tpchTime{d: r.median()}
}

// cell is the time, or the failure cut to maxFailureWidth.
func (t tpchTime) cell() string {
	if t.failure != "" {
		if len(t.failure) > maxFailureWidth {
			return t.failure[:maxFailureWidth-3] + "..."
		}
		return t.failure
	}
	return formatDuration(t.d)
}

// timeRatio is num over den, or empty when either is missing.
func timeRatio(num, den tpchTime) string {
	if num.failure != "" || den.failure != "" {
		return ""
	}
	return ratio(num.d, den.d)
}

func answerCell(sqe, pg tpchResult) string {
	if sqe.failure != "" {
		return ""
	}
	if pg.failure != "" {
		return "no reference"
	}
	if err := sameAnswer(sqe.answer, pg.answer); err != nil {
		return "DIFFERS"
	}
	return fmt.Sprintf("same (%d rows)", sqe.rows)
}

// writeTPCHGrowth prints, when several scale factors ran, how each
// query's time grew from the first scale factor to each later one: cost
// linear in the data grows as much as the scale factor.
func writeTPCHGrowth(w io.Writer, reps []tpchReport) error {
	if len(reps) < 2 {
		return nil
	}
	header, lines := tpchGrowth(reps)
	if _, err := fmt.Fprintf(w, "\nTPC-H time growth with the data (linear: the ratio of the scale factors)\n\n"); err != nil {
		return err
	}
	return writeTable(w, header, lines)
}

// tpchGrowth is the growth table of reps (at least two): for each later
// scale factor, SQE cold, SQE warm and DuckDB native over their times at
// the first one.
func tpchGrowth(reps []tpchReport) (header []string, lines [][]string) {
	base := reps[0]
	header = []string{"TPC-H query"}
	for _, r := range reps[1:] {
		label := fmt.Sprintf("SF %g / SF %g", r.sf, base.sf)
		header = append(header, "SQE cold "+label, "SQE warm "+label, "DuckDB native "+label)
	}
	for i, q := range base.queries {
		line := []string{q.Name}
		for _, r := range reps[1:] {
			line = append(line,
				timeRatio(firstTime(r.sqe[i]), firstTime(base.sqe[i])),
				timeRatio(medianTime(r.sqe[i]), medianTime(base.sqe[i])),
				timeRatio(duckTime(r, i), duckTime(base, i)))
		}
		lines = append(lines, line)
	}
	return header, lines
}

// duckTime is DuckDB native's median for query i, if it ran.
func duckTime(r tpchReport, i int) tpchTime {
	if r.duck == nil {
		return notMeasured()
	}
	return medianTime(r.duck[i])
}
