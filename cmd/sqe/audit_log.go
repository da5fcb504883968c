package main

import (
	"log/slog"
	"os"
	"path/filepath"

	"github.com/sqe-db/sqe/governance/audit"
)

// openAuditLog starts the audit log [audit] configures, nil when it is
// off.
func openAuditLog(cfg Config, logger *slog.Logger) (*audit.Auditor, error) {
	if !cfg.Audit.Enabled {
		return nil, nil
	}
	path := cfg.Audit.Path
	if path == "" {
		path = filepath.Join(cfg.DataDir, "audit.log")
	}
	a, err := audit.Open(cfg.Audit.Sink, path, os.Stdout, audit.Options{RedactLiterals: cfg.Audit.RedactLiterals, Logger: logger,
		RangerService: cfg.Audit.RangerService, RangerCluster: cfg.Audit.RangerCluster})
	if err != nil {
		return nil, err
	}
	logger.Info("audit log", "sink", cfg.Audit.Sink, "redact_literals", cfg.Audit.RedactLiterals)
	return a, nil
}
