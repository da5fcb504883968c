package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sqe-db/sqe/storage"
)

// maintenanceUser is whom automatic maintenance's catalog calls are made
// for, with the administrator roles.
const maintenanceUser = "sqe_maintenance"

// maintenanceMetrics count automatic maintenance for /metrics.
type maintenanceMetrics struct {
	runs           *prometheus.CounterVec // by step and outcome
	files          *prometheus.CounterVec // by what happened to them
	snapshots      prometheus.Counter
	leaseConflicts prometheus.Counter
	lastRun        *prometheus.GaugeVec // by step
}

func newMaintenanceMetrics() *maintenanceMetrics {
	return &maintenanceMetrics{
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_maintenance_runs_total", Help: "Steps of automatic table maintenance run, by step and outcome (done, conflict, skipped, failed).",
		}, []string{"step", "outcome"}),
		files: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sqe_maintenance_files_total", Help: "Files automatic maintenance rewrote (rewritten), wrote in their place (added) and deleted (removed).",
		}, []string{"action"}),
		snapshots: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sqe_maintenance_snapshots_expired_total", Help: "Snapshots automatic maintenance expired.",
		}),
		leaseConflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sqe_maintenance_lease_conflicts_total", Help: "Passes that found another server holding the table's maintenance lease.",
		}),
		lastRun: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "sqe_maintenance_last_run_timestamp_seconds", Help: "When a step of automatic maintenance last ended, by step (Unix time).",
		}, []string{"step"}),
	}
}

// collectors are the metrics to register (none for a nil receiver).
func (mm *maintenanceMetrics) collectors() []prometheus.Collector {
	if mm == nil {
		return nil
	}
	return []prometheus.Collector{mm.runs, mm.files, mm.snapshots, mm.leaseConflicts, mm.lastRun}
}

// record counts one pass.
func (mm *maintenanceMetrics) record(r storage.TableReport, now time.Time) {
	for _, s := range r.Steps {
		mm.runs.WithLabelValues(s.Step, s.Outcome).Inc()
		mm.lastRun.WithLabelValues(s.Step).Set(float64(now.Unix()))
		mm.files.WithLabelValues("rewritten").Add(float64(s.FilesRewritten))
		mm.files.WithLabelValues("added").Add(float64(s.FilesAdded))
		mm.files.WithLabelValues("removed").Add(float64(s.FilesRemoved))
		mm.snapshots.Add(float64(s.SnapshotsExpired))
		if s.Step == storage.StepLease && s.Outcome == storage.OutcomeConflict {
			mm.leaseConflicts.Inc()
		}
	}
}

// logMaintenance writes a line per step of a pass: failures as
// warnings, the rest as information.
func logMaintenance(logger *slog.Logger, r storage.TableReport) {
	for _, s := range r.Steps {
		attrs := []any{"table", r.Table.String(), "step", s.Step, "outcome", s.Outcome, "scheduled", r.Scheduled,
			"took", s.Duration.Round(time.Millisecond)}
		for _, c := range []struct {
			name string
			n    int64
		}{
			{"snapshots_expired", s.SnapshotsExpired}, {"files_rewritten", s.FilesRewritten}, {"files_added", s.FilesAdded},
			{"manifests_rewritten", s.ManifestsRewritten}, {"files_removed", s.FilesRemoved},
		} {
			if c.n != 0 {
				attrs = append(attrs, c.name, c.n)
			}
		}
		if s.Err != nil {
			attrs = append(attrs, "reason", s.Err.Error())
		}
		if s.Outcome == storage.OutcomeFailed {
			logger.Warn("maintenance", attrs...)
		} else {
			logger.Info("maintenance", attrs...)
		}
	}
}

// startMaintenance starts automatic maintenance of cats' tables, unless
// [maintenance] enabled is false, and returns the function that stops it
// and waits for the pass running. A REST catalog that calls the catalog
// with each user's own token has no identity to maintain its tables
// with, so it is left out (and the log says so).
func startMaintenance(ctx context.Context, cfg Config, cats []storage.Catalog, sort storage.RowSorter, mm *maintenanceMetrics, logger *slog.Logger) func() {
	if !cfg.Maintenance.Enabled {
		return func() {}
	}
	var maintained []storage.Catalog
	for i, cc := range cfg.Catalogs {
		if cc.Type == "rest" && cc.ServiceToken == "" && cc.Credential == "" {
			logger.Info("maintenance leaves out a catalog whose calls carry each user's token; give it a service_token or credential to maintain it",
				"catalog", cc.Name)
			continue
		}
		maintained = append(maintained, cats[i])
	}
	if len(maintained) == 0 {
		return func() {}
	}
	mcfg := cfg.Maintenance.maintainerConfig(storage.Principal{User: maintenanceUser, Roles: cfg.Auth.AdminRoles})
	mcfg.Sort = sort
	mcfg.Report = func(r storage.TableReport) {
		logMaintenance(logger, r)
		if mm != nil {
			mm.record(r, time.Now())
		}
	}
	m := storage.NewMaintainer(mcfg, maintained)
	m.ObserveCommits()
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.Run(runCtx)
	}()
	logger.Info("maintenance", "node", mcfg.Node, "interval", mcfg.Interval, "commit_trigger", mcfg.CommitTrigger,
		"file_trigger", mcfg.FileTrigger)
	return func() {
		cancel()
		<-done
	}
}
