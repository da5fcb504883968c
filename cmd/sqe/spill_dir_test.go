package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
)

func TestSpillDirConfig(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		file string
		env  []string
		want string
	}{
		{name: "default", want: filepath.Join(os.TempDir(), "sqe-spill")},
		{name: "file", file: "[query]\nspill_dir = \"/var/tmp/sqe\"\n", want: "/var/tmp/sqe"},
		{name: "environment", env: []string{"SQE_QUERY__SPILL_DIR=/scratch/sqe"}, want: "/scratch/sqe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "absent.toml")
			if tt.file != "" {
				path = filepath.Join(dir, tt.name+".toml")
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c, err := loadConfig(path, false, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if c.Query.SpillDir != tt.want {
				t.Errorf("spill_dir = %q, want %q", c.Query.SpillDir, tt.want)
			}
		})
	}
}

// TestOpenSpillDirRemovesStaleAreas: the spill areas a dead process left
// are gone once the server opens its spill directory; the rest stays.
func TestOpenSpillDirRemovesStaleAreas(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "sqe-spill-2147483646-x")
	keep := filepath.Join(dir, "keep")
	for _, p := range []string{stale, keep} {
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	d := openSpillDir(dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if d.Path() != dir {
		t.Errorf("path %q", d.Path())
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale area: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("an entry the server does not name was removed: %v", err)
	}
}
