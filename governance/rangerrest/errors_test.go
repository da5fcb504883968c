package rangerrest

import (
	"fmt"
	"net/http"
	"testing"
)

func TestValidationCodes(t *testing.T) {
	const (
		resourceConflict = "(0) Validation failure: error code[3010], reason[Another policy already exists for matching resource: policy-name=[p1], service=[query]], field[resources], subfield[null], type[semantically incorrect]"
		twoFailures      = "(0) Validation failure: error code[3006], reason[Another policy already exists for this name], field[name], subfield[null], type[], (1) Validation failure: error code[3010], reason[Another policy already exists for matching resource], field[resources], subfield[null], type[]"
	)
	for _, tc := range []struct {
		name    string
		status  int
		message string
		first   string
		has     map[string]bool
	}{
		{"one failure", http.StatusBadRequest, resourceConflict, "3010", map[string]bool{"3010": true, "3006": false}},
		{"two failures", http.StatusBadRequest, twoFailures, "3006", map[string]bool{"3006": true, "3010": true, "3007": false}},
		{"not a validation failure", http.StatusBadRequest, "Service:query not found", "", map[string]bool{"3010": false}},
		{"not a 400", http.StatusInternalServerError, resourceConflict, "", map[string]bool{"3010": false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &HTTPError{Method: http.MethodPost, Path: "/p", Status: tc.status, Message: tc.message}
			if got := e.ValidationCode(); got != tc.first {
				t.Errorf("ValidationCode = %q, want %q", got, tc.first)
			}
			for code, want := range tc.has {
				if got := e.HasValidationCode(code); got != want {
					t.Errorf("HasValidationCode(%s) = %t, want %t", code, got, want)
				}
			}
		})
	}
}

func TestHTTPErrorText(t *testing.T) {
	for _, tc := range []struct {
		err          *HTTPError
		text, reason string
	}{
		{&HTTPError{Method: "PUT", Path: "/p/1", Status: 403, Message: "no delegate admin"},
			"PUT /p/1: HTTP 403: no delegate admin", "no delegate admin"},
		{&HTTPError{Method: "GET", Path: "/p", Status: 503},
			"GET /p: HTTP 503", "Service Unavailable"},
	} {
		if got := tc.err.Error(); got != tc.text {
			t.Errorf("Error() = %q, want %q", got, tc.text)
		}
		if got := tc.err.Reason(); got != tc.reason {
			t.Errorf("Reason() = %q, want %q", got, tc.reason)
		}
		if got := StatusOf(fmt.Errorf("wrapped: %w", tc.err)); got != tc.err.Status {
			t.Errorf("StatusOf = %d, want %d", got, tc.err.Status)
		}
	}
}
