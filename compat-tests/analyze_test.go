package compattests

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestAnalyzeAndVacuum: ANALYZE, which loaders and ORMs send after
// loading, completes with PostgreSQL's tag through the simple and the
// extended protocol and fills pg_stats; an analyst, who may only read,
// has ANALYZE without names skip every table without a word; VACUUM
// ANALYZE does the ANALYZE and names the maintenance procedures in a
// notice; VACUUM alone is refused with 0A000 and names them.
func TestAnalyzeAndVacuum(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		cfg := pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.token)
		cfg.DefaultQueryExecMode = mode
		conn := connectConfig(t, ctx, cfg)
		for _, sql := range []string{"ANALYZE acdemo.orders (id, region)", "ANALYZE acdemo.orders"} {
			tag, err := conn.Exec(ctx, sql)
			if err != nil || tag.String() != "ANALYZE" {
				t.Errorf("%v: %s = %q, %v", mode, sql, tag, err)
			}
		}
		var nullFrac, distinct float32
		var width int32
		err := conn.QueryRow(ctx, "SELECT null_frac, avg_width, n_distinct FROM pg_stats WHERE schemaname = 'acdemo' AND tablename = 'orders' AND attname = 'id'").Scan(&nullFrac, &width, &distinct)
		if err != nil || nullFrac != 0 || width != 8 || distinct != -1 {
			t.Errorf("%v: pg_stats of orders.id: %v %v %v, %v; want 0 8 -1", mode, nullFrac, width, distinct, err)
		}
		_, err = conn.Exec(ctx, "ANALYZE acdemo.nope")
		if pe := asPgError(t, err); pe.Code != "42P01" || pe.Message != `relation "acdemo.nope" does not exist` {
			t.Errorf("%v: ANALYZE of a missing table: %s %q", mode, pe.Code, pe.Message)
		}
		_, err = conn.Exec(ctx, "VACUUM acdemo.orders")
		if pe := asPgError(t, err); pe.Code != "0A000" || pe.Hint == "" {
			t.Errorf("%v: VACUUM: %s %q %q", mode, pe.Code, pe.Message, pe.Hint)
		}
		if tag, err := conn.Exec(ctx, "VACUUM ANALYZE acdemo.orders (region)"); err != nil || tag.String() != "VACUUM" {
			t.Errorf("%v: VACUUM ANALYZE = %q, %v", mode, tag, err)
		}

		analyst := connectConfig(t, ctx, pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.analystToken))
		if tag, err := analyst.Exec(ctx, "ANALYZE"); err != nil || tag.String() != "ANALYZE" {
			t.Errorf("%v: ANALYZE as an analyst = %q, %v", mode, tag, err)
		}
	}
}
