package main

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// TestDuckDBModuleFollowsMain: the DuckDB program is a module of its own
// that builds SQE's from this tree (a replace), so it must require at
// least the version SQE's module requires of every module both name;
// otherwise `go build` there stops with "updates to go.mod needed" and
// the benchmark silently measures no DuckDB. Run `go mod tidy` in
// compat-tests/bench/duckdb after changing the main module's
// requirements.
func TestDuckDBModuleFollowsMain(t *testing.T) {
	parse := func(path string) *modfile.File {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := modfile.Parse(path, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	main := parse(filepath.Join("..", "..", "go.mod"))
	duck := parse(filepath.Join("duckdb", "go.mod"))
	wanted := map[string]string{}
	for _, r := range main.Require {
		wanted[r.Mod.Path] = r.Mod.Version
	}
	checked := 0
	for _, r := range duck.Require {
		v, ok := wanted[r.Mod.Path]
		if !ok {
			continue
		}
		checked++
		if semver.Compare(r.Mod.Version, v) < 0 {
			t.Errorf("compat-tests/bench/duckdb requires %s %s, SQE's module %s: run go mod tidy there", r.Mod.Path, r.Mod.Version, v)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d modules in common: is the DuckDB module's go.mod the one building SQE?", checked)
	}
}
