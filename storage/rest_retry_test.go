package storage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sqe-db/sqe/compat-tests/faultproxy"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// fastRetries keeps the tests' backoff short; the attempts are the
// default.
var fastRetries = RESTConfig{RetryBackoff: time.Millisecond}

// failFirst answers the first n requests matching match with status and
// lets the rest through; count says how many matched in all.
type failFirst struct {
	mu      sync.Mutex
	n       int
	status  int
	typ     string
	matched int
}

func (f *failFirst) fault(match func(r *http.Request, path string) bool) func(*http.Request, string) (int, string, string, bool) {
	return func(r *http.Request, path string) (int, string, string, bool) {
		if !match(r, path) {
			return 0, "", "", false
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		f.matched++
		if f.matched <= f.n {
			return f.status, f.typ, "injected by the test", true
		}
		return 0, "", "", false
	}
}

func (f *failFirst) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.matched
}

func TestRESTReadRetries(t *testing.T) {
	f, cat, alice, tbl := restOrders(t, fastRetries)
	if _, err := tbl.Append(alice, idBatches(t, 1, 3, 10)); err != nil {
		t.Fatal(err)
	}
	loadOrders := func(r *http.Request, path string) bool {
		return r.Method == http.MethodGet && strings.HasSuffix(path, "/tables/orders")
	}
	listNamespaces := func(r *http.Request, path string) bool {
		return r.Method == http.MethodGet && strings.HasSuffix(path, "/namespaces")
	}
	commitOrders := func(r *http.Request, path string) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(path, "/tables/orders")
	}
	load := func() error {
		got, err := cat.LoadTable(alice, "sales", "orders")
		if err == nil && fmt.Sprint(scanIDs(t, alice, got)) != "[1 2]" {
			return errors.New("the table loaded after retries reads other rows")
		}
		return err
	}
	list := func() error { _, err := cat.ListNamespaces(alice); return err }
	appendRow := func() error { _, err := tbl.Append(alice, idBatches(t, 9, 10, 10)); return err }

	cases := []struct {
		name      string
		fail      *failFirst
		match     func(*http.Request, string) bool
		op        func() error
		wantCode  string // "" for success
		wantMsg   string
		wantTries int
	}{
		{name: "503 twice, then the table", fail: &failFirst{n: 2, status: 503, typ: "ServiceUnavailableException"},
			match: loadOrders, op: load, wantTries: 3},
		{name: "502 once, then the namespaces", fail: &failFirst{n: 1, status: 502, typ: "ServiceFailureException"},
			match: listNamespaces, op: list, wantTries: 2},
		{name: "500 on every attempt", fail: &failFirst{n: 99, status: 500, typ: "ServiceFailureException"},
			match: loadOrders, op: load, wantCode: "58000", wantMsg: `catalog "lake" failed with a server error`,
			wantTries: DefaultRESTReadAttempts},
		{name: "503 on every attempt", fail: &failFirst{n: 99, status: 503, typ: "ServiceUnavailableException"},
			match: listNamespaces, op: list, wantCode: "58000", wantMsg: `catalog "lake" is unavailable`,
			wantTries: DefaultRESTReadAttempts},
		{name: "501 is not transient", fail: &failFirst{n: 99, status: 501, typ: "NotImplementedException"},
			match: loadOrders, op: load, wantCode: "58000", wantTries: 1},
		{name: "403 is an answer", fail: &failFirst{n: 99, status: 403, typ: "ForbiddenException"},
			match: loadOrders, op: load, wantCode: "42501", wantMsg: "permission denied for table orders", wantTries: 1},
		{name: "a commit is sent once", fail: &failFirst{n: 99, status: 503, typ: "ServiceUnavailableException"},
			match: commitOrders, op: appendRow, wantCode: "58000",
			wantMsg:   `catalog "lake" failed while committing to lake.sales.orders; the commit may or may not have taken effect`,
			wantTries: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f.setFault(tc.fail.fault(tc.match))
			defer f.setFault(nil)
			err := tc.op()
			if tc.wantCode == "" {
				if err != nil {
					t.Fatalf("error %v, want success after retries", err)
				}
			} else {
				pe := pgerror.From(err)
				if pe.Code != tc.wantCode || (tc.wantMsg != "" && pe.Message != tc.wantMsg) {
					t.Errorf("got %s %q (%v), want %s %q", pe.Code, pe.Message, err, tc.wantCode, tc.wantMsg)
				}
			}
			if got := tc.fail.count(); got != tc.wantTries {
				t.Errorf("the catalog was asked %d times, want %d", got, tc.wantTries)
			}
		})
	}
	// Nothing of the refused commit is visible.
	got, err := cat.LoadTable(alice, "sales", "orders")
	if err != nil {
		t.Fatal(err)
	}
	if ids := fmt.Sprint(scanIDs(t, alice, got)); ids != "[1 2]" {
		t.Errorf("after the refused commit the table reads %s, want [1 2]", ids)
	}
}

