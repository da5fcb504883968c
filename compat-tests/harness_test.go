package compattests

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	// listeningPrefix starts the line sqe serve prints once it accepts
	// connections.
	listeningPrefix = "SQE is listening on "
	// startTimeout bounds the wait for that line (building the demo's
	// million-row table is part of it).
	startTimeout = 120 * time.Second
	// stopTimeout is how long a SIGTERM may take before the process is
	// killed and the test fails.
	stopTimeout = 15 * time.Second
	// demoDatabase is the catalog the demo loads and the database clients
	// name.
	demoDatabase = "sales_wh"
	// adminRole is the default [auth] admin_roles entry.
	adminRole = "sqe_admin"
)

// env is what every test shares: the built binary and the demo server.
type env struct {
	binary string
	server *server
	// token is alice's token from `sqe token`, valid for the whole run.
	// It carries the administrator role besides the demo's analyst, so
	// that tests may create tables; gate one has tests of its own.
	token string
	// analystToken is alice as the demo has her: the analyst role only.
	analystToken string
	// hydra builds the OpenID provider of the OIDC tests, on first use.
	hydra *hydraBuild
}

// shared is set once by TestMain before any test runs and only read after.
var shared env

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	tmp, err := os.MkdirTemp("", "sqe-compat-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "compat-tests: temp dir: %v\n", err)
		return 1
	}
	defer os.RemoveAll(tmp)

	binary, err := buildBinary(tmp)
	if err != nil {
		fmt.Fprintf(os.Stderr, "compat-tests: %v\n", err)
		return 1
	}
	srv, err := startServer(binary, filepath.Join(tmp, "data"), true)
	if err != nil {
		fmt.Fprintf(os.Stderr, "compat-tests: %v\n", err)
		return 1
	}
	token, err := srv.mintAdmin("alice")
	if err != nil {
		fmt.Fprintf(os.Stderr, "compat-tests: %v\n", err)
		_ = srv.stop()
		return 1
	}
	analystToken, err := srv.mintCLI("alice")
	if err != nil {
		fmt.Fprintf(os.Stderr, "compat-tests: %v\n", err)
		_ = srv.stop()
		return 1
	}
	shared = env{binary: binary, server: srv, token: token, analystToken: analystToken, hydra: &hydraBuild{}}

	code := m.Run()
	if err := srv.stop(); err != nil {
		fmt.Fprintf(os.Stderr, "compat-tests: stop shared server: %v\nserver log:\n%s\n", err, srv.log())
		code = 1
	}
	return code
}

// buildBinary compiles cmd/sqe into dir and returns the executable's path.
// The sqe_poison tag makes the server poison the pooled buffers it frees
// (storage/bufferpool) and make released cache slabs inaccessible
// (storage/offheap), so that a read after release changes an answer these
// tests check or stops the server.
func buildBinary(dir string) (string, error) {
	out := filepath.Join(dir, "sqe")
	cmd := exec.Command("go", "build", "-tags", "sqe_poison", "-o", out, "github.com/sqe-db/sqe/cmd/sqe")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build sqe: %w\n%s", err, stderr.String())
	}
	return out, nil
}

// syncBuffer collects a child's output while tests read it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// server is one running `sqe serve`.
type server struct {
	binary  string
	dataDir string
	host    string
	port    string
	cmd     *exec.Cmd
	stderr  *syncBuffer
	// exited is closed when the process has been reaped; waitErr is then
	// its exit status.
	exited  chan struct{}
	waitErr error
}

// startServer runs `sqe serve` on a free loopback port (the server picks
// it: --listen 127.0.0.1:0) and waits until it says it is listening.
// extraEnv is added to the server's environment last, so it overrides
// the defaults set here (SQE_MAINTENANCE__ENABLED=true turns automatic
// maintenance back on).
func startServer(binary, dataDir string, demo bool, extraEnv ...string) (*server, error) {
	args := []string{"serve", "--data-dir", dataDir, "--listen", "127.0.0.1:0"}
	if demo {
		args = append(args, "--demo")
	}
	cmd := exec.Command(binary, args...)
	// A config file or SQE_ variables of the caller must not change what
	// the tests see.
	cmd.Dir = filepath.Dir(dataDir)
	cmd.Env = withoutPrefixes(os.Environ(), "SQE_")
	// The HTTP endpoint on a port of its own: servers run side by side.
	// No automatic maintenance: tests count files and snapshots.
	cmd.Env = append(cmd.Env, "SQE_HTTP__LISTEN=127.0.0.1:0", "SQE_MAINTENANCE__ENABLED=false")
	cmd.Env = append(cmd.Env, extraEnv...)
	cmd.SysProcAttr = serverProcAttr()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start sqe: %w", err)
	}
	s := &server{binary: binary, dataDir: dataDir, cmd: cmd, stderr: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start sqe: %w", err)
	}

	addrc := make(chan string, 1)
	go scanListening(stdout, addrc)
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()

	select {
	case addr, ok := <-addrc:
		if !ok {
			<-s.exited
			return nil, fmt.Errorf("sqe serve exited before listening (%v); stderr:\n%s", s.waitErr, s.stderr.String())
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			_ = s.stop()
			return nil, fmt.Errorf("sqe serve printed address %q: %w", addr, err)
		}
		s.host, s.port = host, port
		return s, nil
	case <-s.exited:
		return nil, fmt.Errorf("sqe serve exited before listening (%v); stderr:\n%s", s.waitErr, s.stderr.String())
	case <-time.After(startTimeout):
		_ = s.kill()
		return nil, fmt.Errorf("sqe serve did not print %q within %s; stderr:\n%s", listeningPrefix, startTimeout, s.stderr.String())
	}
}

