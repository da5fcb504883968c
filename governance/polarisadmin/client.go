package polarisadmin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Paths under the base URL.
const (
	tokenPath      = "/api/catalog/v1/oauth/tokens"
	managementPath = "/api/management/v1"
)

// client calls Polaris's management API with a token obtained by the
// client-credentials grant, kept until shortly before it expires and
// fetched again once when Polaris answers 401.
type client struct {
	cfg Config

	mu      sync.Mutex
	token   string
	expires time.Time
}

// httpError is an answer with an error status. It holds Polaris's own
// error message, never a request header.
type httpError struct {
	Method, Path string
	Status       int
	Message      string
}

func (e *httpError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("%s %s: HTTP %d", e.Method, e.Path, e.Status)
	}
	return fmt.Sprintf("%s %s: HTTP %d: %s", e.Method, e.Path, e.Status, e.Message)
}

// networkError is a request that got no answer (refused, reset, timed
// out). Its text is the transport's, with the URL but no header.
type networkError struct{ Err error }

func (e *networkError) Error() string { return "no answer from Polaris: " + e.Err.Error() }
func (e *networkError) Unwrap() error { return e.Err }

// statusOf is err's HTTP status, 0 when it is not an answer.
func statusOf(err error) int {
	var he *httpError
	if errors.As(err, &he) {
		return he.Status
	}
	return 0
}

// accessToken returns the cached token or fetches one.
func (c *client) accessToken(ctx context.Context, renew bool) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !renew && c.token != "" && time.Now().Before(c.expires) {
		return c.token, nil
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {c.cfg.ClientID},
		"client_secret": {c.cfg.ClientSecret}, "scope": {c.cfg.Scope}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.URL+tokenPath, strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var answer struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if err := c.send(req, &answer); err != nil {
		return "", err
	}
	if answer.AccessToken == "" {
		return "", &httpError{Method: http.MethodPost, Path: tokenPath, Status: http.StatusOK, Message: "the answer holds no access_token"}
	}
	life := time.Duration(answer.ExpiresIn) * time.Second
	if life <= 0 {
		life = time.Hour
	}
	// Renewed a minute early (or at half its life when shorter), so that
	// a token never expires between being read here and arriving.
	c.token, c.expires = answer.AccessToken, time.Now().Add(life-min(time.Minute, life/2))
	return c.token, nil
}

// do sends one management request: path is under /api/management/v1,
// body (when not nil) is sent as JSON, a JSON answer is decoded into out
// (when not nil).
func (c *client) do(ctx context.Context, method, path string, body, out any) error {
	var data []byte
	if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
	}
	for attempt := 0; ; attempt++ {
		token, err := c.accessToken(ctx, attempt > 0)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, method, c.cfg.URL+managementPath+path, bytes.NewReader(data))
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Accept", "application/json")
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		err = c.send(req, out)
		if statusOf(err) == http.StatusUnauthorized && attempt == 0 {
			continue // the token was revoked or expired early
		}
		return err
	}
}

// send makes the request and reads its answer.
func (c *client) send(req *http.Request, out any) error {
	path := req.URL.Path
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return &networkError{Err: fmt.Errorf("%s %s: %w", req.Method, path, err)}
	}
	defer resp.Body.Close()
	payload, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return &networkError{Err: fmt.Errorf("%s %s: read the answer: %w", req.Method, path, err)}
	}
	if resp.StatusCode >= 300 {
		return &httpError{Method: req.Method, Path: path, Status: resp.StatusCode, Message: errorMessage(payload)}
	}
	if out == nil || len(bytes.TrimSpace(payload)) == 0 {
		return nil
	}
	if err := json.Unmarshal(payload, out); err != nil {
		return fmt.Errorf("%s %s: decode the answer: %w", req.Method, path, err)
	}
	return nil
}

// errorMessage is the message of Polaris's error body
// ({"error": {"message": ..., "type": ..., "code": ...}}), or of an OAuth
// error ({"error": "...", "error_description": "..."}); empty otherwise.
// The body is not echoed otherwise: it is not known to be free of secrets.
func errorMessage(payload []byte) string {
	var rest struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal(payload, &rest) == nil && rest.Error.Message != "" {
		if rest.Error.Type != "" {
			return rest.Error.Type + ": " + rest.Error.Message
		}
		return rest.Error.Message
	}
	var oauth struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(payload, &oauth) == nil && oauth.Error != "" {
		return strings.TrimSpace(oauth.Error + " " + oauth.Description)
	}
	return ""
}

// seg escapes one path segment.
func seg(s string) string { return url.PathEscape(s) }
