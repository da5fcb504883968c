package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// report is everything the final table shows.
type report struct {
	smallRows, largeRows int
	runs                 int
	sqeSmall, pgSmall    measurement
	sqeLarge             measurement
}

// write prints the table: one line per query (median wall time), then the
// streaming rate and the servers' peak memory.
func (r report) write(w io.Writer) error {
	small, large := sizeLabel(r.smallRows), sizeLabel(r.largeRows)
	header := []string{"query", "SQE " + small, "PG " + small, "ratio (PG/SQE)", "SQE " + large}
	var lines [][]string
	for i, q := range benchQueries {
		s, p, l := r.sqeSmall.queries[i].median(), r.pgSmall.queries[i].median(), r.sqeLarge.queries[i].median()
		lines = append(lines, []string{q.label, formatDuration(s), formatDuration(p), ratio(p, s), formatDuration(l)})
	}
	s, p, l := r.sqeSmall.stream.median(), r.pgSmall.stream.median(), r.sqeLarge.stream.median()
	lines = append(lines,
		[]string{streamLabel, formatDuration(s), formatDuration(p), ratio(p, s), formatDuration(l)},
		[]string{"stream rows/s",
			formatRate(r.sqeSmall.stream.rows, s), formatRate(r.pgSmall.stream.rows, p), "",
			formatRate(r.sqeLarge.stream.rows, l)},
		[]string{"SQE peak RSS (VmHWM)", formatBytes(r.sqeSmall.peakRSS), "", "", formatBytes(r.sqeLarge.peakRSS)},
	)
	if _, err := fmt.Fprintf(w, "median of %d runs after a warm-up; acdemo.sales at %s and %s rows\n\n", r.runs, small, large); err != nil {
		return err
	}
	if err := writeTable(w, header, lines); err != nil {
		return err
	}
	if r.sqeSmall.peakRSS > 0 && r.sqeLarge.peakRSS > 0 {
		_, err := fmt.Fprintf(w, "\nSQE peak RSS grew %.2fx while the table grew %.1fx\n",
			float64(r.sqeLarge.peakRSS)/float64(r.sqeSmall.peakRSS), float64(r.largeRows)/float64(r.smallRows))
		return err
	}
	return nil
}

// writeTable aligns cells in columns separated by " | "; the first column
// is left-aligned, the numbers right-aligned.
func writeTable(w io.Writer, header []string, lines [][]string) error {
	widths := make([]int, len(header))
	for _, row := range append([][]string{header}, lines...) {
		for i, cell := range row {
			widths[i] = max(widths[i], len(cell))
		}
	}
	format := func(row []string) string {
		cells := make([]string, len(row))
		for i, cell := range row {
			if i == 0 {
				cells[i] = fmt.Sprintf("%-*s", widths[i], cell)
			} else {
				cells[i] = fmt.Sprintf("%*s", widths[i], cell)
			}
		}
		return strings.Join(cells, " | ")
	}
	rule := make([]string, len(widths))
	for i, n := range widths {
		rule[i] = strings.Repeat("-", n)
	}
	out := []string{format(header), strings.Join(rule, "-+-")}
	for _, row := range lines {
		out = append(out, format(row))
	}
	_, err := io.WriteString(w, strings.Join(out, "\n")+"\n")
	return err
}

// sizeLabel writes a row count the short way: 1000000 is "1M".
func sizeLabel(n int) string {
	switch {
	case n >= 1_000_000 && n%100_000 == 0:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e6), ".0") + "M"
	case n >= 1000 && n%100 == 0:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e3), ".0") + "k"
	}
	return fmt.Sprint(n)
}

func formatDuration(d time.Duration) string {
	if d >= 10*time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// ratio is num/den, how many times longer PostgreSQL took.
func ratio(num, den time.Duration) string {
	if den <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", float64(num)/float64(den))
}

func formatRate(rows int64, d time.Duration) string {
	if d <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2fM", float64(rows)/d.Seconds()/1e6)
}

func formatBytes(n int64) string {
	if n <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}
