package sqllogictest

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// hashedResult is the expected block sqllogictest writes for a result
// above the hash threshold.
var hashedResult = regexp.MustCompile(`^(\d+) values hashing to ([0-9a-f]{32})$`)

// Match compares rendered result rows with the record's expected block
// the way DataFusion's validator does: the record's sort mode is applied
// to the rows, each row is its values joined by single spaces, and lines
// are compared with trailing spaces dropped. It returns "" on a match,
// else the first difference.
func Match(r Record, rows [][]string) string {
	var lines []string
	var values []string
	switch r.Sort {
	case RowSort:
		rows = slices.Clone(rows)
		slices.SortFunc(rows, slices.Compare[[]string])
		fallthrough
	case NoSort:
		for _, row := range rows {
			lines = append(lines, strings.TrimRight(strings.Join(row, " "), " "))
			values = append(values, row...)
		}
	case ValueSort:
		for _, row := range rows {
			values = append(values, row...)
		}
		slices.Sort(values)
		for _, v := range values {
			lines = append(lines, strings.TrimRight(v, " "))
		}
	}

	if len(r.Expected) == 1 {
		if m := hashedResult.FindStringSubmatch(strings.TrimSpace(r.Expected[0])); m != nil {
			got := fmt.Sprintf("%d values hashing to %s", len(values), hashValues(values))
			if got != m[0] {
				return fmt.Sprintf("got %q, want %q", got, m[0])
			}
			return ""
		}
	}
	want := make([]string, len(r.Expected))
	for i, l := range r.Expected {
		want[i] = strings.TrimRight(l, " \t")
	}
	for i := 0; i < min(len(lines), len(want)); i++ {
		if lines[i] != want[i] {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, lines[i], want[i])
		}
	}
	if len(lines) != len(want) {
		return fmt.Sprintf("got %d lines, want %d%s", len(lines), len(want), firstExtra(lines, want))
	}
	return ""
}

// hashValues is sqllogictest's result hash: MD5 over every value followed
// by a newline.
func hashValues(values []string) string {
	h := md5.New()
	for _, v := range values {
		h.Write([]byte(v))
		h.Write([]byte("\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func firstExtra(got, want []string) string {
	switch {
	case len(got) > len(want):
		return fmt.Sprintf(" (first extra: %q)", got[len(want)])
	case len(want) > len(got):
		return fmt.Sprintf(" (first missing: %q)", want[len(got)])
	}
	return ""
}
