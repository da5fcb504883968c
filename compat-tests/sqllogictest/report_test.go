package sqllogictest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sampleReport() *Report {
	rec := func(line int) Record { return Record{File: "a.slt", Line: line, SQL: "SELECT 1"} }
	return &Report{Engine: "postgres", Files: []*FileReport{{Name: "a.slt", Results: []Result{
		{Record: rec(1), Outcome: SetUp, Reason: "setup via storage API"},
		{Record: rec(5), Outcome: Passed},
		{Record: rec(9), Outcome: Failed, Reason: "42883: function f() does not exist"},
		{Record: rec(12), Outcome: Skipped},
		{Record: rec(15), Outcome: Passed},
	}}}}
}

func TestReportCounts(t *testing.T) {
	rep := sampleReport()
	want := Counts{Records: 4, Passed: 2, Failed: 1, SetUp: 1, Skipped: 1}
	if got := rep.Counts(); got != want {
		t.Errorf("Counts = %+v, want %+v", got, want)
	}
	if got := strings.Join(rep.Passing(), ","); got != "a.slt:5,a.slt:15" {
		t.Errorf("Passing = %s", got)
	}
	text := rep.Format("SQE", 5)
	for _, want := range []string{"a.slt                                4       2       1       1       1", "a.slt:9", "42883"} {
		if !strings.Contains(text, want) {
			t.Errorf("Format lacks %q:\n%s", want, text)
		}
	}
	md := MarkdownTable(rep, rep)
	if !strings.Contains(md, "| a.slt | 4 | 2 | 1 | 1 | 2 |") || !strings.Contains(md, "| total | 4 | 2 | 1 | 1 | 2 of 4 |") {
		t.Errorf("MarkdownTable:\n%s", md)
	}
}

func TestBaselineRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.txt")
	if err := os.WriteFile(path, []byte(FormatBaseline([]string{"a.slt:5", "a.slt:15"})+"b.slt:3 | a note\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ids, err := ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ids, ",") != "a.slt:5,a.slt:15,b.slt:3" {
		t.Fatalf("ReadBaseline = %v", ids)
	}
	regressed, newly := DiffBaseline(ids, []string{"a.slt:5", "b.slt:3", "c.slt:1"})
	if strings.Join(regressed, ",") != "a.slt:15" || strings.Join(newly, ",") != "c.slt:1" {
		t.Errorf("DiffBaseline = %v, %v; want [a.slt:15], [c.slt:1]", regressed, newly)
	}
}

func TestNamespace(t *testing.T) {
	tests := map[string]string{
		"pg_compat_simple.slt":  "slt_pg_compat_simple",
		"dir/Weird-Name.v2.slt": "slt_weird_name_v2",
		"pg_interval.slt":       "slt_pg_interval",
	}
	for in, want := range tests {
		if got := Namespace(in); got != want {
			t.Errorf("Namespace(%q) = %q, want %q", in, got, want)
		}
	}
}
