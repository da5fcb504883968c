package storage

import (
	"context"
	"errors"

	"github.com/apache/iceberg-go/catalog/rest"
)

// errNoCallerToken is a catalog request made for a principal that carries no
// bearer token to forward. With per-user authorization the catalog server
// decides every request on the caller's own token; there is nothing else to
// send, so the request is refused before it leaves the process.
var errNoCallerToken = errors.New("no login token to forward to the catalog")

// callerTokenAuth puts the bearer token of the principal in the request's
// context on every request the REST client sends, so that one catalog
// instance serves every user and the catalog server (Apache Polaris)
// authorizes each request as the user who made it.
type callerTokenAuth struct{}

var _ rest.ContextAuthManager = callerTokenAuth{}

// AuthHeader refuses: without a context there is no caller, and a request
// that names no caller must not go out with anyone's credentials.
func (callerTokenAuth) AuthHeader() (string, string, error) {
	return "", "", errNoCallerToken
}

// AuthHeaderWithContext returns the caller's token as a bearer credential.
func (callerTokenAuth) AuthHeaderWithContext(ctx context.Context) (string, string, error) {
	p, ok := PrincipalFrom(ctx)
	if !ok || p.Token == "" {
		return "", "", errNoCallerToken
	}
	return "Authorization", "Bearer " + p.Token, nil
}

// serviceTokenAuth sends one operator-configured token on every request,
// whoever the caller is. It is our own manager rather than iceberg-go's
// static-token option because that option also copies the token into the
// catalog properties handed to table file I/O.
type serviceTokenAuth struct{ token string }

var _ rest.ContextAuthManager = serviceTokenAuth{}

func (a serviceTokenAuth) AuthHeader() (string, string, error) {
	return "Authorization", "Bearer " + a.token, nil
}

func (a serviceTokenAuth) AuthHeaderWithContext(ctx context.Context) (string, string, error) {
	if err := ctx.Err(); err != nil {
		return "", "", err
	}
	return a.AuthHeader()
}
