package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// salesDDL is acdemo.sales as SQE presents it.
const salesDDL = `CREATE TABLE acdemo.sales (
	id bigint NOT NULL, region text, product text, quantity integer,
	price numeric(12,2), discount double precision, sold_on date)`

// pgServer is a throw-away PostgreSQL cluster.
type pgServer struct {
	*child
	port int
}

// startPostgres initialises a cluster in workDir/name and starts it on a free
// loopback port with trust authentication for benchUser. As root, the
// server runs as the postgres system user, since PostgreSQL refuses root.
// Suites that measure writes ask for a durable cluster (PostgreSQL's
// defaults: fsync, synchronous_commit and full_page_writes on), as SQE
// flushes every commit too; the others turn durability off, as it costs
// only on writes.
func startPostgres(ctx context.Context, binDir, workDir, name string, durable bool) (*pgServer, error) {
	dir := filepath.Join(workDir, name)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	cred, err := postgresCredential()
	if err != nil {
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, fmt.Errorf("postgres: %w", err)
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.CommandContext(ctx, filepath.Join(binDir, "initdb"), "-D", data, "-U", benchUser,
		"--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
	runAs(initdb, cred)
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("postgres initdb: %w\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	args := []string{"-D", data, "-p", strconv.Itoa(port), "-c", "listen_addresses=127.0.0.1", "-k", dir}
	if !durable {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	cmd := exec.Command(filepath.Join(binDir, "postgres"), args...)
	runAs(cmd, cred)
	c, err := startChild(name, cmd, filepath.Join(workDir, name+".log"))
	if err != nil {
		return nil, err
	}
	pg := &pgServer{child: c, port: port}
	if err := pg.waitReady(ctx); err != nil {
		_ = pg.Stop()
		return nil, err
	}
	return pg, nil
}

// Stop shuts the cluster down (fast shutdown: SIGINT to the postmaster,
// which stops its children).
func (p *pgServer) Stop() error { return p.stop(syscall.SIGINT, 30*time.Second) }

func (p *pgServer) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := p.connect(ctx, "postgres")
		if err == nil {
			return conn.Close(ctx)
		}
		if !p.running() {
			return p.exitError()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not accept connections within 30s: %w\n%s", err, p.logTail())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// connect opens a connection to database, in the simple query protocol
// like the SQE client, so both pay the same protocol costs.
func (p *pgServer) connect(ctx context.Context, database string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=127.0.0.1 port=%d user=%s dbname=%s sslmode=disable", p.port, benchUser, database))
	if err != nil {
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	return conn, nil
}

// createSalesDatabase creates the database named like SQE's catalog and
// returns a connection to it.
func (p *pgServer) createSalesDatabase(ctx context.Context) (*pgx.Conn, error) {
	return p.createDatabase(ctx, sqeDatabase)
}

// createDatabase creates database name and returns a connection to it.
func (p *pgServer) createDatabase(ctx context.Context, name string) (*pgx.Conn, error) {
	admin, err := p.connect(ctx, "postgres")
	if err != nil {
		return nil, err
	}
	_, err = admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	if cerr := admin.Close(ctx); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: create database: %w", err)
	}
	return p.connect(ctx, name)
}

// copySales streams every row of acdemo.sales out of SQE (src) into a new
// table in PostgreSQL (dst) with COPY, then analyzes it, and returns the
// number of rows copied.
func copySales(ctx context.Context, src, dst *pgx.Conn) (int64, error) {
	if _, err := dst.Exec(ctx, "CREATE SCHEMA acdemo"); err != nil {
		return 0, fmt.Errorf("copy sales: %w", err)
	}
	if _, err := dst.Exec(ctx, salesDDL); err != nil {
		return 0, fmt.Errorf("copy sales: %w", err)
	}
	rows, err := src.Query(ctx, "SELECT * FROM acdemo.sales")
	if err != nil {
		return 0, fmt.Errorf("copy sales: export from SQE: %w", err)
	}
	defer rows.Close()
	var cols []string
	for _, fd := range rows.FieldDescriptions() {
		cols = append(cols, fd.Name)
	}
	// pgx.Rows is a CopyFromSource: rows flow through one at a time.
	n, err := dst.CopyFrom(ctx, pgx.Identifier{"acdemo", "sales"}, cols, rows)
	if err != nil {
		return 0, fmt.Errorf("copy sales: %w", err)
	}
	if _, err := dst.Exec(ctx, "VACUUM ANALYZE acdemo.sales"); err != nil {
		return 0, fmt.Errorf("copy sales: %w", err)
	}
	return n, nil
}

// postgresCredential is the postgres system user when running as root,
// nil otherwise.
func postgresCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("postgres refuses to run as root and there is no postgres user: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("postgres user: %w", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// freePort asks the kernel for a loopback port nobody listens on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
