package compattests

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestStartupOptionsPsql: PGOPTIONS reaches the server as the startup
// packet's options, and its settings apply to the session as in
// PostgreSQL: a schema set there is where unqualified names resolve.
func TestStartupOptionsPsql(t *testing.T) {
	t.Parallel()
	res := mustPsql(t, shared.server, psqlRun{
		password: shared.token,
		env:      []string{`PGOPTIONS=-c search_path=acdemo --statement-timeout=5s -c application_name=from\ options`},
		args:     unaligned("SHOW search_path; SHOW statement_timeout; SHOW application_name; SELECT count(*) FROM orders"),
	})
	// psql's own application_name (PGAPPNAME) is a startup parameter of
	// its own, so it overrides the one in options.
	want := []string{"acdemo", "5s", "sqe-compat-tests", "3"}
	if got := lines(res.stdout); !reflect.DeepEqual(got, want) {
		t.Fatalf("psql printed %q, want %q", got, want)
	}
}

// TestStartupOptionsPsqlRefused: a parameter PostgreSQL does not know, or
// a value it does not take, ends the connection with its FATAL error.
func TestStartupOptionsPsqlRefused(t *testing.T) {
	t.Parallel()
	tests := []struct{ options, want string }{
		{"-c foo=bar", `FATAL:  unrecognized configuration parameter "foo"`},
		{"-c DateStyle=xyz", `FATAL:  invalid value for parameter "DateStyle": "xyz"` + "\nDETAIL:  Unrecognized key word: \"xyz\"."},
		{`-c search_path=a\ b`, `FATAL:  invalid value for parameter "search_path": "a b"` + "\nDETAIL:  List syntax is invalid."},
		{"search_path=s", "FATAL:  invalid command-line argument for server process: search_path=s"},
	}
	for _, tt := range tests {
		t.Run(tt.options, func(t *testing.T) {
			res := runPsql(t, shared.server, psqlRun{
				password: shared.token,
				env:      []string{"PGOPTIONS=" + tt.options},
				args:     unaligned("SELECT 1"),
			})
			if res.exitCode != 2 || !strings.Contains(res.stderr, tt.want) {
				t.Fatalf("psql exited %d\nstderr:\n%s\nwant exit 2 and %q", res.exitCode, res.stderr, tt.want)
			}
		})
	}
}

// TestStartupRuntimeParamsPgx: pgx sends RuntimeParams as startup
// parameters; the session starts with them and the reported ones come
// back as ParameterStatus.
func TestStartupRuntimeParamsPgx(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	cfg := pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.token)
	cfg.RuntimeParams["search_path"] = "acdemo"
	cfg.RuntimeParams["application_name"] = "sqe-compat-pgx"
	cfg.RuntimeParams["TimeZone"] = "America/Denver"
	cfg.RuntimeParams["statement_timeout"] = "30s"
	conn := connectConfig(t, ctx, cfg)
	pc := conn.PgConn()
	if got := pc.ParameterStatus("application_name"); got != "sqe-compat-pgx" {
		t.Errorf("ParameterStatus application_name = %q", got)
	}
	if got := pc.ParameterStatus("TimeZone"); got != "America/Denver" {
		t.Errorf("ParameterStatus TimeZone = %q", got)
	}
	// search_path is reported from PostgreSQL 18 on, not by 15.
	if got := pc.ParameterStatus("search_path"); got != "" {
		t.Errorf("ParameterStatus search_path = %q: PostgreSQL 15 does not report it", got)
	}
	var schema, timeout string
	var n int64
	if err := conn.QueryRow(ctx, "SELECT current_schema(), current_setting('statement_timeout'), count(*) FROM orders").Scan(&schema, &timeout, &n); err != nil {
		t.Fatal(err)
	}
	if schema != "acdemo" || timeout != "30s" || n != 3 {
		t.Fatalf("session = %q %q %d, want acdemo 30s 3", schema, timeout, n)
	}
	if _, err := conn.Exec(ctx, "SET search_path = public"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "RESET search_path"); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "SHOW search_path").Scan(&schema); err != nil || schema != "acdemo" {
		t.Fatalf("RESET search_path gives %q, %v: want the startup value acdemo", schema, err)
	}
}

// TestStartupRuntimeParamsPgxRefused: an unknown parameter fails the
// connection with FATAL 42704, an invalid value with 22023.
func TestStartupRuntimeParamsPgxRefused(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, value, code, msg string }{
		{"foo", "bar", "42704", `unrecognized configuration parameter "foo"`},
		{"extra_float_digits", "99", "22023", `99 is outside the valid range for parameter "extra_float_digits" (-15 .. 3)`},
		{"TimeZone", "Nowhere/Zone", "22023", `invalid value for parameter "TimeZone": "Nowhere/Zone"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testContext(t, 30*time.Second)
			cfg := pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.token)
			cfg.RuntimeParams[tt.name] = tt.value
			conn, err := pgx.ConnectConfig(ctx, cfg)
			if err == nil {
				_ = conn.Close(ctx)
				t.Fatal("connected")
			}
			pe := asPgError(t, err)
			if pe.Severity != "FATAL" || pe.Code != tt.code || pe.Message != tt.msg {
				t.Fatalf("got %s %s %q, want FATAL %s %q", pe.Severity, pe.Code, pe.Message, tt.code, tt.msg)
			}
		})
	}
}
