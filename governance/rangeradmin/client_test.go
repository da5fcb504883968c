package rangeradmin

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sqe-db/sqe/governance/rangerrest"
	"github.com/sqe-db/sqe/governance/rangerrest/rangertest"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestReadRetries checks which answers a read tries again, and that a
// 304, which no request here asks for, is an error rather than an empty
// answer.
func TestReadRetries(t *testing.T) {
	for _, tc := range []struct {
		name     string
		statuses []int // the answers, in order; the last repeats
		attempts int32
		code     string // SQLSTATE of the user error; "" for success
	}{
		{"an answer at once", []int{http.StatusOK}, 1, ""},
		{"past two 503s", []int{http.StatusServiceUnavailable, http.StatusServiceUnavailable, http.StatusOK}, 3, ""},
		{"500 on every attempt", []int{http.StatusInternalServerError}, 3, pgerror.IOError},
		{"404 is not retried", []int{http.StatusNotFound}, 1, pgerror.InternalError},
		{"304 is refused", []int{http.StatusNotModified}, 1, pgerror.InternalError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(calls.Add(1))
				status := tc.statuses[min(n, len(tc.statuses))-1]
				if status == http.StatusOK {
					rangertest.WriteJSON(w, []map[string]any{{"id": 1}})
					return
				}
				w.WriteHeader(status)
			}))
			defer srv.Close()
			c := &client{rest: rangerrest.New(rangerrest.Config{URL: srv.URL, User: "admin", Password: "s3cret-pw",
				HTTPClient: &http.Client{Timeout: 5 * time.Second}}), readAttempts: 3, retryDelay: time.Millisecond}
			var out []map[string]any
			err := c.get(context.Background(), policyPath, nil, &out)
			if got := calls.Load(); got != tc.attempts {
				t.Errorf("attempts = %d, want %d", got, tc.attempts)
			}
			if (err == nil) != (tc.code == "") || err != nil && sqlstate(userError(err, "list policies")) != tc.code {
				t.Fatalf("error %v, want SQLSTATE %q", err, tc.code)
			}
			if err == nil && len(out) != 1 {
				t.Errorf("out = %v, want the one policy answered", out)
			}
		})
	}
}
