package rangeradmin

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/sqe-db/sqe/governance/rangerrest"
)

// client is Ranger Admin's REST client with reads retried.
type client struct {
	rest         *rangerrest.Client
	readAttempts int
	retryDelay   time.Duration
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
		var he *rangerrest.HTTPError
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
	status, err := c.rest.Do(ctx, method, path, query, body, out)
	if err == nil && status == http.StatusNotModified {
		// No request here is conditional, so a 304 left out unfilled.
		return &rangerrest.HTTPError{Method: method, Path: path, Status: status}
	}
	return err
}
