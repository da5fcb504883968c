package compattests

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sqe-db/sqe/compat-tests/datagen"
	"github.com/sqe-db/sqe/storage"
)

// referencePair is one SQE server and one PostgreSQL 15 holding the same
// rows, with a connection to each as the user that loaded them.
type referencePair struct {
	sqe *pgx.Conn
	ref *pgx.Conn
	// server is the SQE server, for reconnecting after a broken
	// connection; token is the loader's token for it.
	server *server
	token  string
	// refPort is PostgreSQL's loopback port.
	refPort string
}

// extraLoad adds tables beside TPC-H: sqe writes them into the SQE data
// directory through the storage API (before the server starts), postgres
// creates the same in the reference database.
type extraLoad struct {
	sqe      func(ctx context.Context, cat storage.Catalog) error
	postgres func(ctx context.Context, conn *pgx.Conn) error
}

// startTPCHPair generates TPC-H at tpchTestSF into a fresh SQE data
// directory (namespace tpchTestSchema) while a PostgreSQL 15 starts and
// loads the same rows, adds the extra tables to both, starts SQE on the
// data directory and connects to both as tpchTestUser. Everything stops
// when the test ends.
func startTPCHPair(t *testing.T, ctx context.Context, extras ...extraLoad) *referencePair {
	t.Helper()
	return startTPCHPairConfigured(t, ctx, nil, extras...)
}

// startTPCHPairConfigured is startTPCHPair with SQE started on the sqe.toml
// that sqeConfig returns for PostgreSQL's port (nil: none), for a server
// that names the reference PostgreSQL in its configuration: SQE starts
// after PostgreSQL, so its configuration can be written only then.
func startTPCHPairConfigured(t *testing.T, ctx context.Context, sqeConfig func(refPort string) string, extras ...extraLoad) *referencePair {
	t.Helper()
	// Generate into SQE while PostgreSQL starts and loads.
	dataDir := filepath.Join(t.TempDir(), "data")
	sqeLoaded := make(chan error, 1)
	go func() { sqeLoaded <- loadIntoSQE(ctx, dataDir, extras) }()

	pg := startRefPostgres(t, ctx)
	ref, err := pgx.Connect(ctx, fmt.Sprintf("host=127.0.0.1 port=%s user=alice dbname=%s sslmode=disable", pg.port, demoDatabase))
	if err != nil {
		t.Fatalf("connect to PostgreSQL: %v", err)
	}
	t.Cleanup(func() { _ = ref.Close(context.Background()) })
	if err := datagen.LoadPostgres(ctx, ref, tpchTestSchema, tpchTestSF); err != nil {
		t.Fatalf("load TPC-H into PostgreSQL: %v", err)
	}
	for _, x := range extras {
		if err := x.postgres(ctx, ref); err != nil {
			t.Fatalf("load PostgreSQL: %v", err)
		}
	}
	if err := <-sqeLoaded; err != nil {
		t.Fatal(err)
	}

	if sqeConfig != nil {
		// The server reads sqe.toml from its data directory's parent.
		if err := os.WriteFile(filepath.Join(filepath.Dir(dataDir), "sqe.toml"), []byte(sqeConfig(pg.port)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	srv := startTestServerIn(t, dataDir, false)
	token, err := srv.mintAdmin(tpchTestUser)
	if err != nil {
		t.Fatal(err)
	}
	sqe := connectConfig(t, ctx, pgxConfig(t, srv, tpchTestUser, demoDatabase, "disable", token))
	return &referencePair{sqe: sqe, ref: ref, server: srv, token: token, refPort: pg.port}
}

// loadIntoSQE writes the TPC-H tables, then the extra tables, into a fresh
// data directory.
func loadIntoSQE(ctx context.Context, dataDir string, extras []extraLoad) error {
	cat, err := storage.OpenEmbedded(ctx, demoDatabase, dataDir, storage.AllowAll{})
	if err != nil {
		return fmt.Errorf("open SQE data dir: %w", err)
	}
	loader := storage.WithPrincipal(ctx, storage.Principal{User: tpchTestUser})
	loadErr := datagen.LoadSQE(loader, cat, tpchTestSchema, tpchTestSF)
	if loadErr != nil {
		loadErr = fmt.Errorf("load TPC-H into SQE: %w", loadErr)
	}
	for _, x := range extras {
		if loadErr != nil {
			break
		}
		loadErr = x.sqe(loader, cat)
	}
	if err := errors.Join(loadErr, cat.Close()); err != nil {
		return fmt.Errorf("load SQE data dir: %w", err)
	}
	return nil
}

// setSearchPath points unqualified names of both connections at schema.
func (p *referencePair) setSearchPath(t *testing.T, ctx context.Context, schema string) {
	t.Helper()
	for _, conn := range []*pgx.Conn{p.sqe, p.ref} {
		if _, err := conn.Exec(ctx, "SET search_path TO "+schema); err != nil {
			t.Fatalf("set search_path: %v", err)
		}
	}
}

// textRowsOf runs sql and returns each row's fields in text format (NULL
// as nil).
func textRowsOf(ctx context.Context, conn *pgx.Conn, sql string) ([][]*string, error) {
	rows, err := conn.Query(ctx, sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]*string
	for rows.Next() {
		raw := rows.RawValues()
		row := make([]*string, len(raw))
		for i, v := range raw {
			if v != nil {
				s := string(v)
				row[i] = &s
			}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}
