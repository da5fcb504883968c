package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// opsServer is the operator's HTTP endpoint ([http] listen): /healthz
// (the process is alive), /readyz (stores and catalogs are open and the
// PostgreSQL listener accepts; 503 otherwise), /metrics (Prometheus), the
// access page /access for administrators (http_access.go) and, with
// [http] pprof on, /debug/pprof/ for administrators (http_pprof.go).
type opsServer struct {
	srv    *http.Server
	ln     net.Listener
	ready  atomic.Bool
	served chan error
	// adminGate admits callers to /debug/pprof/ and /access; until it
	// is set they answer 503.
	adminGate atomic.Pointer[adminGate]
	// accessReport answers /access/api/; until it is set the API
	// answers 503.
	accessReport atomic.Pointer[accessReport]
}

// opsReadHeaderTimeout bounds a slow client's request headers.
const opsReadHeaderTimeout = 10 * time.Second

// startOpsServer binds listen and serves in the background; it is not
// ready until setReady. With profiling, /debug/pprof/ is served to the
// callers setAdminGate admits; without it the path does not exist.
func startOpsServer(listen string, metricsHandler http.Handler, profiling bool, logger *slog.Logger) (*opsServer, error) {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("http listen %s: %w", listen, err)
	}
	o := &opsServer{ln: ln, served: make(chan error, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !o.ready.Load() {
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		_, _ = fmt.Fprintln(w, "ready")
	})
	mux.Handle("GET /metrics", metricsHandler)
	page := o.serveAccessPage()
	mux.Handle("GET "+accessPath, page)
	mux.Handle("GET "+accessPath+"/", page)
	mux.Handle("GET "+accessAPIPrefix, o.serveAccessAPI())
	paths := "/healthz /readyz /metrics " + accessPath + " (administrators)"
	if profiling {
		mux.Handle(profilePrefix, o.serveProfiles(profileHandlers()))
		paths += " " + profilePrefix + " (administrators)"
	}
	o.srv = &http.Server{Handler: mux, ReadHeaderTimeout: opsReadHeaderTimeout,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	go func() { o.served <- o.srv.Serve(ln) }()
	logger.Info("http endpoint", "addr", ln.Addr().String(), "paths", paths)
	return o, nil
}

// setAdminGate starts admitting the callers g admits to /debug/pprof/.
func (o *opsServer) setAdminGate(g *adminGate) { o.adminGate.Store(g) }

// setReady says whether the server can take queries.
func (o *opsServer) setReady(ready bool) { o.ready.Store(ready) }

// shutdown stops the endpoint, letting requests in flight finish until
// ctx ends.
func (o *opsServer) shutdown(ctx context.Context) error {
	o.setReady(false)
	err := o.srv.Shutdown(ctx)
	if serveErr := <-o.served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}
