package pgwire

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgproto3/v2"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestSimpleQueryMessages(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  []string
	}{
		{"rows", "select ints", []string{
			"RowDescription[n:20/8/-1/16384/1,s:1043/-1/14/16384/2]",
			"DataRow[1,one]", "DataRow[2,NULL]", "CommandComplete[SELECT 2]", "ReadyForQuery[I]"}},
		{"no rows", "create table t", []string{"CommandComplete[CREATE]", "ReadyForQuery[I]"}},
		{"multi-statement", "select ints; vacuum;select many 2", []string{
			"RowDescription[n:20/8/-1/16384/1,s:1043/-1/14/16384/2]",
			"DataRow[1,one]", "DataRow[2,NULL]", "CommandComplete[SELECT 2]",
			"CommandComplete[VACUUM]",
			"RowDescription[i:20/8/-1/0/0]", "DataRow[0]", "DataRow[1]", "CommandComplete[SELECT 2]",
			"ReadyForQuery[I]"}},
		{"empty", "", []string{"EmptyQueryResponse", "ReadyForQuery[I]"}},
		{"blank", "  ;  ; ", []string{"EmptyQueryResponse", "ReadyForQuery[I]"}},
		{"comment only", "-- nothing to see\n", []string{"EmptyQueryResponse", "ReadyForQuery[I]"}},
		{"parse error with position", "select 1; a syntax error", []string{
			"ErrorResponse[ERROR 42601 syntax error at or near \"error\" @20]", "ReadyForQuery[I]"}},
		{"error aborts the rest", "vacuum; fail; analyze", []string{
			"CommandComplete[VACUUM]",
			"ErrorResponse[ERROR 42P01 relation \"missing\" does not exist]", "ReadyForQuery[I]"}},
		{"transaction status", "begin", []string{"CommandComplete[BEGIN]", "ReadyForQuery[T]"}},
		{"parameter change", "set app reporting", []string{
			"CommandComplete[SET]", "ParameterStatus[application_name=reporting]", "ReadyForQuery[I]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, nil)
			c := ts.dialRaw(t)
			c.startup("alice", goodToken)
			c.send(&pgproto3.Query{String: tt.query})
			got := c.receiveUntilReady()
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			// The connection stays usable after whatever happened.
			c.send(&pgproto3.Query{String: "select many 1"})
			if got := c.receiveUntilReady(); got[1] != "DataRow[0]" {
				t.Fatalf("follow-up query: %v", got)
			}
		})
	}
}

func TestErrorAbortsRemainingStatements(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.connect(t)
	results, err := c.PgConn().Exec(context.Background(), "select ints; fail; select many 3").ReadAll()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42P01" {
		t.Fatalf("err = %v", err)
	}
	if len(results) < 1 || len(results[0].Rows) != 2 || string(results[0].Rows[0][1]) != "one" {
		t.Fatalf("first statement's result missing: %+v", results)
	}
	sess, _ := ts.factory.last(t)
	if got := sess.statements(); strings.Join(got, "|") != "select ints|fail" {
		t.Fatalf("executed %v", got)
	}
	// And the session carries on.
	var n int64
	if err := c.QueryRow(context.Background(), "select many 1").Scan(&n); err != nil || n != 0 {
		t.Fatalf("after error: %v %d", err, n)
	}
}

func TestErrorPositionViaPgx(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.connect(t)
	_, err := c.Exec(context.Background(), "select 1;  a syntax error")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42601" || pe.Position != 21 {
		t.Fatalf("got %#v", err)
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Fatalf("connection unusable after error: %v", err)
	}
}

func TestInternalErrorHidesCause(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	c.send(&pgproto3.Query{String: "internal"})
	got := c.receiveUntilReady()
	m := regexp.MustCompile(`^ErrorResponse\[ERROR XX000 internal error \(request id ([0-9a-f]{8})\)\]$`).FindStringSubmatch(got[0])
	if m == nil {
		t.Fatalf("got %v", got)
	}
	logs := ts.logs.String()
	if !strings.Contains(logs, "request_id="+m[1]) || !strings.Contains(logs, "secret-location") {
		t.Fatalf("cause not logged under the request id:\n%s", logs)
	}
}

func TestPanicEndsOnlyThatConnection(t *testing.T) {
	ts := startServer(t, nil)
	other := ts.connect(t)
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	c.send(&pgproto3.Query{String: "panic"})
	got := c.receive()
	if !regexp.MustCompile(`^ErrorResponse\[FATAL XX000 internal error \(request id [0-9a-f]{8}\)\]$`).MatchString(got) {
		t.Fatalf("got %s", got)
	}
	c.expectClosed()
	if err := other.Ping(context.Background()); err != nil {
		t.Fatalf("other connection broken: %v", err)
	}
	if !strings.Contains(ts.logs.String(), "session bug") {
		t.Error("panic not logged")
	}
}

