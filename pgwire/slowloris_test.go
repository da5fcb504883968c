package pgwire

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgproto3/v2"
)

// TestSlowStartupIsDropped trickles the startup phase one byte at a time,
// each byte well inside any per-read timeout but the whole far beyond
// StartupTimeout: the server must drop the client when StartupTimeout
// has passed since it connected, however busy the client keeps the socket,
// and release its slot.
func TestSlowStartupIsDropped(t *testing.T) {
	const (
		timeout = 300 * time.Millisecond
		pace    = 20 * time.Millisecond // per byte: each trickle below takes over 3x timeout
	)
	startup := &pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": "alice", "database": "sales", "application_name": "slow"}}
	enc := func(m pgproto3.FrontendMessage) []byte {
		b, err := m.Encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name    string
		prefix  pgproto3.FrontendMessage // sent at once, answered by a password prompt
		trickle []byte
	}{
		{"startup message", nil, enc(startup)},
		{"password", startup, enc(&pgproto3.PasswordMessage{Password: goodToken})},
		{"SSLRequest then startup message", nil, append(enc(&pgproto3.SSLRequest{}), enc(startup)...)},
		{"startup packet declaring more than it sends", nil, packet(0, 9000, append(u32(protocolVersion30), "user\x00alice\x00database\x00sales\x00application_name\x00slow\x00"...))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if time.Duration(len(tt.trickle))*pace < 3*timeout {
				t.Fatalf("trickle of %d bytes too short to outlast the timeout", len(tt.trickle))
			}
			ts := startServer(t, func(c *Config) { c.StartupTimeout = timeout })
			// The server's deadline runs from its accept, which follows
			// this start and precedes dialRaw's return.
			start := time.Now()
			c := ts.dialRaw(t)
			if tt.prefix != nil {
				c.send(tt.prefix)
				if got := c.receive(); got != "AuthenticationCleartextPassword" {
					t.Fatalf("got %s", got)
				}
			}
			var sent atomic.Int64
			done := make(chan struct{})
			go func() {
				defer close(done)
				for _, b := range tt.trickle {
					if _, err := c.conn.Write([]byte{b}); err != nil {
						return
					}
					sent.Add(1)
					time.Sleep(pace)
				}
			}()
			c.expectClosed()
			elapsed := time.Since(start)
			c.conn.Close() // ends the trickle
			<-done
			if n := sent.Load(); int(n) >= len(tt.trickle) {
				t.Fatalf("the whole input (%d bytes) was sent before the server closed after %s", n, elapsed)
			}
			if elapsed < timeout || elapsed > timeout+3*time.Second {
				t.Fatalf("dropped after %s; StartupTimeout is %s", elapsed, timeout)
			}
			waitFor(t, "the connection's slot to be released", func() bool {
				ts.srv.mu.Lock()
				defer ts.srv.mu.Unlock()
				return len(ts.srv.conns) == 0 && ts.srv.slotsUse == 0
			})
		})
	}
}
