package main

import (
	"net/http"
	"net/http/pprof"
)

// profilePrefix is where the Go runtime's profiles are served when
// [http] pprof is on.
const profilePrefix = "/debug/pprof/"

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
		g := o.adminGate.Load()
		if g == nil {
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		id, status := g.admit(r, "profile")
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
