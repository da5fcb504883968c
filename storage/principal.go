package storage

import (
	"context"
	"fmt"
)

// Principal is who a catalog call is made for. Gate one authorizes against
// it; a REST catalog forwards Token to the catalog server.
type Principal struct {
	User   string
	Roles  []string
	Groups []string
	Token  string
	// ClientAddr is the caller's IP address, for policy conditions on
	// client addresses; empty when unknown.
	ClientAddr string
}

// String names the principal without its token, so that printing one in a
// log line or error never leaks a credential.
func (p Principal) String() string {
	return fmt.Sprintf("%s%v", p.User, p.Roles)
}

// GoString is String for %#v, for the same reason.
func (p Principal) GoString() string { return "storage.Principal{" + p.String() + "}" }

type principalKey struct{}

// WithPrincipal returns ctx carrying p for the catalog calls made with it.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal carried by ctx, if any.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}
