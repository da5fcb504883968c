package compattests

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The demo orders as PostgreSQL 15 writes them with COPY ... TO STDOUT
// (same table and rows, loaded into a real PostgreSQL).
const (
	ordersCopyText = "1\tEU\t111-11-1111\t120.50\t2024-01-15\n" +
		"2\tUS\t222-22-2222\t75.00\t2024-02-03\n" +
		"3\tEU\t333-33-3333\t310.25\t2024-03-22\n"
	ordersCopyCSVHeader = "id,region\n1,EU\n2,US\n3,EU\n"
	ordersCopyBinaryHex = "5047434f50590aff0d0a000000000000000000" +
		"0005000000080000000000000001000000024555" + "0000000b3131312d31312d31313131" + "0000000c000200000000000200781388" + "000000040000224c" +
		"0005000000080000000000000002000000025553" + "0000000b3232322d32322d32323232" + "0000000a0001000000000002004b" + "000000040000225f" +
		"0005000000080000000000000003000000024555" + "0000000b3333332d33332d33333333" + "0000000c0002000000000002013609c4" + "000000040000228f" +
		"ffff"
)

func TestPsqlCopyToFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name    string
		command string // %s is the file
		want    []byte
	}{
		{"text", `\copy acdemo.orders to '%s'`, []byte(ordersCopyText)},
		{"csv with header", `\copy (select id, region from acdemo.orders order by id) to '%s' with csv header`, []byte(ordersCopyCSVHeader)},
		{"binary", `\copy acdemo.orders to '%s' with (format binary)`, mustHex(t, ordersCopyBinaryHex)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".out")
			res := mustPsql(t, shared.server, psqlRun{password: shared.token,
				args: []string{"-c", strings.Replace(tt.command, "%s", file, 1)}})
			if strings.TrimSpace(res.stdout) != "COPY 3" {
				t.Errorf("psql printed %q, want COPY 3", res.stdout)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.want) {
				t.Errorf("file holds\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestPsqlCopyToStdout(t *testing.T) {
	t.Parallel()
	res := mustPsql(t, shared.server, psqlRun{password: shared.token,
		args: []string{"-c", `\copy (select id, region from acdemo.orders order by id) to stdout with csv header`}})
	if res.stdout != ordersCopyCSVHeader {
		t.Errorf("stdout %q, want %q", res.stdout, ordersCopyCSVHeader)
	}
	// A plain COPY statement in a script, followed by a query on the same
	// connection.
	res = mustPsql(t, shared.server, psqlRun{password: shared.token, args: []string{"-A", "-t"},
		stdin: "COPY acdemo.orders (id, ssn) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (ssn));\nSELECT 'after';\n"})
	want := "1,\"111-11-1111\"\n2,\"222-22-2222\"\n3,\"333-33-3333\"\nafter\n"
	if res.stdout != want {
		t.Errorf("stdout %q, want %q", res.stdout, want)
	}
}

func TestPsqlCopyRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		command string
		stderr  string
	}{
		{"COPY acdemo.orders TO '/nonexistent/orders'", "must be superuser or have privileges of the pg_write_server_files role to COPY to a file"},
		{"COPY acdemo.orders FROM '/nonexistent/orders'", "must be superuser or have privileges of the pg_read_server_files role to COPY from a file"},
		{"COPY acdemo.orders TO STDOUT (FORMAT xml)", `COPY format "xml" not recognized`},
	}
	for _, tt := range tests {
		res := runPsql(t, shared.server, psqlRun{password: shared.analystToken, args: []string{"-c", tt.command}})
		if res.exitCode == 0 || !strings.Contains(res.stderr, tt.stderr) {
			t.Errorf("%s: exit %d, stderr %q, want an error %q", tt.command, res.exitCode, res.stderr, tt.stderr)
		}
	}
}

