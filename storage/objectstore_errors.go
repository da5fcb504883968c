package storage

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The AWS SDK's failures, recognised by their methods so that storage
// need not import the SDK: an error response from the store (S3's error
// code and message), a response without a body (HEAD), and a request
// that never got an answer (connection refused, timeout, DNS).
type (
	apiError interface {
		ErrorCode() string
		ErrorMessage() string
	}
	httpStatusError interface{ HTTPStatusCode() int }
	connectionError interface{ ConnectionError() bool }
)

// isObjectStoreFailure reports whether err is the object store refusing
// or failing a request, or not being reached at all.
func isObjectStoreFailure(err error) bool {
	var api apiError
	var status httpStatusError
	var conn connectionError
	// Concrete network errors only: net.Error's methods are also those of
	// syscall.Errno, which a local file's error carries.
	var opErr *net.OpError
	var dnsErr *net.DNSError
	return errors.As(err, &api) || errors.As(err, &status) || errors.As(err, &conn) ||
		errors.As(err, &opErr) || errors.As(err, &dnsErr)
}

// objectStoreCode is S3's error code in err ("NoSuchBucket",
// "InvalidAccessKeyId", ...), or "" when err carries none.
func objectStoreCode(err error) string {
	var api apiError
	if errors.As(err, &api) {
		return api.ErrorCode()
	}
	return ""
}

// objectStoreReason says in one line why an object store request failed:
// the store's error code and message, the HTTP status, or what kind of
// network failure it was. It goes to SQL clients, so it names no host,
// address or key; the full error stays in the cause, for the server log.
func objectStoreReason(err error) string {
	var api apiError
	if errors.As(err, &api) && api.ErrorCode() != "" {
		if msg := api.ErrorMessage(); msg != "" {
			return fmt.Sprintf("%s: %s", api.ErrorCode(), msg)
		}
		return api.ErrorCode()
	}
	var status httpStatusError
	if errors.As(err, &status) && status.HTTPStatusCode() > 0 {
		code := status.HTTPStatusCode()
		return fmt.Sprintf("HTTP %d %s", code, http.StatusText(code))
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "the store's host name could not be resolved"
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "the store did not answer in time"
	}
	if networkError(err) != nil {
		return "the store could not be reached"
	}
	return "the request failed"
}

// networkError is the DNS or socket error in err's chain, or nil.
func networkError(err error) error {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return dnsErr
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return opErr
	}
	return nil
}

// objectStoreFailure gives an object store's failure to op (a verb phrase:
// "write a data file of") table SQLSTATE 58030 and the store's reason;
// any other error is returned as it is.
func objectStoreFailure(err error, op, table string) error {
	if err == nil || !isObjectStoreFailure(err) {
		return err
	}
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return err
	}
	return pgerror.Wrap(err, pgerror.IOError, "could not %s table %s: object storage: %s", op, table, objectStoreReason(err))
}
