package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds SQE's collectors in a registry of its own. Its methods are
// safe for concurrent use and cheap enough for every statement.
type Metrics struct {
	registry *prometheus.Registry

	connections        prometheus.Gauge
	connectionsOpened  prometheus.Counter
	connectionsRefused *prometheus.CounterVec

	queries       *prometheus.CounterVec
	queryDuration *prometheus.HistogramVec
	rowsReturned  prometheus.Counter
	bytesReturned prometheus.Counter

	errorsSent        *prometheus.CounterVec
	rateLimitRefusals *prometheus.CounterVec

	policyCacheHits   *prometheus.CounterVec
	policyCacheMisses *prometheus.CounterVec
	policiesRefused   *prometheus.CounterVec

	catalogCalls *prometheus.HistogramVec

	remoteStatements *prometheus.CounterVec
	remoteBytes      *prometheus.CounterVec
}

// New makes the collectors and registers them, with the Go runtime and
// process collectors, in a new registry.
func New() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "sqe_connections", Help: "Client sessions currently open (past login).",
		}),
		connectionsOpened: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sqe_connections_opened_total", Help: "Client sessions opened (past login).",
		}),
		connectionsRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_connections_refused_total", Help: "Connections refused before a session opened, by reason.",
		}, []string{"reason"}),
		queries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_queries_total", Help: "Statements run, by outcome (ok or error) and SQLSTATE class.",
		}, []string{"outcome", "sqlstate_class"}),
		queryDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "sqe_query_duration_seconds", Help: "Statement latency, from execution start to its last row.",
			// From a catalog lookup to a long analytical query.
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300},
		}, []string{"outcome"}),
		rowsReturned: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sqe_rows_returned_total", Help: "Rows sent to clients.",
		}),
		bytesReturned: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sqe_bytes_returned_total", Help: "Protocol bytes sent to clients.",
		}),
		errorsSent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_errors_sent_total", Help: "ErrorResponses sent to clients, by SQLSTATE class.",
		}, []string{"sqlstate_class"}),
		rateLimitRefusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_rate_limit_refusals_total", Help: "Clients refused by a limit (53400 query rate, 53300 connections), by limit.",
		}, []string{"limit"}),
		policyCacheHits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_policy_cache_hits_total", Help: "Policy snapshots served from the policy store's cache.",
		}, []string{"store"}),
		policyCacheMisses: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_policy_cache_misses_total", Help: "Policy snapshots the policy store had to read or revalidate.",
		}, []string{"store"}),
		policiesRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_policies_refused_total", Help: "Policies refused when loaded because SQE cannot evaluate them (they fail closed), counted at each policy version, by store.",
		}, []string{"store"}),
		catalogCalls: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "sqe_catalog_call_duration_seconds", Help: "Latency of storage catalog operations, by catalog, operation and outcome.",
			// From a cached SQLite lookup to a slow REST catalog.
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"catalog", "operation", "outcome"}),
		remoteStatements: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_remote_statements_total", Help: "SELECTs sent to a remote engine, by engine and outcome (ok, error, cancelled, local: the engine could not be reached and sqe.execution = 'auto' ran it here).",
		}, []string{"engine", "outcome"}),
		remoteBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_remote_bytes_total", Help: "Bytes of answers remote engines sent, by engine.",
		}, []string{"engine"}),
	}
	m.registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.connections, m.connectionsOpened, m.connectionsRefused,
		m.queries, m.queryDuration, m.rowsReturned, m.bytesReturned,
		m.errorsSent, m.rateLimitRefusals,
		m.policyCacheHits, m.policyCacheMisses, m.policiesRefused, m.catalogCalls,
		m.remoteStatements, m.remoteBytes,
	)
	return m
}

// Handler serves the registry in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// Gatherer is the registry, for tests and other exporters.
func (m *Metrics) Gatherer() prometheus.Gatherer { return m.registry }

// ConnectionOpened counts a session that passed login.
func (m *Metrics) ConnectionOpened() {
	m.connections.Inc()
	m.connectionsOpened.Inc()
}

// ConnectionClosed counts a session's end.
func (m *Metrics) ConnectionClosed() { m.connections.Dec() }

// ConnectionRefused counts a connection refused before its session opened
// with a FATAL error of the given SQLSTATE.
func (m *Metrics) ConnectionRefused(sqlstate string) {
	m.connectionsRefused.WithLabelValues(refusalReason(sqlstate)).Inc()
}

// ErrorSent counts an ErrorResponse sent to a client, and a limit's
// refusal when its SQLSTATE is one.
func (m *Metrics) ErrorSent(sqlstate string) {
	m.errorsSent.WithLabelValues(sqlstateClass(sqlstate)).Inc()
	if limit, ok := rateLimit(sqlstate); ok {
		m.rateLimitRefusals.WithLabelValues(limit).Inc()
	}
}

// RowsSent counts rows sent to a client.
func (m *Metrics) RowsSent(n int64) { m.rowsReturned.Add(float64(n)) }

// BytesSent counts protocol bytes sent to a client.
func (m *Metrics) BytesSent(n int64) { m.bytesReturned.Add(float64(n)) }

// StatementDone counts a statement that ended with sqlstate ("" or
// "00000" for success) after d.
func (m *Metrics) StatementDone(sqlstate string, d time.Duration) {
	outcome := outcomeOK
	if sqlstate != "" && sqlstate != sqlstateSuccess {
		outcome = outcomeError
	}
	m.queries.WithLabelValues(outcome, sqlstateClass(sqlstate)).Inc()
	m.queryDuration.WithLabelValues(outcome).Observe(d.Seconds())
}

// CatalogCall records one storage catalog operation.
func (m *Metrics) CatalogCall(catalog, operation string, d time.Duration, err error) {
	outcome := outcomeOK
	if err != nil {
		outcome = outcomeError
	}
	m.catalogCalls.WithLabelValues(catalog, operation, outcome).Observe(d.Seconds())
}

// PoliciesRefused records n policies of a store's policy version refused
// because SQE cannot evaluate them.
func (m *Metrics) PoliciesRefused(store string, n int) {
	m.policiesRefused.WithLabelValues(store).Add(float64(n))
}

// PolicyCache records whether a policy store served a snapshot from its
// cache.
func (m *Metrics) PolicyCache(store string, hit bool) {
	if hit {
		m.policyCacheHits.WithLabelValues(store).Inc()
	} else {
		m.policyCacheMisses.WithLabelValues(store).Inc()
	}
}

// RemoteStatement counts a SELECT sent to a remote engine, by outcome.
func (m *Metrics) RemoteStatement(engine, outcome string) {
	m.remoteStatements.WithLabelValues(engine, outcome).Inc()
}

// RemoteBytes counts n bytes of answer a remote engine sent.
func (m *Metrics) RemoteBytes(engine string, n int64) {
	m.remoteBytes.WithLabelValues(engine).Add(float64(n))
}
