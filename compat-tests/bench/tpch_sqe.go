package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

// memPollInterval is how often the SQE server's memory is checked while a
// TPC-H query runs.
const memPollInterval = 200 * time.Millisecond

// errMemLimit marks a query during which the SQE server outgrew the
// memory limit and was stopped.
var errMemLimit = errors.New("server stopped")

// measureTPCHOnSQE serves dir and runs the queries through pgwire, each
// on a freshly started server, so that a query's first run is a cold one
// (nothing cached by an earlier query); the runs after it are warm. SQE's
// failures are results to report, not errors. A query that makes the
// server outgrow o.sqeMemLimit (and its data cache) has the server killed, to spare the
// machine. With o.profileDir, each query that ran is profiled after its
// measured runs (profileQuery).
func measureTPCHOnSQE(ctx context.Context, o tpchOptions, bin, work, dir string, queries []datagen.Query) (res []tpchResult, err error) {
	progress("measuring TPC-H on SQE (a fresh server for each query)")
	var srv *sqeServer
	var s *session
	stop := func() error {
		if srv == nil {
			return nil
		}
		s.close(ctx)
		err := srv.Stop()
		srv, s = nil, nil
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	for _, q := range queries {
		if err := stop(); err != nil {
			return nil, err
		}
		// The collector keeps the heap under three quarters of the
		// resident set the bench allows the server.
		env := []string{"SQE_QUERY__MEMORY_LIMIT=" + o.memoryLimit, "GOMEMLIMIT=" + strconv.FormatInt(o.sqeMemLimit/4*3, 10),
			"SQE_CACHE__DATA_BYTES=" + strconv.FormatInt(o.dataCacheBytes, 10)}
		httpAddr := ""
		if o.profileDir != "" {
			port, err := freePort()
			if err != nil {
				return nil, err
			}
			httpAddr = "127.0.0.1:" + strconv.Itoa(port)
			env = append(env, profileEnv(httpAddr)...)
		}
		if srv, err = startSQEWith(ctx, bin, work, dir, false, "sqe-tpch", env); err != nil {
			return nil, err
		}
		s = &session{open: srv.connect, setup: []string{"SET search_path TO " + tpchNamespace}}
		r, qerr := runWatched(ctx, srv, s, q, o)
		if qerr == nil {
			progress("  %s: cold %s, warm %s", q.Name, formatDuration(r.first), formatDuration(r.median()))
			res = append(res, r)
			if o.profileDir != "" {
				if err := profileQuery(ctx, srv, httpAddr, s, q, o); err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					progress("  %s: no profile: %v", q.Name, err)
				}
			}
			continue
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(qerr, errMemLimit) {
			r.failure = fmt.Sprintf("error: server grew past %s and was stopped", formatBytes(o.rssLimit()))
		} else {
			r.failure = describeFailure(qerr, o.timeout)
		}
		progress("  %s: %s", q.Name, r.failure)
		res = append(res, r)
		if isServerError(qerr) && srv.running() {
			continue // an ordinary SQL error: the server stops as usual
		}
		// Stopping may end in a kill; that is expected here.
		_ = stop()
	}
	return res, nil
}

// runWatched runs q while checking the server's peak memory, killing the
// server when it passes the limit.
func runWatched(ctx context.Context, srv *sqeServer, s *session, q datagen.Query, o tpchOptions) (tpchResult, error) {
	done := make(chan struct{})
	killed := make(chan struct{})
	go func() {
		t := time.NewTicker(memPollInterval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if rss, err := peakRSS(srv.pid()); err == nil && rss > o.rssLimit() {
				_ = srv.cmd.Process.Kill()
				close(killed)
				return
			}
		}
	}()
	r, err := runTPCHQuery(ctx, s, q, o)
	close(done)
	select {
	case <-killed:
		return r, errMemLimit
	default:
	}
	return r, err
}

// rssLimit is the resident set past which the bench stops an SQE server:
// what its heap may take, and its data cache, which lies outside the heap.
func (o tpchOptions) rssLimit() int64 { return o.sqeMemLimit + max(o.dataCacheBytes, 0) }
