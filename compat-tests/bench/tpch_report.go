package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

// tpchReport is everything the TPC-H table shows: per query, the result
// of each engine.
type tpchReport struct {
	sf      float64
	runs    int
	queries []datagen.Query
	sqe     []tpchResult
	pg0     []tpchResult
	pg2     []tpchResult
	// duck is nil when DuckDB did not run; duckNote says why, or which
	// DuckDB ran.
	duck     []tpchResult
	duckNote string
}

// maxFailureWidth keeps long error messages from stretching the table.
const maxFailureWidth = 72

// write prints the table: median times, then each engine's time over
// SQE's, then whether SQE's answer is PostgreSQL's.
func (r tpchReport) write(w io.Writer) error {
	header := []string{"TPC-H query", "SQE", "PG 0 workers", "PG 2 workers", "DuckDB 2 threads",
		"PG0/SQE", "PG2/SQE", "DuckDB/SQE", "SQE answer"}
	var lines [][]string
	for i, q := range r.queries {
		sqe, pg0, pg2 := r.sqe[i], r.pg0[i], r.pg2[i]
		duck := tpchResult{failure: "n/a"}
		if r.duck != nil {
			duck = r.duck[i]
		}
		lines = append(lines, []string{q.Name,
			cell(sqe), cell(pg0), cell(pg2), cell(duck),
			tpchRatio(pg0, sqe), tpchRatio(pg2, sqe), tpchRatio(duck, sqe),
			answerCell(sqe, pg0)})
	}
	if _, err := fmt.Fprintf(w, "\nTPC-H at scale factor %g: median of %d runs after a warm-up, all rows read through the client\n"+
		"ratios are the other engine's time over SQE's (above 1: SQE is faster); %s\n\n", r.sf, r.runs, r.duckNote); err != nil {
		return err
	}
	return writeTable(w, header, lines)
}

// check fails when SQE answered a query differently from PostgreSQL.
func (r tpchReport) check() error {
	var errs []error
	for i, q := range r.queries {
		if r.sqe[i].failure != "" {
			continue
		}
		if err := sameAnswer(r.sqe[i].answer, r.pg0[i].answer); err != nil {
			errs = append(errs, fmt.Errorf("TPC-H %s: SQE and PostgreSQL disagree: %w", q.Name, err))
		}
	}
	return errors.Join(errs...)
}

// cell is a result's median time, or its failure.
func cell(r tpchResult) string {
	if r.failure != "" {
		if len(r.failure) > maxFailureWidth {
			return r.failure[:maxFailureWidth-3] + "..."
		}
		return r.failure
	}
	return formatDuration(r.median())
}

// tpchRatio is other's median over sqe's, or empty when either failed.
func tpchRatio(other, sqe tpchResult) string {
	if other.failure != "" || sqe.failure != "" {
		return ""
	}
	return ratio(other.median(), sqe.median())
}

func answerCell(sqe, pg tpchResult) string {
	if sqe.failure != "" {
		return ""
	}
	if err := sameAnswer(sqe.answer, pg.answer); err != nil {
		return "DIFFERS"
	}
	return fmt.Sprintf("same (%d rows)", sqe.rows)
}
