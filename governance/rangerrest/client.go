package rangerrest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// DefaultMaxAnswer bounds what is read of one answer when Config leaves
// MaxAnswer zero.
const DefaultMaxAnswer = 64 << 20

// Config says where Ranger Admin is and how to authenticate to it.
type Config struct {
	// URL is Ranger Admin's base URL, without the /service path and
	// without a trailing slash.
	URL string
	// User and Password authenticate with HTTP basic auth.
	User, Password string
	// HTTPClient makes the requests; it should have a timeout.
	HTTPClient *http.Client
	// MaxAnswer bounds the bytes read of one answer; zero is
	// DefaultMaxAnswer. A longer answer fails to decode.
	MaxAnswer int64
}

// Client speaks JSON to Ranger Admin with HTTP basic auth.
type Client struct {
	base, user, password string
	http                 *http.Client
	maxAnswer            int64
}

// New is the client of cfg. It makes no request.
func New(cfg Config) *Client {
	limit := cfg.MaxAnswer
	if limit <= 0 {
		limit = DefaultMaxAnswer
	}
	return &Client{base: cfg.URL, user: cfg.User, password: cfg.Password, http: cfg.HTTPClient, maxAnswer: limit}
}

// Do sends one request, with body as JSON when it is not nil, and
// decodes a 2xx answer into out when out is not nil and the answer is
// not empty. A 304 answer returns its status and leaves out alone; any
// other non-2xx answer is an *HTTPError, and no answer a *NetworkError.
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body, out any) (int, error) {
	u := c.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return 0, fmt.Errorf("%s %s: encode body: %w", method, path, err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.SetBasicAuth(c.user, c.password)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		// The error names the URL, which carries no credentials.
		return 0, &NetworkError{Method: method, Path: path, Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxAnswer))
	if err != nil {
		return resp.StatusCode, &NetworkError{Method: method, Path: path, Err: err}
	}
	switch {
	case resp.StatusCode == http.StatusNotModified:
		return resp.StatusCode, nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return resp.StatusCode, newHTTPError(method, path, resp.StatusCode, data)
	case out == nil || len(bytes.TrimSpace(data)) == 0:
		return resp.StatusCode, nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return resp.StatusCode, fmt.Errorf("%s %s: decode answer: %w", method, path, err)
	}
	return resp.StatusCode, nil
}
