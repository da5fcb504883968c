package pgwire_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/pgwire"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/storage"
	"github.com/sqe-db/sqe/storage/demo"
)

// pgBinDir holds the PostgreSQL 15 server binaries the scripts are
// checked against.
const pgBinDir = "/usr/lib/postgresql/15/bin"

// wireTarget is a server the wire scripts run against.
type wireTarget struct {
	name, addr, password string
}

// TestWireScripts replays every testdata/wire script against SQE and
// against PostgreSQL 15, and requires both to answer exactly as the
// script says. Set SQE_WIRE_RECORD=1 to rewrite the expectations from
// PostgreSQL's answers instead (then read the diff).
func TestWireScripts(t *testing.T) {
	paths, err := filepath.Glob("testdata/wire/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no wire scripts in testdata/wire")
	}
	pg := startPostgres(t)
	if os.Getenv("SQE_WIRE_RECORD") != "" {
		for _, p := range paths {
			c, err := dialWire(pg.addr, "alice", "sales_wh", pg.password)
			if err != nil {
				t.Fatal(err)
			}
			if err := recordScript(p, c); err != nil {
				t.Errorf("%s: %v", p, err)
			}
			c.Close()
		}
		return
	}
	targets := []wireTarget{startSQE(t), pg}
	for _, path := range paths {
		steps, err := readScript(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		for _, target := range targets {
			t.Run(name+"/"+target.name, func(t *testing.T) {
				runScript(t, target, steps)
			})
		}
	}
}

func runScript(t *testing.T, target wireTarget, steps []wireStep) {
	c, err := dialWire(target.addr, "alice", "sales_wh", target.password)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, step := range steps {
		got, err := c.exchange(step, 0)
		if err != nil {
			t.Fatalf("batch at line %d: %v (received so far:\n%s)", step.line, err, strings.Join(got, "\n"))
		}
		if strings.Join(got, "\n") != strings.Join(step.expect, "\n") {
			t.Fatalf("batch at line %d:\ngot:\n%s\nwant:\n%s", step.line, strings.Join(got, "\n"), strings.Join(step.expect, "\n"))
		}
	}
	if n := len(steps); n > 0 && endsWithHangUp(steps[n-1]) {
		return // the server hung up as the script expected
	}
	// Nothing unexpected may follow the last reply: a Sync must be
	// answered by ReadyForQuery alone.
	final := wireStep{send: []frontendLine{{Type: "Sync"}}, expect: []string{"?"}}
	got, err := c.exchange(final, 0)
	if err != nil || len(got) != 1 || !strings.Contains(got[0], `"ReadyForQuery"`) {
		t.Fatalf("after the script: %v %v", got, err)
	}
}

