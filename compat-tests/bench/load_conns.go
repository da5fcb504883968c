package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// The connections suite (-suite conns) opens -load-conns connections to
// one SQE server and leaves them idle. It reports the server's memory per
// connection (the growth of its RSS and Go heap divided by the count), and
// how long a new client waits, while they are open, to log in and get the
// answer to SELECT 1. Then it checks that every idle connection still
// answers and that closing them returns the goroutines the server held.

const (
	// connsOpeners is how many connections are being opened at once.
	connsOpeners = 16
	// connsProbes is how many fresh connections time their SELECT 1.
	connsProbes = 20
	// connsHeadroom is what max_connections allows beyond the idle ones:
	// the probes and the measuring connection.
	connsHeadroom = 50
)

// connsReport is what the suite measured.
type connsReport struct {
	conns              int
	before, open, shut serverStats
	probes             []time.Duration // login + SELECT 1, with the connections open
	idleProbes         []time.Duration // the same before they were opened
}

func runConnsSuite(ctx context.Context, opts options, bin, work string) (err error) {
	n := opts.load.conns
	srv, httpAddr, err := startMeasuredSQE(ctx, bin, work, "sqe-conns", n+connsHeadroom)
	if err != nil {
		return err
	}
	defer func() {
		if serr := srv.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	token, err := srv.token(benchUser, []string{benchAdminRole}, time.Hour)
	if err != nil {
		return err
	}
	cfg, err := srv.connConfig(benchUser, token)
	if err != nil {
		return err
	}
	rep := connsReport{conns: n}
	// Warm up: the first logins load the issuer's keys and the catalog.
	if rep.idleProbes, err = probeSelectOne(ctx, cfg, connsProbes); err != nil {
		return err
	}
	if rep.before, err = sampleStats(ctx, srv.pid(), httpAddr); err != nil {
		return err
	}
	progress("conns: opening %d connections", n)
	conns, err := openConns(ctx, cfg, n)
	defer closeConns(conns)
	if err != nil {
		return err
	}
	// Let the sessions settle before measuring.
	time.Sleep(2 * time.Second)
	if rep.open, err = sampleStats(ctx, srv.pid(), httpAddr); err != nil {
		return err
	}
	progress("conns: %d fresh logins with SELECT 1 while they are open", connsProbes)
	if rep.probes, err = probeSelectOne(ctx, cfg, connsProbes); err != nil {
		return err
	}
	if err := pingAll(ctx, conns); err != nil {
		return err
	}
	closeConns(conns)
	conns = nil
	if rep.shut, err = waitGoroutines(ctx, srv.pid(), httpAddr, rep.before.goroutines); err != nil {
		return err
	}
	if err := rep.write(os.Stdout); err != nil {
		return err
	}
	if rep.shut.goroutines > rep.before.goroutines {
		return fmt.Errorf("conns: %d goroutines after the connections closed, %d before they opened", rep.shut.goroutines, rep.before.goroutines)
	}
	return nil
}

// openConns opens n connections, connsOpeners at a time. On error it
// returns the ones it opened, for the caller to close.
func openConns(ctx context.Context, cfg *pgx.ConnConfig, n int) ([]*pgx.Conn, error) {
	conns := make([]*pgx.Conn, n)
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range connsOpeners {
		wg.Go(func() {
			for i := range next {
				conns[i], errs[i] = pgx.ConnectConfig(ctx, cfg)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	opened := slices.DeleteFunc(conns, func(c *pgx.Conn) bool { return c == nil })
	if err := errors.Join(errs...); err != nil {
		return opened, fmt.Errorf("conns: %d of %d connections failed: %w", n-len(opened), n, firstError(errs))
	}
	return opened, nil
}

func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func closeConns(conns []*pgx.Conn) {
	for _, c := range conns {
		_ = c.Close(context.Background())
	}
}

// pingAll runs SELECT 1 on every connection: an idle one must still be
// served.
func pingAll(ctx context.Context, conns []*pgx.Conn) error {
	for i, c := range conns {
		var one int
		if err := c.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			return fmt.Errorf("conns: idle connection %d of %d: SELECT 1 gave %d, %v", i+1, len(conns), one, err)
		}
	}
	return nil
}

// probeSelectOne times n fresh connections, one after another, from the
// start of the login to the answer of SELECT 1.
func probeSelectOne(ctx context.Context, cfg *pgx.ConnConfig, n int) ([]time.Duration, error) {
	var times []time.Duration
	for range n {
		start := time.Now()
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("conns: fresh connection: %w", err)
		}
		var one int
		err = conn.QueryRow(ctx, "SELECT 1").Scan(&one)
		times = append(times, time.Since(start))
		_ = conn.Close(ctx)
		if err != nil {
			return nil, fmt.Errorf("conns: SELECT 1 on a fresh connection: %w", err)
		}
	}
	return times, nil
}

// waitGoroutines samples the server until its goroutines are down to
// want, or for at most 30 s, and returns the last sample: closed sessions
// end asynchronously.
func waitGoroutines(ctx context.Context, pid int, httpAddr string, want int64) (serverStats, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		s, err := sampleStats(ctx, pid, httpAddr)
		if err != nil || s.goroutines <= want || time.Now().After(deadline) {
			return s, err
		}
		select {
		case <-ctx.Done():
			return s, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func (r connsReport) write(w io.Writer) error {
	perConn := func(a, b int64) string {
		return fmt.Sprintf("%.1f KiB", float64(b-a)/float64(r.conns)/1024)
	}
	_, err := fmt.Fprintf(w, `
%d idle connections to one SQE server
                       before       open         after closing
RSS                    %-12s %-12s %s
Go heap in use         %-12s %-12s %s
goroutines             %-12d %-12d %d
per connection: RSS %s, Go heap %s, %.1f goroutines
login + SELECT 1 on a fresh connection: median %s, max %s (before opening them: median %s, max %s)
`, r.conns,
		formatMiB(r.before.rss), formatMiB(r.open.rss), formatMiB(r.shut.rss),
		formatMiB(r.before.heapInuse), formatMiB(r.open.heapInuse), formatMiB(r.shut.heapInuse),
		r.before.goroutines, r.open.goroutines, r.shut.goroutines,
		perConn(r.before.rss, r.open.rss), perConn(r.before.heapInuse, r.open.heapInuse),
		float64(r.open.goroutines-r.before.goroutines)/float64(r.conns),
		formatDuration(percentile(r.probes, 50)), formatDuration(slices.Max(r.probes)),
		formatDuration(percentile(r.idleProbes, 50)), formatDuration(slices.Max(r.idleProbes)))
	return err
}
