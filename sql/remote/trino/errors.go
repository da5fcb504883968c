package trino

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Trino's error types (io.trino.spi.ErrorType).
const (
	userError                 = "USER_ERROR"
	internalError             = "INTERNAL_ERROR"
	insufficientResourcesType = "INSUFFICIENT_RESOURCES"
	externalError             = "EXTERNAL"
)

// sqlstateByErrorName maps Trino's standard error names
// (io.trino.spi.StandardErrorCode) to the SQLSTATE PostgreSQL gives the
// same failure. A name not here is mapped by its error type
// (sqlstateOf).
var sqlstateByErrorName = map[string]string{
	"SYNTAX_ERROR":                   pgerror.SyntaxError,
	"PERMISSION_DENIED":              pgerror.InsufficientPrivilege,
	"NOT_FOUND":                      pgerror.UndefinedObject,
	"FUNCTION_NOT_FOUND":             pgerror.UndefinedFunction,
	"OPERATOR_NOT_FOUND":             pgerror.UndefinedFunction,
	"INVALID_FUNCTION_ARGUMENT":      pgerror.InvalidParameterValue,
	"DIVISION_BY_ZERO":               pgerror.DivisionByZero,
	"INVALID_CAST_ARGUMENT":          pgerror.InvalidTextRepresentation,
	"INVALID_LITERAL":                pgerror.InvalidTextRepresentation,
	"NUMERIC_VALUE_OUT_OF_RANGE":     pgerror.NumericValueOutOfRange,
	"NOT_SUPPORTED":                  pgerror.FeatureNotSupported,
	"UNSUPPORTED_SUBQUERY":           pgerror.FeatureNotSupported,
	"SUBQUERY_MULTIPLE_ROWS":         pgerror.CardinalityViolation,
	"CATALOG_NOT_FOUND":              pgerror.InvalidCatalogName,
	"MISSING_CATALOG_NAME":           pgerror.InvalidCatalogName,
	"SCHEMA_NOT_FOUND":               pgerror.InvalidSchemaName,
	"MISSING_SCHEMA_NAME":            pgerror.InvalidSchemaName,
	"TABLE_NOT_FOUND":                pgerror.UndefinedTable,
	"MISSING_TABLE":                  pgerror.UndefinedTable,
	"COLUMN_NOT_FOUND":               pgerror.UndefinedColumn,
	"TYPE_NOT_FOUND":                 pgerror.UndefinedObject,
	"TYPE_MISMATCH":                  pgerror.DatatypeMismatch,
	"AMBIGUOUS_NAME":                 pgerror.AmbiguousColumn,
	"AMBIGUOUS_FUNCTION_CALL":        pgerror.AmbiguousFunction,
	"MISSING_GROUP_BY":               pgerror.GroupingError,
	"EXPRESSION_NOT_AGGREGATE":       pgerror.GroupingError,
	"INVALID_LIMIT_CLAUSE":           pgerror.InvalidRowCountInLimitClause,
	"QUERY_TEXT_TOO_LARGE":           pgerror.ProgramLimitExceeded,
	"QUERY_HAS_TOO_MANY_STAGES":      pgerror.StatementTooComplex,
	"USER_CANCELED":                  pgerror.QueryCanceled,
	"ADMINISTRATIVELY_KILLED":        pgerror.QueryCanceled,
	"ABANDONED_QUERY":                pgerror.QueryCanceled,
	"EXCEEDED_TIME_LIMIT":            pgerror.QueryCanceled,
	"QUERY_REJECTED":                 pgerror.InsufficientResources,
	"QUERY_QUEUE_FULL":               pgerror.InsufficientResources,
	"EXCEEDED_FUNCTION_MEMORY_LIMIT": pgerror.OutOfMemory,
	"EXCEEDED_GLOBAL_MEMORY_LIMIT":   pgerror.OutOfMemory,
	"EXCEEDED_LOCAL_MEMORY_LIMIT":    pgerror.OutOfMemory,
	"CLUSTER_OUT_OF_MEMORY":          pgerror.OutOfMemory,
	"EXCEEDED_SPILL_LIMIT":           pgerror.DiskFull,
	"OUT_OF_SPILL_SPACE":             pgerror.DiskFull,
	"GENERIC_INTERNAL_ERROR":         pgerror.InternalError,
	// A coordinator starting up or shutting down, or without workers,
	// could not run the statement at all: a connection exception, so that
	// the statement may run locally instead.
	"SERVER_STARTING_UP":   pgerror.ConnectionFailure,
	"SERVER_SHUTTING_DOWN": pgerror.ConnectionFailure,
	"NO_NODES_AVAILABLE":   pgerror.ConnectionFailure,
}

