package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// latencyReport is everything the latency suite prints and checks.
type latencyReport struct {
	opts    latencyOptions
	stmts   []latencyStatement
	sqe, pg latencyRun
	notes   []biNote
}

// write prints one line per statement: its protocol, rows (per run, all
// steps together), runs, both servers' p50 and p99 and the ratio of the
// p50s; then the BI entries not timed and the statements that failed.
func (r latencyReport) write(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "\nlatency, one client (pgx): p50 and p99 of each statement's runs after a warm-up, a run being every query its client sends\n"+
		"catalog: %d tables x %d columns in %d schemas; key lookup table: %s rows; PostgreSQL 15 with primary keys on the looked-up and written tables\n"+
		"answers checked: each query returns as many rows on both servers (EXPLAIN: rows on both; SQLAlchemy's domain look-up: rows naming no system schema,\n"+
		"as PostgreSQL's information_schema has built-in domains); rows is per run, all its queries together\n\n",
		latencyTables, latencyColumns, latencySchemas, sizeLabel(r.opts.lookupRows)); err != nil {
		return err
	}
	header := []string{"statement", "protocol", "rows", "runs", "SQE p50", "SQE p99", "PG p50", "PG p99", "SQE/PG p50"}
	var lines [][]string
	var failures []string
	for i, st := range r.stmts {
		s, p := r.sqe.timings[i], r.pg.timings[i]
		rows := ""
		if p.err == nil {
			rows = strconv.FormatInt(allRows(p.rows), 10)
		}
		runs := r.opts.runs
		if st.runs > 0 {
			runs = st.runs
		}
		line := []string{st.label, st.protocol(), rows, strconv.Itoa(runs)}
		line = append(line, latencyCells(s)...)
		line = append(line, latencyCells(p)...)
		ratioCell := ""
		if s.ok() && p.ok() {
			ratioCell = ratio(percentile(s.runs, 50), percentile(p.runs, 50))
		}
		lines = append(lines, append(line, ratioCell))
		for _, f := range []struct {
			server string
			t      latencyTiming
		}{{"SQE", s}, {"PostgreSQL", p}} {
			if f.t.err != nil {
				failures = append(failures, fmt.Sprintf("%s on %s: %v", st.label, f.server, f.t.err))
			}
		}
	}
	if err := writeTable(w, header, lines); err != nil {
		return err
	}
	var notes []string
	for _, n := range r.notes {
		if n.sqeOnly {
			notes = append(notes, fmt.Sprintf("%s: timed on PostgreSQL only, %s", n.id, n.reason))
		} else {
			notes = append(notes, fmt.Sprintf("%s: not timed, %s", n.id, n.reason))
		}
	}
	for _, f := range failures {
		notes = append(notes, "failed: "+f)
	}
	if len(notes) > 0 {
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	for _, n := range notes {
		if _, err := fmt.Fprintln(w, n); err != nil {
			return err
		}
	}
	return nil
}

// latencyCells are a server's p50 and p99 cells of one statement.
func latencyCells(t latencyTiming) []string {
	switch {
	case t.skipped:
		return []string{"skipped", ""}
	case t.err != nil:
		return []string{"failed", ""}
	}
	return []string{formatLatency(percentile(t.runs, 50)), formatLatency(percentile(t.runs, 99))}
}

// ok reports whether the statement ran on the server and every run
// succeeded.
func (t latencyTiming) ok() bool { return !t.skipped && t.err == nil && len(t.runs) > 0 }

// check fails on any failed statement, on a read statement whose steps
// returned different row counts on the two servers, and when the
// INSERTs did not leave exactly one row each on either server.
func (r latencyReport) check() error {
	var errs []error
	for i, st := range r.stmts {
		s, p := r.sqe.timings[i], r.pg.timings[i]
		for _, f := range []struct {
			server string
			t      latencyTiming
		}{{"SQE", s}, {"PostgreSQL", p}} {
			if f.t.err != nil {
				errs = append(errs, fmt.Errorf("%s on %s: %w", st.label, f.server, f.t.err))
			}
		}
		if st.writes {
			runs := r.opts.runs
			if st.runs > 0 {
				runs = st.runs
			}
			want := int64(latencyInsertRows + 1 + runs)
			for _, f := range []struct {
				server string
				run    latencyRun
			}{{"SQE", r.sqe}, {"PostgreSQL", r.pg}} {
				if f.run.inserted != want || f.run.distinct != want {
					errs = append(errs, fmt.Errorf("%s on %s: latency.inserts holds %d rows, %d distinct ids, want %d (%d before, one per run and the warm-up)",
						st.label, f.server, f.run.inserted, f.run.distinct, want, latencyInsertRows))
				}
			}
			continue
		}
		if s.skipped || s.err != nil || p.err != nil {
			continue
		}
		if err := compareRows(st.steps(), s.rows, p.rows); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", st.label, err))
		}
	}
	return errors.Join(errs...)
}

// compareRows checks SQE's answers against PostgreSQL's, step by step,
// each as the step asks.
func compareRows(steps []latencyStep, sqe, pg []stepRows) error {
	if len(sqe) != len(pg) || len(pg) != len(steps) {
		return fmt.Errorf("SQE answered %d queries, PostgreSQL %d, of %d", len(sqe), len(pg), len(steps))
	}
	for i, step := range steps {
		s, p := sqe[i], pg[i]
		var ok bool
		switch step.compare() {
		case compareCount:
			ok = s.all == p.all
		case compareUserRows:
			ok = s.user == p.user
		case compareNonEmpty:
			ok = s.all > 0 && p.all > 0
		}
		if !ok {
			return fmt.Errorf("query %d of %d (%s): SQE returned %d rows (%d naming no system schema), PostgreSQL %d (%d)",
				i+1, len(steps), step.compare(), s.all, s.user, p.all, p.user)
		}
	}
	return nil
}

// allRows is how many rows a run returns, over all its steps.
func allRows(rows []stepRows) int64 {
	var t int64
	for _, r := range rows {
		t += r.all
	}
	return t
}

// formatLatency shows a latency in milliseconds, to the microsecond below
// 10 ms, and in seconds from one second on.
func formatLatency(d time.Duration) string {
	switch {
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond))
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}
