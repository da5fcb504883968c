package main

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/auth"
)

// roleSource gives a user's effective roles: the token's plus those the
// governance store grants (governance.Store).
type roleSource interface {
	EffectiveRoles(ctx context.Context, user string, tokenRoles []string) ([]string, error)
}

// adminGate admits administrators only to the profiles and the access
// page: the request's bearer token is verified as a login's password is,
// and the caller's effective roles must include one of [auth]
// admin_roles.
type adminGate struct {
	verifier   *auth.Verifier
	roles      roleSource
	adminRoles []string
	// limiter is the login limiter: a source that keeps failing here is
	// slowed down at the PostgreSQL listener too, and the other way round.
	limiter *auth.LoginLimiter
	logger  *slog.Logger
}

// admit checks the request's bearer token and the caller's roles. It
// returns the caller, with its effective roles as a login's session
// holds them, and 200 when the caller is an administrator, or the status
// to refuse with. The reason is logged, never sent; what names the
// endpoint in the log.
func (g *adminGate) admit(r *http.Request, what string) (auth.Identity, int) {
	addr := r.RemoteAddr
	if !g.limiter.Allow(addr) {
		g.logger.Warn(what+" refused: too many failed logins", "remote", addr)
		return auth.Identity{}, http.StatusUnauthorized
	}
	token, ok := bearerToken(r.Header.Get("Authorization"))
	if !ok {
		g.limiter.Failure(addr)
		g.logger.Warn(what+" refused: no bearer token", "remote", addr)
		return auth.Identity{}, http.StatusUnauthorized
	}
	id, err := g.verifier.VerifyBearer(r.Context(), token)
	if err != nil {
		g.limiter.Failure(addr)
		// Verifier errors never carry the token.
		g.logger.Warn(what+" refused", "remote", addr, "reason", err.Error())
		return auth.Identity{}, http.StatusUnauthorized
	}
	g.limiter.Success(addr)
	roles, err := g.roles.EffectiveRoles(r.Context(), id.User, id.Roles)
	if err != nil {
		g.logger.Error(what+" refused: role lookup failed", "user", id.User, "error", err)
		return auth.Identity{}, http.StatusServiceUnavailable
	}
	if !slices.ContainsFunc(roles, func(role string) bool { return slices.Contains(g.adminRoles, role) }) {
		g.logger.Warn(what+" refused: not an administrator", "user", id.User, "remote", addr)
		return auth.Identity{}, http.StatusForbidden
	}
	id.TokenRoles, id.Roles = id.Roles, roles
	return id, http.StatusOK
}

// bearerToken is the token of an "Authorization: Bearer <token>" header
// (the scheme is case-insensitive, RFC 9110 section 11.1).
func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
