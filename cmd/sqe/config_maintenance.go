package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/sqe-db/sqe/storage"
)

// MaintenanceConfig is [maintenance]: automatic table maintenance
// (storage.Maintainer). The per-table defaults each have an Iceberg
// table property that overrides them (docs/configuration.md).
type MaintenanceConfig struct {
	// Enabled runs maintenance in the background.
	Enabled bool `toml:"enabled"`
	// Interval is the time between scheduled passes over every table
	// (Go duration); "0s": passes only after commits.
	Interval string `toml:"interval"`
	// CommitTrigger and FileTrigger queue a table for a pass soon after
	// it received that many commits, or that many data files were added,
	// since its last pass; 0 turns a trigger off. Debounce is how long
	// after the first such commit the table is looked at.
	CommitTrigger int    `toml:"commit_trigger"`
	FileTrigger   int    `toml:"file_trigger"`
	Debounce      string `toml:"debounce"`
	// SnapshotMaxAge and MinSnapshotsToKeep: snapshot retention.
	SnapshotMaxAge     string `toml:"snapshot_max_age"`
	MinSnapshotsToKeep int    `toml:"min_snapshots_to_keep"`
	// MinInputFiles: small files a partition must hold to be compacted.
	MinInputFiles int `toml:"min_input_files"`
	// ManifestMinCountToMerge: manifests a snapshot must have for them
	// to be merged without a compaction.
	ManifestMinCountToMerge int `toml:"manifest_min_count_to_merge"`
	// DeleteOldMetadata deletes metadata files the metadata log dropped.
	DeleteOldMetadata bool `toml:"delete_old_metadata"`
	// OrphanMinAge is how old an unreferenced file must be to be removed.
	OrphanMinAge string `toml:"orphan_min_age"`
	// LeaseDuration is how long a server holds a table's maintenance
	// lease before another may take it over.
	LeaseDuration string `toml:"lease_duration"`
	// NodeID names this server in leases; unset, the host name, the
	// process id and a random suffix.
	NodeID string `toml:"node_id"`
}

func defaultMaintenanceConfig() MaintenanceConfig {
	s := storage.DefaultMaintenanceSettings()
	return MaintenanceConfig{
		Enabled:                 true,
		Interval:                "10m",
		CommitTrigger:           50,
		FileTrigger:             50,
		Debounce:                "30s",
		SnapshotMaxAge:          "120h",
		MinSnapshotsToKeep:      s.MinSnapshotsToKeep,
		MinInputFiles:           s.MinInputFiles,
		ManifestMinCountToMerge: s.ManifestMinCountToMerge,
		DeleteOldMetadata:       s.DeleteOldMetadata,
		OrphanMinAge:            "72h",
		LeaseDuration:           "10m",
	}
}

// minOrphanAge bounds orphan_min_age from below: a file a write has
// made but not yet committed looks like an orphan, and a write's files
// exist for as long as the write runs.
const minOrphanAge = time.Hour

// maintenanceDurations are the parsed durations of [maintenance].
type maintenanceDurations struct {
	interval, debounce, snapshotMaxAge, orphanMinAge, lease time.Duration
}

// durations parses and checks the durations.
func (c MaintenanceConfig) durations() (maintenanceDurations, error) {
	var d maintenanceDurations
	for _, f := range []struct {
		key   string
		value string
		into  *time.Duration
		least time.Duration
	}{
		{"interval", c.Interval, &d.interval, 0},
		{"debounce", c.Debounce, &d.debounce, 0},
		{"snapshot_max_age", c.SnapshotMaxAge, &d.snapshotMaxAge, 0},
		{"orphan_min_age", c.OrphanMinAge, &d.orphanMinAge, minOrphanAge},
		{"lease_duration", c.LeaseDuration, &d.lease, time.Minute},
	} {
		v, err := time.ParseDuration(f.value)
		if err != nil {
			return d, fmt.Errorf("config: [maintenance] %s: %w", f.key, err)
		}
		if v < f.least {
			return d, fmt.Errorf("config: [maintenance] %s must be at least %s, not %s", f.key, f.least, v)
		}
		*f.into = v
	}
	return d, nil
}

// validate checks [maintenance].
func (c MaintenanceConfig) validate() error {
	if _, err := c.durations(); err != nil {
		return err
	}
	switch {
	case c.CommitTrigger < 0 || c.FileTrigger < 0:
		return fmt.Errorf("config: [maintenance] commit_trigger and file_trigger must not be negative")
	case c.MinSnapshotsToKeep < 1:
		return fmt.Errorf("config: [maintenance] min_snapshots_to_keep must be at least 1, not %d", c.MinSnapshotsToKeep)
	case c.MinInputFiles < 2:
		return fmt.Errorf("config: [maintenance] min_input_files must be at least 2, not %d", c.MinInputFiles)
	case c.ManifestMinCountToMerge < 0:
		return fmt.Errorf("config: [maintenance] manifest_min_count_to_merge must not be negative")
	case strings.ContainsAny(c.NodeID, " \t\n"):
		return fmt.Errorf("config: [maintenance] node_id must not contain white space")
	}
	return nil
}

// maintainerConfig is the storage form of [maintenance]; validate has
// checked it.
func (c MaintenanceConfig) maintainerConfig(principal storage.Principal) storage.MaintainerConfig {
	d, _ := c.durations()
	node := c.NodeID
	if node == "" {
		node = defaultNodeID()
	}
	return storage.MaintainerConfig{
		Node: node,
		Settings: storage.MaintenanceSettings{
			SnapshotMaxAge: d.snapshotMaxAge, MinSnapshotsToKeep: c.MinSnapshotsToKeep,
			MinInputFiles: c.MinInputFiles, ManifestMinCountToMerge: c.ManifestMinCountToMerge,
			DeleteOldMetadata: c.DeleteOldMetadata, OrphanMinAge: d.orphanMinAge,
		},
		Interval: d.interval, CommitTrigger: c.CommitTrigger, FileTrigger: c.FileTrigger, Debounce: d.debounce,
		LeaseDuration: d.lease, Principal: principal,
	}
}

// defaultNodeID names this process among the servers of a catalog.
func defaultNodeID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "sqe"
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return strings.ReplaceAll(fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:])), " ", "_")
}
