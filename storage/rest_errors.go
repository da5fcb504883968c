package storage

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// PostgreSQL SQLSTATEs for failures of the catalog server itself.
const (
	codeSystemError = "58000" // system_error: the catalog service failed
)

// redactedToken replaces a bearer token wherever it appears in error text.
const redactedToken = "[REDACTED]"

// restError turns an error from the REST client into the error a client
// sees, for operation op on target. Whatever the catalog server said stays
// in the cause (for the server log), with the caller's token removed from
// it: a server may echo request headers into its error message.
func (c *restCatalog) restError(ctx context.Context, op string, target Ident, err error) error {
	if err == nil {
		return nil
	}
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return err
	}
	cause := redact(fmt.Errorf("%s %s: %w", op, target, err), c.tokens(ctx)...)
	name := c.cfg.Name
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return cause
	case errors.Is(err, errNoCallerToken):
		return pgerror.Wrap(cause, pgerror.InvalidAuthorizationSpecification,
			"catalog %q needs the session's login token, and this session has none", name)
	case errors.Is(err, rest.ErrUnauthorized), errors.Is(err, rest.ErrAuthorizationExpired),
		errors.Is(err, rest.ErrOAuthError):
		return pgerror.Wrap(cause, pgerror.InvalidAuthorizationSpecification,
			"catalog %q did not accept the session's credentials", name)
	case errors.Is(err, rest.ErrForbidden):
		return forbidden(target, fmt.Errorf("%w: %w", ErrForbidden, cause))
	case errors.Is(err, catalog.ErrNoSuchNamespace):
		return noSuchNamespace(target.Namespace, cause)
	case errors.Is(err, catalog.ErrNoSuchTable):
		// A table endpoint answers 404 for a missing namespace too; the
		// REST error type tells the two apart.
		if target.Table == "" || strings.Contains(err.Error(), "NoSuchNamespace") {
			return noSuchNamespace(target.Namespace, cause)
		}
		return noSuchTable(target, cause)
	case errors.Is(err, catalog.ErrNamespaceAlreadyExists):
		return namespaceExists(target.Namespace, cause)
	case errors.Is(err, catalog.ErrTableAlreadyExists), errors.Is(err, catalog.ErrViewAlreadyExists):
		return tableExists(target, cause)
	case errors.Is(err, catalog.ErrNamespaceNotEmpty):
		return pgerror.Wrap(fmt.Errorf("%w: %w", ErrNotEmpty, cause), codeDependentObjects,
			"cannot drop schema %s because other objects depend on it", target.Namespace)
	case errors.Is(err, table.ErrCommitFailed):
		return commitConflict(target, c.commitAttempts(), cause)
	case errors.Is(err, rest.ErrCommitStateUnknown):
		return pgerror.Wrap(cause, codeSystemError,
			"catalog %q failed while committing to %s; the commit may or may not have taken effect", name, target)
	case errors.Is(err, rest.ErrServiceUnavailable):
		return pgerror.Wrap(cause, codeSystemError, "catalog %q is unavailable", name)
	case errors.Is(err, rest.ErrServerError):
		return pgerror.Wrap(cause, codeSystemError, "catalog %q failed with a server error", name)
	case errors.Is(err, rest.ErrEndpointNotSupported):
		return pgerror.Wrap(cause, pgerror.FeatureNotSupported, "catalog %q does not support %s", name, op)
	case unreachable(err):
		return pgerror.Wrap(cause, codeSystemError, "catalog %q is unreachable", name)
	case errors.Is(err, rest.ErrBadRequest):
		return pgerror.Wrap(cause, pgerror.InternalError, "catalog %q rejected the request to %s %s", name, op, target)
	case errors.Is(err, rest.ErrRESTError):
		return pgerror.Wrap(cause, pgerror.InternalError, "catalog %q failed to %s %s", name, op, target)
	default:
		return pgerror.Wrap(cause, codeSystemError, "could not %s %s in catalog %q", op, target, name)
	}
}

// unreachable reports whether err is a request that got no answer: the
// HTTP client's own error (connection refused, reset or closed before the
// catalog replied), which an answer, even an error status, never is.
func unreachable(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue)
}

// tokens are the secrets that must never appear in an error: the caller's
// token and the configured service secrets.
func (c *restCatalog) tokens(ctx context.Context) []string {
	var out []string
	if p, ok := PrincipalFrom(ctx); ok && p.Token != "" {
		out = append(out, p.Token)
	}
	if c.cfg.ServiceToken != "" {
		out = append(out, c.cfg.ServiceToken)
	}
	if c.cfg.Credential != "" {
		out = append(out, c.cfg.Credential)
		if _, secret, ok := strings.Cut(c.cfg.Credential, ":"); ok && secret != "" {
			out = append(out, secret)
		}
	}
	return out
}

// redactedError is an error whose text has had secrets removed. It answers
// errors.Is for the original chain but does not unwrap to it, so that no
// logger walking the chain can print the unredacted text.
type redactedError struct {
	msg  string
	orig error
}

func (e *redactedError) Error() string { return e.msg }

func (e *redactedError) Is(target error) bool { return errors.Is(e.orig, target) }

// redact returns err with every secret replaced in its text. Without
// secrets, or when none occurs, the chain is kept as it is.
func redact(err error, secrets ...string) error {
	msg := err.Error()
	replaced := msg
	for _, s := range secrets {
		if s != "" {
			replaced = strings.ReplaceAll(replaced, s, redactedToken)
		}
	}
	if replaced == msg {
		return err
	}
	return &redactedError{msg: replaced, orig: err}
}
