package rangerstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// API paths, under the base URL.
const (
	policiesDownloadPath = "/service/plugins/secure/policies/download/"
	rolesDownloadPath    = "/service/roles/secure/download/"
	servicePath          = "/service/public/v2/api/service/"
	policyPath           = "/service/public/v2/api/policy"
	// The tag store (TagREST): a service's tagged resources, and the
	// import tagsync uploads with.
	tagResourcesPath      = "/service/tags/resources/service/"
	importServiceTagsPath = "/service/tags/importservicetags/"
)

// maxAnswer bounds what is read of one answer: a download of a large
// service is a few megabytes.
const maxAnswer = 256 << 20

// client speaks JSON to Ranger Admin with HTTP basic auth.
type client struct {
	base, user, password string
	http                 *http.Client
}

// do sends one request and decodes a 2xx answer into out. A 304 answer
// returns its status and leaves out alone; any other non-2xx answer is an
// *httpError.
func (c *client) do(ctx context.Context, method, path string, query url.Values, body, out any) (int, error) {
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
		return 0, &networkError{method: method, path: path, err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return resp.StatusCode, &networkError{method: method, path: path, err: err}
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
