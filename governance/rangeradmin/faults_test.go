package rangeradmin

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/compat-tests/faultproxy"
	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestRangerAdminOutage puts Ranger Admin behind a fault proxy: while it
// is unreachable, failing or hanging, gate one's statements are refused
// with 58030 within the HTTP timeout and the retries, nothing of a
// refused GRANT is written, and the same Service works again when Ranger
// returns.
func TestRangerAdminOutage(t *testing.T) {
	f := newFakeRanger(t)
	proxy, err := faultproxy.Start(strings.TrimPrefix(f.server.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proxy.Close() })
	const timeout = 300 * time.Millisecond
	s, err := New(Config{URL: proxy.URL(), ServiceName: f.service, AdminUser: f.user, AdminPassword: f.password,
		AdminRoles: []string{"sqe_admin"}, RetryDelay: time.Millisecond, HTTPClient: &http.Client{Timeout: timeout}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, alice))
	dave := grants.Grantee{Kind: grants.GranteeUser, Name: "dave"}

	statements := map[string]func() error{
		"GRANT": func() error {
			_, err := s.Change(ctx, carol, grants.ActionGrant, statement("SELECT", orders, dave))
			return err
		},
		"SHOW GRANTS": func() error {
			_, err := s.ShowGrants(ctx, carol, access.GrantFilter{Object: "wh.sales.orders"})
			return err
		},
		"CHECK ACCESS": func() error {
			_, err := s.CheckAccess(ctx, carol, "SELECT", orders, "alice")
			return err
		},
	}
	// Each read is tried three times, each bounded by the timeout; the
	// margin is for a loaded machine.
	bound := 3*timeout + 10*time.Second
	for _, fault := range []struct {
		name    string
		apply   func()
		message string
	}{
		{"unreachable", proxy.Drop, "Ranger Admin unreachable while trying to"},
		{"503", func() { proxy.Fail(http.StatusServiceUnavailable) }, "Ranger Admin failed to"},
		{"hanging", proxy.Hang, "Ranger Admin unreachable while trying to"},
	} {
		fault.apply()
		for name, call := range statements {
			start := time.Now()
			err := call()
			took := time.Since(start)
			pe := pgerror.From(err)
			if err == nil || pe.Code != pgerror.IOError || !strings.HasPrefix(pe.Message, fault.message) {
				t.Errorf("%s: %s: %v, want 58030 %q...", fault.name, name, err, fault.message)
			}
			if err != nil && strings.Contains(err.Error(), f.password) {
				t.Errorf("%s: %s: the error carries the password", fault.name, name)
			}
			if took > bound {
				t.Errorf("%s: %s took %s, want it refused within %s", fault.name, name, took, bound)
			}
		}
	}

	proxy.Forward()
	rows, err := s.ShowGrants(ctx, carol, access.GrantFilter{Object: "wh.sales.orders"})
	if err != nil {
		t.Fatalf("SHOW GRANTS after Ranger returned: %v", err)
	}
	var grantees []string
	for _, r := range rows {
		if r.AccessType == "table-data-read" {
			grantees = append(grantees, r.Grantee)
		}
	}
	if strings.Join(grantees, ",") != "alice" {
		t.Errorf("table-data-read grantees after the outage = %q, want alice only (no refused GRANT written)", grantees)
	}
	run(t, s, carol, grants.ActionGrant, statement("SELECT", orders, dave))
}
