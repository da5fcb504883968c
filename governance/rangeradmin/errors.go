package rangeradmin

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// httpError is a non-2xx answer of Ranger Admin.
type httpError struct {
	method, path string
	Status       int
	// Message is Ranger's msgDesc, or the body when it is not RESTResponse.
	Message string
}

func (e *httpError) Error() string {
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
	msg := strings.TrimSpace(string(body))
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

// duplicateResource reports Ranger's validation error 3010: another
// policy already exists for the exact resource.
func (e *httpError) duplicateResource() bool {
	return e.Status == 400 && strings.Contains(e.Message, "error code[3010]")
}

// networkError is a request that got no answer.
type networkError struct {
	method, path string
	err          error
}

func (e *networkError) Error() string { return fmt.Sprintf("%s %s: %v", e.method, e.path, e.err) }
func (e *networkError) Unwrap() error { return e.err }

// isDuplicateResource reports whether err is Ranger's error 3010.
func isDuplicateResource(err error) bool {
	var he *httpError
	return errors.As(err, &he) && he.duplicateResource()
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
	var he *httpError
	var ne *networkError
	switch {
	case errors.As(err, &he) && he.Status == 401:
		return pgerror.Wrap(err, pgerror.InternalError, "Ranger Admin rejected the server's credentials while trying to %s", doing).
			WithHint("Check [access_control.ranger] admin-user and the admin password (%s); this is a server configuration problem, not a permission of yours.", PasswordEnv)
	case errors.As(err, &he) && he.Status == 403:
		return pgerror.Wrap(err, pgerror.InsufficientPrivilege, "permission denied to %s", doing).
			WithDetail("Ranger Admin answered: %s", he.Message)
	case errors.As(err, &he) && he.Status >= 500:
		return pgerror.Wrap(err, pgerror.IOError, "Ranger Admin failed to %s: HTTP %d", doing, he.Status).
			WithDetail("%s", he.Message)
	case errors.As(err, &he):
		return pgerror.Wrap(err, pgerror.InternalError, "Ranger Admin refused to %s: HTTP %d", doing, he.Status).
			WithDetail("%s", he.Message)
	case errors.As(err, &ne):
		return pgerror.Wrap(err, pgerror.IOError, "Ranger Admin unreachable while trying to %s", doing).
			WithDetail("%v", ne.err)
	}
	return fmt.Errorf("%s: %w", doing, err)
}
