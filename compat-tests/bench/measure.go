package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// timing is what runs of one query gave.
type timing struct {
	runs []time.Duration
	// rows is the number of rows each run returned.
	rows int64
	// answer is the result of the warm-up run, one string per row with
	// cells joined by '|'; kept only for the aggregate queries.
	answer []string
}

func (t timing) median() time.Duration { return median(t.runs) }

// measurement is one engine at one table size.
type measurement struct {
	queries []timing // one per benchQueries entry
	stream  timing
	// peakRSS is the server's VmHWM in bytes; 0 when not sampled.
	peakRSS int64
}

// measure runs every benchmark query on conn: one warm-up, then runs
// timed runs each.
func measure(ctx context.Context, conn *pgx.Conn, runs int) (measurement, error) {
	var m measurement
	for _, q := range benchQueries {
		t, err := timeQuery(ctx, conn, q.sql, runs, true)
		if err != nil {
			return m, fmt.Errorf("%s: %w", q.label, err)
		}
		m.queries = append(m.queries, t)
	}
	t, err := timeQuery(ctx, conn, streamQuery, runs, false)
	if err != nil {
		return m, fmt.Errorf("%s: %w", streamLabel, err)
	}
	m.stream = t
	return m, nil
}

// timeQuery runs sql once to warm up, then runs times, timing each run
// from sending the query to having read the last row.
func timeQuery(ctx context.Context, conn *pgx.Conn, sql string, runs int, keepAnswer bool) (timing, error) {
	var t timing
	n, answer, err := readAll(ctx, conn, sql, keepAnswer)
	if err != nil {
		return t, err
	}
	t.rows, t.answer = n, answer
	for range runs {
		if err := t.timeRun(ctx, conn, sql); err != nil {
			return t, err
		}
	}
	return t, nil
}

// timeRun runs sql once more, timed from sending the query to having read
// the last row, and checks it returned as many rows as the warm-up.
func (t *timing) timeRun(ctx context.Context, conn *pgx.Conn, sql string) error {
	start := time.Now()
	n, _, err := readAll(ctx, conn, sql, false)
	elapsed := time.Since(start)
	if err != nil {
		return err
	}
	if n != t.rows {
		return fmt.Errorf("returned %d rows, the warm-up returned %d", n, t.rows)
	}
	t.runs = append(t.runs, elapsed)
	return nil
}

// readAll reads every row of sql's result without decoding it (the text
// bytes are touched, not parsed), and returns the rows as text when keep
// is set.
func readAll(ctx context.Context, conn *pgx.Conn, sql string, keep bool) (int64, []string, error) {
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	var n int64
	var answer []string
	for rows.Next() {
		n++
		if !keep {
			continue
		}
		raw := rows.RawValues()
		cells := make([]string, len(raw))
		for i, v := range raw {
			if v == nil {
				cells[i] = "NULL"
			} else {
				cells[i] = string(v)
			}
		}
		answer = append(answer, strings.Join(cells, "|"))
	}
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	return n, answer, nil
}

// median is the middle duration (the mean of the two middle ones for an
// even count); 0 for none.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid]
	}
	return (s[mid-1] + s[mid]) / 2
}
