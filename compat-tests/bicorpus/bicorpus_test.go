package bicorpus

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNumberPlaceholders(t *testing.T) {
	got := NumberPlaceholders(`SELECT "pk?", '?' FROM t WHERE a IN (?) AND b = ?`)
	if want := `SELECT "pk?", '?' FROM t WHERE a IN ($1) AND b = $2`; got != want {
		t.Fatalf("NumberPlaceholders = %q, want %q", got, want)
	}
}

func TestReadKnownFailures(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       map[string]KnownFailure
		wantErr    bool
	}{
		{name: "comments and blank lines", text: "# comment\n\ngrafana-7 | mismatch: rows | parse_ident\n",
			want: map[string]KnownFailure{"grafana-7": {Gives: "mismatch: rows", Feature: "parse_ident"}}},
		{name: "two fields", text: "grafana-7 | mismatch\n", wantErr: true},
		{name: "listed twice", text: "a | 42P01 | x\na | 42P01 | y\n", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "known.txt")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadKnownFailures(path)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("want an error, got %v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) || got["grafana-7"] != tc.want["grafana-7"] {
				t.Fatalf("ReadKnownFailures = %v, want %v", got, tc.want)
			}
		})
	}
}

// Every tool's file decodes, and its entries have ids and SQL.
func TestReadEntries(t *testing.T) {
	for _, tool := range Tools {
		entries, err := ReadEntries(filepath.Join("..", "testdata", "bi"), tool)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) == 0 {
			t.Fatalf("%s: no entries", tool)
		}
		for _, e := range entries {
			if e.ID == "" || e.SQL == "" {
				t.Fatalf("%s: entry without id or SQL: %+v", tool, e)
			}
		}
	}
}
