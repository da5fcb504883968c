package trino

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

const (
	// maxPageBytes bounds one page of the answer. Trino's pages are
	// bounded by its target result size (16 MB by default); this only
	// stops an answer that never ends.
	maxPageBytes = 1 << 28
	// retryAttempts bounds how many times a page is asked for again when
	// Trino, or a gateway in front of it, answers "retry later".
	retryAttempts = 8
	// retryFirstWait is the first wait before asking again: the protocol
	// asks for 50 to 100 milliseconds. Each wait doubles, up to
	// retryMaxWait.
	retryFirstWait = 50 * time.Millisecond
	retryMaxWait   = time.Second
	// cancelTimeout bounds the DELETE that cancels a query on Trino: it is
	// sent on the way out of a statement and must not hold it up.
	cancelTimeout = 2 * time.Second
)

// newRequest is a request to Trino carrying the service user's identity.
func (e *Engine) newRequest(ctx context.Context, method, uri string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, uri, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Trino-User", e.user)
	req.Header.Set("User-Agent", "sqe")
	if e.password != "" {
		req.SetBasicAuth(e.user, e.password)
	}
	return req, nil
}

// post submits sql and returns Trino's first page.
func (e *Engine) post(ctx context.Context, sql string, read *atomic.Int64) (*queryResults, error) {
	req, err := e.newRequest(ctx, http.MethodPost, e.base.String()+"/v1/statement", strings.NewReader(sql))
	if err != nil {
		return nil, unreachable(e.name, err)
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("X-Trino-Source", e.source)
	// Timestamps without a time zone come back as stored, and with their
	// microseconds (without the capability Trino rounds them to
	// milliseconds).
	req.Header.Set("X-Trino-Time-Zone", "UTC")
	req.Header.Set("X-Trino-Client-Capabilities", "PARAMETRIC_DATETIME")
	resp, err := e.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, cancelled(ctx)
		}
		// Whether or not the statement reached Trino, it has not been
		// answered: it may run locally instead.
		return nil, unreachable(e.name, err)
	}
	defer closeBody(resp)
	switch resp.StatusCode {
	case http.StatusOK:
		return e.decode(resp, read)
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, refused(e.name, resp.StatusCode)
	}
	return nil, badStatus(e.name, resp.StatusCode)
}

// get asks for the page at nextUri, again after a short wait while Trino
// or a gateway answers "retry later" (502, 503, 504 or 429), as the
// protocol says.
func (e *Engine) get(ctx context.Context, uri string, read *atomic.Int64) (*queryResults, error) {
	wait := retryFirstWait
	for attempt := 1; ; attempt++ {
		req, err := e.newRequest(ctx, http.MethodGet, uri, nil)
		if err != nil {
			return nil, protocolViolation(e.name, err, "a nextUri that is not a URI")
		}
		resp, err := e.client.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, cancelled(ctx)
			}
			return nil, unreachable(e.name, err)
		}
		switch resp.StatusCode {
		case http.StatusOK:
			page, err := e.decode(resp, read)
			closeBody(resp)
			return page, err
		case http.StatusUnauthorized, http.StatusForbidden:
			closeBody(resp)
			return nil, refused(e.name, resp.StatusCode)
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout, http.StatusTooManyRequests:
			d := retryAfter(resp.Header.Get("Retry-After"), wait)
			closeBody(resp)
			if attempt >= retryAttempts {
				return nil, badStatus(e.name, resp.StatusCode)
			}
			if err := sleep(ctx, d); err != nil {
				return nil, err
			}
			wait = min(2*wait, retryMaxWait)
			continue
		}
		closeBody(resp)
		return nil, badStatus(e.name, resp.StatusCode)
	}
}

// retryAfter is how long to wait before asking again: the Retry-After
// header's seconds when it gives them, bounded, else def.
func retryAfter(header string, def time.Duration) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(header)); err == nil && s >= 0 {
		return min(time.Duration(s)*time.Second, 2*retryMaxWait)
	}
	return def
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return cancelled(ctx)
	}
}

// cancel asks Trino to end the query whose next page is at uri. It is
// best effort, under its own short timeout: the statement is already
// ending, whether or not Trino hears of it (an abandoned query ends on
// Trino when its client stops asking for pages).
func (e *Engine) cancel(ctx context.Context, uri string) {
	ctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
	defer stop()
	req, err := e.newRequest(ctx, http.MethodDelete, uri, nil)
	if err != nil {
		return
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return
	}
	closeBody(resp)
}

// decode reads one page, counting its bytes.
func (e *Engine) decode(resp *http.Response, read *atomic.Int64) (*queryResults, error) {
	body := &countingReader{r: io.LimitReader(resp.Body, maxPageBytes), n: read}
	var page queryResults
	if err := json.NewDecoder(body).Decode(&page); err != nil {
		return nil, protocolViolation(e.name, err, "an answer that is not a page of Trino's protocol")
	}
	return &page, nil
}

// sameOrigin says whether uri is on the coordinator the engine was
// configured with: a nextUri elsewhere is not followed, since the service
// user's credentials would go with it.
func (e *Engine) sameOrigin(uri string) bool {
	u, err := url.Parse(uri)
	return err == nil && u.Scheme == e.base.Scheme && strings.EqualFold(u.Host, e.base.Host) && u.User == nil
}

// closeBody reads what is left of a small body, so that the connection
// is used again, and closes it.
func closeBody(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