// A session that gives up while a read waits to be retried is not held
// for the rest of the backoff.
func TestRESTRetryStopsWithTheContext(t *testing.T) {
	f := newFakeREST(t, restAlice.Token)
	cat := openFakeREST(t, f, RESTConfig{ReadAttempts: 10, RetryBackoff: time.Hour})
	var fail failFirst
	fail.n, fail.status, fail.typ = 99, 503, "ServiceUnavailableException"
	f.setFault(fail.fault(func(*http.Request, string) bool { return true }))

	ctx, cancel := context.WithTimeout(WithPrincipal(t.Context(), restAlice), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := cat.ListNamespaces(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the context's deadline", err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("ListNamespaces returned after %s, want soon after the deadline", took)
	}
	if got := fail.count(); got != 1 {
		t.Errorf("the catalog was asked %d times, want once before the deadline", got)
	}
}

// A catalog that cannot be reached, or answers 5xx, is a clear 58000 with
// the token nowhere in it; when it comes back the same catalog works
// again, without reopening.
func TestRESTCatalogOutageAndRecovery(t *testing.T) {
	f := newFakeREST(t, restAlice.Token)
	proxy, err := faultproxy.Start(strings.TrimPrefix(f.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proxy.Close() })
	cfg := fastRetries
	cfg.Name, cfg.URI, cfg.Warehouse = "lake", proxy.URL(), "wh"
	cat, err := OpenREST(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cat.Close() })
	alice := WithPrincipal(t.Context(), restAlice)
	if err := cat.CreateNamespace(alice, "sales"); err != nil {
		t.Fatal(err)
	}

	steps := []struct {
		name     string
		apply    func()
		wantCode string
		wantMsg  string
		wantConn int64 // connections the proxy accepted for the step, at least
	}{
		{name: "unreachable", apply: proxy.Drop, wantCode: "58000", wantMsg: `catalog "lake" is unreachable`,
			wantConn: DefaultRESTReadAttempts},
		{name: "502 from a gateway", apply: func() { proxy.Fail(http.StatusBadGateway) }, wantCode: "58000",
			wantMsg: `catalog "lake" failed with a server error`, wantConn: 1},
		{name: "back", apply: proxy.Forward, wantConn: 1},
	}
	for _, s := range steps {
		s.apply()
		before := proxy.Accepted()
		names, err := cat.ListNamespaces(alice)
		if s.wantCode == "" {
			if err != nil || fmt.Sprint(names) != "[sales]" {
				t.Errorf("%s: %v, %v; want [sales]", s.name, names, err)
			}
		} else {
			pe := pgerror.From(err)
			if pe.Code != s.wantCode || pe.Message != s.wantMsg || len(names) != 0 {
				t.Errorf("%s: %v, %s %q (%v); want no names and %s %q", s.name, names, pe.Code, pe.Message, err, s.wantCode, s.wantMsg)
			}
			if strings.Contains(err.Error(), restAlice.Token) {
				t.Errorf("%s: the error carries the token: %v", s.name, err)
			}
		}
		if got := proxy.Accepted() - before; got < s.wantConn {
			t.Errorf("%s: %d connections reached the proxy, want at least %d", s.name, got, s.wantConn)
		}
	}
}
