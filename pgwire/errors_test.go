package pgwire

import (
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgproto3/v2"
)

// receiveError reads messages up to ReadyForQuery and returns the one
// ErrorResponse among them.
func (c *rawClient) receiveError() *pgproto3.ErrorResponse {
	c.t.Helper()
	var out *pgproto3.ErrorResponse
	for {
		msg, err := c.fe.Receive()
		if err != nil {
			c.t.Fatalf("receive: %v", err)
		}
		switch m := msg.(type) {
		case *pgproto3.ErrorResponse:
			cp := *m
			out = &cp
		case *pgproto3.ReadyForQuery:
			if out == nil {
				c.t.Fatal("no error before ReadyForQuery")
			}
			return out
		}
	}
}

// What a client sees of each kind of error with debug off and on: user
// errors as made; internal ones (XX000, class 58, errors without a
// SQLSTATE) as their SQLSTATE, a short message and a request id under
// which the cause is logged, the cause itself only with debug.
func TestErrorSanitisation(t *testing.T) {
	requestID := regexp.MustCompile(`\(request id ([0-9a-f]{8})\)$`)
	tests := []struct {
		name    string
		sql     string
		code    string
		message string // the message without its request id
		// internal errors carry a request id; secret is in their cause.
		internal bool
		secret   string
	}{
		{"user error", "fail", "42P01", `relation "missing" does not exist`, false, ""},
		{"error without a SQLSTATE", "internal", "XX000", "internal error", true, "secret-location"},
		{"system error with a path and an upstream body", "system error", "58030", "could not read data file of table t", true, "secret-location/data.parquet"},
		{"system error detail", "system error", "58030", "could not read data file of table t", true, "secret-body"},
	}
	for _, debug := range []bool{false, true} {
		for _, tt := range tests {
			name := tt.name
			if debug {
				name += " with debug"
			}
			t.Run(name, func(t *testing.T) {
				ts := startServer(t, func(cfg *Config) { cfg.Debug = debug })
				c := ts.dialRaw(t)
				c.startup("alice", goodToken)
				c.send(&pgproto3.Query{String: tt.sql})
				e := c.receiveError()
				if e.Code != tt.code {
					t.Fatalf("code %s (%s), want %s", e.Code, e.Message, tt.code)
				}
				if !tt.internal {
					if e.Message != tt.message {
						t.Errorf("message %q, want %q", e.Message, tt.message)
					}
					return
				}
				m := requestID.FindStringSubmatch(e.Message)
				if m == nil || strings.TrimSpace(strings.TrimSuffix(e.Message, m[0])) != tt.message {
					t.Fatalf("message %q, want %q and a request id", e.Message, tt.message)
				}
				client := e.Message + "|" + e.Detail + "|" + e.Hint + "|" + e.Where
				for _, leak := range []string{"/srv/", "s3://", "*fs.PathError", "<html>"} {
					if strings.Contains(e.Message, leak) || (!debug && strings.Contains(client, leak)) {
						t.Errorf("the client sees %q: %s", leak, client)
					}
				}
				if debug != strings.Contains(e.Detail, tt.secret) {
					t.Errorf("debug %v: detail %q, want the cause %q in it only with debug", debug, e.Detail, tt.secret)
				}
				var logged string
				for _, line := range strings.Split(ts.logs.String(), "\n") {
					if strings.Contains(line, "request_id="+m[1]) {
						logged = line
					}
				}
				if !strings.Contains(logged, tt.secret) {
					t.Errorf("the cause %q is not logged under request id %s:\n%s", tt.secret, m[1], ts.logs.String())
				}
				// The session carries on.
				c.send(&pgproto3.Query{String: "select ints"})
				if got := c.receiveUntilReady(); !strings.HasPrefix(got[len(got)-1], "ReadyForQuery") || strings.HasPrefix(got[0], "ErrorResponse") {
					t.Errorf("after the error: %v", got)
				}
			})
		}
	}
}

// A panic's FATAL error carries the request id its log line has.
func TestPanicRequestIDIsLogged(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	c.send(&pgproto3.Query{String: "panic"})
	m := regexp.MustCompile(`^ErrorResponse\[FATAL XX000 internal error \(request id ([0-9a-f]{8})\)\]$`).FindStringSubmatch(c.receive())
	if m == nil {
		t.Fatal("no FATAL internal error with a request id")
	}
	c.expectClosed()
	for _, line := range strings.Split(ts.logs.String(), "\n") {
		if strings.Contains(line, "request_id="+m[1]) && strings.Contains(line, "session bug") {
			return
		}
	}
	t.Fatalf("the panic is not logged under request id %s:\n%s", m[1], ts.logs.String())
}
