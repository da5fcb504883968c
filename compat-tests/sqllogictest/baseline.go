package sqllogictest

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
)

// baselineHeader opens the baseline file.
const baselineHeader = `# Records (file:line) of the DataFusion Postgres-compatibility files that SQE passes.
# TestSQLLogicTest fails when one of them stops passing. When more pass, rewrite
# this file with: go test ./compat-tests -run TestSQLLogicTest -update-slt-baseline
`

// ReadBaseline reads the record IDs of a baseline file, one a line
// (anything after the ID and a space is a note); '#' lines and blank
// lines are ignored.
func ReadBaseline(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, _, _ := strings.Cut(line, " ")
		out = append(out, id)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", path, err)
	}
	return out, nil
}

// FormatBaseline is the baseline file's text for the passing IDs.
func FormatBaseline(passing []string) string {
	return baselineHeader + strings.Join(passing, "\n") + "\n"
}

// DiffBaseline returns the baseline IDs that no longer pass and the
// passing IDs the baseline does not list yet.
func DiffBaseline(baseline, passing []string) (regressed, newlyPassing []string) {
	for _, id := range baseline {
		if !slices.Contains(passing, id) {
			regressed = append(regressed, id)
		}
	}
	for _, id := range passing {
		if !slices.Contains(baseline, id) {
			newlyPassing = append(newlyPassing, id)
		}
	}
	return regressed, newlyPassing
}
