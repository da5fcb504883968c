package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqe-db/sqe/auth"
)

// listeningPrefix starts the line `sqe serve` prints once it accepts
// connections.
const listeningPrefix = "SQE is listening on "

// sqeDatabase is the catalog the demo lives in.
const sqeDatabase = "sales_wh"

// benchUser is the user the client logs in as; no policy applies to it.
const benchUser = "bench"

// benchAdminRole makes the bench user an administrator (the default
// [auth] admin_roles): it creates and loads tables, which gate one, on by
// default, allows administrators.
const benchAdminRole = "sqe_admin"

// buildServer compiles the sqe binary from the module at root into dir.
func buildServer(ctx context.Context, root, dir string) (string, error) {
	bin := filepath.Join(dir, "sqe")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/sqe")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build sqe: %w\n%s", err, out)
	}
	return bin, nil
}

// sqeServer is a running `sqe serve`.
type sqeServer struct {
	*child
	addr    string
	dataDir string
}

// startSQE runs `sqe serve` on dataDir (with --demo when demo is set) on a
// free loopback port and waits until it listens. The server runs in
// workDir, without SQE_ variables, so no stray configuration applies.
func startSQE(ctx context.Context, bin, workDir, dataDir string, demo bool, name string) (*sqeServer, error) {
	return startSQEWith(ctx, bin, workDir, dataDir, demo, name, nil)
}

// untimedSQE lifts the server's default timeouts (a statement's five
// minutes, a session's 15 idle minutes and eight hours): a large scale
// factor's query, the idle connections of -suite conns and a long soak
// measure the server, not its limits. It turns automatic maintenance
// off too, so that a measurement never includes a compaction it did not
// ask for; -suite maintenance turns it on again.
func untimedSQE() []string {
	return []string{
		"SQE_QUERY__TIMEOUT_SECS=0",
		"SQE_SESSION__IDLE_TIMEOUT_SECS=0",
		"SQE_SESSION__ABSOLUTE_TIMEOUT_SECS=0",
		"SQE_MAINTENANCE__ENABLED=false",
	}
}

// startSQEWith is startSQE with extra environment variables (KEY=value),
// the configuration a suite sets on purpose; they come after untimedSQE's
// so a suite may set a timeout again.
func startSQEWith(ctx context.Context, bin, workDir, dataDir string, demo bool, name string, env []string) (*sqeServer, error) {
	args := []string{"serve", "--data-dir", dataDir, "--listen", "127.0.0.1:0"}
	if demo {
		args = append(args, "--demo")
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = workDir
	// The HTTP endpoint on a port of its own: servers run side by side.
	cmd.Env = append(withoutSQEVars(os.Environ()), "SQE_HTTP__LISTEN=127.0.0.1:0")
	cmd.Env = append(append(cmd.Env, untimedSQE()...), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	c, err := startChild(name, cmd, filepath.Join(workDir, name+".log"))
	if err != nil {
		return nil, err
	}
	s := &sqeServer{child: c, dataDir: dataDir}
	addrc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), listeningPrefix); ok {
				addr, _, _ := strings.Cut(rest, " ")
				addrc <- addr
				break
			}
		}
		// Keep draining so the server never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, stdout)
	}()
	timeout := time.NewTimer(2 * time.Minute)
	defer timeout.Stop()
	select {
	case s.addr = <-addrc:
		return s, nil
	case <-c.exited:
		return nil, c.exitError()
	case <-ctx.Done():
		_ = c.stop(syscall.SIGTERM, 15*time.Second)
		return nil, ctx.Err()
	case <-timeout.C:
		_ = c.stop(syscall.SIGTERM, 15*time.Second)
		return nil, fmt.Errorf("%s did not start listening within 2m\n%s", name, c.logTail())
	}
}

// Stop shuts the server down as an operator would (SIGTERM).
func (s *sqeServer) Stop() error { return s.stop(syscall.SIGTERM, 15*time.Second) }

// connect opens a pgx connection as the bench administrator with a fresh
// token from the data directory's embedded issuer, in the simple query
// protocol SQE speaks.
func (s *sqeServer) connect(ctx context.Context) (*pgx.Conn, error) {
	return s.connectAs(ctx, benchUser, []string{benchAdminRole})
}

// connectAs is connect as user, whose token carries roles.
func (s *sqeServer) connectAs(ctx context.Context, user string, roles []string) (*pgx.Conn, error) {
	token, err := s.token(user, roles, time.Hour)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", s.name, err)
	}
	cfg, err := s.connConfig(user, token)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", s.name, err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", s.name, err)
	}
	return conn, nil
}

// token mints a token for user, carrying roles, from the data directory's
// embedded issuer.
func (s *sqeServer) token(user string, roles []string, ttl time.Duration) (string, error) {
	iss, err := auth.OpenEmbeddedIssuer(s.dataDir)
	if err != nil {
		return "", err
	}
	return iss.Mint(auth.TokenRequest{User: user, Roles: roles, TTL: ttl})
}

// connConfig is a pgx configuration logging in as user with token, in the
// simple query protocol.
func (s *sqeServer) connConfig(user, token string) (*pgx.ConnConfig, error) {
	host, port, err := net.SplitHostPort(s.addr)
	if err != nil {
		return nil, err
	}
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s user=%s dbname=%s sslmode=disable", host, port, user, sqeDatabase))
	if err != nil {
		return nil, err
	}
	cfg.Password = token
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	return cfg, nil
}

func withoutSQEVars(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "SQE_") {
			out = append(out, kv)
		}
	}
	return out
}
