package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/auth"
)

// profilePrefix is where the Go runtime's profiles are served when
// [http] pprof is on.
const profilePrefix = "/debug/pprof/"

// roleSource gives a user's effective roles: the token's plus those the
// governance store grants (governance.Store).
type roleSource interface {
	EffectiveRoles(ctx context.Context, user string, tokenRoles []string) ([]string, error)
}

// profileGate admits administrators only to the profiles: the request's
// bearer token is verified as a login's password is, and the caller's
// effective roles must include one of [auth] admin_roles.
type profileGate struct {
	verifier   *auth.Verifier
	roles      roleSource
	adminRoles []string
	// limiter is the login limiter: a source that keeps failing here is
	// slowed down at the PostgreSQL listener too, and the other way round.
	limiter *auth.LoginLimiter
	logger  *slog.Logger
}

// profileHandlers are net/http/pprof's handlers on a mux of their own
// (the package's import also registers them on http.DefaultServeMux,
// which SQE never serves).
func profileHandlers() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(profilePrefix, pprof.Index) // named profiles: heap, goroutine, allocs, ...
	mux.HandleFunc(profilePrefix+"cmdline", pprof.Cmdline)
	mux.HandleFunc(profilePrefix+"profile", pprof.Profile)
	mux.HandleFunc(profilePrefix+"symbol", pprof.Symbol)
	mux.HandleFunc(profilePrefix+"trace", pprof.Trace)
	return mux
}

// serveProfiles is the /debug/pprof/ handler: nothing before the gate is
// set (the verifier and governance store open after the endpoint starts),
// then profiles for administrators only. It fails closed: a missing or
// bad token is 401, a valid token without an admin role 403, a role
// lookup that fails 503.
func (o *opsServer) serveProfiles(profiles http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g := o.profileGate.Load()
		if g == nil {
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		id, status := g.admit(r)
		if status != http.StatusOK {
			if status == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="sqe"`)
			}
			http.Error(w, http.StatusText(status), status)
			return
		}
		g.logger.Info("profile served", "user", id.User, "path", r.URL.Path, "remote", r.RemoteAddr)
		profiles.ServeHTTP(w, r)
	})
}

// admit checks the request's bearer token and the caller's roles. It
// returns the caller and 200 when the caller is an administrator, or the
// status to refuse with. The reason is logged, never sent.
func (g *profileGate) admit(r *http.Request) (auth.Identity, int) {
	addr := r.RemoteAddr
	if !g.limiter.Allow(addr) {
		g.logger.Warn("profile refused: too many failed logins", "remote", addr)
		return auth.Identity{}, http.StatusUnauthorized
	}
	token, ok := bearerToken(r.Header.Get("Authorization"))
	if !ok {
		g.limiter.Failure(addr)
		g.logger.Warn("profile refused: no bearer token", "remote", addr)
		return auth.Identity{}, http.StatusUnauthorized
	}
	id, err := g.verifier.VerifyBearer(r.Context(), token)
	if err != nil {
		g.limiter.Failure(addr)
		// Verifier errors never carry the token.
		g.logger.Warn("profile refused", "remote", addr, "reason", err.Error())
		return auth.Identity{}, http.StatusUnauthorized
	}
	g.limiter.Success(addr)
	roles, err := g.roles.EffectiveRoles(r.Context(), id.User, id.Roles)
	if err != nil {
		g.logger.Error("profile refused: role lookup failed", "user", id.User, "error", err)
		return auth.Identity{}, http.StatusServiceUnavailable
	}
	if !slices.ContainsFunc(roles, func(role string) bool { return slices.Contains(g.adminRoles, role) }) {
		g.logger.Warn("profile refused: not an administrator", "user", id.User, "remote", addr)
		return auth.Identity{}, http.StatusForbidden
	}
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