func TestLargeResultIsStreamed(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.connect(t)
	rows, err := c.Query(context.Background(), "select many 50000")
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v != want {
			t.Fatalf("row %d = %d", want, v)
		}
		want++
	}
	if err := rows.Err(); err != nil || want != 50000 {
		t.Fatalf("read %d rows, err %v", want, err)
	}
	if tag := rows.CommandTag().String(); tag != "SELECT 50000" {
		t.Fatalf("tag %q", tag)
	}
}

func TestCancelRequest(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.connect(t)
	sess, _ := ts.factory.last(t)
	done := make(chan error, 1)
	go func() {
		_, err := c.Exec(context.Background(), "sleep")
		done <- err
	}()
	<-sess.started
	if err := c.PgConn().CancelRequest(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "57014" || pe.Message != "canceling statement due to user request" {
			t.Fatalf("got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("statement was not cancelled")
	}
	if err := <-sess.ctxErrs; !errors.Is(err, context.Canceled) {
		t.Fatalf("statement context ended with %v", err)
	}
	var n int64
	if err := c.QueryRow(context.Background(), "select many 1").Scan(&n); err != nil {
		t.Fatalf("session unusable after cancel: %v", err)
	}
}

func TestCancelRequestWithWrongSecretIsIgnored(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.connect(t)
	sess, _ := ts.factory.last(t)
	done := make(chan error, 1)
	go func() {
		_, err := c.Exec(context.Background(), "sleep")
		done <- err
	}()
	<-sess.started
	raw := ts.dialRaw(t)
	raw.send(&pgproto3.CancelRequest{ProcessID: c.PgConn().PID(), SecretKey: binary.BigEndian.Uint32(c.PgConn().SecretKey()) + 1})
	raw.expectClosed()
	select {
	case err := <-done:
		t.Fatalf("statement ended: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	if err := c.PgConn().CancelRequest(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-done
}

func TestDisconnectCancelsStatement(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	sess, _ := ts.factory.last(t)
	c.send(&pgproto3.Query{String: "sleep"})
	<-sess.started
	c.conn.Close()
	select {
	case err := <-sess.ctxErrs:
		if !errors.Is(err, errClientGone) {
			t.Fatalf("statement context ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("statement still running after the client left")
	}
	waitFor(t, "session close", sess.isClosed)
}

func TestTerminate(t *testing.T) {
	t.Run("idle", func(t *testing.T) {
		ts := startServer(t, nil)
		c := ts.dialRaw(t)
		c.startup("alice", goodToken)
		sess, _ := ts.factory.last(t)
		c.send(&pgproto3.Terminate{})
		c.expectClosed()
		waitFor(t, "session close", sess.isClosed)
	})
	t.Run("while a statement runs", func(t *testing.T) {
		// Terminate waits its turn, as in PostgreSQL; a client that sends
		// it and closes its socket (as drivers do) stops the statement
		// through the closed socket.
		ts := startServer(t, nil)
		c := ts.dialRaw(t)
		c.startup("alice", goodToken)
		sess, _ := ts.factory.last(t)
		c.send(&pgproto3.Query{String: "sleep"})
		<-sess.started
		c.send(&pgproto3.Terminate{})
		c.conn.Close()
		if err := <-sess.ctxErrs; !errors.Is(err, errClientGone) && !errors.Is(err, errTerminated) {
			t.Fatalf("statement context ended with %v", err)
		}
		waitFor(t, "session close", sess.isClosed)
	})
}

func TestShutdownWithActiveClient(t *testing.T) {
	ts := startServer(t, nil)
	idle := ts.dialRaw(t)
	idle.startup("alice", goodToken)
	busy := ts.dialRaw(t)
	busy.startup("bob", goodToken)
	sess, _ := ts.factory.last(t)
	busy.send(&pgproto3.Query{String: "sleep"})
	<-sess.started

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	const want = "ErrorResponse[FATAL 57P01 terminating connection due to administrator command]"
	for _, c := range []*rawClient{idle, busy} {
		if got := c.receive(); got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
		c.expectClosed()
	}
	if err := <-sess.ctxErrs; !errors.Is(err, errShutdown) {
		t.Fatalf("statement context ended with %v", err)
	}
	select {
	case err := <-ts.served:
		if err != nil {
			t.Fatalf("Serve returned %v", err)
		}
		ts.served <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
	if nc, err := net.DialTimeout("tcp", ts.addr, time.Second); err == nil {
		nc.Close()
		t.Fatal("server still accepts connections")
	}
}

func TestServeStopsWhenContextEnds(t *testing.T) {
	srv, err := NewServer(Config{Listen: "127.0.0.1:0"}, fakeAuth{}, &fakeFactory{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()
	waitFor(t, "listener", func() bool { return srv.Addr() != nil })
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
}

func TestOversizedMessage(t *testing.T) {
	tests := []struct {
		name   string
		header []byte
		want   string
	}{
		{"over MaxMessageSize", []byte{'Q', 0, 0, 0x10, 0}, "ErrorResponse[FATAL 54000 message of 4096 bytes exceeds the limit of 1024 bytes]"}, // 4 KiB
		{"absurd length", []byte{'Q', 0x7f, 0xff, 0xff, 0xff}, "ErrorResponse[FATAL 54000 "},                                                    // 2 GiB
		{"unknown message type", []byte{'@', 0, 0, 0, 4}, "ErrorResponse[FATAL 08P01 "},                                                         // not a frontend message
		{"negative length", []byte{'Q', 0, 0, 0, 2}, "ErrorResponse[FATAL 08P01 "},                                                              // shorter than itself
		{"password outside authentication", []byte{'p', 0, 0, 0, 5}, "ErrorResponse[FATAL 08P01 "},                                              // a 'p' message after login
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, func(c *Config) { c.MaxMessageSize = 1024 })
			c := ts.dialRaw(t)
			c.startup("alice", goodToken)
			msg := tt.header
			if tt.header[0] == 'p' {
				msg = append(msg, 0)
			}
			if _, err := c.conn.Write(msg); err != nil {
				t.Fatal(err)
			}
			if got := c.receive(); !strings.HasPrefix(got, tt.want) {
				t.Fatalf("got %s, want %s...", got, tt.want)
			}
			c.expectClosed()
		})
	}
}

func TestMessageWithinLimitIsAccepted(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxMessageSize = 1024 })
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	c.send(&pgproto3.Query{String: "vacuum " + strings.Repeat("x", 1000)})
	if got := c.receiveUntilReady(); got[0] != "CommandComplete[VACUUM]" {
		t.Fatal(got)
	}
}

func TestExtendedErrorSkipsToSync(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	c.send(
		&pgproto3.Bind{PreparedStatement: "missing"},
		&pgproto3.Parse{Query: "select ints"},
		&pgproto3.Bind{},
		&pgproto3.Describe{ObjectType: 'P'},
		&pgproto3.Execute{},
		&pgproto3.Query{String: "select ints"}, // skipped: still before Sync
		&pgproto3.Sync{},
	)
	got := c.receiveUntilReady()
	want := []string{"ErrorResponse[ERROR 26000 prepared statement \"missing\" does not exist]", "ReadyForQuery[I]"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %v", got)
	}
	sess, _ := ts.factory.last(t)
	if n := len(sess.statements()); n != 0 {
		t.Fatalf("%d statements ran while skipping to Sync", n)
	}
	c.send(&pgproto3.Query{String: "select many 1"})
	if got := c.receiveUntilReady(); got[1] != "DataRow[0]" {
		t.Fatal(got)
	}
}

func TestUnexpectedMessages(t *testing.T) {
	t.Run("function call", func(t *testing.T) {
		ts := startServer(t, nil)
		c := ts.dialRaw(t)
		c.startup("alice", goodToken)
		c.send(&pgproto3.FunctionCall{Function: 1})
		got := c.receiveUntilReady()
		if len(got) != 2 || !strings.HasPrefix(got[0], "ErrorResponse[ERROR 08P01") {
			t.Fatal(got)
		}
	})
	t.Run("copy messages outside COPY", func(t *testing.T) {
		// PostgreSQL drops them: they are what a client still sends
		// after its COPY FROM STDIN failed.
		ts := startServer(t, nil)
		c := ts.dialRaw(t)
		c.startup("alice", goodToken)
		c.send(&pgproto3.CopyData{Data: []byte("1\n")}, &pgproto3.CopyDone{}, &pgproto3.CopyFail{Message: "late"})
		c.send(&pgproto3.Query{String: "select many 1"})
		if got := c.receiveUntilReady(); len(got) < 2 || got[1] != "DataRow[0]" {
			t.Fatal(got)
		}
	})
}

func TestPipelinedQueries(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	for i := 0; i < 50; i++ {
		c.send(&pgproto3.Query{String: "select many 2"})
	}
	for i := 0; i < 50; i++ {
		if got := c.receiveUntilReady(); len(got) != 5 || got[3] != "CommandComplete[SELECT 2]" {
			t.Fatalf("query %d: %v", i, got)
		}
	}
}

func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		ts := startServer(t, nil)
		for i := 0; i < 5; i++ {
			c := ts.dialRaw(t)
			c.startup("alice", goodToken)
			c.send(&pgproto3.Query{String: "select ints"})
			c.receiveUntilReady()
			if i%2 == 0 {
				c.send(&pgproto3.Terminate{})
			}
			c.conn.Close()
		}
		waitFor(t, "connections to end", func() bool {
			ts.srv.mu.Lock()
			defer ts.srv.mu.Unlock()
			return len(ts.srv.conns) == 0
		})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := ts.srv.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		after := runtime.NumGoroutine()
		if after <= before {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines: %d before, %d after\n%s", before, after, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