// startSQE runs an SQE server built from the real packages over an
// embedded catalog holding the demo tables (with a small sales table).
func startSQE(t *testing.T) wireTarget {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	issuer, err := auth.OpenEmbeddedIssuer(dir)
	if err != nil {
		t.Fatal(err)
	}
	verifier, err := auth.NewVerifier(ctx, auth.Config{}, issuer, logger)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", dir, storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	loader := storage.WithPrincipal(ctx, storage.Principal{User: "loader", Roles: []string{"sqe_admin"}})
	if err := demo.Load(loader, cat, 100); err != nil {
		t.Fatal(err)
	}
	if err := createCopyTarget(loader, cat); err != nil {
		t.Fatal(err)
	}
	engine := sql.NewEngine(sql.EngineConfig{ServerVersion: "15.0", AdminRoles: []string{"sqe_admin"}},
		[]storage.Catalog{cat}, governance.Passthrough{})
	srv, err := pgwire.NewServer(pgwire.Config{Listen: "127.0.0.1:0", DataDir: dir, ServerVersion: "15.0"},
		tokenAuthenticator{verifier}, engineSessions{engine}, logger)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		<-served
	})
	token, err := issuer.Mint(auth.TokenRequest{User: "alice", TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return wireTarget{name: "sqe", addr: srv.Addr().String(), password: token}
}

// tokenAuthenticator accepts tokens of the embedded issuer.
type tokenAuthenticator struct{ verifier *auth.Verifier }

func (a tokenAuthenticator) Authenticate(ctx context.Context, st pgwire.Startup, password string) (auth.Identity, error) {
	id, err := a.verifier.Verify(ctx, password, st.User)
	if err != nil {
		return auth.Identity{}, auth.FailedLogin(st.User)
	}
	return id, nil
}

// engineSessions opens sql sessions.
type engineSessions struct{ engine *sql.Engine }

func (f engineSessions) NewSession(ctx context.Context, id auth.Identity, st pgwire.Startup) (pgwire.Session, error) {
	return f.engine.NewSession(ctx, id, st.Database, st.Settings)
}

// startPostgres runs a throw-away PostgreSQL 15 on a free loopback port
// with trust authentication and database sales_wh holding acdemo.orders.
// As root the server runs as the postgres OS user (initdb refuses root).
func startPostgres(t *testing.T) wireTarget {
	t.Helper()
	for _, bin := range []string{"initdb", "postgres"} {
		if _, err := os.Stat(filepath.Join(pgBinDir, bin)); err != nil {
			t.Fatalf("PostgreSQL 15 is needed for the wire tests (make test installs it): %v", err)
		}
	}
	cred, err := postgresCredential()
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	dir := filepath.Join(base, "pg")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if cred != nil {
		// The OS user must reach its data directory inside our temp dir.
		for _, d := range []string{filepath.Dir(base), base} {
			if err := os.Chmod(d, 0o711); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(pgBinDir, "initdb"), "-D", data, "-U", "alice", "--auth=trust",
		"-E", "UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	logFile, err := os.Create(filepath.Join(base, "postgres.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	srv := exec.Command(filepath.Join(pgBinDir, "postgres"), "-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+dir,
		"-c", "fsync=off", "-c", "TimeZone=UTC", "-c", "DateStyle=ISO, MDY")
	srv.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	srv.Stdout, srv.Stderr = logFile, logFile
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		_ = srv.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		// SIGINT is PostgreSQL's fast shutdown.
		_ = srv.Process.Signal(syscall.SIGINT)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = srv.Process.Kill()
			<-exited
		}
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	if err := loadPostgres(addr, exited); err != nil {
		log, _ := os.ReadFile(filepath.Join(base, "postgres.log"))
		t.Fatalf("set up PostgreSQL: %v\n%s", err, log)
	}
	return wireTarget{name: "postgres", addr: addr}
}

// postgresCredential is who PostgreSQL runs as: the postgres OS user when
// the test runs as root, else the current user (nil).
func postgresCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root needs a postgres OS user: %w", err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// loadPostgres waits for the server and creates the scripts' data.
func loadPostgres(addr string, exited <-chan struct{}) error {
	host, port, _ := net.SplitHostPort(addr)
	connect := func(db string) (*pgx.Conn, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return pgx.Connect(ctx, fmt.Sprintf("host=%s port=%s user=alice dbname=%s sslmode=disable", host, port, db))
	}
	var conn *pgx.Conn
	deadline := time.Now().Add(30 * time.Second)
	for {
		var err error
		if conn, err = connect("postgres"); err == nil {
			break
		}
		select {
		case <-exited:
			return fmt.Errorf("postgres exited: %w", err)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not start: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	ctx := context.Background()
	_, err := conn.Exec(ctx, "CREATE DATABASE sales_wh")
	conn.Close(ctx)
	if err != nil {
		return err
	}
	if conn, err = connect("sales_wh"); err != nil {
		return err
	}
	defer conn.Close(ctx)
	for _, stmt := range []string{
		"CREATE SCHEMA acdemo",
		"CREATE TABLE acdemo.orders (id bigint NOT NULL, region text, ssn text, amount numeric(12,2), order_date date)",
		"INSERT INTO acdemo.orders VALUES (1,'EU','111-11-1111',120.50,'2024-01-15'), " +
			"(2,'US','222-22-2222',75.00,'2024-02-03'), (3,'EU','333-33-3333',310.25,'2024-03-22')",
		copyTargetDDL,
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return nil
}

// connectPgx connects pgx to target as alice; the connection is closed
// when the test ends.
func connectPgx(t *testing.T, ctx context.Context, target wireTarget) *pgx.Conn {
	t.Helper()
	host, port, _ := net.SplitHostPort(target.addr)
	conn, err := pgx.Connect(ctx, fmt.Sprintf("host=%s port=%s user=alice dbname=sales_wh sslmode=disable password=%s", host, port, target.password))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}
