package auth

import (
	"log/slog"
	"strconv"
	"time"
)

// Identity is who a verified token says the caller is. It is the only
// identity type in SQE; later layers add to it but never re-verify it.
type Identity struct {
	User  string
	Roles []string // from the token's roles claim; governance adds store roles later
	// TokenRoles are the roles of the token alone, kept when Roles gains
	// the store's, so that a session can compute its roles again when a
	// role is granted or revoked; nil means Roles came from the token.
	TokenRoles []string
	Groups     []string
	Token      string // the raw token, passed on to catalogs that act as the caller; never log it
	Expiry     time.Time
	// ClientAddr is the IP address the caller connected from, empty for
	// a Unix socket or an identity not tied to a connection. Policy
	// conditions on client addresses read it.
	ClientAddr string
}

// String describes the identity without its token, so an Identity that
// ends up in a %v or an error message does not leak the credential.
func (id Identity) String() string {
	return "user=" + id.User
}

// LogValue keeps the token out of structured logs for the same reason.
func (id Identity) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("user", id.User),
		slog.Any("roles", id.Roles),
		slog.Any("groups", id.Groups),
		slog.Time("expiry", id.Expiry),
	)
}

// GoString keeps %#v from printing the token too.
func (id Identity) GoString() string {
	return "auth.Identity{User: " + strconv.Quote(id.User) + ", Token: [redacted]}"
}
