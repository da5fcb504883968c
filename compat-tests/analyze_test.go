package compattests

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestAnalyzeAndVacuum: ANALYZE, which loaders and ORMs send after
// loading, completes with PostgreSQL's tag through the simple and the
// extended protocol; VACUUM is refused with 0A000 and names the
// maintenance procedures.
func TestAnalyzeAndVacuum(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		cfg := pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.token)
		cfg.DefaultQueryExecMode = mode
		conn := connectConfig(t, ctx, cfg)
		for _, sql := range []string{"ANALYZE", "ANALYZE acdemo.orders", "ANALYZE acdemo.orders (id, region)"} {
			tag, err := conn.Exec(ctx, sql)
			if err != nil || tag.String() != "ANALYZE" {
				t.Errorf("%v: %s = %q, %v", mode, sql, tag, err)
			}
		}
		_, err := conn.Exec(ctx, "ANALYZE acdemo.nope")
		if pe := asPgError(t, err); pe.Code != "42P01" || pe.Message != `relation "acdemo.nope" does not exist` {
			t.Errorf("%v: ANALYZE of a missing table: %s %q", mode, pe.Code, pe.Message)
		}
		_, err = conn.Exec(ctx, "VACUUM acdemo.orders")
		if pe := asPgError(t, err); pe.Code != "0A000" || pe.Hint == "" {
			t.Errorf("%v: VACUUM: %s %q %q", mode, pe.Code, pe.Message, pe.Hint)
		}
	}
}
