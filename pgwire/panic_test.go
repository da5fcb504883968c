package pgwire

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgproto3/v2"
)

// panicMarker makes a panickyConn panic in whichever goroutine reads it.
const panicMarker = "trip-the-socket-reader"

// panickyListener hands out connections whose Read panics when the bytes
// read contain panicMarker: a stand-in for a bug in any code a
// connection's goroutines run while reading.
type panickyListener struct{ net.Listener }

func (l panickyListener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return panickyConn{nc}, nil
}

type panickyConn struct{ net.Conn }

func (c panickyConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if bytes.Contains(p[:n], []byte(panicMarker)) {
		panic("socket reader bug")
	}
	return n, err
}

// startPanickyServer is startServer over a panickyListener.
func startPanickyServer(t *testing.T) *testServer {
	t.Helper()
	ts := &testServer{factory: &fakeFactory{}, logs: &syncBuffer{}, served: make(chan error, 1)}
	logger := slog.New(slog.NewTextHandler(ts.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := NewServer(Config{Listen: "127.0.0.1:0", StartupTimeout: 5 * time.Second}, fakeAuth{}, ts.factory, logger)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.ln = panickyListener{ln} // Serve uses a listener already set
	ts.srv, ts.addr = srv, ln.Addr().String()
	ts.serve(t)
	return ts
}

// TestPanicInEveryConnectionGoroutine panics in each goroutine a
// connection runs: the handler during startup, the reader goroutine after
// login and the processor (the fake session's "panic" statement). Each
// time the client gets FATAL XX000 with a request id, the panic is logged
// under that id, the connection closes, and another connection carries
// on.
func TestPanicInEveryConnectionGoroutine(t *testing.T) {
	tests := []struct {
		name      string
		login     bool // log in before sending trigger
		sleeping  bool // and start a statement that runs until cancelled
		trigger   []pgproto3.FrontendMessage
		wantInLog string
	}{
		{"handler during startup", false, false,
			[]pgproto3.FrontendMessage{&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
				Parameters: map[string]string{"user": "alice", "application_name": panicMarker}}},
			"panic in connection handler: socket reader bug"},
		{"reader between statements", true, false,
			[]pgproto3.FrontendMessage{&pgproto3.Query{String: "select '" + panicMarker + "'"}},
			"panic in frontend message reader: socket reader bug"},
		{"reader while a statement runs", true, true,
			[]pgproto3.FrontendMessage{&pgproto3.Query{String: "select '" + panicMarker + "'"}},
			"panic in frontend message reader: socket reader bug"},
		{"processor", true, false,
			[]pgproto3.FrontendMessage{&pgproto3.Query{String: "panic"}},
			"panic in statement processing: session bug"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startPanickyServer(t)
			other := ts.connect(t)
			c := ts.dialRaw(t)
			if tt.login {
				if got := c.startup("alice", goodToken); got[len(got)-1] != "ReadyForQuery[I]" {
					t.Fatalf("login: %v", got)
				}
			}
			var sleeper *fakeSession
			if tt.sleeping {
				c.send(&pgproto3.Query{String: "sleep"})
				sleeper, _ = ts.factory.last(t)
				waitFor(t, "the statement to start", func() bool { return len(sleeper.started) > 0 })
			}
			c.send(tt.trigger...)
			got := c.receive()
			m := regexp.MustCompile(`^ErrorResponse\[FATAL XX000 internal error \(request id ([0-9a-f]{8})\)\]$`).FindStringSubmatch(got)
			if m == nil {
				t.Fatalf("got %s, want FATAL XX000 with a request id", got)
			}
			c.expectClosed()
			if sleeper != nil {
				if err := <-sleeper.ctxErrs; err == nil {
					t.Fatal("the running statement was not cancelled")
				}
			}
			if err := other.Ping(context.Background()); err != nil {
				t.Fatalf("another connection broke: %v", err)
			}
			for _, line := range strings.Split(ts.logs.String(), "\n") {
				if strings.Contains(line, "request_id="+m[1]) && strings.Contains(line, tt.wantInLog) {
					return
				}
			}
			t.Fatalf("no log line with request_id=%s and %q:\n%s", m[1], tt.wantInLog, ts.logs.String())
		})
	}
}
