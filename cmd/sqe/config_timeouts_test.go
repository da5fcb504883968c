package main

import (
	"testing"
	"time"
)

func TestTimeoutConfig(t *testing.T) {
	tests := []configCase{
		{name: "defaults", check: func(t *testing.T, c Config) {
			q := c.queryTimeouts()
			if q.Default != 5*time.Minute || q.ByRole != nil || c.Session.IdleTimeoutSecs != 900 || c.Session.AbsoluteTimeoutSecs != 28800 || c.Session.TokenExpiryGraceSecs != 30 {
				t.Errorf("defaults: query %+v, session %+v", q, c.Session)
			}
		}},
		{name: "defaults kept by the demo", env: []string{"SQE_DEMO=true"}, check: func(t *testing.T, c Config) {
			if !c.Demo || c.Query.TimeoutSecs != 300 || c.Session.IdleTimeoutSecs != 900 || c.Session.AbsoluteTimeoutSecs != 28800 {
				t.Errorf("demo: query %+v, session %+v", c.Query, c.Session)
			}
		}},
		{name: "0 lifts each bound", file: "[query]\ntimeout_secs = 0\n[session]\nidle_timeout_secs = 0\nabsolute_timeout_secs = 0\n",
			check: func(t *testing.T, c Config) {
				if q := c.queryTimeouts(); q.Default != 0 || c.Session.IdleTimeoutSecs != 0 || c.Session.AbsoluteTimeoutSecs != 0 {
					t.Errorf("query %+v, session %+v", q, c.Session)
				}
			}},
		{name: "file", file: "[query]\ntimeout_secs = 5\n[query.role_overrides]\nsqe_admin = 0\nengineer = 60\n[session]\nidle_timeout_secs = 300\nabsolute_timeout_secs = 86400\ntoken_expiry_grace_secs = 0\n",
			check: func(t *testing.T, c Config) {
				q := c.queryTimeouts()
				if q.Default != 5*time.Second || len(q.ByRole) != 2 || q.ByRole["sqe_admin"] != 0 || q.ByRole["engineer"] != time.Minute {
					t.Errorf("query timeouts %+v", q)
				}
				if c.Session.IdleTimeoutSecs != 300 || c.Session.AbsoluteTimeoutSecs != 86400 || c.Session.TokenExpiryGraceSecs != 0 {
					t.Errorf("session %+v", c.Session)
				}
			}},
		{name: "environment", env: []string{"SQE_QUERY__TIMEOUT_SECS=2", "SQE_QUERY__ROLE_OVERRIDES__OPS=90", "SQE_SESSION__IDLE_TIMEOUT_SECS=10"},
			check: func(t *testing.T, c Config) {
				q := c.queryTimeouts()
				if q.Default != 2*time.Second || q.ByRole["ops"] != 90*time.Second || c.Session.IdleTimeoutSecs != 10 {
					t.Errorf("query %+v, session %+v", q, c.Session)
				}
			}},
		{name: "negative timeout", env: []string{"SQE_QUERY__TIMEOUT_SECS=-1"}, wantErr: "[query] timeout_secs must be between 0"},
		{name: "negative override", file: "[query.role_overrides]\nops = -5\n", wantErr: "[query.role_overrides] ops must be between 0"},
		{name: "idle timeout past a year", env: []string{"SQE_SESSION__IDLE_TIMEOUT_SECS=99999999999"}, wantErr: "[session] idle_timeout_secs"},
		{name: "unknown session key", file: "[session]\nidle_timeout = 5\n", wantErr: "unknown key(s): session.idle_timeout"},
		{name: "wire limits", file: "[pgwire]\nmax_message_size = \"16MiB\"\nstartup_timeout_secs = 3\n",
			check: func(t *testing.T, c Config) {
				if c.PGWire.MaxMessageSize != 16<<20 || c.PGWire.StartupTimeoutSecs != 3 {
					t.Errorf("pgwire %+v", c.PGWire)
				}
			}},
		{name: "message size too small", env: []string{"SQE_PGWIRE__MAX_MESSAGE_SIZE=100"}, wantErr: "[pgwire] max_message_size must be between 1KiB and 1GiB"},
		{name: "no startup time", env: []string{"SQE_PGWIRE__STARTUP_TIMEOUT_SECS=0"}, wantErr: "[pgwire] startup_timeout_secs must be between 1 and 3600"},
	}
	runConfigCases(t, tests)
}
