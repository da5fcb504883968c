package extgrammar

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

var update = flag.Bool("update", false, "rewrite the expected results in testdata/*.txt")

// parseCase is one case of a testdata file: comment lines, the statement
// (one or more lines), then after a "----" line what Parse gives.
type parseCase struct {
	comments []string
	input    string
	want     string
}

// readCases reads a testdata file: cases separated by blank lines.
func readCases(t testing.TB, path string) []parseCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []parseCase
	for _, block := range strings.Split(strings.TrimSpace(string(data)), "\n\n") {
		var c parseCase
		lines := strings.Split(block, "\n")
		for len(lines) > 0 && strings.HasPrefix(lines[0], "#") {
			c.comments = append(c.comments, lines[0])
			lines = lines[1:]
		}
		if len(lines) == 0 {
			cases = append(cases, c)
			continue
		}
		sep := -1
		for i, l := range lines {
			if l == "----" {
				sep = i
				break
			}
		}
		if sep < 1 {
			t.Fatalf("%s: case without a statement and a ---- line:\n%s", path, block)
		}
		c.input = strings.Join(lines[:sep], "\n")
		c.want = strings.Join(lines[sep+1:], "\n")
		cases = append(cases, c)
	}
	return cases
}

// writeCases writes cases back in readCases's format.
func writeCases(t *testing.T, path string, cases []parseCase) {
	t.Helper()
	blocks := make([]string, len(cases))
	for i, c := range cases {
		lines := append([]string{}, c.comments...)
		if c.input != "" {
			lines = append(lines, c.input, "----", c.want)
		}
		blocks[i] = strings.Join(lines, "\n")
	}
	if err := os.WriteFile(path, []byte(strings.Join(blocks, "\n\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// describe renders what Parse gives as the testdata files write it: the
// statement's type and canonical SQL, the error's SQLSTATE, position,
// message, detail and hint, or that the text is not an extension
// statement.
func describe(t *testing.T, stmt Statement, ok bool, err error) string {
	t.Helper()
	switch {
	case !ok && stmt == nil && err == nil:
		return "not an extension statement"
	case !ok:
		t.Fatalf("ok=false with statement %v and error %v", stmt, err)
	case err != nil:
		var pe *pgerror.Error
		if !errors.As(err, &pe) {
			t.Fatalf("error %T without SQLSTATE: %v", err, err)
		}
		out := fmt.Sprintf("error %s at %d: %s", pe.Code, pe.Position, pe.Message)
		if pe.Detail != "" {
			out += "\ndetail: " + pe.Detail
		}
		if pe.Hint != "" {
			out += "\nhint: " + pe.Hint
		}
		return out
	case stmt == nil:
		t.Fatal("ok=true with neither a statement nor an error")
	}
	return reflect.TypeOf(stmt).Elem().Name() + ": " + stmt.String()
}

// TestParseCases runs every case of testdata/*.txt and checks that each
// statement parsed renders SQL that parses back to the same statement.
func TestParseCases(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			cases := readCases(t, path)
			for i, c := range cases {
				if c.input == "" {
					continue
				}
				stmt, ok, err := Parse(c.input)
				got := describe(t, stmt, ok, err)
				if *update {
					cases[i].want = got
				} else if got != c.want {
					t.Errorf("Parse(%q):\n got: %s\nwant: %s", c.input, got, c.want)
				}
				if ok && err == nil {
					assertRoundTrip(t, stmt)
				}
			}
			if *update {
				writeCases(t, path, cases)
			}
		})
	}
}

// assertRoundTrip checks that stmt's SQL parses back to stmt.
func assertRoundTrip(t *testing.T, stmt Statement) {
	t.Helper()
	sql := stmt.String()
	again, ok, err := Parse(sql)
	if !ok || err != nil {
		t.Fatalf("canonical SQL %q does not parse: ok=%v err=%v", sql, ok, err)
	}
	if !reflect.DeepEqual(again, stmt) {
		t.Fatalf("canonical SQL %q parses to %#v, want %#v", sql, again, stmt)
	}
}
