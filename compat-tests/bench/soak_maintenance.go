package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// An Iceberg table under steady writes grows by a snapshot per commit and
// (for appends) a small data file per commit until it is maintained: left
// alone, every later read plans over more history and the server's
// metadata grows with it, so a soak without maintenance measures the
// tables' growth rather than the server. The soak therefore does what an
// operator schedules, every -soak-maintenance, on its own connection while
// pgbench runs: compact the appended table's data files, then expire the
// snapshots of both written tables older than soakSnapshotRetention.

// soakSnapshotRetention is how old a snapshot must be before the soak
// expires it: far longer than any statement of the mixes runs, so no
// statement loses the files of the snapshot it is reading.
const soakSnapshotRetention = time.Minute

// soakMaintenance is the statements of one maintenance round; each is its
// own commit.
func soakMaintenance(now time.Time) []string {
	olderThan := now.Add(-soakSnapshotRetention).UTC().Format("2006-01-02 15:04:05.000000+00")
	return []string{
		"CALL system.rewrite_data_files(table => 'load.events')",
		fmt.Sprintf("CALL system.expire_snapshots(table => 'load.events', older_than => TIMESTAMPTZ '%s', retain_last => 1)", olderThan),
		fmt.Sprintf("CALL system.expire_snapshots(table => 'load.counters', older_than => TIMESTAMPTZ '%s', retain_last => 1)", olderThan),
	}
}

// maintenanceCounts is what the maintenance rounds did.
type maintenanceCounts struct {
	rounds, failed int
	expired        int64 // snapshots
	firstErr       error
}

// maintainEvery runs a maintenance round every interval until ctx ends.
// A failed statement is counted and the round goes on: the soak reports
// failures rather than stopping the load.
func maintainEvery(ctx context.Context, conn *pgx.Conn, interval time.Duration) maintenanceCounts {
	var c maintenanceCounts
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return c
		case now := <-tick.C:
			c.rounds++
			for _, stmt := range soakMaintenance(now) {
				if err := runMaintenance(ctx, conn, stmt, &c); err != nil {
					if ctx.Err() != nil {
						return c
					}
					c.failed++
					if c.firstErr == nil {
						c.firstErr = fmt.Errorf("%s: %w", stmt, err)
					}
				}
			}
		}
	}
}

// runMaintenance runs one CALL and adds the snapshots it expired.
func runMaintenance(ctx context.Context, conn *pgx.Conn, stmt string, c *maintenanceCounts) error {
	rows, err := conn.Query(ctx, stmt)
	if err != nil {
		return err
	}
	defer rows.Close()
	expired := -1
	for i, f := range rows.FieldDescriptions() {
		if f.Name == "expired_snapshots_count" {
			expired = i
		}
	}
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return err
		}
		if expired < 0 {
			continue
		}
		if n, ok := vals[expired].(int64); ok {
			c.expired += n
		}
	}
	return rows.Err()
}
