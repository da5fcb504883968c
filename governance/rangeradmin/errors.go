package rangeradmin

import (
	"errors"
	"fmt"

	"github.com/sqe-db/sqe/governance/rangerrest"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// isDuplicateResource reports whether err is Ranger's validation error
// 3010: another policy already exists for the exact resource.
func isDuplicateResource(err error) bool {
	var he *rangerrest.HTTPError
	return errors.As(err, &he) && he.HasValidationCode(rangerrest.ValidationResourceConflict)
}

// userError turns a failed request into the error a SQL client sees,
// with what was being done: 401 is a configuration problem of the
// server, 403 a refusal, 5xx or no answer an unavailable Ranger Admin.
// Credentials are never part of the text.
func userError(err error, doing string) error {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return err
	}
	var he *rangerrest.HTTPError
	var ne *rangerrest.NetworkError
	switch {
	case errors.As(err, &he) && he.Status == 401:
		return pgerror.Wrap(err, pgerror.InternalError, "Ranger Admin rejected the server's credentials while trying to %s", doing).
			WithHint("Check [access_control.ranger] admin-user and the admin password (%s); this is a server configuration problem, not a permission of yours.", PasswordEnv)
	case errors.As(err, &he) && he.Status == 403:
		return pgerror.Wrap(err, pgerror.InsufficientPrivilege, "permission denied to %s", doing).
			WithDetail("Ranger Admin answered: %s", he.Reason())
	case errors.As(err, &he) && he.Status >= 500:
		return pgerror.Wrap(err, pgerror.IOError, "Ranger Admin failed to %s: HTTP %d", doing, he.Status).
			WithDetail("%s", he.Reason())
	case errors.As(err, &he):
		return pgerror.Wrap(err, pgerror.InternalError, "Ranger Admin refused to %s: HTTP %d", doing, he.Status).
			WithDetail("%s", he.Reason())
	case errors.As(err, &ne):
		return pgerror.Wrap(err, pgerror.IOError, "Ranger Admin unreachable while trying to %s", doing).
			WithDetail("%v", ne.Err)
	}
	return fmt.Errorf("%s: %w", doing, err)
}
