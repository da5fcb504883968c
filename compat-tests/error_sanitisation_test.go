package compattests

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestInternalErrorSanitised removes a table's data files underneath it
// and reads the table, on a server with debug off and one with it on.
// Without debug the client sees a SQLSTATE, a short message and a request
// id, and no path or Go type; the server log has the cause under that id.
// With debug the cause is the error's DETAIL.
func TestInternalErrorSanitised(t *testing.T) {
	t.Parallel()
	for _, debug := range []bool{false, true} {
		name := "debug off"
		if debug {
			name = "debug on"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			config := "debug = false\n"
			if debug {
				config = "debug = true\n"
			}
			if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte(config), 0o600); err != nil {
				t.Fatal(err)
			}
			dataDir := filepath.Join(dir, "data")
			srv := startTestServerIn(t, dataDir, false)
			token, err := srv.mintAdmin("alice")
			if err != nil {
				t.Fatal(err)
			}
			ctx := testContext(t, time.Minute)
			conn := connect(t, ctx, srv, token)
			execAll(t, ctx, conn,
				"CREATE SCHEMA gone",
				"CREATE TABLE gone.t (id bigint, name text)",
				"INSERT INTO gone.t VALUES (1, 'one'), (2, 'two')")
			removed := removeDataFiles(t, dataDir)

			_, err = conn.Exec(ctx, "SELECT * FROM gone.t")
			if err == nil {
				t.Fatal("reading a table whose data files are gone succeeded")
			}
			pe := asPgError(t, err)
			m := regexp.MustCompile(`\(request id ([0-9a-f]{8})\)$`).FindStringSubmatch(pe.Message)
			if m == nil || (pe.Code != "XX000" && !strings.HasPrefix(pe.Code, "58")) {
				t.Fatalf("%s %q, want an internal error with a request id", pe.Code, pe.Message)
			}
			shown := strings.Join([]string{pe.Message, pe.Detail, pe.Hint, pe.Where}, "|")
			t.Logf("the client sees %s: %s", pe.Code, shown)
			for _, leak := range []string{dataDir, removed, ".parquet", "*fs.", "*errors.", "*url.", "%!"} {
				if strings.Contains(pe.Message, leak) || (!debug && strings.Contains(shown, leak)) {
					t.Errorf("the client sees %q: %s", leak, shown)
				}
			}
			if debug != strings.Contains(pe.Detail, filepath.Base(removed)) {
				t.Errorf("debug %v: detail %q, want the missing file named there only with debug", debug, pe.Detail)
			}
			logged := srv.awaitLogLinesWith("request_id="+m[1], 10*time.Second)
			if !strings.Contains(logged, filepath.Base(removed)) {
				t.Errorf("request id %s: log lines %q do not name the missing file %s", m[1], logged, removed)
			}
			assertSelectOne(t, ctx, conn)
		})
	}
}

// removeDataFiles deletes every data file under dataDir and returns the
// path of one of them.
func removeDataFiles(t *testing.T, dataDir string) string {
	t.Helper()
	var removed string
	err := filepath.WalkDir(dataDir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".parquet") {
			removed = path
			return os.Remove(path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if removed == "" {
		t.Fatal("no data file to remove")
	}
	return removed
}
