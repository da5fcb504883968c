package faultproxy

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// get asks the proxy for / with a client that gives up after timeout,
// and returns the status and body, or the error.
func get(t *testing.T, p *Proxy, timeout time.Duration) (int, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL()+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

func TestProxyModes(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "from the target")
	}))
	defer target.Close()
	p, err := Start(strings.TrimPrefix(target.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	steps := []struct {
		name       string
		apply      func()
		wantStatus int    // 0: the request fails
		wantBody   string // a substring of the answer
		atLeast    time.Duration
	}{
		{name: "forward", apply: p.Forward, wantStatus: 200, wantBody: "from the target"},
		{name: "fail 503", apply: func() { p.Fail(http.StatusServiceUnavailable) }, wantStatus: 503, wantBody: "injected fault"},
		{name: "drop", apply: p.Drop},
		{name: "hang", apply: p.Hang},
		{name: "delay", apply: func() { p.Delay(300 * time.Millisecond) }, wantStatus: 200, wantBody: "from the target", atLeast: 300 * time.Millisecond},
		{name: "forward again", apply: p.Forward, wantStatus: 200, wantBody: "from the target"},
	}
	for _, s := range steps {
		s.apply()
		start := time.Now()
		status, body, err := get(t, p, 2*time.Second)
		took := time.Since(start)
		if s.wantStatus == 0 {
			if err == nil {
				t.Errorf("%s: answered %d %q, want no answer", s.name, status, body)
			}
			continue
		}
		if err != nil || status != s.wantStatus || !strings.Contains(body, s.wantBody) {
			t.Errorf("%s: %d %q %v, want %d with %q", s.name, status, body, err, s.wantStatus, s.wantBody)
		}
		if took < s.atLeast {
			t.Errorf("%s: answered after %s, want at least %s", s.name, took, s.atLeast)
		}
	}
	if p.Accepted() < int64(len(steps)) {
		t.Errorf("accepted %d connections, want at least one per step (%d)", p.Accepted(), len(steps))
	}
}

// A connection kept alive across a mode change meets the new mode.
func TestModeChangeClosesOpenConnections(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "ok")
	}))
	defer target.Close()
	p, err := Start(strings.TrimPrefix(target.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if status, _, err := get(t, p, 2*time.Second); err != nil || status != 200 {
		t.Fatalf("forward: %d %v", status, err)
	}
	p.Fail(http.StatusBadGateway)
	if status, _, err := get(t, p, 2*time.Second); err != nil || status != http.StatusBadGateway {
		t.Fatalf("after switching to fail: %d %v, want 502 on the pooled client", status, err)
	}
	if got := p.Mode(); got != Fail {
		t.Errorf("mode = %s, want fail", got)
	}
}

// Close returns with a connection still hanging, and the port is closed.
func TestCloseEndsHungConnections(t *testing.T) {
	p, err := Start("127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	p.Hang()
	errs := make(chan error, 1)
	go func() {
		_, _, err := get(t, p, time.Minute)
		errs <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for p.Accepted() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case err := <-errs:
		if err == nil {
			t.Error("the hung request got an answer")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hung request is still open after Close")
	}
	if _, _, err := get(t, p, 2*time.Second); err == nil {
		t.Error("the closed proxy still answers")
	}
}
