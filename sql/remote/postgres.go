package remote

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/sqlwrite"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// PostgresConfig is an engine that is a PostgreSQL server holding the
// same tables as SQE's catalogs (a replica, or the differential tests'
// server), reached with its own service user.
type PostgresConfig struct {
	Name string
	// ConnString is a libpq connection string or URL, without the
	// password: Password is given apart, from the environment or a file.
	ConnString string
	Password   string
	Catalogs   sqlwrite.Catalogs
	// MaxConns bounds the pool's connections (0: pgxpool's default).
	MaxConns int32
}

// Postgres runs written statements on a PostgreSQL server.
type Postgres struct {
	name     string
	catalogs sqlwrite.Catalogs
	pool     *pgxpool.Pool
}

// NewPostgres returns the engine cfg describes; it connects when first
// asked to run a statement.
func NewPostgres(cfg PostgresConfig) (*Postgres, error) {
	pc, err := pgxpool.ParseConfig(cfg.ConnString)
	if err != nil {
		// The connection string may hold secrets: name the engine only.
		return nil, fmt.Errorf("engine %q: the connection string cannot be read", cfg.Name)
	}
	if cfg.Password != "" {
		pc.ConnConfig.Password = cfg.Password
	}
	if cfg.MaxConns > 0 {
		pc.MaxConns = cfg.MaxConns
	}
	// The values come back as text, read by SQE's input functions: fix
	// the settings that shape that text, and what quote_ident and
	// format's %I print.
	for k, v := range map[string]string{
		"DateStyle": "ISO, MDY", "IntervalStyle": "postgres", "TimeZone": "UTC",
		"extra_float_digits": "1", "bytea_output": "hex", "client_encoding": "UTF8",
		"quote_all_identifiers": "off", "application_name": "sqe",
	} {
		pc.ConnConfig.RuntimeParams[k] = v
	}
	// A cancelled statement is cancelled on the server, not only dropped
	// by the client.
	pc.ConnConfig.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 2 * time.Second}
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), pc)
	if err != nil {
		return nil, fmt.Errorf("engine %q: %w", cfg.Name, err)
	}
	return &Postgres{name: cfg.Name, catalogs: cfg.Catalogs, pool: pool}, nil
}

func (p *Postgres) Name() string                { return p.name }
func (p *Postgres) Dialect() sqlwrite.Dialect   { return sqlwrite.PostgreSQL }
func (p *Postgres) Catalogs() sqlwrite.Catalogs { return p.catalogs }

// FollowsTimeZone: each statement runs in its context's zone (the
// connection's TimeZone is set first when it differs).
func (p *Postgres) FollowsTimeZone() bool { return true }

// Close closes the pool's connections.
func (p *Postgres) Close() { p.pool.Close() }

func (p *Postgres) Query(ctx context.Context, sql string, cols []planner.Column) (Stream, error) {
	conn, err := p.pool.Acquire(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, pgerror.From(ctx.Err())
		}
		return nil, pgerror.New(pgerror.SQLClientUnableToEstablishSQLConnection, "could not reach remote engine %q", p.name)
	}
	if err := setTimeZone(ctx, conn.Conn().PgConn(), TimeZoneOf(ctx)); err != nil {
		conn.Release()
		return nil, p.failed(ctx, err)
	}
	rr := conn.Conn().PgConn().ExecParams(ctx, sql, nil, nil, nil, nil)
	if n := len(rr.FieldDescriptions()); n != len(cols) {
		_, err := rr.Close()
		conn.Release()
		if err != nil {
			return nil, p.failed(ctx, err)
		}
		return nil, pgerror.New(pgerror.InternalError, "remote engine %q answered %d columns, want %d", p.name, n, len(cols))
	}
	return &postgresStream{p: p, ctx: ctx, conn: conn, rr: rr, bb: NewBatchBuilder(cols)}, nil
}

// failed is the error the client gets for err from the server: its
// SQLSTATE, never its message, which can quote the values it read.
func (p *Postgres) failed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return pgerror.From(ctx.Err())
	}
	var pge *pgconn.PgError
	if errors.As(err, &pge) {
		return pgerror.New(pge.Code, "remote engine %q failed with SQLSTATE %s", p.name, pge.Code)
	}
	return pgerror.New(pgerror.ConnectionFailure, "lost the connection to remote engine %q", p.name)
}

type postgresStream struct {
	p     *Postgres
	ctx   context.Context
	conn  *pgxpool.Conn
	rr    *pgconn.ResultReader
	bb    *BatchBuilder
	bytes atomic.Int64
	ended bool
}

func (s *postgresStream) Next() (arrow.RecordBatch, error) {
	if s.ended {
		return nil, planner.EOF
	}
	for !s.bb.Full() && s.rr.NextRow() {
		for i, v := range s.rr.Values() {
			s.bytes.Add(int64(len(v)))
			if v == nil {
				s.bb.AppendNull(i)
				continue
			}
			if err := s.bb.AppendText(i, string(v)); err != nil {
				return nil, err
			}
		}
		s.bb.EndRow()
	}
	if b := s.bb.Flush(); b != nil {
		return b, nil
	}
	s.ended = true
	_, err := s.rr.Close()
	s.release()
	if err != nil {
		return nil, s.p.failed(s.ctx, err)
	}
	return nil, planner.EOF
}

func (s *postgresStream) BytesRead() int64 { return s.bytes.Load() }

// Close ends the statement; the caller cancels its context first when
// the rows are not all read, so the server stops sending them.
func (s *postgresStream) Close() error {
	if !s.ended {
		s.ended = true
		_, _ = s.rr.Close()
	}
	s.release()
	s.bb.Release()
	return nil
}

func (s *postgresStream) release() {
	if s.conn != nil {
		s.conn.Release()
		s.conn = nil
	}
}

// setTimeZone sets the connection's TimeZone to zone when the server
// reports another (PostgreSQL reports TimeZone at each change).
func setTimeZone(ctx context.Context, c *pgconn.PgConn, zone string) error {
	if zone == "" || c.ParameterStatus("TimeZone") == zone {
		return nil
	}
	quoted := "'" + strings.ReplaceAll(zone, "'", "''") + "'"
	return c.Exec(ctx, "SET TimeZone TO "+quoted).Close()
}
