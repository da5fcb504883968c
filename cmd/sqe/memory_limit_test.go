package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestQueryMemoryLimitConfig(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		file    string
		env     []string
		want    int64 // 0: the machine's default
		wantErr string
	}{
		{name: "default"},
		{name: "string with a binary unit", file: "[query]\nmemory_limit = \"2GiB\"\n", want: 2 << 30},
		{name: "postgres-style unit", file: "[query]\nmemory_limit = \"512MB\"\n", want: 512 << 20},
		{name: "fraction", file: "[query]\nmemory_limit = \"1.5 GiB\"\n", want: 3 << 29},
		{name: "integer bytes", file: "[query]\nmemory_limit = 1048576\n", want: 1 << 20},
		{name: "environment string", env: []string{"SQE_QUERY__MEMORY_LIMIT=64MiB"}, want: 64 << 20},
		{name: "environment digits", env: []string{"SQE_QUERY__MEMORY_LIMIT=4096"}, want: 4096},
		{name: "environment overrides file", file: "[query]\nmemory_limit = \"1GiB\"\n", env: []string{"SQE_QUERY__MEMORY_LIMIT=8MiB"}, want: 8 << 20},
		{name: "unknown unit", file: "[query]\nmemory_limit = \"2 parsecs\"\n", wantErr: "memory size"},
		{name: "negative", file: "[query]\nmemory_limit = -5\n", wantErr: "negative"},
		{name: "unknown key in query", file: "[query]\nmemory_limt = \"1GiB\"\n", wantErr: "unknown key(s): query.memory_limt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "absent.toml")
			if tt.file != "" {
				path = filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".toml")
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c, err := loadConfig(path, false, tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := int64(c.Query.MemoryLimit)
			if tt.want == 0 {
				if got < minDefaultMemoryLimit {
					t.Errorf("default limit %d is below 256 MiB", got)
				}
				return
			}
			if got != tt.want {
				t.Errorf("memory_limit = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestMemoryQuarter(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	meminfo16G := write("meminfo16", "MemTotal:       16777216 kB\nMemFree:         1000 kB\n")
	meminfo512M := write("meminfo512", "MemTotal:         524288 kB\n")
	cgroup2G := write("cgroup2g", "2147483648\n")
	cgroupMax := write("cgroupmax", "max\n")
	absent := filepath.Join(dir, "absent")
	tests := []struct {
		name            string
		meminfo, cgroup string
		want            int64
	}{
		{"a quarter of physical memory", meminfo16G, absent, 4 << 30},
		{"cgroup lower than the machine", meminfo16G, cgroup2G, 512 << 20},
		{"cgroup without a limit", meminfo16G, cgroupMax, 4 << 30},
		{"at least 256 MiB", meminfo512M, absent, 256 << 20},
		{"nothing readable", absent, absent, 1 << 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := memoryQuarter(tt.meminfo, tt.cgroup); got != tt.want {
				t.Errorf("memoryQuarter = %d, want %d", got, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		name            string
		meminfo, cgroup string
		cache           int64
		want            int64
	}{
		{"collector: three quarters of physical memory", meminfo16G, absent, 0, 12 << 30},
		{"collector: of the cgroup's", meminfo16G, cgroup2G, 0, 1536 << 20},
		{"collector: less the cache's budget", meminfo16G, absent, 1 << 30, 11 << 30},
		{"collector: at least a quarter beside the cache", meminfo16G, cgroup2G, 1 << 30, 512 << 20},
		{"collector: none when nothing is readable", absent, absent, 1 << 30, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := gcMemoryLimit(tt.meminfo, tt.cgroup, tt.cache); got != tt.want {
				t.Errorf("gcMemoryLimit = %d, want %d", got, tt.want)
			}
		})
	}
}
