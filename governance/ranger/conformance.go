package ranger

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Report is the outcome of running Ranger's and Polaris's own test files
// against the evaluator.
type Report struct {
	Files []FileReport
}

// FileReport is the outcome of one test file.
type FileReport struct {
	// File is the test file's path relative to the directory run.
	File                    string
	Passed, Failed, Skipped int
	// Problems lists every failed or skipped test.
	Problems []Problem
}

// Total is how many tests the file holds.
func (f FileReport) Total() int { return f.Passed + f.Failed + f.Skipped }

// Problem is a test that failed or could not be run.
type Problem struct {
	// Test is "#N name": the test's 1-based position in its file and its
	// name (test names repeat within a file).
	Test    string
	Skipped bool
	Reason  string
}

// String prints the report, one line per file and one per problem.
func (r Report) String() string {
	var sb strings.Builder
	var passed, failed, skipped int
	for _, f := range r.Files {
		fmt.Fprintf(&sb, "%s: %d passed, %d failed, %d skipped\n", f.File, f.Passed, f.Failed, f.Skipped)
		for _, p := range f.Problems {
			kind := "FAIL"
			if p.Skipped {
				kind = "SKIP"
			}
			fmt.Fprintf(&sb, "  %s %s: %s\n", kind, p.Test, p.Reason)
		}
		passed, failed, skipped = passed+f.Passed, failed+f.Failed, skipped+f.Skipped
	}
	fmt.Fprintf(&sb, "total: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	return sb.String()
}

func (f *FileReport) pass() { f.Passed++ }

func (f *FileReport) fail(test, format string, args ...any) {
	f.Failed++
	f.Problems = append(f.Problems, Problem{Test: test, Reason: fmt.Sprintf(format, args...)})
}

func (f *FileReport) skip(test, format string, args ...any) {
	f.Skipped++
	f.Problems = append(f.Problems, Problem{Test: test, Skipped: true, Reason: fmt.Sprintf(format, args...)})
}

func testLabel(i int, name string) string { return fmt.Sprintf("#%d %s", i+1, name) }

// RunConformance runs every Ranger policy-engine test file
// (test_policyengine_*.json) and Polaris authorizer test file
// (tests_authz_*.json, next to dev_polaris.json and
// polaris-operation-to-ranger-accesstypes.tsv) found under dir, checking
// each expected result as the projects' own harnesses do. It fails only
// when dir cannot be read or holds no test file; a test file that cannot
// be loaded is reported with its tests skipped.
func RunConformance(dir string) (Report, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if !d.IsDir() && strings.HasSuffix(name, ".json") &&
			(strings.HasPrefix(name, "test_policyengine_") || strings.HasPrefix(name, "tests_authz_")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return Report{}, fmt.Errorf("conformance files in %s: %w", dir, err)
	}
	if len(files) == 0 {
		return Report{}, fmt.Errorf("conformance files in %s: no test_policyengine_*.json or tests_authz_*.json", dir)
	}
	sort.Strings(files)
	var r Report
	for _, path := range files {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return Report{}, err
		}
		fr := FileReport{File: filepath.ToSlash(rel)}
		data, err := os.ReadFile(path)
		if err != nil {
			return Report{}, fmt.Errorf("conformance file %s: %w", rel, err)
		}
		if strings.HasPrefix(filepath.Base(path), "tests_authz_") {
			runPolarisFile(dir, path, data, &fr)
		} else {
			runPolicyEngineFile(dir, path, data, &fr)
		}
		r.Files = append(r.Files, fr)
	}
	return r, nil
}
