package compattests

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// pgxConfig is a pgx configuration for s using the simple query protocol;
// pgx_modes_test.go covers the extended protocol's modes.
func pgxConfig(t *testing.T, s *server, user, dbname, sslmode, password string) *pgx.ConnConfig {
	t.Helper()
	cfg, err := pgx.ParseConfig(s.connString(user, dbname, sslmode))
	if err != nil {
		t.Fatalf("parse pgx config: %v", err)
	}
	cfg.Password = password
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	// Fallbacks from the environment (PGHOST...) are not wanted here.
	cfg.Fallbacks = nil
	return cfg
}

// connect opens a pgx connection as alice to the demo database of s and
// closes it when the test ends.
func connect(t *testing.T, ctx context.Context, s *server, token string) *pgx.Conn {
	t.Helper()
	return connectConfig(t, ctx, pgxConfig(t, s, "alice", demoDatabase, "disable", token))
}

func connectConfig(t *testing.T, ctx context.Context, cfg *pgx.ConnConfig) *pgx.Conn {
	t.Helper()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect as %s: %v", cfg.User, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// asPgError returns err's server error, failing the test if there is none.
func asPgError(t *testing.T, err error) *pgconn.PgError {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("want a server error (*pgconn.PgError), got %T: %v", err, err)
	}
	return pe
}

// assertSelectOne checks that conn still answers SELECT 1 with 1.
func assertSelectOne(t *testing.T, ctx context.Context, conn *pgx.Conn) {
	t.Helper()
	var one int32
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		t.Fatalf("SELECT 1 after the error: %v", err)
	}
	if one != 1 {
		t.Fatalf("SELECT 1 after the error = %d", one)
	}
}
