package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// Each hook moves the series its SQLSTATE or outcome names, and only
// that one.
func TestHooksMoveTheirSeries(t *testing.T) {
	tests := []struct {
		name   string
		hook   func(m *Metrics)
		metric string
		want   string
	}{
		{"statement ok", func(m *Metrics) { m.StatementDone("", time.Millisecond) }, "sqe_queries_total",
			`sqe_queries_total{outcome="ok",sqlstate_class="00"} 1`},
		{"statement error", func(m *Metrics) { m.StatementDone("42P01", time.Millisecond) }, "sqe_queries_total",
			`sqe_queries_total{outcome="error",sqlstate_class="42"} 1`},
		{"query rate refusal", func(m *Metrics) { m.ErrorSent("53400") }, "sqe_rate_limit_refusals_total",
			`sqe_rate_limit_refusals_total{limit="query_rate"} 1`},
		{"connection limit refusal", func(m *Metrics) { m.ErrorSent("53300") }, "sqe_rate_limit_refusals_total",
			`sqe_rate_limit_refusals_total{limit="connections"} 1`},
		{"other errors are no limit's", func(m *Metrics) { m.ErrorSent("53200") }, "sqe_rate_limit_refusals_total", ``},
		{"refused login", func(m *Metrics) { m.ConnectionRefused("28P01") }, "sqe_connections_refused_total",
			`sqe_connections_refused_total{reason="authentication_failed"} 1`},
		{"refusal without a name", func(m *Metrics) { m.ConnectionRefused("XX000") }, "sqe_connections_refused_total",
			`sqe_connections_refused_total{reason="class_XX"} 1`},
		{"open then close", func(m *Metrics) { m.ConnectionOpened(); m.ConnectionOpened(); m.ConnectionClosed() }, "sqe_connections",
			`sqe_connections 1`},
		{"policy cache", func(m *Metrics) { m.PolicyCache("ranger", true); m.PolicyCache("ranger", true) }, "sqe_policy_cache_hits_total",
			`sqe_policy_cache_hits_total{store="ranger"} 2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New()
			tt.hook(m)
			want := ""
			if tt.want != "" {
				want = "# HELP " + tt.metric + " " + help(t, m, tt.metric) + "\n# TYPE " + tt.metric + " " + kind(tt.metric) + "\n" + tt.want + "\n"
			}
			if err := testutil.GatherAndCompare(m.Gatherer(), strings.NewReader(want), tt.metric); err != nil {
				t.Error(err)
			}
		})
	}
}

func help(t *testing.T, m *Metrics, name string) string {
	t.Helper()
	families, err := m.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name {
			return f.GetHelp()
		}
	}
	t.Fatalf("no metric %s", name)
	return ""
}

func kind(name string) string {
	if strings.HasSuffix(name, "_total") {
		return "counter"
	}
	return "gauge"
}
