package storage

import (
	"io"
	"math/rand/v2"
	"net/http"
	"time"
)

// Defaults of the REST catalog's read retries.
const (
	// DefaultRESTReadAttempts is how often an idempotent read is tried in
	// all when the catalog is unreachable or answers a transient 5xx.
	DefaultRESTReadAttempts = 4
	// DefaultRESTRetryBackoff is the pause before the second attempt; it
	// doubles for each further one, up to restRetryBackoffCap.
	DefaultRESTRetryBackoff = 100 * time.Millisecond
	restRetryBackoffCap     = 2 * time.Second
	// restDrainLimit bounds what is read of a discarded answer so its
	// connection can be reused.
	restDrainLimit = 64 << 10
)

// retryTransport repeats idempotent reads (GET and HEAD: the catalog's
// configuration, namespace and table listings, table metadata) that got
// no answer or a transient server error, with exponential backoff and
// jitter, and gives up early when the request's context ends. Anything
// else, commits above all, is sent once: a POST whose answer was lost may
// have taken effect, and repeating it is the commit loop's decision.
type retryTransport struct {
	next     http.RoundTripper
	attempts int
	backoff  time.Duration
}

func newRetryTransport(next http.RoundTripper, attempts int, backoff time.Duration) *retryTransport {
	if attempts <= 0 {
		attempts = DefaultRESTReadAttempts
	}
	if backoff <= 0 {
		backoff = DefaultRESTRetryBackoff
	}
	return &retryTransport{next: next, attempts: attempts, backoff: backoff}
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !idempotentRead(req) {
		return t.next.RoundTrip(req)
	}
	ctx := req.Context()
	for attempt := 1; ; attempt++ {
		resp, err := t.next.RoundTrip(req)
		if attempt >= t.attempts || ctx.Err() != nil || !transient(resp, err) {
			return resp, err
		}
		if resp != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, restDrainLimit))
			_ = resp.Body.Close()
		}
		timer := time.NewTimer(t.pause(attempt))
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		}
	}
}

// pause is the wait after the given failed attempt: the backoff doubled
// per earlier attempt, capped, with up to half of it added at random so
// that sessions failing together do not retry in step.
func (t *retryTransport) pause(attempt int) time.Duration {
	d := t.backoff << (attempt - 1)
	if d <= 0 || d > restRetryBackoffCap {
		d = restRetryBackoffCap
	}
	return d + rand.N(d/2+1)
}

// CloseIdleConnections lets the catalog release the pooled connections of
// the transport underneath.
func (t *retryTransport) CloseIdleConnections() {
	if c, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// idempotentRead reports whether req may be sent again: a read without a
// body to replay.
func idempotentRead(req *http.Request) bool {
	return (req.Method == http.MethodGet || req.Method == http.MethodHead) &&
		(req.Body == nil || req.Body == http.NoBody)
}

// transient reports whether an attempt failed in a way the next one may
// not: no answer at all, or a server saying it is overloaded, restarting
// or behind a gateway that lost it. Other answers, 501 among them, would
// only be repeated.
func transient(resp *http.Response, err error) bool {
	if err != nil {
		return true
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}
