package compattests

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// diffFloatTolerance is how far apart two float4/float8 values may be,
// relative to the larger, and still be the same answer: engines sum
// floats in different orders.
const diffFloatTolerance = 1e-9

// PostgreSQL's OIDs of the float types, whose columns get the tolerance.
const (
	oidFloat4 = 700
	oidFloat8 = 701
)

// outcome is what one engine answered to one query: rows in text format
// (NULL as nil) with the column count and which columns are floats, or an
// error with its SQLSTATE ("" when the error is not a server error).
type outcome struct {
	columns   int
	floatCols []bool
	rows      [][]*string
	err       error
	code      string
	// elapsed is how long the engine took, for spotting slow plans.
	elapsed time.Duration
}

// runForDiff runs sql on conn with the simple protocol (text format).
func runForDiff(ctx context.Context, conn *pgx.Conn, sql string) outcome {
	start := time.Now()
	out := collectForDiff(ctx, conn, sql)
	out.elapsed = time.Since(start)
	return out
}

func collectForDiff(ctx context.Context, conn *pgx.Conn, sql string) outcome {
	if strings.Contains(sql, "$") {
		return collectRawForDiff(ctx, conn, sql)
	}
	rows, err := conn.Query(ctx, sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return failed(err)
	}
	defer rows.Close()
	var out outcome
	for rows.Next() {
		raw := rows.RawValues()
		row := make([]*string, len(raw))
		for i, v := range raw {
			if v != nil {
				s := string(v)
				row[i] = &s
			}
		}
		out.rows = append(out.rows, row)
	}
	if err := rows.Err(); err != nil {
		return failed(err)
	}
	fds := rows.FieldDescriptions()
	out.columns = len(fds)
	out.floatCols = make([]bool, len(fds))
	for i, fd := range fds {
		out.floatCols[i] = fd.DataTypeOID == oidFloat4 || fd.DataTypeOID == oidFloat8
	}
	return out
}

// collectRawForDiff runs sql as one simple Query message as it is: pgx's
// simple protocol would read $n in it (PREPARE ... AS ... $1) as
// arguments to fill in.
func collectRawForDiff(ctx context.Context, conn *pgx.Conn, sql string) outcome {
	results, err := conn.PgConn().Exec(ctx, sql).ReadAll()
	if err != nil {
		return failed(err)
	}
	if len(results) == 0 {
		return outcome{}
	}
	res := results[0]
	if res.Err != nil {
		return failed(res.Err)
	}
	var out outcome
	for _, raw := range res.Rows {
		row := make([]*string, len(raw))
		for i, v := range raw {
			if v != nil {
				s := string(v)
				row[i] = &s
			}
		}
		out.rows = append(out.rows, row)
	}
	out.columns = len(res.FieldDescriptions)
	out.floatCols = make([]bool, len(res.FieldDescriptions))
	for i, fd := range res.FieldDescriptions {
		out.floatCols[i] = fd.DataTypeOID == oidFloat4 || fd.DataTypeOID == oidFloat8
	}
	return out
}

func failed(err error) outcome {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return outcome{err: err, code: pe.Code}
	}
	return outcome{err: err}
}

// describe is a short text of an outcome for messages.
func (o outcome) describe() string {
	if o.err != nil {
		if o.code != "" {
			return "error " + o.code + ": " + firstLine(o.err.Error())
		}
		return "failure: " + firstLine(o.err.Error())
	}
	const shown = 3
	parts := make([]string, 0, shown+1)
	for i, r := range o.rows {
		if i == shown {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, rowText(r))
	}
	return fmt.Sprintf("%d rows [%s]", len(o.rows), strings.Join(parts, " "))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func rowText(r []*string) string {
	cells := make([]string, len(r))
	for i, v := range r {
		cells[i] = show(v)
	}
	return "(" + strings.Join(cells, ", ") + ")"
}

// compareOutcomes returns "" when SQE's answer is PostgreSQL's under mode,
// else what differs.
func compareOutcomes(mode diffMode, sqe, ref outcome) string {
	switch {
	case ref.err != nil && sqe.err != nil:
		if sqe.code != ref.code {
			return fmt.Sprintf("SQLSTATE %s, PostgreSQL %s (SQE: %s)", orNone(sqe.code), ref.code, firstLine(sqe.err.Error()))
		}
		return ""
	case ref.err != nil:
		return fmt.Sprintf("SQE answers %s, PostgreSQL fails with %s", sqe.describe(), ref.code)
	case sqe.err != nil:
		return fmt.Sprintf("SQE fails (%s)", sqe.describe())
	}
	if sqe.columns != ref.columns {
		return fmt.Sprintf("%d columns, PostgreSQL %d", sqe.columns, ref.columns)
	}
	if len(sqe.rows) != len(ref.rows) {
		return fmt.Sprintf("%d rows, PostgreSQL %d (SQE %s; PostgreSQL %s)", len(sqe.rows), len(ref.rows), sqe.describe(), ref.describe())
	}
	got, want := sqe.rows, ref.rows
	if mode == modeUnordered {
		got, want = sortedRows(got), sortedRows(want)
	}
	for r := range want {
		if len(got[r]) != len(want[r]) {
			return fmt.Sprintf("row %d has %d fields, PostgreSQL %d", r+1, len(got[r]), len(want[r]))
		}
		for c := range want[r] {
			if !sameDiffValue(got[r][c], want[r][c], ref.floatCols[c]) {
				return fmt.Sprintf("row %d column %d: SQE %s, PostgreSQL %s (SQE row %s, PostgreSQL row %s)",
					r+1, c+1, show(got[r][c]), show(want[r][c]), rowText(got[r]), rowText(want[r]))
			}
		}
	}
	return ""
}

func orNone(code string) string {
	if code == "" {
		return "none"
	}
	return code
}

// sameDiffValue compares two text values; in a float column two numbers
// within diffFloatTolerance are the same.
func sameDiffValue(got, want *string, float bool) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	if *got == *want {
		return true
	}
	if !float {
		return false
	}
	g, err1 := strconv.ParseFloat(*got, 64)
	w, err2 := strconv.ParseFloat(*want, 64)
	if err1 != nil || err2 != nil || math.IsInf(g, 0) || math.IsInf(w, 0) {
		return false
	}
	return math.Abs(g-w) <= diffFloatTolerance*math.Max(math.Abs(g), math.Abs(w))
}

// sortedRows orders a copy of rows by their text, NULL first, so that two
// multisets line up.
func sortedRows(rows [][]*string) [][]*string {
	keyed := make([]struct {
		key string
		row []*string
	}, len(rows))
	for i, r := range rows {
		var b strings.Builder
		for _, v := range r {
			if v == nil {
				b.WriteString("\x00N")
			} else {
				b.WriteString("\x00V" + *v)
			}
		}
		keyed[i].key, keyed[i].row = b.String(), r
	}
	sort.SliceStable(keyed, func(i, j int) bool { return keyed[i].key < keyed[j].key })
	out := make([][]*string, len(rows))
	for i := range keyed {
		out[i] = keyed[i].row
	}
	return out
}
