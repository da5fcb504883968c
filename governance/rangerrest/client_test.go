package rangerrest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/governance/rangerrest/rangertest"
)

const (
	testUser     = "admin"
	testPassword = "s3cret-pw"
)

// echo answers what the request carried, as the fake sees it.
func echo(w http.ResponseWriter, r *http.Request) {
	body, _ := rangertest.Decode[map[string]any](w, r)
	rangertest.WriteJSON(w, map[string]any{
		"method": r.Method, "path": r.URL.Path, "query": r.URL.RawQuery,
		"accept": r.Header.Get("Accept"), "contentType": r.Header.Get("Content-Type"), "body": body})
}

func TestDo(t *testing.T) {
	longMessage := strings.Repeat("x", 600)
	for _, tc := range []struct {
		name     string
		handler  http.HandlerFunc
		method   string
		query    url.Values
		body     any
		password string // "" is testPassword
		status   int
		out      map[string]any // the decoded answer; nil when none
		// errStatus is the *HTTPError's status, errMessage its Message;
		// errText is in the error's text of any other failure.
		errStatus  int
		errMessage string
		errText    string
	}{
		{name: "a JSON request and answer", handler: echo, method: http.MethodPost,
			query: url.Values{"serviceName": {"a b"}}, body: map[string]any{"name": "p1"}, status: http.StatusOK,
			out: map[string]any{"method": "POST", "path": "/service/x", "query": "serviceName=a+b",
				"accept": "application/json", "contentType": "application/json", "body": map[string]any{"name": "p1"}}},
		{name: "a read sends no content type", handler: func(w http.ResponseWriter, r *http.Request) {
			rangertest.WriteJSON(w, map[string]any{"contentType": r.Header.Get("Content-Type")})
		}, method: http.MethodGet, status: http.StatusOK, out: map[string]any{"contentType": ""}},
		{name: "an empty answer decodes nothing", handler: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNoContent)
		}, method: http.MethodDelete, status: http.StatusNoContent},
		{name: "304 is not an error", handler: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotModified)
		}, method: http.MethodGet, status: http.StatusNotModified},
		{name: "wrong password", handler: echo, method: http.MethodGet, password: "wrong-pw",
			status: http.StatusUnauthorized, errStatus: http.StatusUnauthorized},
		{name: "Ranger's msgDesc", handler: func(w http.ResponseWriter, r *http.Request) {
			rangertest.RESTError(w, http.StatusForbidden, "User 'admin' does not have delegated-admin privilege")
		}, method: http.MethodPut, status: http.StatusForbidden, errStatus: http.StatusForbidden,
			errMessage: "User 'admin' does not have delegated-admin privilege"},
		{name: "Ranger's messageList without msgDesc", handler: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"statusCode":1,"messageList":[{"name":"INVALID_INPUT_DATA","message":"first"},{"message":"second"}]}`)
		}, method: http.MethodPost, status: http.StatusBadRequest, errStatus: http.StatusBadRequest, errMessage: "first"},
		{name: "a body not Ranger's is not kept", handler: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, "<html><body>Service Unavailable %s</body></html>", r.Header.Get("Authorization"))
		}, method: http.MethodGet, status: http.StatusServiceUnavailable, errStatus: http.StatusServiceUnavailable},
		{name: "a long message is cut", handler: func(w http.ResponseWriter, r *http.Request) {
			rangertest.RESTError(w, http.StatusInternalServerError, longMessage)
		}, method: http.MethodGet, status: http.StatusInternalServerError, errStatus: http.StatusInternalServerError,
			errMessage: longMessage[:500] + "..."},
		{name: "an answer not JSON", handler: func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "<html></html>")
		}, method: http.MethodGet, status: http.StatusOK, errText: "GET /service/x: decode answer"},
		{name: "an answer longer than the bound", handler: func(w http.ResponseWriter, r *http.Request) {
			rangertest.WriteJSON(w, map[string]any{"name": strings.Repeat("y", 8192)})
		}, method: http.MethodGet, status: http.StatusOK, errText: "decode answer: unexpected end of JSON input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if rangertest.Authenticated(w, r, testUser, testPassword) {
					tc.handler(w, r)
				}
			}))
			defer srv.Close()
			password := tc.password
			if password == "" {
				password = testPassword
			}
			c := New(Config{URL: srv.URL, User: testUser, Password: password,
				HTTPClient: &http.Client{Timeout: 5 * time.Second}, MaxAnswer: 4096})
			var out map[string]any
			status, err := c.Do(context.Background(), tc.method, "/service/x", tc.query, tc.body, &out)
			if status != tc.status {
				t.Errorf("status = %d, want %d", status, tc.status)
			}
			if fmt.Sprint(out) != fmt.Sprint(tc.out) {
				t.Errorf("out = %v, want %v", out, tc.out)
			}
			var he *HTTPError
			switch {
			case tc.errStatus != 0:
				if !errors.As(err, &he) || he.Status != tc.errStatus || he.Message != tc.errMessage {
					t.Fatalf("error = %#v, want an *HTTPError %d with message %q", err, tc.errStatus, tc.errMessage)
				}
				if he.Method != tc.method || he.Path != "/service/x" {
					t.Errorf("error names %s %s, want %s /service/x", he.Method, he.Path, tc.method)
				}
			case tc.errText != "":
				if err == nil || !strings.Contains(err.Error(), tc.errText) {
					t.Fatalf("error = %v, want one containing %q", err, tc.errText)
				}
			case err != nil:
				t.Fatalf("error = %v, want none", err)
			}
			if err != nil && (strings.Contains(err.Error(), password) || strings.Contains(err.Error(), "Basic ")) {
				t.Errorf("error %q carries the credentials", err)
			}
		})
	}
}

func TestDoWithoutAnswer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	c := New(Config{URL: base, User: testUser, Password: testPassword, HTTPClient: &http.Client{Timeout: 5 * time.Second}})
	status, err := c.Do(context.Background(), http.MethodGet, "/service/x", nil, nil, nil)
	var ne *NetworkError
	if status != 0 || !errors.As(err, &ne) || ne.Method != http.MethodGet || ne.Path != "/service/x" || ne.Err == nil {
		t.Fatalf("Do = %d, %#v, want 0 and a *NetworkError for GET /service/x", status, err)
	}
	if StatusOf(err) != 0 {
		t.Errorf("StatusOf = %d, want 0 for no answer", StatusOf(err))
	}
	if strings.Contains(err.Error(), testPassword) {
		t.Errorf("error %q carries the password", err)
	}
}