// scanListening sends the address from the listening line, then keeps
// draining stdout so the server never blocks on a full pipe. The channel is
// closed without a value if stdout ends first.
func scanListening(stdout io.Reader, addrc chan<- string) {
	sc := bufio.NewScanner(stdout)
	sent := false
	for sc.Scan() {
		line := sc.Text()
		if !sent && strings.HasPrefix(line, listeningPrefix) {
			// "SQE is listening on 127.0.0.1:PORT (database ...)."
			addr, _, _ := strings.Cut(strings.TrimPrefix(line, listeningPrefix), " ")
			addrc <- addr
			sent = true
		}
	}
	if !sent {
		close(addrc)
	}
	_, _ = io.Copy(io.Discard, stdout)
}

// startTestServer starts a private server for one test and stops it when
// the test ends.
func startTestServer(t *testing.T, demo bool) *server {
	t.Helper()
	return startTestServerIn(t, filepath.Join(t.TempDir(), "data"), demo)
}

// startTestServerIn is startTestServer on a given data directory, for
// tests that restart a server on the same data or run two on it, with
// extraEnv as startServer takes it.
func startTestServerIn(t *testing.T, dataDir string, demo bool, extraEnv ...string) *server {
	t.Helper()
	s, err := startServer(shared.binary, dataDir, demo, extraEnv...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-s.exited:
			return // the test stopped it itself
		default:
		}
		if err := s.stop(); err != nil {
			t.Errorf("stop server: %v\nserver log:\n%s", err, s.log())
		}
	})
	return s
}

// log returns what the server has written to stderr so far.
func (s *server) log() string { return s.stderr.String() }

// stop sends SIGTERM and waits for the process to exit; after stopTimeout
// it kills the process and reports that as an error. A non-zero exit is an
// error too.
func (s *server) stop() error {
	select {
	case <-s.exited:
		return s.waitErr
	default:
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("send SIGTERM to pid %d: %w", s.cmd.Process.Pid, err)
	}
	select {
	case <-s.exited:
		if s.waitErr != nil {
			return fmt.Errorf("sqe serve exited after SIGTERM: %w", s.waitErr)
		}
		return nil
	case <-time.After(stopTimeout):
		_ = s.kill()
		return fmt.Errorf("sqe serve (pid %d) still running %s after SIGTERM; killed", s.cmd.Process.Pid, stopTimeout)
	}
}

// kill ends the process by pid and reaps it.
func (s *server) kill() error {
	err := s.cmd.Process.Kill()
	<-s.exited
	return err
}

// mintCLI returns a token for user from `sqe token` on this server's data
// directory.
func (s *server) mintCLI(user string, extra ...string) (string, error) {
	args := append([]string{"token", "--data-dir", s.dataDir, "--user", user}, extra...)
	cmd := exec.Command(s.binary, args...)
	cmd.Env = withoutPrefixes(os.Environ(), "SQE_")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("sqe token --user %s: %w: %s", user, err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}

// mintAdmin returns a token for user that also carries the default
// administrator role. Gate one is on by default, so tests that create and
// write tables without being about privileges log in as administrators,
// who hold every privilege.
func (s *server) mintAdmin(user string) (string, error) {
	return s.mintCLI(user, "--role", adminRole)
}

// connString is a libpq key/value connection string for this server.
func (s *server) connString(user, dbname, sslmode string) string {
	return fmt.Sprintf("host=%s port=%s user=%s dbname=%s sslmode=%s", s.host, s.port, user, dbname, sslmode)
}

// withoutPrefixes drops the variables whose names start with one of
// prefixes from environ.
func withoutPrefixes(environ []string, prefixes ...string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		keep := true
		for _, p := range prefixes {
			if strings.HasPrefix(kv, p) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

// testContext is a context that ends with the test or after d.
func testContext(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
