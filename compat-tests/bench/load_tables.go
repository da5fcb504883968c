package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// The tables the pgbench scripts (testdata/load_read.sql and
// load_write.sql) use: items is read, events takes the INSERTs and
// counters the UPDATEs, so the write mix writes two tables.
const (
	loadItemsRows    = 100_000 // load_read.sql draws ids from 1 to this
	loadCounterCount = 1_000   // load_write.sql draws ids from 1 to this
)

// loadSetup creates and fills the tables, the same statements on both
// servers but for the table options each is given: on SQE, items (looked
// up by id) is written in Parquet row groups of 16,384 rows, which a
// lookup skips by their statistics, where PostgreSQL gets a primary key
// (loadPostgresIndexes).
func loadSetup(sqe bool) []string {
	items := "CREATE TABLE load.items (id bigint NOT NULL, category text, price numeric(12,2), qty integer)"
	if sqe {
		items += ` WITH ("write.parquet.row-group-limit" = 16384)`
	}
	return []string{
		"CREATE SCHEMA load",
		items,
		fmt.Sprintf("INSERT INTO load.items SELECT g, 'c' || (g %% 20), (g %% 1000) / 10.0, g %% 7 FROM generate_series(1, %d) g", loadItemsRows),
		"CREATE TABLE load.events (client integer NOT NULL, seq bigint NOT NULL, note text, at timestamp)",
		"CREATE TABLE load.counters (id integer NOT NULL, hits bigint NOT NULL)",
		fmt.Sprintf("INSERT INTO load.counters SELECT g, 0 FROM generate_series(1, %d) g", loadCounterCount),
	}
}

// loadPostgresIndexes are what a PostgreSQL user would add for the point
// lookups and the UPDATEs by id; SQE has no indexes (it prunes files and
// their row groups by their statistics).
func loadPostgresIndexes() []string {
	return []string{
		"ALTER TABLE load.items ADD PRIMARY KEY (id)",
		"ALTER TABLE load.counters ADD PRIMARY KEY (id)",
		"ANALYZE",
	}
}

func execAll(ctx context.Context, conn *pgx.Conn, stmts []string) error {
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// writeCounts is what the write mix has written so far: one events row
// and one counter hit per transaction.
type writeCounts struct {
	events, hits int64
}

func readWriteCounts(ctx context.Context, conn *pgx.Conn) (writeCounts, error) {
	var c writeCounts
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM load.events").Scan(&c.events); err != nil {
		return c, fmt.Errorf("count load.events: %w", err)
	}
	if err := conn.QueryRow(ctx, "SELECT sum(hits)::bigint FROM load.counters").Scan(&c.hits); err != nil {
		return c, fmt.Errorf("sum load.counters.hits: %w", err)
	}
	return c, nil
}

// checkWrites makes sure every transaction pgbench counted left exactly
// its INSERT and its UPDATE: nothing lost, nothing doubled.
func checkWrites(before, after writeCounts, processed int64) error {
	if got := after.events - before.events; got != processed {
		return fmt.Errorf("load.events gained %d rows for %d transactions", got, processed)
	}
	if got := after.hits - before.hits; got != processed {
		return fmt.Errorf("load.counters gained %d hits for %d transactions", got, processed)
	}
	return nil
}
