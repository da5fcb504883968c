package compattests

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqe-db/sqe/storage/s3fake"
)

// writeS3Config writes dir/sqe.toml: the embedded catalog sales_wh with its
// warehouse at s3://bucket/wh in the store at endpoint, signed with
// accessKey and the store's secret key, which (a secret, refused in
// sqe.toml) the server reads from the file dir/s3-secret-key.
func writeS3Config(t *testing.T, dir, endpoint, accessKey string) {
	t.Helper()
	secretFile := filepath.Join(dir, "s3-secret-key")
	if err := os.WriteFile(secretFile, []byte(s3fake.SecretKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`[[catalog]]
name = %q
type = "embedded"
warehouse = "s3://bucket/wh"
[catalog.properties]
"s3.endpoint" = %q
"s3.access-key-id" = %q
[catalog.property_files]
"s3.secret-access-key" = %q
`, demoDatabase, endpoint, accessKey, secretFile)
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestS3WarehouseOverWire runs a server whose sqe.toml puts the embedded
// catalog's warehouse in an S3-compatible store: DDL, INSERT, COPY FROM,
// UPDATE and DELETE through pgwire write their files into the bucket and
// read back exactly; a write the store refuses is 58030; the secret key
// never reaches the log.
func TestS3WarehouseOverWire(t *testing.T) {
	t.Parallel()
	fake := s3fake.Start(t, "bucket")
	dir := t.TempDir()
	writeS3Config(t, dir, fake.URL, s3fake.AccessKey)
	dataDir := filepath.Join(dir, "data")
	srv := startTestServerIn(t, dataDir, false)
	token, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 2*time.Minute)
	conn := connect(t, ctx, srv, token)

	execAll(t, ctx, conn,
		"CREATE SCHEMA s",
		"CREATE TABLE s.t (id bigint NOT NULL, name text, amount numeric(10,2))",
		"INSERT INTO s.t VALUES (1, 'one', 1.50), (2, 'two', 2.25), (3, NULL, -3.00)")
	copied, err := conn.CopyFrom(ctx, pgx.Identifier{"s", "t"}, []string{"id", "name", "amount"}, pgx.CopyFromRows([][]any{
		{int64(4), "four", "4.00"}, {int64(5), "five, with a comma", "5.05"}, {int64(6), nil, nil},
	}))
	if err != nil || copied != 3 {
		t.Fatalf("COPY FROM: %d rows, %v", copied, err)
	}
	execAll(t, ctx, conn,
		"UPDATE s.t SET name = upper(name), amount = amount * 2 WHERE id IN (1, 4)",
		"DELETE FROM s.t WHERE id = 2 OR name IS NULL")
	const rowsQuery = "SELECT string_agg(id || '|' || coalesce(name, '') || '|' || coalesce(amount::text, ''), ';' ORDER BY id) FROM s.t"
	const want = "1|ONE|3.00;4|FOUR|8.00;5|five, with a comma|5.05"
	var got string
	if err := conn.QueryRow(ctx, rowsQuery).Scan(&got); err != nil || got != want {
		t.Fatalf("rows %q (%v), want %q", got, err, want)
	}

	objects := fake.Keys(t, "bucket", "wh/s.db/t/")
	var data, metadata int
	for _, k := range objects {
		switch {
		case strings.HasPrefix(k, "wh/s.db/t/data/") && strings.HasSuffix(k, ".parquet"):
			data++
		case strings.HasPrefix(k, "wh/s.db/t/metadata/") && strings.HasSuffix(k, ".metadata.json"):
			metadata++
		}
	}
	// INSERT, COPY, UPDATE and DELETE each wrote at least one data file
	// and one metadata version after CREATE's.
	if data < 4 || metadata < 5 {
		t.Errorf("bucket holds %d data and %d metadata files under wh/s.db/t/, want at least 4 and 5: %v", data, metadata, objects)
	}
	if _, err := os.Stat(filepath.Join(dataDir, "warehouse")); !os.IsNotExist(err) {
		t.Errorf("a local warehouse folder exists beside the S3 warehouse (%v)", err)
	}

	// Credentials that may no longer write: the INSERT fails with 58030,
	// the table keeps its rows, and the session carries on.
	fake.SetReadOnly(true)
	_, err = conn.Exec(ctx, "INSERT INTO s.t VALUES (7, 'seven', 7.00)")
	fake.SetReadOnly(false)
	pe := asPgError(t, err)
	if pe.Code != "58030" || !strings.Contains(pe.Message, "could not write a data file of table s.t: object storage: AccessDenied") {
		t.Fatalf("INSERT refused by the store: %s %q, want 58030 naming the store's reason", pe.Code, pe.Message)
	}
	if err := conn.QueryRow(ctx, rowsQuery).Scan(&got); err != nil || got != want {
		t.Fatalf("rows after the refused INSERT %q (%v), want %q", got, err, want)
	}
	execAll(t, ctx, conn, "TRUNCATE s.t", "DROP TABLE s.t", "DROP SCHEMA s")

	if log := srv.log(); strings.Contains(log, s3fake.SecretKey) || !strings.Contains(log, "catalog.warehouse=s3://bucket/wh") ||
		!strings.Contains(log, "catalog.properties.s3.secret-access-key=[REDACTED]") ||
		!strings.Contains(log, "config.catalog.sales_wh.properties.s3.secret-access-key=[REDACTED]") {
		t.Errorf("server log should name the warehouse and redact the secret key:\n%s", log)
	}
}

// A server whose store refuses its key, or whose endpoint does not answer,
// stops at start with a 58030 naming the warehouse and the reason, within
// the time the check is given, without printing the secret key.
func TestS3WarehouseRefusedAtStart(t *testing.T) {
	t.Parallel()
	fake := s3fake.Start(t, "bucket")
	for _, tc := range []struct {
		name, endpoint, accessKey, reason string
	}{
		{"unknown access key", fake.URL, "NOSUCHKEY", "InvalidAccessKeyId"},
		{"nothing listening", s3fake.ClosedEndpoint(t), s3fake.AccessKey, "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeS3Config(t, dir, tc.endpoint, tc.accessKey)
			start := time.Now()
			srv, err := startServer(shared.binary, filepath.Join(dir, "data"), false)
			if err == nil {
				_ = srv.stop()
				t.Fatal("the server started")
			}
			if took := time.Since(start); took > time.Minute {
				t.Errorf("the refusal took %s", took)
			}
			msg := err.Error()
			if !strings.Contains(msg, "could not use warehouse s3://bucket/wh: ") || !strings.Contains(msg, tc.reason) ||
				!strings.Contains(msg, "SQLSTATE 58030") {
				t.Errorf("start error should name the warehouse, %q and 58030:\n%s", tc.reason, msg)
			}
			if strings.Contains(msg, s3fake.SecretKey) {
				t.Errorf("the start error prints the secret key:\n%s", msg)
			}
		})
	}
}
