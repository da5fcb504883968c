package rangerstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// codeSystemError is SQLSTATE system_error: Ranger Admin, a system SQE
// depends on, failed or could not be reached.
const codeSystemError = "58000"

// Ranger's policy validation error codes (ValidationErrorCode).
const (
	errorNameConflict     = "3006" // another policy of the service has the name
	errorResourceConflict = "3010" // another policy has the exact resources
)

// httpError is a non-2xx answer of Ranger Admin.
type httpError struct {
	method, path string
	Status       int
	// Message is Ranger's msgDesc when the answer is a RESTResponse; an
	// answer of another shape (an HTML error page, a proxy's text) is not
	// kept, as it may echo the request.
	Message string
}

func (e *httpError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("%s %s: HTTP %d", e.method, e.path, e.Status)
	}
	return fmt.Sprintf("%s %s: HTTP %d: %s", e.method, e.path, e.Status, e.Message)
}

// newHTTPError reads Ranger's RESTResponse body ({statusCode, msgDesc,
// messageList}) for its message.
func newHTTPError(method, path string, status int, body []byte) *httpError {
	var rr struct {
		MsgDesc     string `json:"msgDesc"`
		MessageList []struct {
			Message string `json:"message"`
		} `json:"messageList"`
	}
	msg := ""
	if json.Unmarshal(body, &rr) == nil {
		switch {
		case rr.MsgDesc != "":
			msg = rr.MsgDesc
		case len(rr.MessageList) > 0:
			msg = rr.MessageList[0].Message
		}
	}
	if len(msg) > 500 {
		msg = msg[:500] + "..."
	}
	return &httpError{method: method, path: path, Status: status, Message: msg}
}

// validationCode is Ranger's validation error code in a 400 answer
// ("... error code[3010], reason[...]"), or "".
func (e *httpError) validationCode() string {
	if e.Status != http.StatusBadRequest {
		return ""
	}
	_, rest, ok := strings.Cut(e.Message, "error code[")
	if !ok {
		return ""
	}
	code, _, _ := strings.Cut(rest, "]")
	return code
}

// networkError is a request that got no answer.
type networkError struct {
	method, path string
	err          error
}

func (e *networkError) Error() string { return fmt.Sprintf("%s %s: %v", e.method, e.path, e.err) }
func (e *networkError) Unwrap() error { return e.err }

// statusOf is the HTTP status of a failed request, or 0 when it got no
// answer or failed otherwise.
func statusOf(err error) int {
	var he *httpError
	if errors.As(err, &he) {
		return he.Status
	}
	return 0
}

// userError turns a failed request into the error a SQL client sees,
// saying what was being done: 401 is the server's configuration, 403 a
// refusal, 5xx or no answer an unavailable Ranger Admin. The password is
// never part of the text.
func (s *Store) userError(err error, doing string) error {
	var pe *pgerror.Error
	if errors.As(err, &pe) || errors.Is(err, context.Canceled) {
		return err
	}
	var he *httpError
	var ne *networkError
	switch {
	case errors.As(err, &he) && he.Status == http.StatusUnauthorized:
		// Ranger answers 401 both to wrong credentials and to a user who
		// may not download the service's policies.
		return pgerror.Wrap(err, pgerror.InvalidAuthorizationSpecification,
			"Ranger Admin did not accept the server's credentials (user %q) while trying to %s", s.cfg.AdminUser, doing).
			WithHint("Check [policy.ranger] admin-user and admin-password: the user must be a Ranger administrator, or be listed in policy.download.auth.users of service %q to read. This is a server configuration problem, not a permission of yours.", s.cfg.ServiceName)
	case errors.As(err, &he) && he.Status == http.StatusForbidden:
		return pgerror.Wrap(err, pgerror.InsufficientPrivilege, "permission denied to %s", doing).
			WithDetail("Ranger Admin answered: %s", orStatus(he))
	case errors.As(err, &he) && he.Status >= 500:
		return pgerror.Wrap(err, codeSystemError, "Ranger Admin failed to %s: HTTP %d", doing, he.Status).
			WithDetail("%s", orStatus(he))
	case errors.As(err, &he):
		return pgerror.Wrap(err, pgerror.InternalError, "Ranger Admin refused to %s: HTTP %d", doing, he.Status).
			WithDetail("%s", orStatus(he))
	case errors.As(err, &ne):
		return pgerror.Wrap(err, codeSystemError, "Ranger Admin at %s is unreachable while trying to %s", s.cfg.URL, doing).
			WithDetail("%v", ne.err)
	}
	return fmt.Errorf("%s: %w", doing, err)
}

func orStatus(he *httpError) string {
	if he.Message != "" {
		return he.Message
	}
	return http.StatusText(he.Status)
}
