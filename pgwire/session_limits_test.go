package pgwire

import (
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestSessionLimitsExpired(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	limits := sessionLimits{idle: 5 * time.Minute, lifetime: 8 * time.Hour}
	tests := []struct {
		name      string
		limits    sessionLimits
		now       time.Time
		idleSince time.Time // zero: working
		inTx      bool
		want      string // SQLSTATE, "" for none
	}{
		{"fresh and working", limits, t0.Add(time.Minute), time.Time{}, false, ""},
		{"idle within the limit", limits, t0.Add(10 * time.Minute), t0.Add(6 * time.Minute), false, ""},
		{"idle past the limit", limits, t0.Add(10 * time.Minute), t0.Add(5 * time.Minute), false, pgerror.IdleSessionTimeout},
		{"idle in a transaction block", limits, t0.Add(10 * time.Minute), t0.Add(time.Minute), true, pgerror.IdleInTransactionSessionTimeout},
		{"working for long is not idle", limits, t0.Add(7 * time.Hour), time.Time{}, false, ""},
		{"past its lifetime while working", limits, t0.Add(8 * time.Hour), time.Time{}, false, pgerror.AdminShutdown},
		{"past its lifetime while idle", limits, t0.Add(9 * time.Hour), t0.Add(8*time.Hour + 59*time.Minute), false, pgerror.AdminShutdown},
		{"no limits", sessionLimits{}, t0.Add(1000 * time.Hour), t0, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			end := tt.limits.expired(tt.now, t0, tt.idleSince, tt.inTx)
			got := ""
			if end != nil {
				got = end.err.Code
				if end.err.Severity != pgerror.SeverityFatal {
					t.Errorf("severity %s, want FATAL", end.err.Severity)
				}
			}
			if got != tt.want {
				t.Errorf("expired = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSweepInterval(t *testing.T) {
	tests := []struct {
		limits sessionLimits
		want   time.Duration
	}{
		{sessionLimits{}, 0},
		{sessionLimits{idle: time.Hour}, time.Second},
		{sessionLimits{idle: time.Hour, lifetime: 2 * time.Second}, 200 * time.Millisecond},
		{sessionLimits{lifetime: 100 * time.Millisecond}, 50 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := tt.limits.sweepInterval(); got != tt.want {
			t.Errorf("%+v: interval %s, want %s", tt.limits, got, tt.want)
		}
	}
}

func TestTokenExpired(t *testing.T) {
	exp := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		expiry time.Time
		grace  time.Duration
		now    time.Time
		want   bool
	}{
		{"before expiry", exp, 0, exp.Add(-time.Second), false},
		{"past expiry", exp, 0, exp.Add(time.Second), true},
		{"within the grace", exp, time.Minute, exp.Add(30 * time.Second), false},
		{"past the grace", exp, time.Minute, exp.Add(61 * time.Second), true},
		{"no expiry", time.Time{}, 0, exp, false},
	}
	for _, tt := range tests {
		if got := tokenExpired(tt.expiry, tt.grace, tt.now); got != tt.want {
			t.Errorf("%s: tokenExpired = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSessionLimitsEndSessions runs sessions into their limits over the
// wire: each client sees the FATAL error, then the server closes.
func TestSessionLimitsEndSessions(t *testing.T) {
	tests := []struct {
		name   string
		cfg    func(*Config)
		before []string // queries run first
		during string   // a query still running when the limit strikes
		want   string
	}{
		{"idle", func(c *Config) { c.IdleTimeout = 200 * time.Millisecond }, nil, "",
			"ErrorResponse[FATAL 57P05 terminating connection due to idle-session timeout]"},
		{"idle in a transaction block", func(c *Config) { c.IdleTimeout = 200 * time.Millisecond }, []string{"begin"}, "",
			"ErrorResponse[FATAL 25P03 terminating connection due to idle-in-transaction timeout]"},
		{"lifetime, while a statement runs", func(c *Config) { c.SessionLifetime = 300 * time.Millisecond }, nil, "sleep",
			"ErrorResponse[FATAL 57P01 terminating connection due to session lifetime limit]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, tt.cfg)
			c := ts.dialRaw(t)
			if got := c.startup("alice", goodToken); !strings.HasPrefix(got[len(got)-1], "ReadyForQuery") {
				t.Fatalf("startup: %v", got)
			}
			for _, q := range tt.before {
				c.send(&pgproto3.Query{String: q})
				c.receiveUntilReady()
			}
			if tt.during != "" {
				c.send(&pgproto3.Query{String: tt.during})
			}
			start := time.Now()
			if got := c.receive(); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
			if elapsed := time.Since(start); elapsed > 8*time.Second {
				t.Errorf("the session ended %s after its limit", elapsed.Round(time.Millisecond))
			}
			c.expectClosed()
			sess, _ := ts.factory.last(t)
			waitFor(t, "session close", sess.isClosed)
		})
	}
}

func TestActiveSessionIsNotIdle(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.IdleTimeout = 300 * time.Millisecond })
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	// Queries every 50ms for over three idle timeouts.
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		c.send(&pgproto3.Query{String: "select ints"})
		if got := c.receiveUntilReady(); len(got) != 5 {
			t.Fatalf("query: %v", got)
		}
	}
}

func TestExpiredTokenEndsSessionAtNextStatement(t *testing.T) {
	const fatalExpired = "ErrorResponse[FATAL 28000 terminating connection because the session's token has expired]"
	tests := []struct {
		name  string
		grace time.Duration
		msgs  []pgproto3.FrontendMessage
		want  string // the first reply
	}{
		{"simple query", 0, []pgproto3.FrontendMessage{&pgproto3.Query{String: "select ints"}}, fatalExpired},
		{"extended query", 0, []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "select ints"}, &pgproto3.Sync{}}, fatalExpired},
		{"within the grace", time.Hour, []pgproto3.FrontendMessage{&pgproto3.Query{String: "select ints"}}, "RowDescription[n:20/8/-1/16384/1,s:1043/-1/14/16384/2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, func(c *Config) { c.TokenExpiryGrace = tt.grace })
			c := ts.dialRaw(t)
			if got := c.startup("alice", expiredToken); !strings.HasPrefix(got[len(got)-1], "ReadyForQuery") {
				t.Fatalf("startup: %v", got)
			}
			c.send(tt.msgs...)
			if got := c.receive(); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
			if tt.want == fatalExpired {
				c.expectClosed()
				sess, _ := ts.factory.last(t)
				if n := len(sess.statements()); n != 0 {
					t.Errorf("%d statements ran after the token expired", n)
				}
			}
		})
	}
}
