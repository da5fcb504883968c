package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// policyPairs are fixed timings for every policy query: count(*) within
// the target, the rest over it, and an answer for each aggregate.
func policyPairs(answers ...[]string) []policyPair {
	ms := [][2]int{{100, 110}, {200, 260}, {300, 330}, {1000, 1500}, {1200, 2400}, {1, 2}}
	var pairs []policyPair
	for i, q := range policyQueries {
		p := policyPair{
			plain:   timing{runs: durations(ms[i][0], ms[i][0]+2, ms[i][0]-2), rows: 1},
			policed: timing{runs: durations(ms[i][1]), rows: 1},
		}
		if q.aggregate {
			p.plain.answer, p.policed.answer = answers[i], answers[i]
		}
		pairs = append(pairs, p)
	}
	return pairs
}

// TestPolicyReportGolden renders a report from fixed numbers and compares
// it with testdata/policy_report.golden.
func TestPolicyReportGolden(t *testing.T) {
	rep := policyReport{rows: 10_000_000, runs: 3,
		pairs: policyPairs([]string{"10000000"}, []string{"12.50"}, []string{"EU|1|2"})}
	var b strings.Builder
	if err := rep.write(&b); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/policy_report.golden")
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("report:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestPolicyReportCheck makes sure a run whose users disagree, or whose
// table is not the size asked for, fails.
func TestPolicyReportCheck(t *testing.T) {
	good := func() policyReport {
		return policyReport{rows: 100, runs: 1, pairs: policyPairs([]string{"100"}, []string{"7"}, []string{"EU|1|7"})}
	}
	tests := []struct {
		name   string
		mutate func(*policyReport)
		want   string // "" for no error, else part of it
	}{
		{"agreeing users", func(*policyReport) {}, ""},
		{"an aggregate differs", func(r *policyReport) { r.pairs[1].policed.answer = []string{"6"} }, "sum(amount)"},
		{"fewer streamed rows", func(r *policyReport) { r.pairs[3].policed.rows = 0 }, "stream id, region, ssn: bench_plain read 1 rows, bench_policed 0"},
		{"plans differ in rows, which is fine", func(r *policyReport) { r.pairs[5].policed.rows = 9 }, ""},
		{"another table size", func(r *policyReport) { r.rows = 99 }, "count(*) returned [100], want 99"},
	}
	for _, tc := range tests {
		rep := good()
		tc.mutate(&rep)
		err := rep.check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
	}
}

// TestOrdersGen checks the generated rows: ids in order, no region the
// row filter excludes, ssn shaped as the masks expect, and the same rows
// on every run.
func TestOrdersGen(t *testing.T) {
	ssn := regexp.MustCompile(`^\d{3}-\d{2}-\d{4}$`)
	a, b := newOrdersGen(policySchema()).batch(11, 1000), newOrdersGen(policySchema()).batch(11, 1000)
	defer a.Release()
	defer b.Release()
	for i := range int(a.NumRows()) {
		for c := range int(a.NumCols()) {
			if x, y := a.Column(c).ValueStr(i), b.Column(c).ValueStr(i); x != y {
				t.Fatalf("row %d column %d: %q, then %q", i, c, x, y)
			}
		}
		if id := a.Column(0).ValueStr(i); id != strconv.Itoa(11+i) {
			t.Fatalf("row %d has id %s", i, id)
		}
		if r := a.Column(1).ValueStr(i); r == policyFilterMissing || r == "" {
			t.Fatalf("row %d has region %q", i, r)
		}
		if s := a.Column(2).ValueStr(i); !ssn.MatchString(s) {
			t.Fatalf("row %d has ssn %q", i, s)
		}
	}
}
