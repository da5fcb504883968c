package main

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sqe-db/sqe/governance/audit"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/pgwire"
	"github.com/sqe-db/sqe/pgwire/metrics"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/storage"
)

// opsShutdownGrace bounds how long the HTTP endpoint's requests in flight
// may take at shutdown.
const opsShutdownGrace = 5 * time.Second

// openObservability makes the metrics and starts the HTTP endpoint, both
// nil when [http] listen is empty. /metrics also shows the counters of
// the data cache chunks and of the spill directory (none when nil), and
// the collectors more.
func openObservability(cfg Config, logger *slog.Logger, chunks *storage.ChunkCache, spill *exec.SpillDir, more ...prometheus.Collector) (*metrics.Metrics, *opsServer, error) {
	if cfg.HTTP.Listen == "" {
		return nil, nil, nil
	}
	m := metrics.New()
	ops, err := startOpsServer(cfg.HTTP.Listen, metricsHandler(m, chunks, spill, more...), cfg.HTTP.Pprof, logger)
	if err != nil {
		return nil, nil, err
	}
	return m, ops, nil
}

func closeOpsServer(ops *opsServer, logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), opsShutdownGrace)
	defer cancel()
	if err := ops.shutdown(ctx); err != nil {
		logger.Error("close http endpoint", "error", err)
	}
}

// wireObserver is the pgwire server's observer: the metrics, or none.
func wireObserver(m *metrics.Metrics) pgwire.Observer {
	if m == nil {
		return nil
	}
	return m
}

// withStatementMetrics adds the statement metrics to the engine's
// auditor (nil when auditing is off).
func withStatementMetrics(a sql.Auditor, m *metrics.Metrics) sql.Auditor {
	switch {
	case m == nil:
		return a
	case a == nil:
		return statementMetrics{m}
	}
	return auditors{a, statementMetrics{m}}
}

// policyCacheObserver reports a policy store's cache hits and misses, or
// nothing without metrics.
func policyCacheObserver(m *metrics.Metrics, store string) policy.CacheObserver {
	if m == nil {
		return nil
	}
	return func(hit bool) { m.PolicyCache(store, hit) }
}

// policiesRefusedObserver counts gate two's refused policies in m, by
// policy engine (nil when there are no metrics).
func policiesRefusedObserver(m *metrics.Metrics, engine string) func(int) {
	if m == nil {
		return nil
	}
	if engine == "" {
		engine = "embedded"
	}
	return func(n int) { m.PoliciesRefused(engine, n) }
}

// statementMetrics feeds the engine's statement records (its Auditor
// hook) to the metrics: every statement's outcome and latency.
type statementMetrics struct {
	m *metrics.Metrics
}

func (s statementMetrics) Statement(st audit.Statement) {
	outcome := st.Outcome
	if outcome == audit.OutcomeOK {
		outcome = ""
	}
	s.m.StatementDone(outcome, st.Duration)
}

func (statementMetrics) PrivilegeChange(audit.PrivilegeChange) {}

// auditors hands each record to every one of its auditors in turn.
type auditors []sql.Auditor

func (as auditors) Statement(st audit.Statement) {
	for _, a := range as {
		a.Statement(st)
	}
}

func (as auditors) PrivilegeChange(c audit.PrivilegeChange) {
	for _, a := range as {
		a.PrivilegeChange(c)
	}
}

// timedCatalogs wraps each catalog so that its calls are measured; the
// catalogs themselves without metrics.
func timedCatalogs(cats []storage.Catalog, m *metrics.Metrics) []storage.Catalog {
	if m == nil {
		return cats
	}
	out := make([]storage.Catalog, len(cats))
	for i, c := range cats {
		out[i] = storage.Timed(c, func(catalog, op string, took time.Duration, err error) {
			m.CatalogCall(catalog, op, took, err)
		})
	}
	return out
}

// metricsHandler serves m's registry and, beside it, the counters of the
// data cache and of the spill directory (of each that is not nil) and
// the collectors more.
func metricsHandler(m *metrics.Metrics, chunks *storage.ChunkCache, spill *exec.SpillDir, more ...prometheus.Collector) http.Handler {
	if chunks == nil && spill == nil && len(more) == 0 {
		return m.Handler()
	}
	r := prometheus.NewRegistry()
	r.MustRegister(more...)
	if chunks != nil {
		r.MustRegister(chunkCacheCollectors(chunks)...)
	}
	if spill != nil {
		r.MustRegister(spillCollectors(spill)...)
	}
	return promhttp.HandlerFor(prometheus.Gatherers{m.Gatherer(), r}, promhttp.HandlerOpts{Registry: r})
}

// spillCollectors are what queries past their memory limit wrote to
// spill files, read at each scrape.
func spillCollectors(d *exec.SpillDir) []prometheus.Collector {
	return []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sqe_spill_bytes_total", Help: "Bytes sorts and aggregates past [query] memory_limit wrote to spill files.",
		}, func() float64 { return float64(d.Totals().Bytes) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sqe_spill_files_total", Help: "Spill files sorts and aggregates past [query] memory_limit wrote.",
		}, func() float64 { return float64(d.Totals().Files) }),
	}
}

// chunkCacheCollectors are the data cache's counters, read from the cache
// at each scrape.
func chunkCacheCollectors(c *storage.ChunkCache) []prometheus.Collector {
	stat := func(field func(storage.ChunkCacheStats) int64) func() float64 {
		return func() float64 { return float64(field(c.Stats())) }
	}
	return []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sqe_data_cache_hits_total", Help: "Decoded column chunks scans took from the data cache.",
		}, stat(func(s storage.ChunkCacheStats) int64 { return s.Hits })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sqe_data_cache_misses_total", Help: "Column chunks scans decoded because the data cache did not hold them.",
		}, stat(func(s storage.ChunkCacheStats) int64 { return s.Misses })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sqe_data_cache_evictions_total", Help: "Decoded column chunks the data cache's budget pushed out.",
		}, stat(func(s storage.ChunkCacheStats) int64 { return s.Evictions })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "sqe_data_cache_bytes", Help: "Bytes of decoded column chunks the data cache holds.",
		}, stat(func(s storage.ChunkCacheStats) int64 { return s.Bytes })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "sqe_data_cache_chunks", Help: "Decoded column chunks the data cache holds.",
		}, stat(func(s storage.ChunkCacheStats) int64 { return s.Chunks })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "sqe_data_cache_budget_bytes", Help: "The data cache's bound on its bytes ([cache] data_bytes).",
		}, stat(func(s storage.ChunkCacheStats) int64 { return s.Budget })),
	}
}
