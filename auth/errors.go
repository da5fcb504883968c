package auth

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// ErrAuthenticationFailed is wrapped by every refusal from Verify. Its
// reason is for the server log; the client only ever gets FailedLogin.
var ErrAuthenticationFailed = errors.New("authentication failed")

// FailedLogin is the one error a client sees for any refused login, worded
// as PostgreSQL words a wrong password so the reason is not disclosed.
func FailedLogin(startupUser string) *pgerror.Error {
	return pgerror.New(pgerror.InvalidPassword,
		"password authentication failed for user \"%s\"", startupUser).Fatal()
}

// minRedactLen is the shortest token segment scrubbed from reasons. Shorter
// segments (an empty signature, a tiny header) are not secret on their own
// and would match unrelated text.
const minRedactLen = 8

// refuse builds a Verify error. The reason may quote library errors, which
// could in principle echo parts of their input, so every sizeable segment
// of the raw token is scrubbed before it is kept.
func refuse(rawToken, format string, args ...any) error {
	reason := fmt.Sprintf(format, args...)
	return fmt.Errorf("%w: %s", ErrAuthenticationFailed, redact(reason, rawToken))
}

// redact removes rawToken and each of its dot-separated segments from s.
func redact(s, rawToken string) string {
	if rawToken == "" {
		return s
	}
	s = strings.ReplaceAll(s, rawToken, "[token]")
	for _, seg := range strings.Split(rawToken, ".") {
		if len(seg) >= minRedactLen {
			s = strings.ReplaceAll(s, seg, "[token]")
		}
	}
	return s
}