// sqlstateOf is the SQLSTATE of a Trino error: its name's, else its
// type's. A user error not named is still a statement Trino refused
// (42000); an external one is a connector's failure (58000).
func sqlstateOf(e *queryError) string {
	if code, ok := sqlstateByErrorName[e.ErrorName]; ok {
		return code
	}
	switch e.ErrorType {
	case userError:
		return pgerror.SyntaxErrorOrAccessRuleViolation
	case internalError:
		return pgerror.InternalError
	case insufficientResourcesType:
		return pgerror.InsufficientResources
	}
	return pgerror.SystemError
}

// queryFailed is the error for a query Trino reports failed. Its message
// names the engine and Trino's error name only; Trino's message, which
// can quote the statement and the values read, is not kept, not even for
// the log.
func queryFailed(engine, queryID string, e *queryError) error {
	name := errorNameForMessage(e.ErrorName)
	cause := fmt.Errorf("trino query %s failed: %s (type %s, code %d)",
		identForLog(queryID), name, errorNameForMessage(e.ErrorType), e.ErrorCode)
	return pgerror.Wrap(cause, sqlstateOf(e), "remote engine %q: %s", engine, name)
}

// errorNameForMessage is an error name when it has a name's form (upper
// case letters, digits and underscores), so that whatever the engine sent
// in its place does not reach a message.
func errorNameForMessage(s string) string {
	if len(s) == 0 || len(s) > 100 {
		return "ERROR"
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return "ERROR"
		}
	}
	return s
}

// identForLog is a query id when it has an id's form.
func identForLog(s string) string {
	if len(s) == 0 || len(s) > 100 {
		return "(unknown)"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return "(unknown)"
		}
	}
	return s
}

// unreachable is the error for a request that could not reach the
// engine, or lost it: a connection exception, so that the caller may run
// the statement locally instead. Failing to connect at all (no route, a
// refused connection, a name that does not resolve, a certificate not
// trusted) is 08001; losing the engine afterwards is 08006.
func unreachable(engine string, err error) error {
	var (
		dnsErr  *net.DNSError
		opErr   *net.OpError
		certErr *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
	)
	switch {
	case errors.As(err, &dnsErr),
		errors.As(err, &opErr) && opErr.Op == "dial",
		errors.As(err, &certErr), errors.As(err, &unknown), errors.As(err, &host):
		return pgerror.Wrap(err, pgerror.SQLClientUnableToEstablishSQLConnection, "could not reach remote engine %q", engine)
	}
	return pgerror.Wrap(err, pgerror.ConnectionFailure, "lost the connection to remote engine %q", engine)
}

// badStatus is the error for an HTTP status the protocol does not answer
// with: the engine (or a gateway in front of it) failed the request.
func badStatus(engine string, status int) error {
	return pgerror.New(pgerror.ConnectionFailure, "remote engine %q answered HTTP status %d", engine, status)
}

// refused is the error for an engine refusing the service user's
// credentials or access (HTTP 401 or 403). It is not a connection
// exception: the engine is there, and running the statement locally
// instead would hide a configuration to fix. It is not 28000 either,
// which a client reads as its own login failing.
func refused(engine string, status int) error {
	return pgerror.Wrap(fmt.Errorf("HTTP status %d", status), pgerror.InsufficientPrivilege,
		"remote engine %q refused the service user", engine)
}

// protocolViolation is the error for an answer that does not follow
// Trino's protocol.
func protocolViolation(engine string, cause error, what string) error {
	return pgerror.Wrap(cause, pgerror.ProtocolViolation, "remote engine %q sent %s", engine, what)
}

// cancelled is the error for a statement whose context ended, read from
// the context's cause: the caller's own error when the cause is one, the
// statement-timeout 57014 for a deadline, else the 57014 of a cancel.
func cancelled(ctx context.Context) error {
	cause := context.Cause(ctx)
	var pe *pgerror.Error
	if errors.As(cause, &pe) {
		return pe
	}
	if errors.Is(cause, context.DeadlineExceeded) {
		return pgerror.From(cause)
	}
	return pgerror.From(ctx.Err())
}
