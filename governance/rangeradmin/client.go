package rangeradmin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// client speaks JSON to Ranger Admin with HTTP basic auth.
type client struct {
	base, user, password string
	http                 *http.Client
	readAttempts         int
	retryDelay           time.Duration
}

// API paths, under the base URL.
const (
	policyPath = "/service/public/v2/api/policy"
	rolesPath  = "/service/public/v2/api/roles"
	grantPath  = "/service/plugins/services/grant/"
	revokePath = "/service/plugins/services/revoke/"
)

// get reads path into out, retrying when Ranger Admin is unreachable or
// answers 5xx: a read changes nothing, so trying again is always safe.
func (c *client) get(ctx context.Context, path string, query url.Values, out any) error {
	var err error
	for attempt := 1; attempt <= c.readAttempts; attempt++ {
		err = c.do(ctx, http.MethodGet, path, query, nil, out)
		var he *httpError
		if err == nil || errors.As(err, &he) && he.Status < 500 || ctx.Err() != nil {
			return err
		}
		if attempt < c.readAttempts {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(c.retryDelay):
			}
		}
	}
	return err
}

// do sends one request. Writes are not retried: a write whose answer was
// lost may have landed, and the caller re-reads before writing again.
func (c *client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	u := c.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s %s: encode body: %w", method, path, err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.SetBasicAuth(c.user, c.password)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		// The error names the URL, which carries no credentials.
		return &networkError{method: method, path: path, err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return &networkError{method: method, path: path, err: err}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return newHTTPError(method, path, resp.StatusCode, data)
	}
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: decode answer: %w", method, path, err)
	}
	return nil
}
