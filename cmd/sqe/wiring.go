package main

import (
	"context"
	"log/slog"
	"net"
	"net/netip"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/pgwire"
	"github.com/sqe-db/sqe/sql"
)

// authenticator verifies a JWT password and adds the roles the governance
// store gives the user.
type authenticator struct {
	verifier *auth.Verifier
	roles    *governance.Store
	limiter  *auth.LoginLimiter
	logger   *slog.Logger
}

func (a *authenticator) Authenticate(ctx context.Context, st pgwire.Startup, password string) (auth.Identity, error) {
	addr := ""
	if st.RemoteAddr != nil {
		addr = st.RemoteAddr.String()
	}
	if !a.limiter.Allow(addr) {
		a.logger.Warn("login refused: too many failed logins", "user", st.User, "remote", addr)
		return auth.Identity{}, auth.FailedLogin(st.User)
	}
	id, err := a.verifier.Verify(ctx, password, st.User)
	if err != nil {
		a.limiter.Failure(addr)
		// The reason is logged, never sent; it carries no part of the token.
		a.logger.Warn("login refused", "user", st.User, "remote", addr, "reason", err.Error())
		return auth.Identity{}, auth.FailedLogin(st.User)
	}
	roles, err := a.roles.EffectiveRoles(ctx, id.User, id.Roles)
	if err != nil {
		a.logger.Error("login refused: role lookup failed", "user", st.User, "error", err)
		return auth.Identity{}, auth.FailedLogin(st.User)
	}
	id.TokenRoles, id.Roles = id.Roles, roles
	a.limiter.Success(addr)
	return id, nil
}

// sessionFactory opens sql sessions for pgwire.
type sessionFactory struct {
	engine *sql.Engine
}

func (f sessionFactory) NewSession(ctx context.Context, id auth.Identity, st pgwire.Startup) (pgwire.Session, error) {
	host := ""
	if st.RemoteAddr != nil {
		var err error
		if host, _, err = net.SplitHostPort(st.RemoteAddr.String()); err != nil {
			host = st.RemoteAddr.String() // a Unix socket's path
		}
		id.ClientAddr = clientIP(host)
	}
	s, err := f.engine.NewSession(ctx, id, st.Database, st.Settings)
	if err != nil {
		return nil, err
	}
	if host != "" {
		s.SetClientAddr(host)
	}
	return s, nil
}

// clientIP is host as the IP address policy conditions compare (an IPv4
// client of a dual-stack listener as IPv4, without an IPv6 zone), or ""
// when host is not an address (a Unix socket's path).
func clientIP(host string) string {
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return ""
	}
	return addr.Unmap().WithZone("").String()
}
