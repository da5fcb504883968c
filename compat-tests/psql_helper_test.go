package compattests

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// psqlTimeout bounds one psql run; every query here answers in seconds.
const psqlTimeout = 60 * time.Second

// psqlRun describes one psql invocation.
type psqlRun struct {
	user     string // default alice
	dbname   string // default the demo database
	sslmode  string // default disable (plaintext is accepted on loopback)
	password string // the PGPASSWORD value
	// conninfo is appended to the connection string: more libpq
	// keywords (sslrootcert=..., sslcert=...), or ones that replace
	// those before them (host=localhost).
	conninfo string
	// args follow the connection string, e.g. "-A", "-t", "-c", "SELECT 1".
	args []string
	// stdin, when set, is the script psql reads.
	stdin string
	// continueOnError leaves ON_ERROR_STOP unset, so a script goes on
	// after a failed statement on the same connection.
	continueOnError bool
	// env adds libpq variables (PGOPTIONS=...) to psql's environment.
	env []string
}

// psqlResult is what psql printed and how it exited.
type psqlResult struct {
	stdout, stderr string
	exitCode       int
}

// psqlPath finds psql. A missing psql is a failure, not a skip: these
// tests are the reason the client is installed.
func psqlPath(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("psql")
	if err != nil {
		t.Fatalf("psql not found in PATH (%v): install the postgresql-client package (make test does this)", err)
	}
	return path
}

// runPsql runs psql against s. -X keeps any psqlrc out; -w never prompts
// for a password, so a refused login fails instead of hanging.
func runPsql(t *testing.T, s *server, r psqlRun) psqlResult {
	t.Helper()
	bin := psqlPath(t)
	if r.user == "" {
		r.user = "alice"
	}
	if r.dbname == "" {
		r.dbname = demoDatabase
	}
	if r.sslmode == "" {
		r.sslmode = "disable"
	}
	args := []string{"-X", "-w"}
	if !r.continueOnError {
		args = append(args, "-v", "ON_ERROR_STOP=1")
	}
	args = append(args, strings.TrimSpace(s.connString(r.user, r.dbname, r.sslmode)+" "+r.conninfo))
	args = append(args, r.args...)

	ctx, cancel := context.WithTimeout(context.Background(), psqlTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	// Only our PG variables reach libpq: a PGSSLMODE, PGSERVICE or
	// PGPASSFILE of the caller would change what is tested.
	cmd.Env = append(withoutPrefixes(os.Environ(), "PG", "PSQL"),
		"PGPASSWORD="+r.password, "PGCONNECT_TIMEOUT=10", "PGAPPNAME=sqe-compat-tests")
	cmd.Env = append(cmd.Env, r.env...)
	if r.stdin != "" {
		cmd.Stdin = strings.NewReader(r.stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := psqlResult{stdout: stdout.String(), stderr: stderr.String()}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		res.exitCode = exitErr.ExitCode()
	default:
		t.Fatalf("run psql: %v", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("psql did not finish within %s; stderr:\n%s", psqlTimeout, res.stderr)
	}
	return res
}

// mustPsql runs psql and fails the test unless it exits 0.
func mustPsql(t *testing.T, s *server, r psqlRun) psqlResult {
	t.Helper()
	res := runPsql(t, s, r)
	if res.exitCode != 0 {
		t.Fatalf("psql %q exited %d\nstdout:\n%s\nstderr:\n%s", r.args, res.exitCode, res.stdout, res.stderr)
	}
	return res
}

// unaligned is the psql flags for bare rows: no header, no footer, fields
// separated by '|'.
func unaligned(sql string) []string {
	return []string{"-A", "-t", "-F", "|", "-c", sql}
}

// lines splits psql output into lines without the trailing newline.
func lines(out string) []string {
	out = strings.TrimRight(out, "\n")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}
