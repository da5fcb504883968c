package polarisadmin

import (
	"context"
	"errors"
	"fmt"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// codeSystemError is PostgreSQL's system_error: Polaris failed or did not
// answer.
const codeSystemError = "58000"

// userError turns a failed request into the error a SQL client sees, with
// what was being done: 401 is the server's own credentials, 403 a
// refusal, 5xx, no answer or a timeout an unavailable Polaris. Every one
// of them fails the statement: nothing is taken as allowed.
func userError(err error, doing string) error {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return err
	}
	var he *httpError
	var ne *networkError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return pgerror.Wrap(err, codeSystemError, "Polaris did not answer in time while trying to %s", doing)
	case errors.As(err, &he) && he.Status == 401:
		return pgerror.Wrap(err, pgerror.InternalError, "Polaris rejected the server's credentials while trying to %s", doing).
			WithHint("Check [access_control.polaris] client_id and the client secret; this is a server configuration problem, not a permission of yours.")
	case errors.As(err, &he) && he.Status == 403:
		return pgerror.Wrap(err, pgerror.InsufficientPrivilege, "Polaris refused to %s", doing).
			WithDetail("Polaris answered: %s", he.Message).
			WithHint("The principal of [access_control.polaris] client_id needs CATALOG_MANAGE_ACCESS on the catalog (or the service_admin role).")
	case errors.As(err, &he) && he.Status >= 500:
		return pgerror.Wrap(err, codeSystemError, "Polaris failed to %s: HTTP %d", doing, he.Status).
			WithDetail("%s", he.Message)
	case errors.As(err, &he):
		return pgerror.Wrap(err, pgerror.InternalError, "Polaris refused to %s: HTTP %d", doing, he.Status).
			WithDetail("%s", he.Message)
	case errors.As(err, &ne):
		return pgerror.Wrap(err, codeSystemError, "Polaris unreachable while trying to %s", doing)
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// errDeny refuses DENY: Polaris's grants only allow.
func errDeny() error {
	return pgerror.New(pgerror.FeatureNotSupported, "DENY is not supported by the polaris access-control backend").
		WithDetail("Apache Polaris grants privileges and has no deny: a privilege is withheld by not granting it.").
		WithHint("REVOKE the privilege from the roles that grant it, or take the user out of those roles.")
}