// TestPsqlCopyFrom loads a table with psql's \\copy from files in text and
// csv, then reads the rows back: psql streams the file as CopyData after
// the server's CopyInResponse.
func TestPsqlCopyFrom(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := filepath.Join(dir, "rows.txt")
	csv := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(text, []byte("1\tnorth\t10.50\n2\t\\N\t0.25\n3\ttab\\there\t-7.00\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(csv, []byte("id,region,amount\n4,\"comma, quoted\",1.00\n5,,2.00\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := `CREATE SCHEMA copyin;
CREATE TABLE copyin.t (id int NOT NULL, region text, amount numeric(8,2));
\copy copyin.t from '` + text + `'
\copy copyin.t from '` + csv + `' with (format csv, header)
SELECT id, coalesce(region, '<null>'), amount FROM copyin.t ORDER BY id;
DROP SCHEMA copyin CASCADE;
`
	res := runPsql(t, shared.server, psqlRun{password: shared.token, args: []string{"-A", "-t", "-q"}, stdin: script})
	if res.exitCode != 0 {
		t.Fatalf("psql exit %d, stderr %q", res.exitCode, res.stderr)
	}
	want := "1|north|10.50\n2|<null>|0.25\n3|tab\there|-7.00\n4|comma, quoted|1.00\n5|<null>|2.00\n"
	if res.stdout != want {
		t.Errorf("rows after \\copy:\n%s\nwant:\n%s", res.stdout, want)
	}
}

func TestPgxCopyTo(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, time.Minute)
	conn := connect(t, ctx, shared.server, shared.token)
	tests := []struct {
		sql  string
		want []byte
	}{
		{"COPY acdemo.orders TO STDOUT", []byte(ordersCopyText)},
		{"copy (select id, region from acdemo.orders order by id) to stdout with (format csv, header)", []byte(ordersCopyCSVHeader)},
		{"COPY acdemo.orders TO STDOUT WITH (FORMAT binary)", mustHex(t, ordersCopyBinaryHex)},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		tag, err := conn.PgConn().CopyTo(ctx, &buf, tt.sql)
		if err != nil {
			t.Fatalf("%s: %v", tt.sql, err)
		}
		if tag.String() != "COPY 3" || !bytes.Equal(buf.Bytes(), tt.want) {
			t.Errorf("%s: tag %q, data\n%q\nwant\n%q", tt.sql, tag, buf.Bytes(), tt.want)
		}
	}
	_, err := conn.PgConn().CopyTo(ctx, &bytes.Buffer{}, "COPY acdemo.orders (id, nope) TO STDOUT")
	if pe := asPgError(t, err); pe.Code != "42703" || pe.Message != `column "nope" of relation "orders" does not exist` {
		t.Errorf("got %s %s", pe.Code, pe.Message)
	}
	assertSelectOne(t, ctx, conn)
}

// cancellingWriter cancels a context once COPY data has started to arrive.
type cancellingWriter struct {
	mu     sync.Mutex
	n      int
	cancel context.CancelFunc
}

func (w *cancellingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n += len(p)
	if w.n > 64<<10 {
		w.cancel()
	}
	return len(p), nil
}

func TestPgxCopyToCancelled(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, time.Minute)
	conn := connect(t, ctx, shared.server, shared.token)
	copyCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &cancellingWriter{cancel: cancel}
	start := time.Now()
	_, err := conn.PgConn().CopyTo(copyCtx, w, "COPY acdemo.sales TO STDOUT")
	if err == nil {
		t.Fatal("COPY of the sales table finished despite the cancellation")
	}
	if !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "57014") {
		t.Fatalf("COPY ended with %v", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("cancelled COPY took %s", d)
	}
	// The server is still serving: a new connection copies normally.
	other := connect(t, ctx, shared.server, shared.token)
	var buf bytes.Buffer
	if _, err := other.PgConn().CopyTo(ctx, &buf, "COPY acdemo.orders TO STDOUT"); err != nil || buf.String() != ordersCopyText {
		t.Fatalf("COPY after a cancelled one: %v %q", err, buf.String())
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
