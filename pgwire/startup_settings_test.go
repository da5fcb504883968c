package pgwire

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestSplitOptions(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"-c search_path=s", []string{"-c", "search_path=s"}},
		{"  -c\tsearch_path=s  --DateStyle=ISO ", []string{"-c", "search_path=s", "--DateStyle=ISO"}},
		// A backslash makes the next character literal: a space, or a
		// backslash itself.
		{`-c application_name=my\ app`, []string{"-c", "application_name=my app"}},
		{`-c application_name=a\\ b`, []string{"-c", `application_name=a\`, "b"}},
		{`-c application_name=a\\\ b`, []string{"-c", `application_name=a\ b`}},
		{`-c search_path=a\,\ "b"`, []string{"-c", `search_path=a, "b"`}},
	}
	for _, tt := range tests {
		if got := splitOptions(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitOptions(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStartupSettings(t *testing.T) {
	tests := []struct {
		name     string
		params   map[string]string
		want     []sql.StartupSetting
		wantCode string
		wantMsg  string
	}{
		{name: "not settings", params: map[string]string{"user": "alice", "database": "d", "replication": "false", "_pq_.x": "1"}},
		{name: "options first, then the packet's own parameters",
			params: map[string]string{"options": "-c search_path=a --search-path=b -csearch_path=c", "search_path": "d", "application_name": "x"},
			want: []sql.StartupSetting{{Name: "search_path", Value: "a"}, {Name: "search_path", Value: "b"}, {Name: "search_path", Value: "c"},
				{Name: "application_name", Value: "x"}, {Name: "search_path", Value: "d"}}},
		{name: "-c takes the next argument", params: map[string]string{"options": "-c  DateStyle=ISO,\\ MDY"},
			want: []sql.StartupSetting{{Name: "DateStyle", Value: "ISO, MDY"}}},
		{name: "end of switches", params: map[string]string{"options": "--statement-timeout=5s --"},
			want: []sql.StartupSetting{{Name: "statement_timeout", Value: "5s"}}},
		{name: "not a switch", params: map[string]string{"options": "search_path=s"},
			wantCode: pgerror.SyntaxError, wantMsg: "invalid command-line argument for server process: search_path=s"},
		{name: "-c without a value", params: map[string]string{"options": "-c search_path"},
			wantCode: pgerror.SyntaxError, wantMsg: "-c search_path requires a value"},
		{name: "-- without a value", params: map[string]string{"options": "--search_path"},
			wantCode: pgerror.SyntaxError, wantMsg: "--search_path requires a value"},
		{name: "-c at the end", params: map[string]string{"options": "-c"},
			wantCode: pgerror.SyntaxError, wantMsg: "invalid command-line argument for server process: -c"},
		{name: "argument after --", params: map[string]string{"options": "-- x"},
			wantCode: pgerror.SyntaxError, wantMsg: "invalid command-line argument for server process: x"},
		{name: "unknown switch", params: map[string]string{"options": "-x"},
			wantCode: pgerror.SyntaxError, wantMsg: "invalid command-line argument for server process: -x"},
		{name: "server switch", params: map[string]string{"options": "-B 100"},
			wantCode: pgerror.FeatureNotSupported, wantMsg: "the server switch -B is not supported in options"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := startupSettings(tt.params)
			if tt.wantCode != "" {
				var pe *pgerror.Error
				if !errors.As(err, &pe) || pe.Code != tt.wantCode || pe.Message != tt.wantMsg {
					t.Fatalf("err = %v, want %s %q", err, tt.wantCode, tt.wantMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("settings = %q, want %q", got, tt.want)
			}
		})
	}
}

// newSmallEngineSessions is an engine over a catalog "sales" holding the
// demo tables with few rows.
func newSmallEngineSessions(t *testing.T) engineSessions {
	t.Helper()
	return demoEngineSessions(t, 10, sql.EngineConfig{ServerVersion: "15.18"})
}

// TestStartupParametersApply connects with settings in the startup packet
// and in options: the session starts with them, reports the GUC_REPORT
// ones and RESET returns to them.
func TestStartupParametersApply(t *testing.T) {
	ts := startServerWith(t, func(c *Config) { c.ServerVersion = "15.18" }, newSmallEngineSessions(t))
	cfg := ts.pgxConfig(t, goodToken, "disable")
	cfg.RuntimeParams["options"] = `-c search_path=acdemo --statement-timeout=5s -c application_name=from\ options`
	cfg.RuntimeParams["application_name"] = "from packet"
	cfg.RuntimeParams["TimeZone"] = "Europe/Berlin"
	cfg.RuntimeParams["myapp.tenant"] = "t1"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	pc := c.PgConn()
	for name, want := range map[string]string{
		"application_name": "from packet", "TimeZone": "Europe/Berlin", "search_path": "", "statement_timeout": "",
	} {
		if got := pc.ParameterStatus(name); got != want {
			t.Errorf("ParameterStatus %s = %q, want %q", name, got, want)
		}
	}
	var path, timeout, tenant string
	var n int
	if err := c.QueryRow(ctx, "SELECT current_setting('search_path'), current_setting('statement_timeout'), current_setting('myapp.tenant'), count(*) FROM orders").
		Scan(&path, &timeout, &tenant, &n); err != nil {
		t.Fatal(err)
	}
	if path != "acdemo" || timeout != "5s" || tenant != "t1" || n != 3 {
		t.Fatalf("session = %q %q %q %d, want acdemo 5s t1 3", path, timeout, tenant, n)
	}
	if _, err := c.Exec(ctx, "SET search_path = public"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, "RESET search_path"); err != nil {
		t.Fatal(err)
	}
	if err := c.QueryRow(ctx, "SHOW search_path").Scan(&path); err != nil || path != "acdemo" {
		t.Fatalf("after RESET search_path = %q, %v; want the startup value acdemo", path, err)
	}
	if _, err := c.Exec(ctx, "SET application_name = 'other'"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, "RESET ALL"); err != nil {
		t.Fatal(err)
	}
	if got := pc.ParameterStatus("application_name"); got != "from packet" {
		t.Fatalf("application_name after RESET ALL = %q, want the startup value", got)
	}
}

// TestStartupParametersRefused: an unknown parameter or an invalid value
// fails the connection with PostgreSQL 15's FATAL error.
func TestStartupParametersRefused(t *testing.T) {
	ts := startServerWith(t, nil, newSmallEngineSessions(t))
	tests := []struct {
		name      string
		params    map[string]string
		code, msg string
		detail    string
	}{
		{name: "unknown", params: map[string]string{"foo": "bar"},
			code: "42704", msg: `unrecognized configuration parameter "foo"`},
		{name: "unknown in options", params: map[string]string{"options": "-c foo=bar"},
			code: "42704", msg: `unrecognized configuration parameter "foo"`},
		{name: "invalid DateStyle", params: map[string]string{"DateStyle": "xyz"},
			code: "22023", msg: `invalid value for parameter "DateStyle": "xyz"`, detail: `Unrecognized key word: "xyz".`},
		{name: "invalid search_path", params: map[string]string{"options": `-c search_path=a\ b`},
			code: "22023", msg: `invalid value for parameter "search_path": "a b"`, detail: "List syntax is invalid."},
		{name: "extra_float_digits out of range", params: map[string]string{"extra_float_digits": "99"},
			code: "22023", msg: `99 is outside the valid range for parameter "extra_float_digits" (-15 .. 3)`},
		{name: "invalid statement_timeout", params: map[string]string{"statement_timeout": "abc"},
			code: "22023", msg: `invalid value for parameter "statement_timeout": "abc"`},
		{name: "unknown zone", params: map[string]string{"TimeZone": "Nowhere/Zone"},
			code: "22023", msg: `invalid value for parameter "TimeZone": "Nowhere/Zone"`},
		{name: "unknown encoding", params: map[string]string{"client_encoding": "bogus"},
			code: "22023", msg: `invalid value for parameter "client_encoding": "bogus"`},
		{name: "internal", params: map[string]string{"server_version": "1"},
			code: "55P02", msg: `parameter "server_version" cannot be changed`},
		{name: "bad custom name", params: map[string]string{"a..b": "1"},
			code: "42602", msg: `invalid configuration parameter name "a..b"`,
			detail: "Custom parameter names must be two or more simple identifiers separated by dots."},
		{name: "options syntax", params: map[string]string{"options": "search_path=s"},
			code: "42601", msg: "invalid command-line argument for server process: search_path=s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := ts.pgxConfig(t, goodToken, "disable")
			for k, v := range tt.params {
				cfg.RuntimeParams[k] = v
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, err := pgx.ConnectConfig(ctx, cfg)
			if err == nil {
				c.Close(ctx)
				t.Fatal("connected")
			}
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Severity != "FATAL" || pe.Code != tt.code || pe.Message != tt.msg || pe.Detail != tt.detail {
				t.Fatalf("err = %v (%+v), want FATAL %s %q %q", err, pe, tt.code, tt.msg, tt.detail)
			}
		})
	}
}
