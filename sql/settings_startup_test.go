package sql

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
	"github.com/sqe-db/sqe/storage/demo"
)

// newStartupEngine is an engine over the demo tables of "sales_wh".
func newStartupEngine(t *testing.T) *Engine {
	t.Helper()
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	if err := demo.Load(storage.WithPrincipal(ctx, storage.Principal{User: "loader"}), cat, 10); err != nil {
		t.Fatal(err)
	}
	return NewEngine(EngineConfig{ServerVersion: "15.18"}, []storage.Catalog{cat}, governance.Passthrough{})
}

// TestStartupSettingsApply: the startup packet's settings are the
// session's values and what RESET returns to; the GUC_REPORT ones are
// reported.
func TestStartupSettingsApply(t *testing.T) {
	e := newStartupEngine(t)
	s, err := e.NewSession(context.Background(), auth.Identity{User: "alice"}, "sales_wh", []StartupSetting{
		{"search_path", "acdemo"}, {"application_name", "héllo"}, {"DateStyle", "iso"}, {"TimeZone", "Europe/Berlin"},
		{"extra_float_digits", "2.5"}, {"statement_timeout", "4999.6"}, {"client_encoding", "utf-8"},
		{"IntervalStyle", "POSTGRES"}, {"default_transaction_read_only", "on"}, {"transaction_read_only", "on"},
		{"session_authorization", "alice"}, {"myapp.tenant", "t1"},
		// A later setting of the same name wins.
		{"datestyle", "ISO, MDY"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const query = "SELECT count(*), current_setting('search_path'), current_setting('application_name'), current_setting('DateStyle')," +
		" current_setting('TimeZone'), current_setting('extra_float_digits'), current_setting('statement_timeout')," +
		" current_setting('client_encoding'), current_setting('default_transaction_read_only'), current_setting('myapp.tenant') FROM orders"
	want := []string{"3|acdemo|h??llo|ISO, MDY|Europe/Berlin|2|5s|UTF8|on|t1"}
	rows, _, err := run(t, s, query)
	if err != nil || !reflect.DeepEqual(rows, want) {
		t.Fatalf("session = %q, %v; want %q", rows, err, want)
	}
	rep := s.ReportedParameters()
	for name, v := range map[string]string{"application_name": "h??llo", "TimeZone": "Europe/Berlin", "default_transaction_read_only": "on", "in_hot_standby": "off"} {
		if rep[name] != v {
			t.Errorf("reported %s = %q, want %q", name, rep[name], v)
		}
	}
	for _, name := range []string{"search_path", "server_version_num", "statement_timeout"} {
		if _, ok := rep[name]; ok {
			t.Errorf("%s is reported: PostgreSQL 15 does not report it", name)
		}
	}
	rows, _, err = run(t, s, "SET search_path = public; SET application_name = 'x'; SET myapp.tenant = 't2'; RESET ALL; "+query)
	if err != nil || !reflect.DeepEqual(rows, want) {
		t.Fatalf("after RESET ALL = %q, %v; want the startup values %q", rows, err, want)
	}
	rows, _, err = run(t, s, "SHOW ALL")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if strings.HasPrefix(r, "myapp.") {
			t.Errorf("SHOW ALL lists the custom parameter %q (PostgreSQL does not)", r)
		}
	}
}

// TestStartupSettingsRefused: each error is PostgreSQL 15's for the same
// startup packet, except where SQE cannot honour a valid value.
func TestStartupSettingsRefused(t *testing.T) {
	e := newStartupEngine(t)
	tests := []struct {
		name, value   string
		code, message string
		detail        string
	}{
		{"foo", "bar", pgerror.UndefinedObject, `unrecognized configuration parameter "foo"`, ""},
		{"DateStyle", "xyz", pgerror.InvalidParameterValue, `invalid value for parameter "DateStyle": "xyz"`, `Unrecognized key word: "xyz".`},
		{"datestyle", "iso, dmy, sql", pgerror.InvalidParameterValue, `invalid value for parameter "DateStyle": "iso, dmy, sql"`, `Conflicting "datestyle" specifications.`},
		{"search_path", "a b", pgerror.InvalidParameterValue, `invalid value for parameter "search_path": "a b"`, "List syntax is invalid."},
		{"search_path", "a,,b", pgerror.InvalidParameterValue, `invalid value for parameter "search_path": "a,,b"`, "List syntax is invalid."},
		{"extra_float_digits", "99", pgerror.InvalidParameterValue, `99 is outside the valid range for parameter "extra_float_digits" (-15 .. 3)`, ""},
		{"extra_float_digits", "x", pgerror.InvalidParameterValue, `invalid value for parameter "extra_float_digits": "x"`, ""},
		{"statement_timeout", "abc", pgerror.InvalidParameterValue, `invalid value for parameter "statement_timeout": "abc"`, ""},
		{"statement_timeout", "-1", pgerror.InvalidParameterValue, `-1 ms is outside the valid range for parameter "statement_timeout" (0 .. 2147483647)`, ""},
		{"TimeZone", "Nowhere/Zone", pgerror.InvalidParameterValue, `invalid value for parameter "TimeZone": "Nowhere/Zone"`, ""},
		{"client_encoding", "bogus", pgerror.InvalidParameterValue, `invalid value for parameter "client_encoding": "bogus"`, ""},
		{"IntervalStyle", "xx", pgerror.InvalidParameterValue, `invalid value for parameter "IntervalStyle": "xx"`, ""},
		{"Server_Version", "1", pgerror.CantChangeRuntimeParam, `parameter "Server_Version" cannot be changed`, ""},
		{"is_superuser", "on", pgerror.CantChangeRuntimeParam, `parameter "is_superuser" cannot be changed`, ""},
		{"lc_collate", "C", pgerror.CantChangeRuntimeParam, `parameter "lc_collate" cannot be changed`, ""},
		{"in_hot_standby", "on", pgerror.CantChangeRuntimeParam, `parameter "in_hot_standby" cannot be changed`, ""},
		{"a..b", "1", pgerror.InvalidName, `invalid configuration parameter name "a..b"`, "Custom parameter names must be two or more simple identifiers separated by dots."},
		{"1a.b", "1", pgerror.InvalidName, `invalid configuration parameter name "1a.b"`, "Custom parameter names must be two or more simple identifiers separated by dots."},
		{"transaction_isolation", "serializable", pgerror.ActiveSQLTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query", ""},
		// Valid in PostgreSQL, not honoured by SQE: refused, never ignored.
		{"DateStyle", "German", pgerror.FeatureNotSupported, "SQE supports only DateStyle = 'ISO, MDY'", ""},
		{"IntervalStyle", "iso_8601", pgerror.FeatureNotSupported, "SQE supports only IntervalStyle = 'postgres'", ""},
		{"client_encoding", "latin-1", pgerror.FeatureNotSupported, "SQE supports only client_encoding = 'UTF8'", ""},
		{"extra_float_digits", "0", pgerror.FeatureNotSupported, "SQE supports only extra_float_digits from 1 to 3", ""},
		{"session_authorization", "bob", pgerror.InsufficientPrivilege, "permission denied to set session authorization", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name+"="+tt.value, func(t *testing.T) {
			s, err := e.NewSession(context.Background(), auth.Identity{User: "alice"}, "sales_wh", []StartupSetting{{tt.name, tt.value}})
			if err == nil {
				s.Close()
				t.Fatal("session opened")
			}
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != tt.code || pe.Message != tt.message || pe.Detail != tt.detail || pe.Severity != "FATAL" {
				t.Fatalf("err = %+v, want FATAL %s %q %q", err, tt.code, tt.message, tt.detail)
			}
		})
	}
}

// TestSetChecksValues: SET checks values as the startup packet does.
func TestSetChecksValues(t *testing.T) {
	tests := []struct {
		query    string
		wantRows []string
		wantCode string
	}{
		{query: "SET search_path = ''; SHOW search_path", wantRows: []string{`""`}},
		{query: "SET search_path = 'a b'; SHOW search_path", wantRows: []string{`"a b"`}},
		{query: "SET application_name = 'héllo'; SHOW application_name", wantRows: []string{"h??llo"}},
		{query: "SET DateStyle = 'iso'; SHOW DateStyle", wantRows: []string{"ISO, MDY"}},
		{query: "SET DateStyle = 'US, ISO'; SHOW DateStyle", wantRows: []string{"ISO, MDY"}},
		{query: "SET DateStyle = 'default'; SHOW DateStyle", wantRows: []string{"ISO, MDY"}},
		{query: "SET DateStyle = 'xyz'", wantCode: pgerror.InvalidParameterValue},
		{query: "SET DateStyle = 'SQL, DMY'", wantCode: pgerror.FeatureNotSupported},
		{query: "SET statement_timeout = 1.5; SHOW statement_timeout", wantRows: []string{"2ms"}},
		{query: "SET lock_timeout = '1x'", wantCode: pgerror.InvalidParameterValue},
		{query: "SET extra_float_digits = 3; SHOW extra_float_digits", wantRows: []string{"3"}},
		{query: "SET extra_float_digits = 4", wantCode: pgerror.InvalidParameterValue},
		{query: "SET client_encoding = 'unicode'; SHOW client_encoding", wantRows: []string{"UTF8"}},
		{query: "SET server_version = '1'", wantCode: pgerror.CantChangeRuntimeParam},
		{query: "SET integer_datetimes = on", wantCode: pgerror.CantChangeRuntimeParam},
		{query: "SET myapp.tenant = 't1'; SHOW myapp.tenant", wantRows: []string{"t1"}},
		{query: "SET myapp.tenant = 't1'; RESET myapp.tenant; SHOW myapp.tenant", wantRows: []string{""}},
		{query: "SHOW myapp.never_set", wantCode: pgerror.UndefinedObject},
		{query: "SELECT set_config('myapp..x', '1', false)", wantCode: pgerror.InvalidName},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			s := newTestSession(t)
			rows, _, err := run(t, s, tt.query)
			if tt.wantCode != "" {
				if pgerror.Code(err) != tt.wantCode {
					t.Fatalf("err = %v, want %s", err, tt.wantCode)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(rows, tt.wantRows) {
				t.Fatalf("rows = %q, %v; want %q", rows, err, tt.wantRows)
			}
		})
	}
}

func TestSplitIdentifierList(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		ok   bool
	}{
		{"", nil, true},
		{"  ", nil, true},
		{`"$user", public`, []string{"$user", "public"}, true},
		{`A, "B c" ,d`, []string{"a", "B c", "d"}, true},
		{`"a""b"`, []string{`a"b`}, true},
		{`""`, []string{""}, true},
		{"a b", nil, false},
		{"a,,b", nil, false},
		{"a,", nil, false},
		{`"a`, nil, false},
	}
	for _, tt := range tests {
		got, ok := splitIdentifierList(tt.in)
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitIdentifierList(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
