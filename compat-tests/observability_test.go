package compattests

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The operator's HTTP endpoint of a real server: health, readiness and
// Prometheus metrics that move as clients connect, query, fail and are
// refused.

// httpEndpointLine is the log line naming the endpoint's address.
var httpEndpointLine = regexp.MustCompile(`msg="http endpoint" addr=(\S+)`)

// httpAddr is the address the server's HTTP endpoint listens on, from its
// log.
func (s *server) httpAddr(t *testing.T) string {
	t.Helper()
	m := httpEndpointLine.FindStringSubmatch(s.log())
	if m == nil {
		t.Fatalf("the server logged no http endpoint; log:\n%s", s.log())
	}
	return m[1]
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	client := http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode, string(body)
}

// scrape reads /metrics: each sample by its name and labels, written
// name{k="v",...} with the labels sorted (histograms by their _count).
func scrape(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	code, body := httpGet(t, "http://"+addr+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: HTTP %d", code)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse /metrics: %v\n%s", err, body)
	}
	out := map[string]float64{}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			key := name + labelString(m.GetLabel())
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				out[key] = m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				out[key] = m.GetGauge().GetValue()
			case dto.MetricType_HISTOGRAM:
				out[name+"_count"+labelString(m.GetLabel())] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}

func labelString(labels []*dto.LabelPair) string {
	if len(labels) == 0 {
		return ""
	}
	parts := make([]string, len(labels))
	for i, l := range labels {
		parts[i] = fmt.Sprintf("%s=%q", l.GetName(), l.GetValue())
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func TestMetricsEndpoint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Room for the two sessions below; a third is refused with 53300.
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte("[pgwire]\nmax_connections = 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startTestServerIn(t, filepath.Join(dir, "data"), false)
	addr := s.httpAddr(t)
	ctx := testContext(t, 120*time.Second)

	for _, path := range []string{"/healthz", "/readyz"} {
		if code, body := httpGet(t, "http://"+addr+path); code != http.StatusOK {
			t.Errorf("%s: HTTP %d %q, want 200", path, code, body)
		}
	}
	before := scrape(t, addr)

	token, err := s.mintAdmin("carol")
	if err != nil {
		t.Fatal(err)
	}
	conn := connectConfig(t, ctx, pgxConfig(t, s, "carol", demoDatabase, "disable", token))
	for _, stmt := range []string{
		"CREATE SCHEMA obs",
		"CREATE TABLE obs.t (id bigint)",
		"INSERT INTO obs.t VALUES (1), (2), (3)",
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	rows, err := conn.Query(ctx, "SELECT id FROM obs.t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || len(ids) != 3 {
		t.Fatalf("SELECT id FROM obs.t = %v, %v", ids, err)
	}
	for stmt, code := range map[string]string{"SELECT * FROM obs.missing": "42P01", "SELECT 1/0": "22012"} {
		if _, err := conn.Exec(ctx, stmt); err == nil || asPgError(t, err).Code != code {
			t.Fatalf("%s: %v, want %s", stmt, err, code)
		}
	}
	// The bad login comes while a slot is free; its slot is given back
	// before the refusal is sent, so the second session finds it.
	badCfg := pgxConfig(t, s, "carol", demoDatabase, "disable", "not-a-token")
	if c, err := pgx.ConnectConfig(ctx, badCfg); err == nil {
		_ = c.Close(ctx)
		t.Fatal("a login with a bad token was admitted")
	} else if pe := asPgError(t, err); pe.Code != "28P01" {
		t.Fatalf("bad login: %s %s, want 28P01", pe.Code, pe.Message)
	}
	second := connectConfig(t, ctx, pgxConfig(t, s, "carol", demoDatabase, "disable", token))
	assertSelectOne(t, ctx, second)
	refusedCfg := pgxConfig(t, s, "carol", demoDatabase, "disable", token)
	if c, err := pgx.ConnectConfig(ctx, refusedCfg); err == nil {
		_ = c.Close(ctx)
		t.Fatal("a third session was admitted past max_connections = 2")
	} else if pe := asPgError(t, err); pe.Code != "53300" {
		t.Fatalf("third session: %s %s, want 53300", pe.Code, pe.Message)
	}

	after := scrape(t, addr)
	moved := []struct {
		sample  string
		atLeast float64
	}{
		{`sqe_queries_total{outcome="ok",sqlstate_class="00"}`, 5},
		{`sqe_queries_total{outcome="error",sqlstate_class="42"}`, 1},
		{`sqe_queries_total{outcome="error",sqlstate_class="22"}`, 1},
		{`sqe_query_duration_seconds_count{outcome="ok"}`, 5},
		{`sqe_query_duration_seconds_count{outcome="error"}`, 2},
		{`sqe_rows_returned_total`, 4},
		{`sqe_bytes_returned_total`, 1},
		{`sqe_connections_opened_total`, 2},
		{`sqe_connections_refused_total{reason="too_many_connections"}`, 1},
		{`sqe_connections_refused_total{reason="authentication_failed"}`, 1},
		{`sqe_rate_limit_refusals_total{limit="connections"}`, 1},
		{`sqe_errors_sent_total{sqlstate_class="42"}`, 1},
		{`sqe_catalog_call_duration_seconds_count{catalog="sales_wh",operation="load_table",outcome="ok"}`, 1},
		{`sqe_catalog_call_duration_seconds_count{catalog="sales_wh",operation="load_table",outcome="error"}`, 1},
	}
	for _, m := range moved {
		if got := after[m.sample] - before[m.sample]; got < m.atLeast {
			t.Errorf("%s moved by %v, want at least %v", m.sample, got, m.atLeast)
		}
	}
	if hits, misses := after[`sqe_policy_cache_hits_total{store="embedded"}`], after[`sqe_policy_cache_misses_total{store="embedded"}`]; hits+misses < 1 {
		t.Errorf("policy cache hits %v, misses %v: want the SELECT to have asked the policy store", hits, misses)
	}
	if got := after["sqe_connections"]; got < 1 {
		t.Errorf("sqe_connections = %v with a session open, want at least 1", got)
	}
}

// The endpoint serves its three paths to GET only.
func TestHealthEndpointMethods(t *testing.T) {
	t.Parallel()
	addr := shared.server.httpAddr(t)
	if code, _ := httpGet(t, "http://"+addr+"/nothing"); code != http.StatusNotFound {
		t.Errorf("/nothing: HTTP %d, want 404", code)
	}
	resp, err := http.Post("http://"+addr+"/healthz", "text/plain", strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /healthz: HTTP %d, want 405", resp.StatusCode)
	}
}
