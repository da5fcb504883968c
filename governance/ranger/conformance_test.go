package ranger

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var conformanceDir = flag.String("conformance.dir", "",
	"run the conformance files of this directory (laid out as testdata/reference) instead of the copies in testdata/reference")

const conformanceExpectations = "testdata/conformance_expected.txt"

// conformanceExpectation is what conformance_expected.txt says of a file.
type conformanceExpectation struct {
	tests    int
	problems map[string]string // "#N" → "fail reason" or "skip reason"
}

// TestConformance runs Ranger's and Polaris's own test files and holds
// the outcome to the checked-in expectations: every test passes except
// the ones listed there with a reason, and a listed one that now passes
// must be removed from the list. Run with -v to see the report.
func TestConformance(t *testing.T) {
	dir := filepath.Join("testdata", "reference")
	if *conformanceDir != "" {
		dir = *conformanceDir
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("conformance directory %s is missing (%v): the test files are checked in under testdata/reference", dir, err)
	}
	report, err := RunConformance(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + report.String())

	want := readConformanceExpectations(t)
	seen := map[string]bool{}
	for _, f := range report.Files {
		seen[f.File] = true
		exp, ok := want[f.File]
		if !ok {
			t.Errorf("%s: not in %s; add \"tests %s %d\"", f.File, conformanceExpectations, f.File, f.Total())
			continue
		}
		if f.Total() != exp.tests {
			t.Errorf("%s: %d tests run, %s expects %d", f.File, f.Total(), conformanceExpectations, exp.tests)
		}
		got := map[string]bool{}
		for _, p := range f.Problems {
			id := strings.Fields(p.Test)[0]
			got[id] = true
			kind := "fail"
			if p.Skipped {
				kind = "skip"
			}
			reason, listed := exp.problems[id]
			switch {
			case !listed:
				t.Errorf("%s %s: unexpected %s: %s", f.File, p.Test, kind, p.Reason)
			case !strings.HasPrefix(reason, kind+" "):
				t.Errorf("%s %s: listed as %q but was a %s: %s", f.File, p.Test, reason, kind, p.Reason)
			}
		}
		for id, reason := range exp.problems {
			if !got[id] {
				t.Errorf("%s %s: listed (%s) but now passes; remove it from %s", f.File, id, reason, conformanceExpectations)
			}
		}
	}
	for file := range want {
		if !seen[file] {
			t.Errorf("%s: listed in %s but not found in %s", file, conformanceExpectations, dir)
		}
	}
}

// readConformanceExpectations reads lines "tests FILE N" and
// "fail|skip FILE #N reason"; # starts a comment line.
func readConformanceExpectations(t *testing.T) map[string]*conformanceExpectation {
	f, err := os.Open(conformanceExpectations)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]*conformanceExpectation{}
	entry := func(file string) *conformanceExpectation {
		if out[file] == nil {
			out[file] = &conformanceExpectation{problems: map[string]string{}}
		}
		return out[file]
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		switch {
		case len(fields) == 3 && fields[0] == "tests":
			count, err := strconv.Atoi(fields[2])
			if err != nil {
				t.Fatalf("%s:%d: %v", conformanceExpectations, n, err)
			}
			entry(fields[1]).tests = count
		case len(fields) >= 4 && (fields[0] == "fail" || fields[0] == "skip") && strings.HasPrefix(fields[2], "#"):
			entry(fields[1]).problems[fields[2]] = fields[0] + " " + strings.Join(fields[3:], " ")
		default:
			t.Fatalf("%s:%d: want \"tests FILE N\" or \"fail|skip FILE #N reason\", got %q", conformanceExpectations, n, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
