package rangerrest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Ranger's policy validation error codes (ValidationErrorCode), as they
// appear in a 400 answer's message.
const (
	ValidationNameConflict     = "3006" // another policy of the service has the name
	ValidationResourceConflict = "3010" // another policy has the exact resources
)

// maxMessage bounds the message kept of an error answer.
const maxMessage = 500

// HTTPError is a non-2xx answer of Ranger Admin.
type HTTPError struct {
	Method, Path string
	Status       int
	// Message is Ranger's msgDesc when the answer is a RESTResponse; an
	// answer of another shape (an HTML error page, a proxy's text) is not
	// kept, as it may echo the request.
	Message string
}

func (e *HTTPError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("%s %s: HTTP %d", e.Method, e.Path, e.Status)
	}
	return fmt.Sprintf("%s %s: HTTP %d: %s", e.Method, e.Path, e.Status, e.Message)
}

// newHTTPError reads Ranger's RESTResponse body ({statusCode, msgDesc,
// messageList}) for its message.
func newHTTPError(method, path string, status int, body []byte) *HTTPError {
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
	if len(msg) > maxMessage {
		msg = msg[:maxMessage] + "..."
	}
	return &HTTPError{Method: method, Path: path, Status: status, Message: msg}
}

// Reason is Ranger's message, or the status's text when Ranger gave none.
func (e *HTTPError) Reason() string {
	if e.Message != "" {
		return e.Message
	}
	return http.StatusText(e.Status)
}

// ValidationCode is the first of Ranger's validation error codes in a
// 400 answer, or "".
func (e *HTTPError) ValidationCode() string {
	if codes := e.validationCodes(); len(codes) > 0 {
		return codes[0]
	}
	return ""
}

// HasValidationCode reports whether a 400 answer names code among its
// validation failures.
func (e *HTTPError) HasValidationCode(code string) bool {
	return slices.Contains(e.validationCodes(), code)
}

// validationCodes are the codes of a 400 answer's validation failures:
// Ranger lists each as "(i) Validation failure: error code[3010],
// reason[...], ...".
func (e *HTTPError) validationCodes() []string {
	if e.Status != http.StatusBadRequest {
		return nil
	}
	var codes []string
	rest := e.Message
	for {
		var ok bool
		if _, rest, ok = strings.Cut(rest, "error code["); !ok {
			return codes
		}
		var code string
		code, rest, _ = strings.Cut(rest, "]")
		codes = append(codes, code)
	}
}

// NetworkError is a request that got no answer, or whose answer could
// not be read.
type NetworkError struct {
	Method, Path string
	Err          error
}

func (e *NetworkError) Error() string { return fmt.Sprintf("%s %s: %v", e.Method, e.Path, e.Err) }
func (e *NetworkError) Unwrap() error { return e.Err }

// StatusOf is the HTTP status of a failed request, or 0 when it got no
// answer or failed otherwise.
func StatusOf(err error) int {
	var he *HTTPError
	if errors.As(err, &he) {
		return he.Status
	}
	return 0
}
