package rangerstore

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/sqe-db/sqe/governance/rangerrest"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// codeSystemError is SQLSTATE system_error: Ranger Admin, a system SQE
// depends on, failed or could not be reached.
const codeSystemError = "58000"

// userError turns a failed request into the error a SQL client sees,
// saying what was being done: 401 is the server's configuration, 403 a
// refusal, 5xx or no answer an unavailable Ranger Admin. The password is
// never part of the text.
func (s *Store) userError(err error, doing string) error {
	var pe *pgerror.Error
	if errors.As(err, &pe) || errors.Is(err, context.Canceled) {
		return err
	}
	var he *rangerrest.HTTPError
	var ne *rangerrest.NetworkError
	switch {
	case errors.As(err, &he) && he.Status == http.StatusUnauthorized:
		// Ranger answers 401 both to wrong credentials and to a user who
		// may not download the service's policies.
		return pgerror.Wrap(err, pgerror.InvalidAuthorizationSpecification,
			"Ranger Admin did not accept the server's credentials (user %q) while trying to %s", s.cfg.AdminUser, doing).
			WithHint("Check [policy.ranger] admin-user and admin-password: the user must be a Ranger administrator, or be listed in policy.download.auth.users of service %q to read. This is a server configuration problem, not a permission of yours.", s.cfg.ServiceName)
	case errors.As(err, &he) && he.Status == http.StatusForbidden:
		return pgerror.Wrap(err, pgerror.InsufficientPrivilege, "permission denied to %s", doing).
			WithDetail("Ranger Admin answered: %s", he.Reason())
	case errors.As(err, &he) && he.Status >= 500:
		return pgerror.Wrap(err, codeSystemError, "Ranger Admin failed to %s: HTTP %d", doing, he.Status).
			WithDetail("%s", he.Reason())
	case errors.As(err, &he):
		return pgerror.Wrap(err, pgerror.InternalError, "Ranger Admin refused to %s: HTTP %d", doing, he.Status).
			WithDetail("%s", he.Reason())
	case errors.As(err, &ne):
		// The address is the server's business: it stays in the cause.
		return pgerror.Wrap(fmt.Errorf("ranger admin %s: %w", s.cfg.URL, err), codeSystemError,
			"Ranger Admin is unreachable while trying to %s", doing).
			WithDetail("%v", ne.Err)
	}
	return fmt.Errorf("%s: %w", doing, err)
}
