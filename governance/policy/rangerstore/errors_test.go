package rangerstore

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestRangerAdminErrors checks what a client is told when Ranger Admin
// refuses or fails, and that the password is in none of it.
func TestRangerAdminErrors(t *testing.T) {
	put := func(s *Store) error { return s.PutPolicy(context.Background(), rowFilter("eu_rows", "true"), false) }
	drop := func(s *Store) error { _, err := s.DropPolicy(context.Background(), "eu_rows"); return err }
	snap := func(s *Store) error { _, err := s.Snapshot(context.Background()); return err }
	project := func(s *Store) error {
		return s.ProjectColumnTags(context.Background(), "acdemo", "orders", map[string][]string{"ssn": {"PII"}})
	}
	for _, tc := range []struct {
		name    string
		setup   func(f *fakeRanger, cfg *Config)
		call    func(s *Store) error
		code    string
		message string
	}{
		{name: "wrong password on download", setup: func(_ *fakeRanger, cfg *Config) { cfg.AdminPassword = "wrong-pw" },
			call: snap, code: pgerror.InvalidAuthorizationSpecification, message: `did not accept the server's credentials (user "admin")`},
		{name: "wrong password on write", setup: func(_ *fakeRanger, cfg *Config) { cfg.AdminPassword = "wrong-pw" },
			call: put, code: pgerror.InvalidAuthorizationSpecification, message: "did not accept the server's credentials"},
		{name: "write forbidden", setup: func(f *fakeRanger, _ *Config) { f.forbidWrites = true },
			call: put, code: pgerror.InsufficientPrivilege, message: `permission denied to write policy "eu_rows"`},
		{name: "drop forbidden", setup: func(f *fakeRanger, _ *Config) {
			f.forbidWrites = true
			f.nextID++
			f.policies[f.nextID] = rowFilterPolicy("query", "eu_rows", "orders", "engineer", "true")
			f.policies[f.nextID]["id"] = float64(f.nextID)
		}, call: drop, code: pgerror.InsufficientPrivilege, message: `permission denied to drop policy "eu_rows"`},
		{name: "server error on write", setup: func(f *fakeRanger, _ *Config) { f.down = true },
			call: put, code: codeSystemError, message: "Ranger Admin failed to read Ranger service \"query\": HTTP 503"},
		{name: "no such service on download", setup: func(_ *fakeRanger, cfg *Config) { cfg.ServiceName = "nosuch" },
			call: snap, code: pgerror.UndefinedObject, message: `Ranger Admin has no service "nosuch"`},
		{name: "no such service on write", setup: func(_ *fakeRanger, cfg *Config) { cfg.ServiceName = "nosuch" },
			call: put, code: pgerror.UndefinedObject, message: `Ranger Admin has no service "nosuch"`},
		{name: "wrong password on tag projection", setup: func(_ *fakeRanger, cfg *Config) { cfg.AdminPassword = "wrong-pw" },
			call: project, code: pgerror.InvalidAuthorizationSpecification, message: "did not accept the server's credentials"},
		{name: "tag projection forbidden", setup: func(f *fakeRanger, _ *Config) { f.forbidWrites = true },
			call: project, code: pgerror.InsufficientPrivilege, message: "permission denied to write the column tags of acdemo.orders to Ranger's tag store"},
		{name: "server error on tag projection", setup: func(f *fakeRanger, _ *Config) { f.down = true },
			call: project, code: codeSystemError, message: "Ranger Admin failed to read Ranger service \"query\": HTTP 503"},
		{name: "no such service on tag projection", setup: func(_ *fakeRanger, cfg *Config) { cfg.ServiceName = "nosuch" },
			call: project, code: pgerror.UndefinedObject, message: `Ranger Admin has no service "nosuch"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeRanger(t, "query_tag")
			cfg := Config{URL: f.server.URL, ServiceName: f.service, AdminUser: f.user, AdminPassword: f.password, Now: newClock().now, ProjectTags: true}
			f.set(func(f *fakeRanger) { tc.setup(f, &cfg) })
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			err = tc.call(s)
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != tc.code || !strings.Contains(pe.Message, tc.message) {
				t.Fatalf("error = %v, want %s containing %q", err, tc.code, tc.message)
			}
			for _, text := range []string{pe.Message, pe.Detail, pe.Hint, err.Error(), errors.Unwrap(err).Error()} {
				if strings.Contains(text, f.password) || strings.Contains(text, cfg.AdminPassword) {
					t.Errorf("error text %q carries the password", text)
				}
			}
		})
	}
}

func TestConfigChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no url", Config{ServiceName: "query", AdminUser: "admin"}, "url is not set"},
		{"not http", Config{URL: "ftp://ranger:6080", ServiceName: "query", AdminUser: "admin"}, "not an http(s) URL"},
		{"credentials in url", Config{URL: "http://admin:pw@ranger:6080", ServiceName: "query", AdminUser: "admin"}, "must not carry credentials"},
		{"no service", Config{URL: "http://ranger:6080", AdminUser: "admin"}, "service-name is not set"},
		{"no user", Config{URL: "http://ranger:6080", ServiceName: "query"}, "admin-user is not set"},
		{"client without timeout", Config{URL: "http://ranger:6080", ServiceName: "query", AdminUser: "admin", HTTPClient: &http.Client{}}, "no timeout"},
		{"negative ttl", Config{URL: "http://ranger:6080", ServiceName: "query", AdminUser: "admin", CacheTTL: -1}, "must not be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v, want an error containing %q", err, tc.want)
			}
		})
	}
	s, err := New(Config{URL: "http://ranger:6080/", ServiceName: "query", AdminUser: "admin", AdminPassword: "s3cret-pw"})
	if err != nil {
		t.Fatal(err)
	}
	if s.cfg.URL != "http://ranger:6080" || s.cfg.CacheTTL != DefaultCacheTTL || s.cfg.HTTPClient.Timeout != DefaultTimeout {
		t.Errorf("defaults = %q %s %s, want the trimmed URL, %s and %s", s.cfg.URL, s.cfg.CacheTTL, s.cfg.HTTPClient.Timeout, DefaultCacheTTL, DefaultTimeout)
	}
	if strings.Contains(s.cfg.String(), "s3cret-pw") {
		t.Errorf("String() = %q carries the password", s.cfg.String())
	}
}
