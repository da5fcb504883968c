package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParsePgbenchSummary(t *testing.T) {
	tests := []struct {
		file               string
		processed, failed  int64
		tps                float64
		statements, absent []string
		statementLineCount int
	}{
		{
			file: "pgbench_one_script.txt", processed: 34, tps: 10.924723,
			statements:         []string{"156.478           0  SELECT category, count(*)"},
			absent:             []string{`\set`},
			statementLineCount: 4,
		},
		{
			file: "pgbench_two_scripts.txt", processed: 36, tps: 11.693327,
			statements:         []string{"SQL script 1: testdata/load_read.sql", "SQL script 2: testdata/load_write.sql", "5.538           0  UPDATE load.counters"},
			absent:             []string{`\set`, "weight", "latency average"},
			statementLineCount: 8, // two headers, four reads, two writes
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			res, err := parsePgbenchSummary(strings.NewReader(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			if res.processed != tt.processed || res.failed != tt.failed || res.tps != tt.tps {
				t.Fatalf("got processed %d failed %d tps %v, want %d %d %v", res.processed, res.failed, res.tps, tt.processed, tt.failed, tt.tps)
			}
			st := statementLatencies(string(data))
			for _, s := range tt.statements {
				if !strings.Contains(st, s) {
					t.Errorf("statement latencies lack %q:\n%s", s, st)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(st, s) {
					t.Errorf("statement latencies hold %q:\n%s", s, st)
				}
			}
			if n := strings.Count(st, "\n"); n != tt.statementLineCount {
				t.Errorf("%d statement lines, want %d:\n%s", n, tt.statementLineCount, st)
			}
		})
	}
}

func TestParsePgbenchSummaryRefusesOtherText(t *testing.T) {
	for _, input := range []string{"", "pgbench: error: connection to server failed\n", "number of transactions actually processed: 3\n"} {
		if _, err := parsePgbenchSummary(strings.NewReader(input)); err == nil {
			t.Errorf("%q parsed without error", input)
		}
	}
}

func TestFirstPgbenchError(t *testing.T) {
	tests := []struct{ stderr, want string }{
		{"", ""},
		{"progress: 60.0 s, 19.9 tps, lat 120.5 ms stddev 30.1, 0 failed\n", ""},
		{"pgbench: error: client 3 script 0 aborted in command 1 query 0: ERROR:  relation \"load.x\" does not exist\npgbench: error: Run was aborted; the above results are incomplete.\n",
			`pgbench: error: client 3 script 0 aborted in command 1 query 0: ERROR:  relation "load.x" does not exist`},
	}
	for _, tt := range tests {
		if got := firstPgbenchError(tt.stderr); got != tt.want {
			t.Errorf("firstPgbenchError(%q) = %q, want %q", tt.stderr, got, tt.want)
		}
	}
}

func TestAppendLoggedTxs(t *testing.T) {
	log := "0 1 391148 0 1796290442 706904\n" +
		"1 1 failed 1 1796290442 913521\n" +
		"1 2 955 1 1796290443 662903 12\n" +
		"\n" +
		"2 1 skipped 0 1796290443 662903 5000\n"
	got, err := appendLoggedTxs(nil, strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	want := []loggedTx{{script: 0, latency: 391148 * time.Microsecond}, {script: 1, latency: 955 * time.Microsecond}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %v, want %v", got, want)
	}
	for _, bad := range []string{"0 1 12\n", "0 1 x 0 1 2\n", "0 1 12 y 1 2\n"} {
		if _, err := appendLoggedTxs(nil, strings.NewReader(bad)); err == nil {
			t.Errorf("%q parsed without error", bad)
		}
	}
}

func TestScriptCount(t *testing.T) {
	res := pgbenchResult{perScript: []int64{8, 2}}
	if res.scriptCount(0) != 8 || res.scriptCount(1) != 2 || res.scriptCount(2) != 0 {
		t.Fatalf("scriptCount of %v: %d %d %d", res.perScript, res.scriptCount(0), res.scriptCount(1), res.scriptCount(2))
	}
	if (pgbenchResult{}).scriptCount(1) != 0 {
		t.Fatal("an aborted run's count is not 0")
	}
}

func TestPercentile(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		var d []time.Duration
		for _, n := range ns {
			d = append(d, time.Duration(n)*time.Millisecond)
		}
		return d
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100 down to 1: the order must not matter
	}
	tests := []struct {
		lat  []time.Duration
		p    int
		want time.Duration
	}{
		{nil, 50, 0},
		{ms(7), 99, 7 * time.Millisecond},
		{ms(hundred...), 50, 50 * time.Millisecond},
		{ms(hundred...), 99, 99 * time.Millisecond},
		{ms(3, 1, 2), 50, 2 * time.Millisecond},
		{ms(3, 1, 2), 99, 3 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := percentile(tt.lat, tt.p); got != tt.want {
			t.Errorf("percentile(%v, %d) = %v, want %v", tt.lat, tt.p, got, tt.want)
		}
	}
}

func TestPgbenchArgs(t *testing.T) {
	run := pgbenchRun{scripts: []string{"r.sql@4", "w.sql@1"}, protocol: "prepared", clients: 8, threads: 2,
		duration: 90 * time.Second, rate: 20, progress: time.Minute, logPrefix: "/x/tx"}
	got := strings.Join(run.args(pgbenchTarget{host: "127.0.0.1", port: "5433", user: "bench", database: "sales_wh", password: "tok"}), " ")
	want := "-n -r -M prepared -c 8 -j 2 -T 90 -l --log-prefix /x/tx -h 127.0.0.1 -p 5433 -U bench -R 20 -P 60 -f r.sql@4 -f w.sql@1 sales_wh"
	if got != want {
		t.Fatalf("args\n got %s\nwant %s", got, want)
	}
	if strings.Contains(got, "tok") {
		t.Fatal("the password is on the command line")
	}
}
