package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

// tpchResult is one engine's outcome for one TPC-H query.
type tpchResult struct {
	// first is the warm-up's time: for SQE, which runs each query on a
	// freshly started server, the cold run.
	first time.Duration
	runs  []time.Duration
	rows  int64
	// answer is the warm-up's rows as text (see readAll).
	answer []string
	// failure is "error: <SQLSTATE> <message>" when the query failed; the
	// runs are then not a measurement.
	failure string
}

// notRun is the results of an engine left out of the run: each query's
// failure says why.
func notRun(n int, why string) []tpchResult {
	out := make([]tpchResult, n)
	for i := range out {
		out[i].failure = why
	}
	return out
}

func (r tpchResult) median() time.Duration { return median(r.runs) }

// session is a connection that is opened again, with its settings, when
// a failed or timed-out query closed it.
type session struct {
	open  func(context.Context) (*pgx.Conn, error)
	setup []string
	conn  *pgx.Conn
}

func (s *session) get(ctx context.Context) (*pgx.Conn, error) {
	if s.conn != nil && !s.conn.IsClosed() {
		return s.conn, nil
	}
	conn, err := s.open(ctx)
	if err != nil {
		return nil, err
	}
	for _, stmt := range s.setup {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			conn.Close(context.WithoutCancel(ctx))
			return nil, fmt.Errorf("%s: %w", stmt, err)
		}
	}
	s.conn = conn
	return conn, nil
}

func (s *session) close(ctx context.Context) {
	if s.conn != nil {
		s.conn.Close(context.WithoutCancel(ctx))
	}
}

// runTPCHQueries runs every query: a warm-up, whose answer is kept, then
// o.runs timed runs. When strict is false a failing query is recorded and
// the next one runs; when it is true the failure is returned, unless it is
// the time limit: PostgreSQL without indexes runs some correlated queries
// (Q17, Q20) for hours at larger scales, and a reference that took too
// long is recorded as having no answer.
func runTPCHQueries(ctx context.Context, s *session, queries []datagen.Query, o tpchOptions, strict bool) ([]tpchResult, error) {
	var out []tpchResult
	for _, q := range queries {
		r, err := runTPCHQuery(ctx, s, q, o)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if strict && !isTimeout(err) {
				return nil, fmt.Errorf("%s: %w", q.Name, err)
			}
			r = tpchResult{failure: describeFailure(err, o.timeout)}
			progress("  %s: %s", q.Name, r.failure)
		} else {
			progress("  %s: %s", q.Name, formatDuration(r.median()))
		}
		out = append(out, r)
	}
	return out, nil
}

func runTPCHQuery(ctx context.Context, s *session, q datagen.Query, o tpchOptions) (tpchResult, error) {
	var r tpchResult
	for i := range o.runs + 1 {
		conn, err := s.get(ctx)
		if err != nil {
			return r, err
		}
		qctx, cancel := context.WithTimeout(ctx, o.timeout)
		start := time.Now()
		n, answer, err := readAll(qctx, conn, q.SQL, i == 0)
		elapsed := time.Since(start)
		cancel()
		if err != nil {
			return r, err
		}
		if i == 0 {
			r.first, r.rows, r.answer = elapsed, n, answer
			continue
		}
		if n != r.rows {
			return r, fmt.Errorf("returned %d rows, the warm-up returned %d", n, r.rows)
		}
		r.runs = append(r.runs, elapsed)
	}
	return r, nil
}

// isTimeout reports whether err is a query's time limit running out.
func isTimeout(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err)
}

// describeFailure is the text the report shows for a failed query: the
// SQLSTATE and message of a server error, or what else went wrong.
func describeFailure(err error, timeout time.Duration) string {
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr):
		return "error: " + pgErr.Code + " " + firstLine(pgErr.Message)
	case isTimeout(err):
		return fmt.Sprintf("error: timeout after %s", timeout)
	}
	return "error: " + firstLine(err.Error())
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// isServerError reports whether err is an error the server sent, after
// which the connection and server are still usable.
func isServerError(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code != "57014" // 57014: query_canceled
}
