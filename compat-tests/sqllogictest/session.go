package sqllogictest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Connector opens a new connection to the server under test.
type Connector func(ctx context.Context) (*pgx.Conn, error)

// session is one file's connection. A connection the server closed (a
// timeout, a crash) is reopened for the next record, with the setup
// statements run again.
type session struct {
	connect Connector
	setup   []string
	conn    *pgx.Conn
}

func (s *session) get(ctx context.Context) (*pgx.Conn, error) {
	if s.conn != nil && !s.conn.IsClosed() {
		return s.conn, nil
	}
	conn, err := s.connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	for _, stmt := range s.setup {
		if err := execAll(ctx, conn.PgConn(), stmt); err != nil {
			_ = conn.Close(context.WithoutCancel(ctx))
			return nil, fmt.Errorf("session setup %q: %w", stmt, err)
		}
	}
	s.conn = conn
	return conn, nil
}

func (s *session) close(ctx context.Context) {
	if s.conn != nil {
		_ = s.conn.Close(context.WithoutCancel(ctx))
		s.conn = nil
	}
}

// execAll runs sql in the simple protocol and returns its first error.
func execAll(ctx context.Context, c *pgconn.PgConn, sql string) error {
	results, err := c.Exec(ctx, sql).ReadAll()
	if err != nil {
		return err
	}
	for _, r := range results {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

// execStatement runs a statement record. A COPY ... FROM '<file>' is sent
// as COPY ... FROM STDIN with the suite's copy of the file.
func execStatement(ctx context.Context, c *pgconn.PgConn, sql string, read readFunc) error {
	st, err := classify(sql)
	if err == nil && st.kind == CopyFrom && st.copy.GetFilename() != "" {
		data, err := read(filepath.Base(st.copy.GetFilename()))
		if err != nil {
			return err
		}
		stdin, err := copyFromStdin(st.copy)
		if err != nil {
			return err
		}
		_, err = c.CopyFrom(ctx, bytes.NewReader(data), stdin)
		return err
	}
	return execAll(ctx, c, sql)
}

// queryRows runs a query record and returns its last result's rows
// rendered as DataFusion's runner prints them.
func queryRows(ctx context.Context, c *pgconn.PgConn, sql string) ([][]string, error) {
	results, err := c.Exec(ctx, sql).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(results) == 0 {
		return nil, errors.New("no result")
	}
	for _, r := range results {
		if r.Err != nil {
			return nil, r.Err
		}
	}
	last := results[len(results)-1]
	rows := make([][]string, len(last.Rows))
	for i, raw := range last.Rows {
		row := make([]string, len(raw))
		for j, v := range raw {
			var text *string
			if v != nil {
				s := string(v)
				text = &s
			}
			row[j] = Render(last.FieldDescriptions[j].DataTypeOID, text)
		}
		rows[i] = row
	}
	return rows, nil
}

// sqlState is the server's SQLSTATE for err, or "" when err is not a
// server error.
func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// describeError is a one-line reason for a failed record.
func describeError(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return oneLine(pe.Code + ": " + pe.Message)
	}
	return oneLine(err.Error())
}
